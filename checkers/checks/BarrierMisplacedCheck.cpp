//===- BarrierMisplacedCheck.cpp ------------------------------------------===//
//
// barrier-misplaced: a barrier of the right kind in the wrong place, so it
// orders nothing it is meant to.
//  - Write side: data stores, then the store that publishes them (a marked
//    store: WRITE_ONCE, release, atomic, volatile), then smp_wmb(), and no
//    store after it in the function. The barrier must come before the
//    publishing store (Open MPI vader BTL, commit dca3516765a4).
//  - Read side: smp_rmb() after a load of X, then a load of Y and a re-read
//    of X of the same object with nothing in between: the pair the code
//    tests (Y, then X) is unordered; the barrier belongs between them
//    (btrfs_record_root_in_trans, 2021).
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "core/BarrierScan.h"

using namespace clang;

namespace seqlint {
namespace {

class BarrierMisplacedCheck : public Check {
public:
  BarrierMisplacedCheck() : Check("barrier-misplaced") {}

  void functionDone(const FunctionTrace &T, Classifier &) override {
    forEachJudgedBarrier(T, [&](const Event &E, unsigned B, unsigned I) {
      judge(T, E, B, I);
    });
  }

private:
  std::string barrierName(const Event &E) const {
    if (!E.ApiName.empty())
      return spelling(E);
    return "the fence";
  }

  void judge(const FunctionTrace &T, const Event &E, unsigned Block,
             unsigned Index) {
    if (auto W = misplacedWriteBarrier(T, E, Block, Index)) {
      std::string Pub = accessName(T, *W->Publish);
      std::string Data = accessName(T, *W->Data);
      Finding F = make(
          E.Loc, barrierName(E) + " comes after the store to '" + Pub +
                     "' that publishes the data, and no store follows it in "
                     "this function: it does not order the store to '" +
                     Data +
                     "' before the publication; move it before the "
                     "store to '" +
                     Pub + "'");
      F.Notes.push_back(
          {W->Publish->Loc, "the publishing store to '" + Pub +
                                "'; the barrier belongs before it"});
      F.Notes.push_back({W->Data->Loc, "data store to '" + Data + "'"});
      emit(F);
      return;
    }
    if (auto R = misplacedReadBarrier(T, E, Block, Index)) {
      std::string First = accessName(T, *R->First);
      std::string Reread = accessName(T, *R->Reread);
      Finding F = make(
          E.Loc, barrierName(E) + " is placed before both loads of the pair '" +
                     First + "' / '" + Reread +
                     "', so it does not order "
                     "them against each other; move it between the load of '" +
                     First + "' and the load of '" + Reread + "'");
      F.Notes.push_back(
          {R->First->Loc, "first load of the pair: '" + First + "'"});
      F.Notes.push_back(
          {R->Reread->Loc,
           "the barrier belongs before this load of '" + Reread + "'"});
      emit(F);
    }
  }
};

} // namespace

std::unique_ptr<Check> createBarrierMisplacedCheck() {
  return std::make_unique<BarrierMisplacedCheck>();
}

} // namespace seqlint
