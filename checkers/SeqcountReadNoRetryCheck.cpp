//===- SeqcountReadNoRetryCheck.cpp ---------------------------------------===//
//
// seqcount-read-no-retry: the value a read section begins with is the only
// way to know whether a writer interfered. A begin whose value is discarded
// or never validated (and does not escape to a caller, as fs/dcache.c hands
// it out), or a retry whose result is ignored, reads torn data silently.
//
//===----------------------------------------------------------------------===//
#include "Check.h"

#include "clang/AST/Decl.h"

namespace seqlint {
namespace {

class SeqcountReadNoRetryCheck : public Check {
public:
  SeqcountReadNoRetryCheck() : Check("seqcount-read-no-retry") {}

  void functionDone(const FunctionTrace &T, Classifier &) override {
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events) {
        if (!E.Api || E.OpenCoded)
          continue;
        if (E.Kind == EventKind::ReadBegin)
          checkBegin(T, E);
        else if (E.Kind == EventKind::ReadRetry && E.Use == ValueUse::Discarded) {
          Finding F = make(E.Loc, "result of " + spelling(E) + " on '" + name(T, E.Key) +
                                      "' is ignored: the read section is never "
                                      "retried when a writer interfered; loop while "
                                      "it returns true");
          if (const Event *B = beginFor(T, E.Key))
            F.Notes.push_back({B->Loc, "the read section begins here"});
          emit(F);
        }
      }
  }

  void readRetrySomePaths(const FunctionTrace &T, int Counter, const Event &Retry,
                          const Event &Begin) override {
    Finding F = make(Retry.Loc, spelling(Retry) + " on '" + name(T, Counter) +
                                    "' runs on every path, but its read section "
                                    "begins on some paths only: where the begin was "
                                    "skipped it validates a value no begin produced "
                                    "(and may retry forever); begin and retry the "
                                    "section under the same condition");
    F.Notes.push_back({Begin.Loc, "the read section begins here, on some paths only"});
    emit(F);
  }

private:
  void checkBegin(const FunctionTrace &T, const Event &E) {
    bool Bad = false;
    const Event *WrongRetry = nullptr;
    if (E.Use == ValueUse::Discarded) {
      Bad = true;
    } else if (E.Use == ValueUse::Assigned && E.Var) {
      bool Validated = false;
      for (const BlockEvents &BE : T.Blocks)
        for (const Event &R : BE.Events)
          if (R.Kind == EventKind::ReadRetry && R.Var == E.Var) {
            if (R.Key == E.Key)
              Validated = true;
            else if (!WrongRetry)
              WrongRetry = &R;
          }
      // Not validated here: fine if the value leaves the function (a caller
      // validates it), unless it is validated against another counter.
      Bad = !Validated && (WrongRetry || !T.EscapingVars.count(E.Var));
    }
    if (!Bad)
      return;
    std::string Retry = retryFor(E.ApiName);
    Finding F = make(E.Loc, "the value of " + spelling(E) + " on '" + name(T, E.Key) +
                                "' is never validated with " + Retry +
                                ": data read in the section may be torn; retry the "
                                "section while " + Retry + " returns true");
    if (WrongRetry)
      F.Notes.push_back({WrongRetry->Loc, "'" + E.Var->getNameAsString() +
                                              "' is checked against '" +
                                              name(T, WrongRetry->Key) +
                                              "' here, a different counter"});
    else
      F.Notes.push_back({E.Loc, E.Use == ValueUse::Discarded
                                    ? "the sequence value is discarded here"
                                    : "the sequence value is stored in '" +
                                          E.Var->getNameAsString() +
                                          "' and never validated"});
    emit(F);
  }

  static std::string retryFor(llvm::StringRef Begin) {
    if (Begin == "read_seqbegin")
      return "read_seqretry()";
    if (Begin.starts_with("u64_stats"))
      return "u64_stats_fetch_retry()";
    if (Begin.contains("latch"))
      return "read_seqcount_latch_retry()";
    if (Begin.starts_with("rte_seqlock"))
      return "rte_seqlock_read_retry()";
    if (Begin.starts_with("rte_seqcount"))
      return "rte_seqcount_read_retry()";
    if (Begin.starts_with("ck_"))
      return "ck_sequence_read_retry()";
    if (Begin.starts_with("seqlock_read"))
      return "seqlock_read_retry()";
    if (Begin.starts_with("seqlint_"))
      return Begin.drop_back(5).str() + "retry()";
    return "read_seqcount_retry()";
  }

  static const Event *beginFor(const FunctionTrace &T, int Key) {
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events)
        if (E.Kind == EventKind::ReadBegin && E.Key == Key)
          return &E;
    return nullptr;
  }
};

} // namespace

std::unique_ptr<Check> createSeqcountReadNoRetryCheck() {
  return std::make_unique<SeqcountReadNoRetryCheck>();
}

} // namespace seqlint
