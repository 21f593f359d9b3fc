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

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/DenseSet.h"

namespace seqlint {
namespace {

class SeqcountWriteMissingBarrierCheck : public Check {
public:
  SeqcountWriteMissingBarrierCheck() : Check("seqcount-write-missing-barrier") {}

  void writeStoreBeforeBarrier(const FunctionTrace &T, int Counter, const Event &Inc,
                               const Event &Store) override {
    // The first unordered store of a section, in source order, is enough
    // (the report pass may reach a loop's exit before its body).
    if (Reported.count(&Inc))
      return; // flushed already
    auto [It, New] = FirstStore.insert({&Inc, {Counter, &Store}});
    if (!New && Ctx->Ctx->getSourceManager().isBeforeInTranslationUnit(
                    Store.Loc, It->second.second->Loc))
      It->second = {Counter, &Store};
  }

  void reportStore(const FunctionTrace &T, int Counter, const Event &Inc,
                   const Event &Store) {
    Reported.insert(&Inc);
    std::string C = name(T, Counter);
    std::string B = writeBarrierSpelling();
    Finding F = make(Store,
                     "store to '" + name(T, Store.Key) +
                         "' is not ordered after the odd increment of seqcount '" + C +
                         "': a reader can see the new data with the old even count "
                         "and accept a torn read; add " +
                         B.substr(0, B.size() - 1) + " after the increment");
    F.Notes.push_back({Inc.Loc, "the write section of '" + C +
                                    "' begins here; no write barrier follows it"});
    viaNote(F, Inc);
    if (auto Fix = insertAfterStatement(T, Inc.S, B))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  void flushStores(const FunctionTrace &T) {
    for (auto &[Inc, CS] : FirstStore)
      reportStore(T, CS.first, *Inc, *CS.second);
    FirstStore.clear();
  }

  void writeEndUnordered(const FunctionTrace &T, int Counter, const Event &End,
                         const Event &Store) override {
    flushStores(T); // keep the findings in source order
    std::string C = name(T, Counter);
    std::string B = writeBarrierSpelling();
    Finding F = make(End, "closing increment of seqcount '" + C +
                                  "' is not ordered after the data stores: a reader "
                                  "can see the even count before the new data; add " +
                                  B.substr(0, B.size() - 1) +
                                  " before it or make it a store-release");
    F.Notes.push_back({Store.Loc, "this store can become visible after the closing "
                                  "increment"});
    viaNote(F, Store);
    if (auto Fix = insertBeforeStatement(T, End.S, B))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  void functionDone(const FunctionTrace &T, Classifier &) override {
    flushStores(T); // events die with their function's trace
    Reported.clear();
  }

private:
  llvm::DenseSet<const Event *> Reported;
  llvm::MapVector<const Event *, std::pair<int, const Event *>> FirstStore;
};

} // namespace

std::unique_ptr<Check> createSeqcountWriteMissingBarrierCheck() {
  return std::make_unique<SeqcountWriteMissingBarrierCheck>();
}

} // namespace seqlint
