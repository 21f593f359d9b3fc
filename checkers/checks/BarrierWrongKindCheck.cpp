//===- BarrierWrongKindCheck.cpp ------------------------------------------===//
//
// barrier-wrong-kind: a barrier whose kind orders none of the access pairs
// it stands between in this function. smp_wmb() orders store->store only,
// smp_rmb() load->load only, an acquire fence earlier loads against later
// accesses, a release fence earlier accesses against later stores; only a
// full barrier orders a store against a later load. Also
// smp_mb__before_atomic()/smp_mb__after_atomic() that are not next to an
// atomic read-modify-write: they are no-ops on x86 and order nothing there.
//
// Only what the function shows is judged: both sides must have known
// accesses before the next barrier, with no unknown call, lock or unlock in
// between, and no path running into the caller empty-handed.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "core/BarrierScan.h"
#include "analyses/OneSided.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

using namespace clang;

namespace seqlint {
namespace {

unsigned neededPairs(unsigned Before, unsigned After) {
  unsigned N = 0;
  if ((Before & AccLoad) && (After & AccLoad))
    N |= OrdLL;
  if ((Before & AccLoad) && (After & AccStore))
    N |= OrdLS;
  if ((Before & AccStore) && (After & AccStore))
    N |= OrdSS;
  if ((Before & AccStore) && (After & AccLoad))
    N |= OrdSL;
  return N;
}

class BarrierWrongKindCheck : public Check {
public:
  BarrierWrongKindCheck() : Check("barrier-wrong-kind") {}

  /// From the section analysis: a barrier that sits where a write section
  /// needs store->store order (after the odd increment, before the even
  /// one) or a read section load->load order (after the begin, before the
  /// recheck), and does not provide it.
  void sectionBarrierWrongKind(const FunctionTrace &T, int Counter, const Event &E,
                               unsigned Needed, const Event &Access) override {
    if (!isJudgedBarrier(E) || !InSection.insert(&E).second)
      return;
    bool Write = Needed == OrdSS;
    std::string Use = instead(E, Write ? Want::Write : Want::Read);
    std::string Msg =
        barrierSpelling(E) + " inside the " + (Write ? "write" : "read") +
        " section of '" + name(T, Counter) + "' does not order " +
        (Write ? "stores: the data stores can become visible outside the odd "
                 "count that guards them"
               : "loads: the count can be read on the wrong side of the data "
                 "loads and validate a torn read") +
        "; use " + Use;
    Finding F = make(E, Msg);
    F.Notes.push_back({Access.Loc, std::string("the ") + (Write ? "store" : "load") +
                                       " it must order is here"});
    viaNote(F, Access);
    if (auto Fix = renameBarrier(E, callName(Use)))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  void functionDone(const FunctionTrace &T, Classifier &Cl) override {
    bool StoreBarrier = false;
    forEachJudgedBarrier(T, [&](const Event &E, unsigned B, unsigned I) {
      if (!InSection.count(&E) && !judge(T, E, B, I, Cl))
        noteStoreBuffering(T, E, B, I);
      StoreBarrier |= (E.Bits & OrdSS) && !(E.Bits & OrdLS);
    });
    // A consumer that reads a slot and then hands it back with only a
    // store->store barrier before its index store (ring code, one side).
    // ... and a side that stores its word with a release (or after a write
    // barrier) and then loads the other side's word to decide a wake-up.
    if (StoreBarrier || releases(T, Cl)) {
      Evidence.add(T);
      std::optional<FunctionAnalyses> Local;
      for (OsCandidate &Cand : scanOneSided(analysesOf(T, Local), Cl, Evidence))
        if (Cand.K == OsKind::StoreLoadWrongKind &&
            !Reported.count(Cand.At.Loc.getRawEncoding()))
          StoreLoads.push_back({storeLoadFinding(Cand), std::move(Cand)});
        else if (Cand.K == OsKind::RetireWrongKind &&
            !Reported.count(Cand.At.Loc.getRawEncoding())) {
          if (Cand.Position)
            SplitRetires.push_back({make(Cand.At, ""), std::move(Cand)});
          else
            Retires.push_back({retireFinding(Cand), std::move(Cand)});
        }
    }
    // Fields loaded with an acquire, by record: the other side's index next
    // to this side's (a ring's control page).
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events)
        if (E.Kind == EventKind::Load && E.Key >= 0 &&
            (E.Ord == Order::Acquire || E.Ord == Order::SeqCst))
          if (const FieldDecl *FD =
                  dyn_cast_or_null<FieldDecl>(T.key(E.Key).Field))
            Acquired.insert(FD);
    // A release store orders what comes before it, not the loads after it.
    for (unsigned B = 0; B != T.Blocks.size(); ++B) {
      const std::vector<Event> &Ev = T.Blocks[B].Events;
      for (unsigned I = 0; I != Ev.size(); ++I)
        if (Ev[I].Kind == EventKind::Store && Ev[I].Ord == Order::Release &&
            Ev[I].Key >= 0)
          noteStoreBuffering(T, Ev[I], B, I);
    }
    InSection.clear();
  }

  void translationUnitDone(Classifier &Cl) override {
    pairStoreBuffering(Cl);
    for (auto &[F, Cand] : Retires)
      if (osSupported(Cand, Evidence) && Reported.insert(F.Loc.getRawEncoding()).second)
        emit(F);
    Retires.clear();
    for (auto &[F, Cand] : StoreLoads)
      if (osSupported(Cand, Evidence) && Reported.insert(F.Loc.getRawEncoding()).second)
        emit(F);
    StoreLoads.clear();
    reportSplitRetires();
  }

  /// A consumer split into calls: the index store after smp_wmb() hands
  /// back the records another function read at the stored position. Only
  /// when the other side's index, a field of the same record, is loaded
  /// with an acquire in the TU (a ring shared with another agent).
  void reportSplitRetires() {
    for (auto &[F, Cand] : SplitRetires) {
      const auto *Index = dyn_cast_or_null<FieldDecl>(Cand.Id);
      if (!Index || !llvm::any_of(Acquired, [&](const FieldDecl *A) {
            return A != Index && A->getParent() == Index->getParent();
          }))
        continue;
      std::string Fn;
      const Expr *Read = osSlotsReadAt(*Ctx->Ctx, Cand.Position, Fn);
      if (!Read || !Reported.insert(F.Loc.getRawEncoding()).second)
        continue;
      std::string Pos = Cand.Position->getNameAsString();
      // The barrier itself, also when it sits in a helper (the finding is
      // at the call, with a note inside).
      std::string Barrier = Cand.At.Via && !Cand.At.ApiName.empty()
                                ? spellingInside(Cand.At)
                                : barrierSpelling(Cand.At);
      F.Message = Barrier + " orders stores only: the store to '" +
                  Cand.IdName + "' after it hands back the slots that '" + Fn +
                  "()' read at the position '" + Pos +
                  "' it stores, and their loads are not ordered before it "
                  "(the producer can overwrite a slot while it is still being "
                  "read); " +
                  releaseAdvice("that store") + ", or " + family().Mb;
      F.Notes.push_back({Read->getExprLoc(),
                         "'" + Fn + "()' reads a slot at '" + Pos + "' here"});
      F.Notes.push_back({Cand.Index.Via ? Cand.Index.InnerLoc : Cand.Index.Loc,
                         "the store to '" + Cand.IdName + "' is here"});
      if (auto Fix = renameBarrier(Cand.At, callName(family().Mb)))
        F.FixIts.push_back(*Fix);
      emit(F);
    }
    SplitRetires.clear();
  }

  /// Does T, or a small helper it calls, store with a release (not a
  /// doorbell write)?
  bool releases(const FunctionTrace &T, Classifier &Cl, unsigned Level = 0) {
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events) {
        if (E.Kind == EventKind::Store && (E.Ord == Order::Release || E.Ord == Order::SeqCst) &&
            !(E.Api && E.Api->Mmio))
          return true;
        if (Level == 0 && E.Kind == EventKind::Call && E.Callee)
          if (const FunctionTrace *H = Evidence.helperTrace(Cl, E.Callee))
            if (releases(*H, Cl, 1))
              return true;
      }
    return false;
  }

  /// Store buffering with one side in view (OneSided.h, StoreLoad): a
  /// release store, or a write barrier, between this side's store and the
  /// load of the other side's word that decides the wake-up.
  Finding storeLoadFinding(const OsCandidate &Cand) {
    bool ReleaseStore = Cand.At.Kind == EventKind::Store;
    std::string Mb = fullBarrier(Cand.Dma);
    std::string Load = "the load of '" + Cand.IdName + "'";
    std::string Msg =
        (ReleaseStore ? "the release store to '" + Cand.DataName +
                            "' orders the accesses before it, not " + Load + " after it"
                      : barrierSpelling(Cand.At) + " does not order the store to '" +
                            Cand.DataName + "' before it against " + Load + " after it") +
        ", which decides whether to wake the other side (a device, the kernel, "
        "another process); that side stores '" +
        Cand.IdName + "' and then loads '" + Cand.DataName +
        "', so unless both sides order their store before their load, each can read "
        "the other's old value and nobody is woken. " +
        (ReleaseStore ? "Add " + Mb + " after the release store" : "Use " + Mb);
    Finding F = make(Cand.At, Msg);
    if (!ReleaseStore) {
      F.Notes.push_back({Cand.Data.Loc, "the store to '" + Cand.DataName + "' is here"});
      viaNote(F, Cand.Data);
    }
    F.Notes.push_back({Cand.Index.Loc, "the load of '" + Cand.IdName + "' is here"});
    viaNote(F, Cand.Index);
    F.Notes.push_back({Cand.Kick.Loc, "the other side is woken here when the loaded value "
                                      "says so"});
    if (!ReleaseStore)
      if (auto Fix = renameBarrier(Cand.At, callName(family().Mb)))
        F.FixIts.push_back(*Fix);
    return F;
  }

  Finding retireFinding(const OsCandidate &Cand) {
    std::string Msg = barrierSpelling(Cand.At) + " orders stores only: the load of '" +
                      Cand.DataName + "' before it is not ordered against the store "
                      "to '" + Cand.IdName + "' after it, which hands the slot back "
                      "to the producer (it can overwrite the slot while it is still "
                      "being read); " +
                      releaseAdvice("that store") + ", or " + family().Mb;
    Finding F = make(Cand.At, Msg);
    F.Notes.push_back({Cand.Data.Loc, "the load of '" + Cand.DataName + "' is here"});
    viaNote(F, Cand.Data);
    F.Notes.push_back({Cand.Index.Loc, "the store to '" + Cand.IdName + "' is here"});
    if (auto Fix = renameBarrier(Cand.At, callName(family().Mb)))
      F.FixIts.push_back(*Fix);
    return F;
  }

private:
  /// A barrier of a helper seen through at its call, with accesses of the
  /// helper's own on both sides of it in the helper: the call shows only
  /// those through its parameters (not the descriptor a local of the helper
  /// points to: axgbe's `desc = &txq->desc[idx]`, filled around its
  /// rte_wmb()), so the caller's view of the window is not the barrier's.
  /// The helper is judged as a function of its own, with all of them. Both
  /// the helper that holds the barrier and the one called here are asked
  /// (a barrier in a wrapper of its own, called by the helper).
  static bool interiorToHelper(const Event &E, Classifier &Cl) {
    if (!E.Via || !E.InnerS)
      return false;
    // The helper that holds the barrier, and the one this function calls
    // (a helper of a helper: the barrier in a wrapper of its own).
    const FunctionDecl *Outer = nullptr;
    if (const auto *CE = dyn_cast_or_null<CallExpr>(E.S))
      Outer = CE->getDirectCallee();
    for (const FunctionDecl *F : {E.Via, Outer}) {
      const HelperEffect *H =
          F ? Cl.helperEffect(F, /*Getters=*/true) : nullptr;
      if (!H)
        continue;
      auto At = llvm::find_if(H->Events, [&](const Event &X) {
        return X.Kind == EventKind::Barrier &&
               (X.S == E.InnerS || X.InnerS == E.InnerS);
      });
      if (At == H->Events.end())
        continue;
      auto Access = [](const Event &X) {
        return X.Kind == EventKind::Load || X.Kind == EventKind::Store ||
               X.Kind == EventKind::RMW;
      };
      if (std::any_of(H->Events.begin(), At, Access) &&
          std::any_of(std::next(At), H->Events.end(), Access))
        return true;
    }
    return false;
  }

  /// Judges one barrier of the function; true if it was reported (or is
  /// a full barrier, or a helper of atomics, judged on their own terms).
  bool judge(const FunctionTrace &T, const Event &E, unsigned Block,
             unsigned Index, Classifier &Cl) {
    if (interiorToHelper(E, Cl))
      return true; // judged in the helper
    StringRef Name = E.ApiName;
    bool BeforeAtomic = isBeforeAtomicBarrier(Name);
    bool AfterAtomic = isAfterAtomicBarrier(Name);
    if (BeforeAtomic || AfterAtomic) {
      judgeAtomicHelper(T, E, Block, Index, BeforeAtomic);
      return true;
    }
    if (E.Bits & OrdSL)
      return false; // a full barrier: a store-buffering side, maybe
    BarrierSide Before = scanBarrierSide(T, Block, Index, /*Forward=*/false);
    if (!Before.known())
      return false;
    BarrierSide After = scanBarrierSide(T, Block, Index, /*Forward=*/true);
    // A barrier before a device register write orders the CPU's memory
    // stores (the descriptors, often written in a helper) before the
    // device looks: `wmb(); writel(BLF, &regs->cmdstatus)` (ohci-q.c).
    for (const BarrierAccess &A : After.All)
      if (A.E->Api && A.E->Api->Mmio)
        return false;
    // A barrier right after a device register write, on every path,
    // orders that write before whatever this CPU (or the next one to ring
    // the same doorbell) writes later: a write-combined doorbell flushed
    // (qede's `DIRECT_REG_WR_RELAXED(...); rte_wmb();`). It was not put
    // there to order the doorbell against a later load.
    if (!Before.NearestUnknown && !Before.Nearest.empty() &&
        llvm::all_of(Before.Nearest, [](const BarrierAccess &A) {
          return A.E->Kind == EventKind::Store && A.E->Api && A.E->Api->Mmio;
        }))
      return false;
    if ((E.Bits & OrdSS) && !(E.Bits & OrdSL) &&
        judgeStoreThenLoad(T, E, Block, Index, Before, After))
      return true;
    if (!After.known())
      return false;
    // Before the function was called, the caller accessed memory that the
    // barrier orders too: ptr_ring's smp_wmb() after a few loads orders the
    // caller's stores of the data being queued. The caller's accesses after
    // the return are not counted: a barrier placed before accesses of this
    // function is meant for them.
    unsigned BeforeKinds = Before.Kinds;
    // ... unless the nearest access before the barrier on every path is a
    // marked load that the function tests: a message-passing reader's
    // flag, and the barrier is for the loads after it.
    bool FlagTest = !Before.Nearest.empty() && !Before.NearestUnknown;
    for (const BarrierAccess &A : Before.Nearest)
      FlagTest &= A.Bits == AccLoad && A.Marked &&
                  (A.E->Use == ValueUse::Condition || A.E->Use == ValueUse::Compared);
    if (Before.ReachedBoundary && !FlagTest)
      BeforeKinds |= AccLoad | AccStore;
    unsigned Need = neededPairs(BeforeKinds, After.Kinds);
    if (!Need || (Need & E.Bits))
      return false;
    // smp_wmb() before the step that closes a count this function opened
    // (x_tables' recseq: `smp_wmb(); __this_cpu_add(seq, step)`, the enter
    // helper having added `step`): the seqcount write end, store->store.
    if ((E.Bits & OrdSS) && closesCount(T, After))
      return false;
    // Right kind in the wrong place: barrier-misplaced reports it.
    if (misplacedWriteBarrier(T, E, Block, Index) ||
        misplacedReadBarrier(T, E, Block, Index))
      return true;
    // Messages and suggestions speak of the accesses the function shows.
    report(T, E, Before, After, neededPairs(Before.Kinds, After.Kinds));
    return true;
  }

  //===--- Store buffering: two sides that each store, then load -------===//
  //
  // CPU 0 stores X and then loads Y; CPU 1 stores Y and then loads X (a
  // waiter that sets "stalled" and re-checks the queue, a consumer that
  // advances the tail and checks "stalled"). Unless both order the store
  // before the load, both can read the old value and each misses the
  // other. When one function of the TU puts a full barrier between the
  // store of Y and the load of X, that is the other side written down:
  // a write barrier or release store between X and Y in another function
  // is the wrong kind.

  struct SbAccess {
    const Decl *Id = nullptr;
    std::string Name;
    SourceLocation Loc;
  };
  struct SbSide {
    const FunctionDecl *FD = nullptr;
    std::vector<SbAccess> Stores; // before the barrier
    std::vector<SbAccess> Loads;  // after it, in this function
    std::vector<std::pair<const FunctionDecl *, SourceLocation>> Calls; // after
    bool Full = false;
    Finding F; // partial: the finding, message still to write
    std::string Spelling;
    bool ReleaseStore = false;
    std::optional<FixItHint> Fix; // smp_wmb -> smp_mb, while the event lives
  };

  /// The location an access touches, comparable across functions: the
  /// field, or a global variable (the message-passing identity).
  static const Decl *crossId(const FunctionTrace &T, const Event &E) {
    if (E.Key < 0 || E.Kind == EventKind::Call || T.key(E.Key).isLocal())
      return nullptr;
    return osIdentity(T.key(E.Key));
  }

  void noteStoreBuffering(const FunctionTrace &T, const Event &E, unsigned Block,
                          unsigned Index) {
    bool Release = E.Kind == EventKind::Store;
    bool Full = !Release && (E.Bits & OrdSL);
    if (!Release && !Full && !(E.Bits & OrdSS))
      return; // smp_rmb(), an acquire fence: not a store's barrier
    BarrierWindow Before = barrierWindow(T, Block, Index, /*Forward=*/false);
    BarrierWindow After = barrierWindow(T, Block, Index, /*Forward=*/true);
    if (Before.Lock || After.Lock)
      return; // a lock orders both sides
    SbSide S;
    S.FD = T.FD;
    S.Full = Full;
    auto Add = [&](std::vector<SbAccess> &To, const Event &A) {
      if (const Decl *Id = crossId(T, A))
        To.push_back({Id, accessName(T, A), A.Loc});
    };
    if (Release)
      Add(S.Stores, E);
    for (const BarrierAccess &A : Before.Accesses)
      if (A.Bits & AccStore)
        Add(S.Stores, *A.E);
    // Loads that can miss the other side's store: not the load half of a
    // read-modify-write (a count's step, an atomic that sees the latest).
    for (const BarrierAccess &A : After.Accesses)
      if (A.Bits == AccLoad)
        Add(S.Loads, *A.E);
    for (const Event *C : After.Calls)
      if (C->Callee)
        S.Calls.push_back({C->Callee, C->Loc});
    if (Release) // what it releases: the location the other side waits on
      S.Stores.resize(std::min<size_t>(S.Stores.size(), 1));
    if (S.Stores.empty() || (S.Loads.empty() && S.Calls.empty()))
      return;
    if (!Full) {
      S.ReleaseStore = Release;
      S.Spelling = Release ? "the release store to '" + accessName(T, E) + "'"
                           : barrierSpelling(E);
      S.F = make(E, "");
      S.Fix = renameBarrier(E, callName(family().Mb));
      if (reportWaitqueuePeek(S, After))
        return;
    }
    Sides.push_back(std::move(S));
  }

  /// The kernel's documented waker: `cond = true; smp_mb();
  /// if (waitqueue_active(wq)) wake_up(wq);`. The waiter adds itself to the
  /// queue, then (full barrier in set_current_state()) re-checks the
  /// condition: a store-buffering pair whose other side is in
  /// kernel/sched/wait.c. A write barrier or a release store before the
  /// lockless peek at the queue lets its load pass the condition store.
  bool reportWaitqueuePeek(SbSide &S, const BarrierWindow &After) {
    for (const Event *C : After.Calls) {
      if (!C->Callee || !C->Callee->getIdentifier())
        continue;
      StringRef N = C->Callee->getName();
      if (!isWaitQueuePeekName(N))
        continue;
      Finding F = std::move(S.F);
      const SbAccess &X = S.Stores.front();
      F.Message = unordered(S, X.Name, "the load of the wait queue in " + N.str() + "()") +
                  ": a waiter that queues itself and then re-checks "
                  "can miss the store while this side sees an empty queue, and "
                  "nobody wakes it. " +
                  (S.ReleaseStore ? "Add smp_mb() after the release store"
                                  : "Use smp_mb()") +
                  " (or wq_has_sleeper(), which has it)";
      F.Notes.push_back({X.Loc, "the store to '" + X.Name + "' is here"});
      F.Notes.push_back({C->Loc, N.str() + "() loads the wait queue's list here"});
      if (S.Fix)
        F.FixIts.push_back(*S.Fix);
      emit(F);
      return true;
    }
    return false;
  }

  /// "smp_wmb() does not order the store to 'x' before it against <Load>
  /// after it", said of a release store as what it does not order.
  static std::string unordered(const SbSide &S, StringRef Store, StringRef Load) {
    if (S.ReleaseStore)
      return "the release store to '" + Store.str() +
             "' orders the accesses before it, not " + Load.str() + " after it";
    return S.Spelling + " does not order the store to '" + Store.str() +
           "' before it against " + Load.str() + " after it";
  }

  /// Loads a function (and the functions it calls, two levels down) may
  /// do, by field or global.
  const std::vector<SbAccess> &mayLoads(Classifier &Cl, const FunctionDecl *FD,
                                        unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def)
      return NoAccesses;
    auto It = CalleeLoads.find(Def);
    if (It != CalleeLoads.end())
      return It->second;
    if (Depth > 2)
      return NoAccesses;
    CalleeLoads[Def]; // an empty entry cuts recursion
    std::shared_ptr<const FunctionTrace> T = Cl.classify(Def);
    if (!T)
      return CalleeLoads[Def];
    std::vector<SbAccess> Out;
    std::vector<const FunctionDecl *> Next;
    for (const BlockEvents &B : T->Blocks)
      for (const Event &E : B.Events) {
        if (E.Kind == EventKind::Load || E.Kind == EventKind::ReadBegin) {
          if (const Decl *Id = crossId(*T, E))
            Out.push_back({Id, accessName(*T, E), E.Via ? E.InnerLoc : E.Loc});
        } else if (E.Kind == EventKind::Call && E.Callee && E.Callee != Def) {
          Next.push_back(E.Callee);
        }
      }
    for (const FunctionDecl *C : Next) {
      std::vector<SbAccess> Inner = mayLoads(Cl, C, Depth + 1);
      Out.insert(Out.end(), Inner.begin(), Inner.end());
    }
    std::vector<SbAccess> &Slot = CalleeLoads[Def];
    Slot = std::move(Out);
    return Slot;
  }

  /// The loads after a side's barrier, its calls' included (computed once).
  std::vector<SbAccess> loadsAfter(Classifier &Cl, const SbSide &S) {
    std::vector<SbAccess> L = S.Loads;
    for (auto &[Callee, At] : S.Calls)
      for (const SbAccess &A : mayLoads(Cl, Callee, 1))
        L.push_back({A.Id, A.Name, A.Loc});
    return L;
  }

  static const SbAccess *find(const std::vector<SbAccess> &V, const Decl *Id) {
    for (const SbAccess &A : V)
      if (A.Id == Id)
        return &A;
    return nullptr;
  }

  void pairStoreBuffering(Classifier &Cl) {
    std::vector<const SbSide *> FullSides;
    for (const SbSide &S : Sides)
      if (S.Full)
        FullSides.push_back(&S);
    if (FullSides.empty()) {
      Sides.clear();
      return;
    }
    // The loads after each full barrier, its calls' included.
    std::vector<std::vector<SbAccess>> FullLoads;
    for (const SbSide *S : FullSides)
      FullLoads.push_back(loadsAfter(Cl, *S));
    for (SbSide &W : Sides) {
      if (W.Full)
        continue;
      // Cheap test first: some store of W is loaded after a full barrier.
      bool Candidate = false;
      for (unsigned I = 0; I != FullSides.size() && !Candidate; ++I)
        if (FullSides[I]->FD != W.FD)
          for (const SbAccess &X : W.Stores)
            if (find(FullLoads[I], X.Id)) {
              Candidate = true;
              break;
            }
      if (!Candidate)
        continue;
      std::vector<SbAccess> WLoads = loadsAfter(Cl, W);
      for (unsigned I = 0; I != FullSides.size(); ++I) {
        const SbSide &G = *FullSides[I];
        if (G.FD == W.FD)
          continue;
        const SbAccess *X = nullptr, *Y = nullptr, *GX = nullptr, *GY = nullptr;
        for (const SbAccess &S : W.Stores)
          if ((GX = find(FullLoads[I], S.Id))) {
            X = &S;
            break;
          }
        if (!X)
          continue;
        for (const SbAccess &L : WLoads)
          if (L.Id != X->Id && (GY = find(G.Stores, L.Id))) {
            Y = &L;
            break;
          }
        if (!Y)
          continue;
        reportStoreBuffering(W, *X, *Y, G, *GY, *GX);
        break;
      }
    }
    Sides.clear();
  }

  void reportStoreBuffering(SbSide &W, const SbAccess &X, const SbAccess &Y,
                            const SbSide &G, const SbAccess &GY,
                            const SbAccess &GX) {
    Finding F = std::move(W.F);
    std::string Other = G.FD->getNameAsString();
    F.Message = unordered(W, X.Name, "the load of '" + Y.Name + "'") +
                ", and the other side needs exactly that: '" + Other +
                "' stores '" + GY.Name + "' and then loads '" + GX.Name +
                "' with a full barrier between; unless both sides order their "
                "store before their load, each can miss the other's store. " +
                (W.ReleaseStore ? "Add " + family().Mb + " after the release store"
                                : "Use " + family().Mb);
    F.Notes.push_back({X.Loc, "the store to '" + X.Name + "' is here"});
    F.Notes.push_back({Y.Loc, "the load of '" + Y.Name + "' is here"});
    F.Notes.push_back({GX.Loc, "'" + Other + "' loads '" + GX.Name +
                                   "' after its full barrier here"});
    if (W.Fix)
      F.FixIts.push_back(*W.Fix);
    emit(F);
  }

  std::vector<SbSide> Sides;
  OsEvidence Evidence;
  std::vector<std::pair<Finding, OsCandidate>> Retires;
  std::vector<std::pair<Finding, OsCandidate>> StoreLoads;
  std::vector<std::pair<Finding, OsCandidate>> SplitRetires;
  llvm::DenseSet<const FieldDecl *> Acquired;
  llvm::DenseSet<unsigned> Reported; // barriers reported by judge()
  std::map<const FunctionDecl *, std::vector<SbAccess>> CalleeLoads;
  const std::vector<SbAccess> NoAccesses;

  /// Every nearest access after the barrier steps a count that this
  /// function increments elsewhere.
  static bool closesCount(const FunctionTrace &T, const BarrierSide &After) {
    if (After.NearestUnknown || After.Nearest.empty())
      return false;
    for (const BarrierAccess &A : After.Nearest) {
      if (!(A.Bits & AccStore) || A.E->Key < 0)
        return false;
      bool Opened = false;
      for (const BlockEvents &B : T.Blocks)
        for (const Event &X : B.Events)
          if (&X != A.E && X.Key == A.E->Key &&
              (X.Kind == EventKind::CounterInc || X.Increment))
            Opened = true;
      if (!Opened)
        return false;
    }
    return true;
  }

  /// smp_mb__before_atomic() must be followed, smp_mb__after_atomic()
  /// preceded, by an atomic RMW: on architectures whose atomics are fully
  /// ordered (x86) they compile to nothing.
  void judgeAtomicHelper(const FunctionTrace &T, const Event &E, unsigned Block,
                         unsigned Index, bool BeforeAtomic) {
    BarrierSide S = scanBarrierSide(T, Block, Index, /*Forward=*/BeforeAtomic);
    if (S.NearestUnknown || S.Nearest.empty() || S.unknown())
      return;
    // The RMW may come a few accesses later (net/core/dev.c reads q->flags
    // between smp_mb__before_atomic() and clear_bit()): any atomic RMW up to
    // the next barrier will do. smp_mb__after_atomic() may rely on an RMW
    // in the caller ("rely on refcount_sub from sock_wfree()").
    if (!BeforeAtomic && S.ReachedBoundary)
      return;
    for (const BarrierAccess &A : S.All)
      if (A.AtomicRMW)
        return;
    const BarrierAccess &A = S.Nearest.front();
    std::string What = describe(T, A);
    std::string Msg =
        (spelling(E) + " is " +
         (BeforeAtomic ? "followed by " : "preceded by ") + What +
         ", not by an atomic read-modify-write (atomic_inc(), "
         "set_bit(), ...): it only orders such an operation and is a "
         "no-op on x86; use smp_mb() to order this access");
    Finding F = make(E, Msg);
    F.Notes.push_back({A.E->Loc, std::string("the ") +
                                     (BeforeAtomic ? "next" : "previous") +
                                     " access is " + What + " here"});
    if (auto Fix = renameBarrier(E, callName(family().Mb)))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  void report(const FunctionTrace &T, const Event &E, const BarrierSide &Before,
              const BarrierSide &After, unsigned Need) {
    std::string Barrier = barrierSpelling(E);
    // A read barrier before a store was written for the loads before it
    // (a FIFO's slot reads, then its read index): name a load, a slot's
    // if there is one, not a copy into the caller's memory that happens to
    // be nearer.
    bool ForLoads = (E.Bits & OrdLL) && !(E.Bits & OrdSS) && (Need & OrdLS);
    const BarrierAccess *Slot = nullptr;
    for (const BarrierAccess &A : Before.All)
      if (ForLoads && !Slot && A.Bits == AccLoad && A.E->Key >= 0 &&
          T.key(A.E->Key).hasSomeElement())
        Slot = &A;
    const BarrierAccess &BA =
        Slot ? *Slot
             : pick(Before,
                    !ForLoads && (Need & (OrdSL | OrdSS)) ? AccStore : AccLoad);
    const BarrierAccess &AA =
        pick(After, !ForLoads && (Need & (OrdSL | OrdLL)) ? AccLoad : AccStore);
    std::string Msg;
    std::string Use;
    if (Need & OrdSL) {
      Msg = Barrier + " does not order " + describe(T, BA) +
            " before it against " + describe(T, AA) +
            " after it: only a full barrier orders a store "
            "against a later load";
      Use = instead(E, Want::Full);
    } else if (Need == OrdLL) {
      Msg = Barrier +
            " does not order loads, and the accesses on both sides are "
            "loads (" +
            describe(T, BA) + " before it, " + describe(T, AA) + " after it)";
      Use = instead(E, Want::Read);
    } else if (Need == OrdSS) {
      Msg = Barrier +
            " does not order stores, and the accesses on both sides are "
            "stores (" +
            describe(T, BA) + " before it, " + describe(T, AA) + " after it)";
      Use = instead(E, Want::Write);
    } else {
      Msg = Barrier + " does not order " + describe(T, BA) +
            " before it against " + describe(T, AA) + " after it";
      Use = instead(E, Need & OrdSS ? Want::AcqRel : Want::Acquire);
    }
    Msg += "; use " + Use;
    Reported.insert(E.Loc.getRawEncoding());
    Finding F = make(E, Msg);
    F.Notes.push_back(
        {BA.E->Loc, "the access before the barrier is " + describe(T, BA)});
    F.Notes.push_back(
        {AA.E->Loc, "the access after the barrier is " + describe(T, AA)});
    if (auto Fix = renameBarrier(E, callName(Use)))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  /// A partial barrier between a store and the load the code is written
  /// around: the nearest access before it on every path is a store, and the
  /// first marked load after it (past plain loads such as a loop bound) is
  /// of another location that other CPUs write. Two shapes:
  ///  - publish, then wait: nothing after the barrier is stored before the
  ///    next barrier, so it orders nothing (xt_replace_table(): store the
  ///    new table, then read every CPU's sequence; an unknown call after
  ///    that load, cond_resched(), does not hide it);
  ///  - bump, then read: the store is a sequence increment and the marked
  ///    load comes first, though stores follow (xt_write_recseq_begin(),
  ///    then READ_ONCE(table->private)).
  bool judgeStoreThenLoad(const FunctionTrace &T, const Event &E, unsigned Block,
                          unsigned Index, const BarrierSide &Before,
                          const BarrierSide &After) {
    if (Before.NearestUnknown || Before.Nearest.empty())
      return false;
    bool Bump = true;
    for (const BarrierAccess &A : Before.Nearest) {
      if (!(A.Bits & AccStore))
        return false;
      Bump &= A.E->Kind == EventKind::CounterInc || A.E->Increment;
    }
    if (!Bump && ((After.Kinds & AccStore) || After.UnknownLock))
      return false;
    FirstLoads First = firstMarkedLoadsAfter(T, Block, Index);
    if (First.Blocked || First.Loads.empty())
      return false;
    for (const BarrierAccess &L : First.Loads) {
      AccessIdentity Id = accessIdentity(T, *L.E);
      for (const BarrierAccess &S : Before.Nearest)
        if (!Id.valid() || Id.same(accessIdentity(T, *S.E)))
          return false;
    }
    // A publication followed by the barrier: barrier-misplaced reports it.
    if (misplacedWriteBarrier(T, E, Block, Index))
      return false;
    BarrierSide B1, A1;
    B1.Nearest = B1.All = {Before.Nearest.front()};
    A1.Nearest = A1.All = {First.Loads.front()};
    report(T, E, B1, A1, OrdSL);
    return true;
  }

  static const BarrierAccess &pick(const BarrierSide &S, unsigned Bits) {
    for (const BarrierAccess &A : S.Nearest)
      if (A.Bits & Bits)
        return A;
    for (const BarrierAccess &A : S.All)
      if (A.Bits & Bits)
        return A;
    return S.All.front();
  }

  static std::string describe(const FunctionTrace &T, const BarrierAccess &A) {
    std::string N = "'" + accessName(T, *A.E) + "'";
    if (A.Bits == (AccLoad | AccStore))
      return "the read-modify-write of " + N;
    if (A.Bits == AccLoad)
      return "the load of " + N;
    return "the store to " + N;
  }

  llvm::DenseSet<const Event *> InSection;

  /// A C11/GNU fence (or a fence call with no API name), or a project's own
  /// barrier macro (no API entry: libbpf_smp_rmb()) in C11 or GNU C code:
  /// fixes are spelled as atomic_thread_fence(), not as kernel barriers.
  static bool spelledAsFence(const Event &E) {
    return E.ApiName.empty() || !E.Api || E.Api->F == Family::C11 ||
           E.Api->F == Family::GNU;
  }

  static std::string barrierSpelling(const Event &E) {
    if (!E.ApiName.empty())
      return spelling(E);
    switch (E.Bits) {
    case OrdLL | OrdLS:
      return "the acquire fence";
    case OrdLS | OrdSS:
      return "the release fence";
    case OrdLL | OrdLS | OrdSS:
      return "the acq_rel fence";
    default:
      return "the fence";
    }
  }

  /// The ordering a barrier should have given.
  enum class Want { Write, Read, Full, Acquire, AcqRel };

  /// What to use instead of barrier E, as the advice spells it: a C11 fence
  /// where E is a fence (or a project macro in C or GNU code), else the
  /// TU's own family (family(): smp_wmb() in the kernel, ck_pr_fence_store()
  /// with Concurrency Kit, ...).
  std::string instead(const Event &E, Want W) const {
    if (spelledAsFence(E)) {
      switch (W) {
      case Want::Write: return "atomic_thread_fence(memory_order_release)";
      case Want::Read:
      case Want::Acquire: return "atomic_thread_fence(memory_order_acquire)";
      case Want::Full: return "atomic_thread_fence(memory_order_seq_cst)";
      case Want::AcqRel: return "atomic_thread_fence(memory_order_acq_rel)";
      }
    }
    const Dialect &D = family();
    StringRef S = W == Want::Write ? StringRef(D.Wmb)
                  : W == Want::Read ? StringRef(D.Rmb)
                                    : StringRef(D.Mb);
    return S.rtrim(';').str();
  }

  /// The function a call spelling names when it takes no argument
  /// ("smp_mb()" -> "smp_mb"), else "".
  static std::string callName(StringRef Call) {
    if (!Call.consume_back("()") || !isCIdentifier(Call))
      return "";
    return Call.str();
  }

  /// Replaces the barrier's macro name (smp_wmb -> smp_mb) when the name is
  /// written right there in the file.
  std::optional<FixItHint> renameBarrier(const Event &E, StringRef To) const {
    if (To.empty() || !isLinuxBarrierName(E.ApiName) || !E.Loc.isFileID())
      return std::nullopt;
    const SourceManager &SM = Ctx->Ctx->getSourceManager();
    const LangOptions &LO = Ctx->Ctx->getLangOpts();
    unsigned Len = Lexer::MeasureTokenLength(E.Loc, SM, LO);
    StringRef Text(SM.getCharacterData(E.Loc), Len);
    if (Text != E.ApiName)
      return std::nullopt;
    return FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(E.Loc, E.Loc.getLocWithOffset(Len)), To);
  }
};

} // namespace

std::unique_ptr<Check> createBarrierWrongKindCheck() {
  return std::make_unique<BarrierWrongKindCheck>();
}

} // namespace seqlint
