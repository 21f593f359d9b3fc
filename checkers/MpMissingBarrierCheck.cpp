//===- MpMissingBarrierCheck.cpp ------------------------------------------===//
//
// mp-missing-barrier: message passing with no ordering intent. A writer
// stores data and then publishes a flag or pointer, a reader in another
// function of the TU loads and tests the flag and then reads the data, and
// on a side that has to order its accesses nothing does: no smp_wmb() or
// release between the data stores and the flag store, no smp_rmb(), acquire
// or address dependency between the flag load and the data loads.
//
// Split with barrier-unpaired (one bug, one report): this check reports when
// neither side orders the shared data, and when the reader relies on an
// address dependency only and the writer has nothing. When one side has an
// explicit barrier, acquire or release and the other has nothing, the
// barrier has lost its partner: barrier-unpaired reports it.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "MessagePassing.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace seqlint {
namespace {

class MpMissingBarrierCheck : public MessagePassingCheck {
public:
  MpMissingBarrierCheck() : MessagePassingCheck("mp-missing-barrier") {}

  void translationUnitDone(Classifier &) override {
    std::vector<MpMatch> Matches = mp().match();
    for (const MpMatch &M : Matches) {
      bool WU = !M.WriterOrdered, RU = !M.ReaderOrdered;
      const MpSide &W = *M.W, &R = *M.R;
      // The writer: nothing orders its data before the flag, and the reader
      // either has nothing either or only an address dependency.
      if (WU &&
          ((RU && R.Tested) || (!RU && M.ReaderBy == MpOrder::Dependency)) &&
          !hasExplicitPartner(Matches, &W) &&
          Reported.insert(W.FlagLoc.getRawEncoding()).second) {
        const MpSpellings &Sp = mp().spellings(W);
        Finding F = make(
            W.FlagLoc,
            "'" + W.FlagName + "' is published here after the store to '" +
                M.WD->Name +
                "' with no write barrier in between: a reader that sees "
                "the new "
                "value can still read the old data; use " +
                Sp.Release + " for this store or put " + Sp.Wmb + " before it");
        F.Notes.push_back({M.WD->Loc, "'" + M.WD->Name + "' is stored here"});
        F.Notes.push_back(
            {R.FlagLoc, "'" + W.FlagName + "' is read here, in '" + R.FnName +
                            "()', and '" + M.RD->Name + "' after it"});
        if (W.Fix)
          F.FixIts.push_back(*W.Fix);
        emit(F);
      }
      // The reader, when the writer has no ordering either.
      if (RU && WU && R.Tested && !hasExplicitPartner(Matches, &R) &&
          Reported.insert(R.FlagLoc.getRawEncoding()).second) {
        const MpSpellings &Sp = mp().spellings(R);
        Finding F =
            make(R.FlagLoc,
                 "'" + M.RD->Name + "' is read after the flag '" + R.FlagName +
                     "' with no read barrier, acquire or address dependency in "
                     "between: it can be older than the flag; use " +
                     Sp.Acquire + " for the flag or put " + Sp.Rmb +
                     " after this load");
        F.Notes.push_back({M.RD->Loc, "'" + M.RD->Name + "' is read here"});
        F.Notes.push_back({W.FlagLoc, "'" + R.FlagName +
                                          "' is published here, in '" +
                                          W.FnName + "()', after '" +
                                          M.WD->Name + "' is stored"});
        if (R.Fix)
          F.FixIts.push_back(*R.Fix);
        emit(F);
      }
    }
  }

private:
  llvm::DenseSet<unsigned> Reported;
};

} // namespace

std::unique_ptr<Check> createMpMissingBarrierCheck() {
  return std::make_unique<MpMissingBarrierCheck>();
}

} // namespace seqlint
