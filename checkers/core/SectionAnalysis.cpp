//===- SectionAnalysis.cpp ------------------------------------------------===//
#include "core/SectionAnalysis.h"
#include "core/FunctionAnalyses.h"
#include "core/BarrierScan.h"
#include "core/Dataflow.h"
#include "core/AccessContext.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "llvm/ADT/DenseSet.h"
#include <algorithm>
#include <functional>
#include <iterator>

using namespace clang;
using namespace llvm;

namespace seqlint {

namespace {

/// Section state. Entry: not touched yet in this function (the caller may
/// hold a write section open, as __must_hold() functions do).
enum class Tri : unsigned char { Closed, Open, Maybe, Entry };

Tri join(Tri A, Tri B) { return A == B ? A : Tri::Maybe; }

struct CounterState {
  Tri W = Tri::Entry, R = Tri::Closed;
  // Ordering flags hold if they hold on some path reaching this point: a
  // barrier on one branch does not order the other branch's stores.
  bool WNested = false;        // begun twice: the next end keeps it open
  bool WEndedEntry = false;    // ended a section the caller opened
  bool WOpenArrived = false;   // an open path merged here with no branch since
  bool WNeedBarrier = false;   // odd increment not yet followed by a wmb
  bool WUnordered = false;     // data store since the last wmb
  bool RNeedBarrier = false;   // begin load not ordered before data loads
  bool RUnordered = false;     // data load since the last rmb
  const Event *WBegin = nullptr, *WStore = nullptr;
  // A barrier of the wrong kind placed where the write (read) side needed
  // its ordering: the finding goes to the barrier, not to the access.
  const Event *WBad = nullptr, *RBad = nullptr;
  // The begin of a section that is open on some path reaching here (null
  // when no path has one open).
  const Event *WOpenBegin = nullptr;
  const Event *WEntryEnd = nullptr; // the end that closed the caller's section
  const Event *RBegin = nullptr, *RLoad = nullptr;
  // A lock taken inside the open read section and not released since (on
  // some path): a retry takes it again.
  const Event *RLock = nullptr;
  // Targets accumulated into (+=, ++) in the current read attempt, and those
  // whose accumulated value a retry carried back into the next attempt: a
  // local (its VarDecl) or the caller's memory through a parameter (its key,
  // as accumTarget() encodes it). Sorted; a target re-initialized or
  // re-declared leaves both.
  std::vector<uintptr_t> RAccum, RCarried;
  // What the access checks ask (core/AccessContext.h), in the same pass: a
  // write section this function opened on some path (no caller-held entry
  // state, no nesting: every begin opens, every end closes, an increment
  // toggles), and a read section open on every path with its begin.
  Tri AccW = Tri::Closed, AccR = Tri::Closed;
  const Event *AccRBegin = nullptr;

  bool operator==(const CounterState &O) const {
    return W == O.W && R == O.R && AccW == O.AccW && AccR == O.AccR &&
           AccRBegin == O.AccRBegin && WNested == O.WNested &&
           WEndedEntry == O.WEndedEntry && WEntryEnd == O.WEntryEnd &&
           WOpenArrived == O.WOpenArrived &&
           WNeedBarrier == O.WNeedBarrier &&
           WUnordered == O.WUnordered && RNeedBarrier == O.RNeedBarrier &&
           RUnordered == O.RUnordered && WBegin == O.WBegin && WStore == O.WStore &&
           WOpenBegin == O.WOpenBegin && RBegin == O.RBegin && RLoad == O.RLoad &&
           WBad == O.WBad && RBad == O.RBad && RLock == O.RLock &&
           RAccum == O.RAccum &&
           RCarried == O.RCarried;
  }
};

struct State {
  bool Reached = false;
  std::vector<CounterState> C;
  bool operator==(const State &O) const { return Reached == O.Reached && C == O.C; }
};

template <typename T> const T *pick(const T *A, const T *B) { return A ? A : B; }

/// An accumulation target: a local variable, or (odd values) a key.
uintptr_t accumTarget(const VarDecl *V) { return reinterpret_cast<uintptr_t>(V); }
uintptr_t accumTarget(int Key) { return (uintptr_t(Key) << 1) | 1; }

void unite(std::vector<uintptr_t> &Into, const std::vector<uintptr_t> &From) {
  if (From.empty())
    return;
  std::vector<uintptr_t> Out;
  std::set_union(Into.begin(), Into.end(), From.begin(), From.end(),
                 std::back_inserter(Out));
  Into.swap(Out);
}

/// E tests the low bit of the value Begin loaded: `v & 1` on its variable,
/// or `(v = READ_ONCE(s->seq)) & 1` around the begin itself.
bool testsOddBegin(const Stmt *E, const Event &Begin, unsigned Depth = 0) {
  if (!E || Depth > 32)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->getOpcode() == BO_And) {
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      if (isa<IntegerLiteral>(L))
        std::swap(L, R);
      if (const auto *IL = dyn_cast<IntegerLiteral>(R); IL && IL->getValue() == 1) {
        std::function<bool(const Stmt *, unsigned)> Names = [&](const Stmt *X,
                                                                 unsigned D) {
          if (!X || D > 16)
            return false;
          if (X == Begin.S)
            return true;
          if (const auto *DR = dyn_cast<DeclRefExpr>(X))
            if (Begin.Var && DR->getDecl() == Begin.Var)
              return true;
          for (const Stmt *C : X->children())
            if (Names(C, D + 1))
              return true;
          return false;
        };
        if (Names(L, 0))
          return true;
      }
    }
  for (const Stmt *C : E->children())
    if (testsOddBegin(C, Begin, Depth + 1))
      return true;
  return false;
}

/// Load runs only while the count Begin loaded is odd: in the body of the
/// wait for a writer (`while ((v = READ_ONCE(s->seq)) & 1) { ... }`), where
/// nothing read belongs to the section (the vDSO's clock-mode check).
bool whileOdd(const FunctionTrace &T, const Event &Begin, const Event &Load) {
  if (!T.PM || !Load.S || !Begin.S)
    return false;
  const Stmt *Child = Load.S;
  for (const Stmt *P = T.PM->getParent(Child); P; Child = P, P = T.PM->getParent(P)) {
    const Expr *Cond = nullptr;
    const Stmt *Body = nullptr;
    if (const auto *W = dyn_cast<WhileStmt>(P)) {
      Cond = W->getCond();
      Body = W->getBody();
    } else if (const auto *I = dyn_cast<IfStmt>(P)) {
      Cond = I->getCond();
      Body = I->getThen();
    }
    if (Cond && Child == Body && testsOddBegin(Cond, Begin))
      return true;
  }
  return false;
}

/// The retry E is, by itself, the condition of a loop (`while (retry)`,
/// `} while (READ_ONCE(s->seq) != v)`): not combined with && or ||, which
/// may stop retrying once a lock is held.
bool retriesLoop(const FunctionTrace &T, const Event &E) {
  if (!T.PM || !E.S)
    return false;
  const Stmt *Child = E.S;
  for (const Stmt *P = T.PM->getParent(Child); P; Child = P, P = T.PM->getParent(P)) {
    if (const auto *D = dyn_cast<DoStmt>(P))
      return Child == D->getCond();
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return Child == W->getCond();
    if (const auto *F = dyn_cast<ForStmt>(P))
      return Child == F->getCond();
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp())
        return false;
      continue;
    }
    if (isa<Expr>(P))
      continue;
    return false;
  }
  return false;
}

bool contains(const std::vector<uintptr_t> &S, uintptr_t V) {
  return std::binary_search(S.begin(), S.end(), V);
}

void insert(std::vector<uintptr_t> &S, uintptr_t V) {
  auto It = std::lower_bound(S.begin(), S.end(), V);
  if (It == S.end() || *It != V)
    S.insert(It, V);
}

void erase(std::vector<uintptr_t> &S, uintptr_t V) {
  auto It = std::lower_bound(S.begin(), S.end(), V);
  if (It != S.end() && *It == V)
    S.erase(It);
}

/// From arrives over an edge of a conditional branch when FromBranch: an
/// open path that reaches a merge that way did not jump out of its section
/// (if (cow) end; falling through to the exit when !cow).
void joinInto(State &Into, const State &From, bool FromBranch) {
  if (!From.Reached)
    return;
  if (!Into.Reached) {
    Into = From;
    return;
  }
  for (size_t I = 0; I != Into.C.size(); ++I) {
    CounterState &A = Into.C[I];
    const CounterState &B = From.C[I];
    bool OpenMeetsOther = (A.W == Tri::Open) != (B.W == Tri::Open) &&
                          !(FromBranch && B.W == Tri::Open);
    A.W = join(A.W, B.W);
    A.WOpenArrived = A.WOpenArrived || B.WOpenArrived ||
                     (OpenMeetsOther && A.W == Tri::Maybe);
    A.WEndedEntry = A.WEndedEntry || B.WEndedEntry;
    A.WEntryEnd = pick(A.WEntryEnd, B.WEntryEnd);
    A.R = join(A.R, B.R);
    A.WNeedBarrier = A.WNeedBarrier || B.WNeedBarrier;
    A.WUnordered = A.WUnordered || B.WUnordered;
    A.RNeedBarrier = A.RNeedBarrier || B.RNeedBarrier;
    A.RUnordered = A.RUnordered || B.RUnordered;
    A.WNested = A.WNested || B.WNested;
    A.WBegin = pick(A.WBegin, B.WBegin);
    A.WOpenBegin = pick(A.WOpenBegin, B.WOpenBegin);
    A.WBad = pick(A.WBad, B.WBad);
    A.RBad = pick(A.RBad, B.RBad);
    A.WStore = A.WUnordered ? pick(A.WStore, B.WStore) : nullptr;
    A.RBegin = pick(A.RBegin, B.RBegin);
    A.RLock = pick(A.RLock, B.RLock);
    A.RLoad = A.RUnordered ? pick(A.RLoad, B.RLoad) : nullptr;
    unite(A.RAccum, B.RAccum);
    unite(A.RCarried, B.RCarried);
    A.AccW = join(A.AccW, B.AccW);
    A.AccR = join(A.AccR, B.AccR);
    A.AccRBegin = pick(A.AccRBegin, B.AccRBegin);
  }
}

class Analysis : public DataflowPolicy<State> {
public:
  Analysis(FunctionAnalyses &FA, Classifier &C)
      : T(FA.trace()), Cl(C), AddressKeys(FA.addressKeys()),
        Validated(FA.validatedBegins()) {
    for (int K : T.Counters)
      Counters.push_back(K);
    llvm::sort(Counters);
    for (unsigned I = 0; I != Counters.size(); ++I)
      Slot[Counters[I]] = I;
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events) {
        if (E.Key < 0)
          continue;
        if (E.Kind == EventKind::WriteBegin)
          HasBegin.insert(E.Key);
        if (E.Kind == EventKind::WriteEnd)
          HasEnd.insert(E.Key);
        // Open-coded: a second increment in the function ends what the
        // first began.
        if (E.Kind == EventKind::CounterInc && !IncSeen.insert(E.Key).second)
          HasEnd.insert(E.Key);
      }
  }

  /// Solves the dataflow (once, for the hub).
  void solve() {
    const CFG &G = *T.Cfg;
    unsigned N = G.getNumBlockIDs();
    State Entry;
    Entry.Reached = true;
    Entry.C.resize(Counters.size());
    Flow.emplace(G, *this);
    Flow->solve(std::move(Entry), 200 * N + 1000, "sections", T.FD);
  }

  /// Replays every reachable block from its entry state, telling Obs what
  /// it finds.
  void report(SectionObserver &O) {
    if (Counters.empty())
      return;
    Obs = &O;
    for (const CFGBlock *B : Flow->order()) {
      const State *In = Flow->in(*B);
      if (!In)
        continue;
      State S = *In;
      transfer(*B, S, /*Report=*/true);
    }
    Obs = nullptr;
  }

  /// Replays every reachable block, calling Visit with the context before
  /// each event.
  void contexts(const LockSets &Locks,
                function_ref<void(const Event &, const AccessContext &)> Visit) {
    for (const CFGBlock *B : Flow->order()) {
      const State *In = Flow->in(*B);
      if (!In)
        continue;
      State S = *In;
      for (const Event &E : T.Blocks[B->getBlockID()].Events) {
        AccessContext C;
        C.MayLocked = Locks.mayHold(E);
        for (unsigned I = 0; I != Counters.size(); ++I) {
          if (S.C[I].AccW != Tri::Closed) {
            C.MayInWriteSection = true;
            C.WriteSections.push_back(Counters[I]);
          }
          if (S.C[I].AccR == Tri::Open && S.C[I].AccRBegin)
            C.ReadSections.push_back({Counters[I], S.C[I].AccRBegin});
        }
        Visit(E, C);
        step(E, S, /*Report=*/false);
      }
    }
  }

  // The dataflow policy (core/Dataflow.h).
  void transfer(const CFGBlock &B, State &S) { transfer(B, S, /*Report=*/false); }
  bool join(State &Into, const State &Out, const CFGBlock &From, unsigned) {
    State Old = Into;
    joinInto(Into, Out, branches(From));
    return !(Into == Old);
  }

private:
  bool isData(const Event &E) const {
    if (E.Key < 0)
      return true; // unknown location: not a counter, not local
    return !Slot.count(E.Key) && !AddressKeys.count(E.Key);
  }

  void transfer(const CFGBlock &B, State &S, bool Report) {
    const BlockEvents &BE = T.Blocks[B.getBlockID()];
    Current = &B;
    bool Noreturn = false;
    const Event *LastReturn = nullptr;
    for (const Event &E : BE.Events) {
      step(E, S, Report);
      if (E.Kind == EventKind::Call && E.Noreturn)
        Noreturn = true;
      if (E.Kind == EventKind::Return)
        LastReturn = &E;
    }
    if (Report && !Noreturn && !B.hasNoReturnElement())
      reportExits(B, S, LastReturn);
    passBranch(B, S);
  }

  void reportExits(const CFGBlock &B, const State &S, const Event *LastReturn) {
    // Leaving the function?
    bool ToExit = false;
    for (const CFGBlock *Succ : B.succs())
      if (Succ && Succ == &T.Cfg->getExit())
        ToExit = true;
    if (!ToExit)
      return;
    SourceLocation ExitLoc;
    if (LastReturn)
      ExitLoc = LastReturn->Loc;
    else if (const auto *Body = dyn_cast_or_null<CompoundStmt>(T.FD->getBody()))
      ExitLoc = Body->getRBracLoc();
    for (unsigned I = 0; I != Counters.size(); ++I) {
      const CounterState &CS = S.C[I];
      int K = Counters[I];
      // Open on every path, or on some path (an early goto out): the
      // function ends the section elsewhere, so this path forgot to.
      // A merge of an open and a closed path is reported only when the open
      // path jumped here (goto out, break) with no branch since: a section
      // begun and ended under the same condition (if (cow) begin ... if
      // (cow) end, mm/memory.c) merges as "maybe" and passes a branch.
      // A block that branches to the exit leaves over a conditional edge
      // (if (cow) end;): not a jump out of the section either.
      bool Open = CS.W == Tri::Open ||
                  (CS.W == Tri::Maybe && CS.WOpenArrived && !branches(B));
      if (Open && !CS.WEndedEntry && CS.WBegin &&
          (CS.WBegin->Kind == EventKind::WriteBegin ||
           // open-coded: a begin the function ordered like one (not a
           // sequence number bumped with WRITE_ONCE(*seq, *seq + 1))
           (CS.WBegin->Kind == EventKind::CounterInc && !CS.WNeedBarrier &&
            !Cl.isGenerationCounter(T.key(K)))) &&
          HasEnd.count(K))
        Obs->writeExitOpen(T, K, *CS.WBegin, ExitLoc);
      // Ended a section the caller held and returned without re-opening
      // it, in a function that opens sections itself: an end too many.
      if (CS.W == Tri::Closed && CS.WEndedEntry && CS.WEntryEnd && HasBegin.count(K))
        Obs->writeEndWithoutBegin(T, K, *CS.WEntryEnd);
    }
  }

  static bool branches(const CFGBlock &B) {
    unsigned Succs = 0;
    for (const CFGBlock *Succ : B.succs())
      if (Succ)
        ++Succs;
    return Succs > 1;
  }

  /// After a conditional branch, a "maybe open" no longer comes straight
  /// from a jump out of the section.
  static void passBranch(const CFGBlock &B, State &S) {
    if (!branches(B))
      return;
    for (CounterState &C : S.C)
      C.WOpenArrived = false;
  }

  /// A read begin opens a section only when this function validates its
  /// value (or it is open-coded): a snapshot handed to a caller, compared,
  /// or stored for later is not a section here.
  bool opensRead(const Event &E) const {
    return E.OpenCoded || (E.Var && Validated.count({E.Key, E.Var}));
  }

  /// The access checks' view of the sections (CounterState::AccW ...).
  void stepAccess(const Event &E, CounterState &C) {
    switch (E.Kind) {
    case EventKind::WriteBegin:
      C.AccW = Tri::Open;
      C.AccR = Tri::Closed;
      break;
    case EventKind::WriteEnd:
      C.AccW = Tri::Closed;
      break;
    case EventKind::CounterInc:
      C.AccW = C.AccW == Tri::Closed ? Tri::Open
               : C.AccW == Tri::Open ? Tri::Closed
                                     : Tri::Maybe;
      break;
    case EventKind::ReadBegin:
      if (opensRead(E)) {
        C.AccR = Tri::Open;
        C.AccRBegin = &E;
      }
      break;
    case EventKind::ReadBeginOrLock:
      C.AccR = Tri::Maybe;
      C.AccRBegin = &E;
      break;
    case EventKind::ReadRetry:
    case EventKind::ReadDone:
    case EventKind::Lock: // the writer side of the seqlock: exclusive
      C.AccR = Tri::Closed;
      break;
    default:
      break;
    }
  }

  void step(const Event &E, State &S, bool Report) {
    auto ForCounter = [&](int Key) -> CounterState * {
      auto It = Slot.find(Key);
      return It == Slot.end() ? nullptr : &S.C[It->second];
    };
    if (CounterState *C = ForCounter(E.Key))
      stepAccess(E, *C);
    switch (E.Kind) {
    case EventKind::WriteBegin:
      if (CounterState *C = ForCounter(E.Key)) {
        if (C->W == Tri::Open && C->WBegin &&
            C->WBegin->Kind == EventKind::WriteBegin) {
          if (Report)
            Obs->writeBeginWhileOpen(T, E.Key, E, *C->WBegin);
          C->WNested = true;
          break;
        }
        if (Report && C->W == Tri::Maybe && C->WOpenBegin &&
            C->WOpenBegin->Kind == EventKind::WriteBegin && HasEnd.count(E.Key) &&
            reachedRegardless(E, *C->WOpenBegin))
          Obs->writeBeginSomePaths(T, E.Key, E, *C->WOpenBegin);
        if (Report)
          Obs->sectionBegins(T, E.Key, E, /*Write=*/true);
        C->W = Tri::Open;
        C->WBegin = &E;
        C->WOpenBegin = &E;
        C->WNeedBarrier = false;
        C->WUnordered = false;
        C->WBad = nullptr;
        C->WOpenArrived = false;
        C->R = Tri::Closed; // a reader that takes the writer side is exclusive
      }
      break;
    case EventKind::WriteEnd:
      if (CounterState *C = ForCounter(E.Key)) {
        if (Report && C->W == Tri::Closed && HasBegin.count(E.Key))
          Obs->writeEndWithoutBegin(T, E.Key, E);
        // Open on some paths only, and this end runs whichever way the
        // begin's condition went: the paths that skipped the begin end a
        // section that is not open.
        if (Report && C->W == Tri::Maybe && !C->WNested && C->WOpenBegin &&
            C->WOpenBegin->Kind == EventKind::WriteBegin &&
            postDominates(E, *C->WOpenBegin))
          Obs->writeEndSomePaths(T, E.Key, E, *C->WOpenBegin);
        if (C->W == Tri::Open && C->WNested) {
          C->WNested = false; // reported at the second begin already
          break;
        }
        if (C->W == Tri::Entry) {
          C->WEndedEntry = true; // the caller opened it (__must_hold)
          C->WEntryEnd = &E;
        }
        C->WOpenArrived = false;
        C->W = Tri::Closed;
        C->WOpenBegin = nullptr;
        C->WNeedBarrier = C->WUnordered = false;
        C->WBad = nullptr;
      }
      break;
    case EventKind::CounterInc:
      if (CounterState *C = ForCounter(E.Key)) {
        // A compare-and-swap claims an even count: it never ends a section
        // (retried in a loop, the failed attempts change nothing).
        if (E.Claim && C->W != Tri::Closed && C->W != Tri::Entry) {
          if (C->W == Tri::Maybe) {
            if (Report)
              Obs->sectionBegins(T, E.Key, E, /*Write=*/true);
            C->W = Tri::Open;
            C->WBegin = C->WOpenBegin = &E;
            C->WNeedBarrier = true;
            C->WUnordered = false;
            C->WBad = nullptr;
          }
          break;
        }
        if (C->W == Tri::Closed || C->W == Tri::Entry) {
          if (Report)
            Obs->sectionBegins(T, E.Key, E, /*Write=*/true);
          C->W = Tri::Open;
          C->WBegin = &E;
          C->WOpenBegin = &E;
          C->R = Tri::Closed; // a reader that takes the writer side is exclusive
          // A fully ordered kernel RMW (atomic_inc_return) orders later
          // stores; a relaxed, plain or release increment does not.
          C->WNeedBarrier = !(E.Ord == Order::SeqCst && E.Kind == EventKind::CounterInc &&
                              E.Api);
          C->WUnordered = false;
          C->WBad = nullptr;
        } else if (C->W == Tri::Open) {
          bool Releases = E.Ord == Order::Release || E.Ord == Order::AcqRel ||
                          E.Ord == Order::SeqCst;
          if (Report && !Releases && C->WUnordered && C->WStore)
            unordered(C->WBad, E.Key, OrdSS, *C->WStore,
                      [&] { Obs->writeEndUnordered(T, E.Key, E, *C->WStore); });
          C->W = Tri::Closed;
          C->WOpenBegin = nullptr;
          C->WNeedBarrier = C->WUnordered = false;
          C->WBad = nullptr;
          C->WStore = nullptr;
        } else {
          C->WNeedBarrier = C->WUnordered = false;
          C->WBad = nullptr;
        }
      }
      break;
    case EventKind::Barrier:
      for (unsigned I = 0; I != S.C.size(); ++I) {
        CounterState &C = S.C[I];
        // barrier() is the ordering a CPU-local count's writer means.
        // (A writer's own bracket decides for its sections: one that uses
        // smp_wmb() on one side means another CPU on both.)
        bool CompilerFence = !E.Bits && !E.Counter;
        bool CompilerW = CompilerFence && T.CompilerOrderedCounters.count(Counters[I]);
        bool Compiler = CompilerFence && (CompilerW || Cl.isCompilerOrderedCounter(
                                                           T.key(Counters[I])));
        if ((E.Bits & OrdSS) || (CompilerW && C.W == Tri::Open)) {
          C.WNeedBarrier = false;
          C.WUnordered = false;
          C.WStore = nullptr;
          C.WBad = nullptr;
        } else if (E.Bits && C.W == Tri::Open && (C.WNeedBarrier || C.WUnordered)) {
          C.WBad = &E; // smp_rmb() or an acquire fence in a write section
        }
        if ((E.Bits & OrdLL) || (Compiler && C.R == Tri::Open)) {
          C.RNeedBarrier = false;
          C.RUnordered = false;
          C.RLoad = nullptr;
          C.RBad = nullptr;
        } else if (E.Bits && C.R == Tri::Open && (C.RNeedBarrier || C.RUnordered)) {
          C.RBad = &E; // smp_wmb() or a release fence in a read section
        }
      }
      break;
    case EventKind::Store:
    case EventKind::RMW:
      if (!isData(E))
        break;
      for (unsigned I = 0; I != S.C.size(); ++I) {
        CounterState &C = S.C[I];
        if (C.W == Tri::Open) {
          // A store-release (or a release/fully ordered RMW) is ordered
          // after everything before it, the odd increment included; it does
          // not order what follows it.
          bool Release = E.Ord == Order::Release || E.Ord == Order::SeqCst ||
                         (E.Kind == EventKind::RMW && E.Ord == Order::AcqRel);
          if (Report && C.WNeedBarrier && C.WBegin && !Release)
            unordered(C.WBad, Counters[I], OrdSS, E, [&] {
              Obs->writeStoreBeforeBarrier(T, Counters[I], *C.WBegin, E);
            });
          C.WUnordered = true;
          C.WStore = &E;
        }
        if (C.R == Tri::Open && Report && C.RBegin && sideEffectStore(E, Counters[I]))
          Obs->readSideEffect(T, Counters[I], *C.RBegin, E);
      }
      // The caller's memory through a parameter: a plain store there is
      // overwritten by the attempt that succeeds; an accumulation is not.
      if (E.Key >= 0 && T.key(E.Key).Storage == LocationKey::Param &&
          T.key(E.Key).ViaPointer)
        accumulate(E, accumTarget(E.Key),
                   E.Kind == EventKind::RMW || E.Increment, S, Report);
      break;
    case EventKind::Load:
      if (!isData(E))
        break;
      for (unsigned I = 0; I != S.C.size(); ++I) {
        CounterState &C = S.C[I];
        if (C.R != Tri::Open)
          continue;
        if (Report && C.RNeedBarrier && C.RBegin && !whileOdd(T, *C.RBegin, E))
          unordered(C.RBad, Counters[I], OrdLL, E, [&] {
            Obs->readLoadBeforeBarrier(T, Counters[I], *C.RBegin, E);
          });
        C.RNeedBarrier = false;
        // An acquire load is ordered before the recheck by itself; it does
        // not order the loads before it.
        bool Acquire = E.Ord == Order::Acquire || E.Ord == Order::AcqRel ||
                       E.Ord == Order::SeqCst;
        if (!C.RUnordered && !Acquire) {
          C.RUnordered = true;
          C.RLoad = &E;
        }
      }
      break;
    case EventKind::ReadBegin:
      if (!opensRead(E))
        break;
      if (CounterState *C = ForCounter(E.Key)) {
        if (Report)
          Obs->sectionBegins(T, E.Key, E, /*Write=*/false);
        C->R = Tri::Open;
        C->RBegin = &E;
        C->RNeedBarrier = E.Ord != Order::Acquire && E.Ord != Order::AcqRel &&
                          E.Ord != Order::SeqCst;
        C->RUnordered = false;
        C->RLoad = nullptr;
        C->RBad = nullptr;
      }
      break;
    case EventKind::ReadBeginOrLock:
      if (CounterState *C = ForCounter(E.Key)) {
        if (Report)
          Obs->sectionBegins(T, E.Key, E, /*Write=*/false);
        C->R = Tri::Maybe;
        C->RBegin = &E;
        C->RNeedBarrier = C->RUnordered = false;
        C->RBad = nullptr;
      }
      break;
    case EventKind::ReadRetry:
      if (CounterState *C = ForCounter(E.Key)) {
        if (!E.RetryHasBarrier && Report && C->R == Tri::Open && C->RUnordered &&
            C->RLoad)
          unordered(C->RBad, E.Key, OrdLL, *C->RLoad,
                    [&] { Obs->readRetryUnordered(T, E.Key, E, *C->RLoad); });
        // Open on some paths only, and the retry runs whichever way the
        // begin's condition went.
        if (Report && C->R == Tri::Maybe && C->RBegin &&
            C->RBegin->Kind == EventKind::ReadBegin && C->RBegin->Var &&
            C->RBegin->Var == E.Var && postDominates(E, *C->RBegin))
          Obs->readRetrySomePaths(T, E.Key, E, *C->RBegin);
        // A lock taken in the section and still held where the retry loops
        // back: the next attempt takes it again (and spins on itself).
        if (Report && C->RLock && C->RBegin && C->R != Tri::Closed && retriesLoop(T, E))
          Obs->readSideEffect(T, E.Key, *C->RBegin, *C->RLock);
        C->RLock = nullptr;
        // What this attempt accumulated survives into the next one.
        unite(C->RCarried, C->RAccum);
        C->RAccum.clear();
        C->R = Tri::Closed;
        C->RNeedBarrier = C->RUnordered = false;
        C->RBad = nullptr;
        C->RLoad = nullptr;
      }
      break;
    case EventKind::ReadDone:
      if (CounterState *C = ForCounter(E.Key))
        C->R = Tri::Closed;
      break;
    case EventKind::Lock:
      // Taking the writer lock of the seqlock (read_seqlock_excl) makes the
      // rest exclusive; any lock acquisition orders later loads.
      for (unsigned I = 0; I != S.C.size(); ++I) {
        CounterState &C = S.C[I];
        if (Counters[I] != E.Key && E.Key >= 0 && C.R != Tri::Closed && !C.RLock)
          C.RLock = &E;
        if (Counters[I] == E.Key)
          C.R = Tri::Closed;
        C.RNeedBarrier = C.RUnordered = false;
        C.RLoad = nullptr;
      }
      break;
    case EventKind::Unlock:
      for (CounterState &C : S.C)
        if (C.RLock && C.RLock->Key == E.Key)
          C.RLock = nullptr;
      break;
    case EventKind::Call: {
      if (S.C.empty())
        break; // no counter: nothing to order (and no summary to work out)
      bool ReadBarrier = true; // unknown callee: assume it may order
      if (E.Callee && E.Callee->hasBody())
        ReadBarrier = Cl.summary(E.Callee).MayOrder;
      for (unsigned I = 0; I != S.C.size(); ++I) {
        CounterState &C = S.C[I];
        if (C.R == Tri::Open && Report && C.RBegin &&
            Cl.callHasSideEffects(T, E, Counters[I]))
          Obs->readSideEffect(T, Counters[I], *C.RBegin, E);
        if (ReadBarrier) {
          C.RNeedBarrier = C.RUnordered = false;
          C.RLoad = nullptr;
        }
      }
      break;
    }
    case EventKind::LocalUpdate:
      accumulate(E, accumTarget(E.Var), E.Accumulates, S, Report);
      break;
    case EventKind::Return:
    case EventKind::LocalDef:
    case EventKind::Exclude:
      break;
    }
  }

  /// An access the section needed ordered and is not: reported at Bad, the
  /// barrier of the wrong kind in between, if there is one; else as a
  /// missing barrier (Missing).
  template <typename Fn>
  void unordered(const Event *Bad, int Counter, unsigned Needed, const Event &Access,
                 Fn Missing) {
    // A barrier the wrong-kind check does not judge (bare inline asm that
    // orders the wrong way) leaves the access as unordered as no barrier.
    if (Bad && isJudgedBarrier(*Bad))
      Obs->sectionBarrierWrongKind(T, Counter, *Bad, Needed, Access);
    else
      Missing();
  }

  /// A write to Target, an accumulation if Accumulates (+=, ++), else a
  /// re-initialization. `total += s->bytes` where total already holds the
  /// sum of a failed attempt: the retry adds it twice.
  void accumulate(const Event &E, uintptr_t Target, bool Accumulates, State &S,
                  bool Report) {
    for (unsigned I = 0; I != S.C.size(); ++I) {
      CounterState &C = S.C[I];
      if (!Accumulates) {
        erase(C.RAccum, Target);
        erase(C.RCarried, Target);
        continue;
      }
      if (C.R != Tri::Open)
        continue;
      if (Report && C.RBegin && contains(C.RCarried, Target) &&
          !(E.Key >= 0 && T.key(E.Key).Base &&
            T.key(E.Key).Base == T.key(Counters[I]).Base))
        Obs->readSideEffect(T, Counters[I], *C.RBegin, E);
      insert(C.RAccum, Target);
    }
  }

  /// A store or RMW that a retried read section must not repeat.
  bool sideEffectStore(const Event &E, int Counter) const {
    if (E.Key < 0)
      return true;
    const LocationKey &K = T.key(E.Key);
    if (K.isLocal())
      return false;
    if (K.Storage == LocationKey::Global)
      return true;
    if (K.Storage == LocationKey::Param) {
      // Through a parameter: the caller's out-parameter unless it is the
      // object that holds the counter. A plain store there is overwritten
      // by the attempt that succeeds; a read-modify-write (data[i] +=
      // v) adds the failed attempts' values too.
      const LocationKey &CK = T.key(Counter);
      return CK.Base && CK.Base == K.Base;
    }
    // Through a local pointer that was loaded from shared memory
    // (o = READ_ONCE(d->owner); o->hits++): the pointee is shared.
    if (K.Storage == LocationKey::Local && K.ViaPointer && K.Base &&
        T.VarSource.count(K.Base))
      return true;
    return false; // through a local pointer or an unknown base: stay silent
  }

  /// The CFG block that holds event E.
  const CFGBlock *blockOf(const Event &E) const {
    for (const CFGBlock *B : *T.Cfg) {
      const auto &Evs = T.Blocks[B->getBlockID()].Events;
      if (!Evs.empty() && &E >= &Evs.front() && &E <= &Evs.back())
        return B;
    }
    return nullptr;
  }

  const CFGPostDomTree &postDom() {
    if (!PostDom) {
      PostDom = std::make_unique<CFGPostDomTree>();
      PostDom->buildDominatorTree(const_cast<CFG *>(T.Cfg.get()));
    }
    return *PostDom;
  }

  /// Every path from Earlier's block to the function's exit passes the
  /// current block (the one being transferred, which holds Later).
  bool postDominates(const Event &Later, const Event &Earlier) {
    const CFGBlock *EB = blockOf(Earlier);
    if (!EB || !Current)
      return false;
    if (EB == Current) // same block: Later follows Earlier, or loops back
      return &Later > &Earlier;
    return postDom().dominates(Current, EB);
  }

  /// Begin B is reached again with the section opened by Prev still open on
  /// some path, whatever the branches between them decided: a different
  /// begin that post-dominates Prev, or the same begin re-run by a loop
  /// in whose body it is unconditional (a `continue` skipped the end).
  bool reachedRegardless(const Event &B, const Event &Prev) {
    if (&B != &Prev)
      return postDominates(B, Prev);
    if (!T.PM || !B.S)
      return false;
    for (const Stmt *P = T.PM->getParent(B.S); P; P = T.PM->getParent(P)) {
      if (isLoop(P))
        return true;
      if (isa<IfStmt, SwitchStmt, ConditionalOperator, BinaryConditionalOperator>(P))
        return false;
      if (const auto *BO = dyn_cast<BinaryOperator>(P))
        if (BO->isLogicalOp())
          return false;
    }
    return false;
  }

  const FunctionTrace &T;
  Classifier &Cl;
  SectionObserver *Obs = nullptr; // while report() runs
  std::optional<ForwardDataflow<State, Analysis>> Flow;
  const CFGBlock *Current = nullptr;
  std::unique_ptr<CFGPostDomTree> PostDom;
  std::vector<int> Counters;
  DenseMap<int, unsigned> Slot;
  DenseSet<int> HasBegin, HasEnd, IncSeen;
  // Loads that only compute a counter's address (parent->d_inode in
  // parent->d_inode->i_dir_seq, t->gen in t->gen[b]) are not data of the
  // section.
  const DenseSet<int> &AddressKeys;
  const ValidatedBegins &Validated;
};

} // namespace

SectionFlow::~SectionFlow() = default;

namespace {
class SolvedSections final : public SectionFlow {
public:
  SolvedSections(FunctionAnalyses &FA, Classifier &C) : A(FA, C) { A.solve(); }
  void report(SectionObserver &Obs) override { A.report(Obs); }
  void accessContexts(
      const LockSets &Locks,
      function_ref<void(const Event &, const AccessContext &)> Visit) override {
    A.contexts(Locks, Visit);
  }

private:
  Analysis A;
};
} // namespace

std::unique_ptr<SectionFlow> SectionFlow::solve(FunctionAnalyses &FA,
                                                Classifier &C) {
  return std::make_unique<SolvedSections>(FA, C);
}

void runSectionAnalysis(FunctionAnalyses &FA, Classifier &C,
                        SectionObserver &Obs) {
  if (FA.trace().Counters.empty() || !FA.trace().Cfg)
    return;
  FA.sections().report(Obs);
}

} // namespace seqlint
