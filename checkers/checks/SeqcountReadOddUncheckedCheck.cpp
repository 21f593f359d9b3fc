//===- SeqcountReadOddUncheckedCheck.cpp ----------------------------------===//
//
// seqcount-read-odd-unchecked: an odd count means a writer is inside its
// section. An open-coded reader that neither waits for an even count, tests
// the low bit, nor masks it (`& ~1`, so the recheck fails) can begin while
// the writer is halfway and validate the torn data when the count has not
// moved by the recheck... or, with a masked-off recheck, never notice.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "core/EvenTarget.h"

namespace seqlint {
namespace {

class SeqcountReadOddUncheckedCheck : public Check {
public:
  SeqcountReadOddUncheckedCheck() : Check("seqcount-read-odd-unchecked") {}

  void functionDone(const FunctionTrace &T, Classifier &Cl) override {
    checkRawBegins(T);
    for (const auto &[Key, Vars] : T.OpenReaders) {
      // A generation number is compared, never odd: nothing to wait for.
      // Nor is a CPU-local count odd for its reader, which runs between
      // the writer's sections (perf's self-monitoring page).
      if (T.OddCheckedKeys.count(Key) || Cl.isGenerationCounter(T.key(Key)) ||
          Cl.isCompilerOrderedCounter(T.key(Key)))
        continue;
      const Event *Begin = nullptr, *Recheck = nullptr;
      bool Checked = false;
      for (const BlockEvents &BE : T.Blocks)
        for (const Event &E : BE.Events) {
          if (E.Key != Key || !E.OpenCoded)
            continue;
          if (E.Kind == EventKind::ReadBegin) {
            // A begin value tested against a constant of its own
            // protocol (Hyper-V: 0 is "invalid, use the MSR") is checked
            // for what its writer marks, which is not the low bit.
            if (E.Masked || (E.Var && (T.OddCheckedVars.count(E.Var) ||
                                       T.ValueTestedVars.count(E.Var))))
              Checked = true;
            // A count validated only where it equals an even value (a
            // slot stamped 2*lap+2 when full) is never validated odd.
            else if (E.Var && validatedOnlyWhenEven(T, Key, E.Var, Cl.context()))
              Checked = true;
            if (!Begin)
              Begin = &E;
          } else if (E.Kind == EventKind::ReadRetry && !Recheck) {
            Recheck = &E;
          }
        }
      if (Checked || !Begin)
        continue;
      std::string C = name(T, Key);
      Finding F = make(*Begin,
                       "read section begins with a load of seqcount '" + C +
                           "' that may be odd (a writer is inside its section) and "
                           "is neither checked nor masked: the section can validate "
                           "data the writer is still changing; wait while the count "
                           "is odd, or mask the low bit with '& ~1'");
      if (Recheck) {
        F.Notes.push_back({Recheck->Loc, "the section is validated here against the "
                                         "unchecked value"});
        viaNote(F, *Recheck);
      }
      emit(F);
    }
  }

private:
  /// raw_read_seqcount() hands out odd counts: its value must be checked.
  void checkRawBegins(const FunctionTrace &T) {
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events) {
        if (E.Kind != EventKind::ReadBegin || !E.Api || !E.Api->MayBeOdd ||
            E.OpenCoded || E.Use != ValueUse::Assigned || !E.Var ||
            E.Masked || T.OddCheckedVars.count(E.Var))
          continue;
        const Event *Retry = nullptr;
        for (const BlockEvents &BR : T.Blocks)
          for (const Event &R : BR.Events)
            if (R.Kind == EventKind::ReadRetry && R.Var == E.Var && R.Key == E.Key)
              Retry = &R;
        if (!Retry)
          continue; // a snapshot, not a section
        Finding F = make(E, spelling(E) + " on '" + name(T, E.Key) +
                                    "' returns odd counts (a writer is inside its "
                                    "section) and the value is neither checked nor "
                                    "masked: the section can validate data the "
                                    "writer is still changing; use "
                                    "read_seqcount_begin() or raw_seqcount_begin()");
        F.Notes.push_back({Retry->Loc, "the section is validated here against the "
                                       "unchecked value"});
        viaNote(F, *Retry);
        emit(F);
      }
  }
};

} // namespace

std::unique_ptr<Check> createSeqcountReadOddUncheckedCheck() {
  return std::make_unique<SeqcountReadOddUncheckedCheck>();
}

} // namespace seqlint
