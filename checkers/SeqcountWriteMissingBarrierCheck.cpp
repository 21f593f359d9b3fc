//===- SeqcountWriteMissingBarrierCheck.cpp -------------------------------===//
//
// seqcount-write-missing-barrier: an open-coded writer must order its odd
// increment before the data stores (smp_wmb) and the data stores before the
// even increment (smp_wmb or a store-release). Without the first barrier a
// reader can see new data with the old even count and accept it; without the
// second, the even count can become visible before the data.
//
//===----------------------------------------------------------------------===//
#include "Check.h"

#include "llvm/ADT/DenseSet.h"

namespace seqlint {
namespace {

class SeqcountWriteMissingBarrierCheck : public Check {
public:
  SeqcountWriteMissingBarrierCheck() : Check("seqcount-write-missing-barrier") {}

  void writeStoreBeforeBarrier(const FunctionTrace &T, int Counter, const Event &Inc,
                               const Event &Store) override {
    if (!Reported.insert(&Inc).second)
      return; // the first unordered store of a section is enough
    std::string C = name(T, Counter);
    std::string B = writeBarrierSpelling();
    Finding F = make(Store.Loc,
                     "store to '" + name(T, Store.Key) +
                         "' is not ordered after the odd increment of seqcount '" + C +
                         "': a reader can see the new data with the old even count "
                         "and accept a torn read; add " +
                         B.substr(0, B.size() - 1) + " after the increment");
    F.Notes.push_back({Inc.Loc, "the write section of '" + C +
                                    "' begins here; no write barrier follows it"});
    if (auto Fix = insertAfterStatement(T, Inc.S, B))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  void writeEndUnordered(const FunctionTrace &T, int Counter, const Event &End,
                         const Event &Store) override {
    std::string C = name(T, Counter);
    std::string B = writeBarrierSpelling();
    Finding F = make(End.Loc, "closing increment of seqcount '" + C +
                                  "' is not ordered after the data stores: a reader "
                                  "can see the even count before the new data; add " +
                                  B.substr(0, B.size() - 1) +
                                  " before it or make it a store-release");
    F.Notes.push_back({Store.Loc, "this store can become visible after the closing "
                                  "increment"});
    if (auto Fix = insertBeforeStatement(T, End.S, B))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  void functionDone(const FunctionTrace &, Classifier &) override {
    Reported.clear(); // events die with their function's trace
  }

private:
  llvm::DenseSet<const Event *> Reported;
};

} // namespace

std::unique_ptr<Check> createSeqcountWriteMissingBarrierCheck() {
  return std::make_unique<SeqcountWriteMissingBarrierCheck>();
}

} // namespace seqlint
