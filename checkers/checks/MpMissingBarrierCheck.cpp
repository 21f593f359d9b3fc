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
#include "analyses/MessagePassing.h"
#include "analyses/OneSided.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace seqlint {
namespace {

class MpMissingBarrierCheck : public MessagePassingCheck {
public:
  MpMissingBarrierCheck() : MessagePassingCheck("mp-missing-barrier") {}

  void functionDone(const FunctionTrace &T, Classifier &C) override {
    MessagePassingCheck::functionDone(T, C);
    Evidence.add(T);
    std::optional<FunctionAnalyses> Local;
    for (OsCandidate &Cand : scanOneSided(analysesOf(T, Local), C, Evidence))
      if (Cand.K != OsKind::RetireWrongKind && Cand.K != OsKind::StoreLoadWrongKind)
        Pending.push_back({oneSided(T, Cand), std::move(Cand)});
  }

  void translationUnitDone(Classifier &) override {
    reportPairs();
    // A flag whose reader in this file orders its loads is barrier-unpaired's
    // (the partner is in the file): the deviant-acquire rule yields to it.
    llvm::DenseSet<unsigned> PairedFlags;
    for (const MpMatch &M : mp().match())
      if (!M.WriterOrdered && M.ReaderOrdered)
        PairedFlags.insert(M.W->FlagLoc.getRawEncoding());
    // One side of a protocol whose other side this file does not show.
    for (auto &[F, Cand] : Pending) {
      if ((Cand.SiblingAcquire && PairedFlags.count(Cand.At.Loc.getRawEncoding())) ||
          !osSupported(Cand, Evidence) ||
          !Reported.insert(F.Loc.getRawEncoding()).second)
        continue;
      if (Cand.Cache) {
        if (const OsEvidence::Where *W = Evidence.cacheFenced(Cand.Id, Cand.Cache))
          F.Notes.push_back({W->Loc, "'" + Cand.DataName + "' is refreshed from '" + Cand.IdName +
                                         "' and followed by " + W->Spelling + " here, in '" +
                                         W->Fn + "()'"});
      } else if (Cand.DoorbellIndex) {
        if (const OsEvidence::Where *W = Evidence.deviceUnordered(Cand.Id))
          F.Notes.push_back({W->Loc, "'" + Cand.IdName + "' is stored after the store to '" +
                                         W->Spelling + "' here, in '" + W->Fn +
                                         "()', with no barrier that orders it for the device"});
      } else if (Cand.Sibling) {
        if (const OsEvidence::Where *W = Evidence.siblingFenced(Cand.Id))
          F.Notes.push_back({W->Loc, "'" + Cand.IdName +
                                         "' is stored after a write barrier "
                                         "that follows the other fields here, in '" +
                                         W->Fn + "()'"});
      } else if (!Cand.SelfEvident)
        if (const OsEvidence::Where *W = Evidence.strongest(Cand.Id))
          F.Notes.push_back({W->Loc, "'" + Cand.IdName + "' is accessed with " +
                                         W->Spelling + " here, in '" + W->Fn +
                                         "()': it is shared, and ordered there"});
      emit(F);
    }
    Pending.clear();
  }

private:
  /// The finding for a one-sided candidate, made while its events live.
  Finding oneSided(const FunctionTrace &T, const OsCandidate &Cand) {
    MpSpellings Sp = fixSpellings();
    bool Linux = Sp.Wmb == "smp_wmb()";
    std::string Wmb = Cand.Doorbell ? (Linux ? "wmb()" : Sp.Wmb)
                      : Cand.Dma    ? (Linux ? "dma_wmb()" : Sp.Wmb)
                                    : Sp.Wmb;
    std::string Rmb = Cand.Dma ? (Linux ? "dma_rmb()" : Sp.Rmb) : Sp.Rmb;
    std::string Mb = fullBarrier(Cand.Dma);
    std::string Msg;
    switch (Cand.K) {
    case OsKind::Publish:
      if (Cand.DoubleChecked)
        Msg = "'" + Cand.IdName +
              "' is set here to a new object under a lock, "
              "but it is tested without the lock before the lock is taken "
              "(double-checked initialisation): the lock orders nothing for a "
              "CPU that sees the new pointer without taking it, and that CPU can "
              "read the object before its initialisation; use " +
              Sp.Release + " for this store (or put " + Wmb +
              " before it), and order the "
              "unlocked test with an acquire";
      else if (Cand.Sibling)
        Msg = "'" + Cand.IdName + "' is stored here after the store to '" + Cand.DataName +
              "' of the same object with no write barrier in "
              "between, but elsewhere in this file it is stored after a write "
              "barrier that orders the other fields before it: the other side "
              "(a device, another CPU) that sees the new value can still read "
              "the old fields; put the same barrier before it";
      else if (Cand.DoorbellIndex)
        Msg = "the doorbell is written here with the ring index '" + Cand.IdName +
              "', which this file stores after the slots with no barrier that "
              "orders them for the device, and nothing orders them here: a "
              "relaxed device write is not ordered after stores to memory, so the "
              "device can read the old slot; put " +
              Wmb +
              " before it, or use "
              "the ordered write (" +
              (Linux ? "writel()" : "without _relaxed") + ")";
      else if (Cand.Doorbell)
        Msg = "the doorbell is written here after the store to '" + Cand.DataName +
              "' with no write barrier in between: a relaxed device write is "
              "not ordered after stores to memory, so the device can read the "
              "old slot; put " + Wmb + " before it, or use the ordered write (" +
              (Linux ? "writel()" : "without _relaxed") + ")";
      else
        Msg = "'" + Cand.IdName + "' is published here after the store to '" +
              Cand.DataName + "' with no write barrier in between: the other side " +
              "(a device, another process, another CPU) that sees the new value " +
              "can still read the old data; put " + Wmb + " before it or use " +
              Sp.Release + " for this store";
      break;
    case OsKind::Consume:
      if (Cand.CacheSlot) {
        Msg = "'" + Cand.IdName + "' is loaded here and cached in '" + Cand.DataName +
              "', and '" + Cand.SlotName +
              "', a slot of the same ring, is read after it with no read "
              "barrier, acquire or address dependency in between: the other "
              "side fills the slots and then stores this index, so the slot can "
              "be older than the index says; use " +
              Sp.Acquire + " for this load or put " + Rmb + " after it";
        break;
      }
      if (Cand.Cache) {
        Msg = "'" + Cand.IdName + "' is loaded here and cached in '" + Cand.DataName +
              "' with no read barrier after it, but elsewhere in this file the "
              "same caching is followed by one: a reader that trusts the cache "
              "and skips its own load and barrier can read slots older than the "
              "index says; put " +
              Rmb + " after it when it shows new entries";
        break;
      }
      Msg = "'" + Cand.DataName + "' is read after '" + Cand.IdName +
            "' is loaded and tested, with no read barrier, acquire or address "
            "dependency in between: it can be older than '" + Cand.IdName +
            "' says; use " + Sp.Acquire + " for this load or put " + Rmb +
            " after it";
      break;
    case OsKind::Reserve:
      Msg = "'" + Cand.DataName + "' is overwritten after '" + Cand.IdName +
            "', the other side's index, is loaded and tested, with nothing "
            "ordering that load before the store: a plain or relaxed load gives "
            "no control-dependency ordering in C11, so the slot can be "
            "overwritten while the other side still reads it; use " +
            Sp.Acquire + " for this load";
      break;
    case OsKind::StoreLoad:
    case OsKind::StoreLoadWrongKind:
      Msg = "'" + Cand.IdName + "' is loaded here, after the store to '" + Cand.DataName +
            "', to decide whether to wake the other side, with no full barrier "
            "in between: a load can pass an earlier store to another location "
            "(store buffering), so this side can read the old '" +
            Cand.IdName + "' while the other side, which stores it and then loads '" +
            Cand.DataName + "', reads the old '" + Cand.DataName +
            "'; neither wakes the other. Put " + Mb + " between the store and this load";
      break;
    case OsKind::Retire:
    case OsKind::RetireWrongKind:
      Msg = "'" + Cand.IdName + "' hands the slot back to the producer here, after "
            "the load of '" + Cand.DataName + "', with nothing ordering that load "
            "before this store: the producer can overwrite the slot while it is "
            "still being read; use " + Sp.Release + " for this store";
      break;
    }
    Finding F = make(Cand.At, Msg);
    if (Cand.Cache)
      F.Notes.push_back({Cand.Data.Loc, "the cache '" + Cand.DataName + "' is stored here"});
    else if (Cand.DoubleChecked)
      F.Notes.push_back({Cand.Data.Loc, "'" + Cand.IdName + "' is tested here without the lock"});
    else if (!Cand.DoorbellIndex)
      F.Notes.push_back(
          {Cand.Data.Loc,
           std::string(Cand.K == OsKind::Publish || Cand.K == OsKind::Reserve ||
                               Cand.K == OsKind::StoreLoad
                           ? "the store to '"
                           : "the load of '") +
               Cand.DataName + "' is here"});
    viaNote(F, Cand.Data);
    if (Cand.CacheSlot) {
      F.Notes.push_back({Cand.Slot.Loc, "the load of '" + Cand.SlotName + "' is here"});
      viaNote(F, Cand.Slot);
    }
    if (!Cand.Why.empty())
      F.Notes.push_back({Cand.At.Loc, "shared with the other side: " + Cand.Why});
    if (Cand.K == OsKind::StoreLoad) {
      F.Notes.push_back({Cand.Kick.Loc, "the other side is woken here when the loaded "
                                        "value says so"});
      if (!Cand.At.Via)
        if (auto Fix = insertBeforeStatement(T, Cand.At.S, Mb + ";"))
          F.FixIts.push_back(*Fix);
    }
    if (Cand.K == OsKind::Publish && !Cand.At.Via && !Cand.Sibling && !Cand.DoubleChecked)
      if (auto Fix = insertBeforeStatement(T, Cand.At.S, Wmb + ";"))
        F.FixIts.push_back(*Fix);
    if (Cand.K == OsKind::Consume && !Cand.At.Via && !Cand.Cache)
      if (auto Fix = insertAfterStatement(T, Cand.At.S, Rmb + ";"))
        F.FixIts.push_back(*Fix);
    return F;
  }

  void reportPairs() {
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
        noteConfigurations(F, M);
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
        noteConfigurations(F, M);
        if (R.Fix)
          F.FixIts.push_back(*R.Fix);
        emit(F);
      }
    }
  }

  llvm::DenseSet<unsigned> Reported;
  OsEvidence Evidence;
  std::vector<std::pair<Finding, OsCandidate>> Pending;
};

} // namespace

std::unique_ptr<Check> createMpMissingBarrierCheck() {
  return std::make_unique<MpMissingBarrierCheck>();
}

} // namespace seqlint
