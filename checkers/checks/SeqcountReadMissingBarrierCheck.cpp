//===- SeqcountReadMissingBarrierCheck.cpp --------------------------------===//
//
// seqcount-read-missing-barrier: a reader must order the load that begins
// the section before its data loads (load-acquire or smp_rmb), and its data
// loads before the recheck (smp_rmb, which read_seqcount_retry() issues and
// __read_seqcount_retry() and open-coded rechecks do not).
//
//===----------------------------------------------------------------------===//
#include "Check.h"

#include "llvm/ADT/DenseSet.h"

namespace seqlint {
namespace {

class SeqcountReadMissingBarrierCheck : public Check {
public:
  SeqcountReadMissingBarrierCheck() : Check("seqcount-read-missing-barrier") {}

  void readLoadBeforeBarrier(const FunctionTrace &T, int Counter, const Event &Begin,
                             const Event &Load) override {
    if (!Reported.insert(&Begin).second)
      return; // the first unordered load of a section is enough
    std::string C = name(T, Counter);
    std::string B = readBarrierSpelling();
    // An acquire load of the count, in the file's family, when it has one
    // (Concurrency Kit and PostgreSQL have fences only).
    const std::string &Acquire = family().Acquire;
    Finding F = make(Load, "load of '" + name(T, Load.Key) +
                               "' is not ordered after the load of seqcount '" + C +
                               "' that begins the read section: it can read data "
                               "older than the count; " +
                               (Acquire.empty() ? "add "
                                                : "load the count with " + Acquire +
                                                      " or add ") +
                               B.substr(0, B.size() - 1) + " after it");
    F.Notes.push_back({Begin.Loc, "the read section of '" + C + "' begins here"});
    viaNote(F, Begin);
    if (auto Fix = insertAfterStatement(T, Begin.S, B))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  void readRetryUnordered(const FunctionTrace &T, int Counter, const Event &Retry,
                          const Event &Load) override {
    std::string C = name(T, Counter);
    std::string B = readBarrierSpelling();
    std::string What = Retry.OpenCoded || Retry.ApiName.empty() ? "recheck of seqcount '" + C + "'"
                                             : spelling(Retry) + " on '" + C + "'";
    Finding F = make(Retry, What +
                                    " is not ordered after the data loads: the count "
                                    "can be read before the data and validate a torn "
                                    "read; add " +
                                    B.substr(0, B.size() - 1) + " before it" +
                                    (Retry.OpenCoded || Retry.ApiName.empty()
                                         ? ""
                                         : " or use read_seqcount_retry()"));
    F.Notes.push_back({Load.Loc, "this load can be satisfied after the recheck"});
    viaNote(F, Load);
    if (auto Fix = insertBeforeStatement(T, Retry.S, B))
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

std::unique_ptr<Check> createSeqcountReadMissingBarrierCheck() {
  return std::make_unique<SeqcountReadMissingBarrierCheck>();
}

} // namespace seqlint
