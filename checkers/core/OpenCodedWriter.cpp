//===- OpenCodedWriter.cpp - open-coded seqcount writers --------------------===//
//
// The evidence that two increments of one location are a seqcount writer's
// and not a ring producer's or a statistic's: they bracket stores to other
// shared data, the first is no release, an odd count is only fixed up.
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include <optional>

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace detail {

/// A writer: a seqcount-like location incremented at two or more sites,
/// with ONCE/atomic accesses to it or barriers in the function.
void FunctionClassifier::recognizeWriters() {
  WriteEvidence W = writeEvidence();
  for (auto &[Key, N] : W.Incs) {
    if (N < 2 || T.Counters.count(Key))
      continue;
    if (isOpenWriter(Key, W))
      markOpenWriter(Key);
  }
}

/// What the function does that tells a writer from a statistic.
FunctionClassifier::WriteEvidence FunctionClassifier::writeEvidence() const {
  WriteEvidence W;
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &Ev : BE.Events) {
      if ((Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdSS)) ||
          ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) &&
           (Ev.Ord == Order::Release || Ev.Ord == Order::AcqRel ||
            Ev.Ord == Order::SeqCst)))
        W.AnyWriteOrdering = true;
      if ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) && Ev.Increment &&
          Ev.Key >= 0)
        ++W.Incs[Ev.Key];
      if (Ev.Kind == EventKind::Barrier && Ev.Bits)
        W.AnyBarrier = true;
      if ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::Load ||
           Ev.Kind == EventKind::RMW) &&
          Ev.Key >= 0 && Ev.Ord != Order::Plain)
        W.Marked.insert(Ev.Key);
    }
  return W;
}

/// Key, incremented twice or more, is an open-coded writer's count. A
/// bracketing without the evidence makes it a counter candidate.
bool FunctionClassifier::isOpenWriter(int Key, const WriteEvidence &W) {
  if (C.isNotSequence(T.Keys[Key]))
    return false; // a request's number, or a count of things
  bool OddTested = T.OddCheckedKeys.count(Key);
  // Whatever its name: two increments of a marked (or odd-tested)
  // location that bracket stores to other shared data, in a function with
  // a write barrier or a release (the article's WRITE_ONCE(sc, sc + 1)
  // ... release(&sc); KVM's steal time: if (st->v & 1) ... st->v += 1).
  // Plain increments count when a write barrier runs between them (the
  // writer that ordered one side and forgot the other).
  bool Fenced = false;
  bool Brackets = bracketsStores(Key, &Fenced);
  bool Opens = Brackets && opensWithRelease(Key);
  bool Protocol = (W.Marked.count(Key) || OddTested || Fenced) && W.AnyWriteOrdering &&
                  Brackets && !Opens;
  // A count whose readers run on the writer's CPU (perf's self-monitoring
  // page: `++pg->lock; barrier(); ... barrier(); ++pg->lock;`): a compiler
  // barrier right after the opening increment and right before the closing
  // one is the protocol itself; a statistic has no reason for either.
  bool CompilerBracket = Brackets && !Opens && compilerBracketed(Key);
  Protocol |= CompilerBracket;
  // A location another function of the TU uses as a counter needs only
  // the bracketing: this writer may be the one that forgot its barrier.
  bool Known = C.isKnownCounter(T.Keys[Key]) && bracketsStores(Key);
  if (!Protocol && !Known) {
    if (Brackets)
      T.CounterCandidates.insert(Key);
    return false;
  }
  // Evidence it is a seqcount and not a statistic: barriers or marked
  // accesses, or the writer asserting the count is even again.
  if (CompilerBracket && !W.AnyWriteOrdering)
    T.CompilerOrderedCounters.insert(Key);
  return W.AnyBarrier || W.Marked.count(Key) || OddTested || Known || CompilerBracket;
}

/// The first increment of Key (in reverse post-order) is directly followed
/// by a barrier, and the last directly preceded by one: a compiler barrier
/// counts.
bool FunctionClassifier::compilerBracketed(int Key) const {
  std::vector<const Event *> Seq;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events)
      if (Ev.Kind != EventKind::LocalDef && Ev.Kind != EventKind::LocalUpdate)
        Seq.push_back(&Ev);
  auto Inc = [&](const Event *E) {
    return (E->Kind == EventKind::Store || E->Kind == EventKind::RMW) && E->Increment &&
           E->Key == Key;
  };
  auto First = llvm::find_if(Seq, Inc);
  auto Last = llvm::find_if(llvm::reverse(Seq), Inc);
  if (First == Seq.end() || Last == Seq.rend() || *First == *Last)
    return false;
  auto After = std::next(First);
  auto Before = std::next(Last);
  return After != Seq.end() && (*After)->Kind == EventKind::Barrier && !(*After)->Counter &&
         Before != Seq.rend() && (*Before)->Kind == EventKind::Barrier && !(*Before)->Counter;
}

/// Key's increments become open-coded CounterInc events, and Key a counter.
void FunctionClassifier::markOpenWriter(int Key) {
  T.Counters.insert(Key);
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events)
      if ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) &&
          Ev.Increment && Ev.Key == Key) {
        Ev.Counter = true;
        Ev.OpenCoded = true;
        // `if (st->v & 1) st->v += 1;` makes an odd count even before the
        // section (KVM's steal time, "first time write, random junk"): a
        // step of the count, not a begin or an end.
        if (!Ev.Via && parityFix(Ev))
          continue;
        Ev.Kind = EventKind::CounterInc;
      }
}

/// The first increment of Key (in reverse post-order) is a release: it
/// publishes what came before it, as a ring producer's index store does; a
/// seqcount writer's opening increment orders nothing before it.
bool FunctionClassifier::opensWithRelease(int Key) const {
  // Or a store, then a write barrier, then the increment: the producer's
  // publication of what it stored (n_tty's add_echo_byte(): the byte,
  // smp_wmb(), echo_head++), twice in a row when a helper is called twice.
  bool Stored = false, Published = false;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      bool Write = Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW;
      if (Write && Ev.Key == Key && Ev.Increment)
        // An acq_rel (or seq_cst) RMW also orders what follows it after the
        // increment: the C11 spelling of a seqcount's opening step
        // (fetch_add(&s, 1, acq_rel)), not a publication.
        return Published || Ev.Ord == Order::Release;
      if (Write && Ev.Key != Key && (Ev.Key < 0 || !T.Keys[Ev.Key].isLocal()))
        Stored = true;
      else if (Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdSS) && Stored)
        Published = true;
    }
  return false;
}

namespace {
/// The dataflow of bracketsStores(): an increment of Key, a store to other
/// non-local data, and another increment, on some path. State per block
/// entry, joined by "on some path".
struct BracketState {
  bool Open = false, Stored = false, Fence = false;
  const clang::Stmt *OpenCall = nullptr; // the helper call the opening came from
  const clang::Stmt *StoredIn = nullptr; // the one call all stores came from,
                                         // or many() (below)
  bool operator==(const BracketState &O) const {
    return Open == O.Open && Stored == O.Stored && Fence == O.Fence &&
           OpenCall == O.OpenCall && StoredIn == O.StoredIn;
  }
};

class BracketFlow : public DataflowPolicy<BracketState> {
public:
  using St = BracketState;

  BracketFlow(const FunctionTrace &T, int Key) : T(T), Key(Key) {}

  void transfer(const CFGBlock &B, St &S) { (void)step(B, S); }
  bool join(St &Into, const St &From, const CFGBlock &, unsigned) {
    // Two openings from different calls (or one from the function
    // itself): the function's own.
    const clang::Stmt *OpenCall = !Into.Open ? From.OpenCall
                                  : !From.Open ? Into.OpenCall
                                  : Into.OpenCall == From.OpenCall ? From.OpenCall
                                                                   : nullptr;
    St J{Into.Open || From.Open, Into.Stored || From.Stored, Into.Fence || From.Fence,
         OpenCall, joinCall(Into.StoredIn, From.StoredIn)};
    if (J == Into)
      return false;
    Into = J;
    return true;
  }

  /// Runs B's events from S; the state at a closing increment that
  /// brackets stores, if one does.
  std::optional<St> step(const CFGBlock &B, St &S) const {
    for (const Event &Ev : T.Blocks[B.getBlockID()].Events) {
      bool Write = Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW;
      const clang::Stmt *Call = Ev.Via ? Ev.S : nullptr;
      if (Write && Ev.Key == Key && Ev.Increment) {
        if (S.Stored && (!Call || S.StoredIn != Call))
          return S;
        S = St{true, false, false, Call, nullptr};
      } else if (Write && S.Open && Ev.Key != Key &&
                 (Ev.Key < 0 || !T.Keys[Ev.Key].isLocal()) &&
                 (!Call || Call != S.OpenCall)) {
        S.Stored = true;
        S.StoredIn = joinCall(S.StoredIn, Call ? Call : many());
      } else if (Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdSS) && S.Open) {
        S.Fence = true;
      }
    }
    return std::nullopt;
  }

private:
  /// StoredIn for stores from the function itself or from several calls:
  /// an address no statement has, never dereferenced.
  static const clang::Stmt *many() {
    static const char Marker = 0;
    return reinterpret_cast<const clang::Stmt *>(&Marker);
  }
  static const clang::Stmt *joinCall(const clang::Stmt *A, const clang::Stmt *B) {
    return !A ? B : !B ? A : A == B ? A : many();
  }
  const FunctionTrace &T;
  int Key;
};
} // namespace

/// Some path runs increment of Key, a store to other non-local data, and
/// another increment of Key, in that order (by reverse post-order). The
/// data lies between the two at this function's level: a store that a
/// helper seen through makes after its own opening increment, or before its
/// own closing one, is that helper's, not a section spanning two calls (a
/// test that calls two functions, each of which bumps a pending count).
bool FunctionClassifier::bracketsStores(int Key, bool *Fenced) const {
  // To a fixpoint over the CFG's paths (a loop's body may come after its
  // exit in reverse post-order); then the first closing increment, in
  // reverse post-order, says whether a write barrier ran in the section.
  BracketFlow Policy(T, Key);
  ForwardDataflow<BracketFlow::St, BracketFlow> Flow(*T.Cfg, Policy);
  Flow.solve(BracketFlow::St(), 50 * T.Cfg->getNumBlockIDs() + 1000, "writer-brackets",
             T.FD);
  for (const CFGBlock *B : Flow.order()) {
    const BracketFlow::St *In = Flow.in(*B);
    if (!In)
      continue;
    BracketFlow::St S = *In;
    if (std::optional<BracketFlow::St> Closed = Policy.step(*B, S)) {
      if (Fenced)
        *Fenced = Closed->Fence;
      return true;
    }
  }
  return false;
}

/// Ev (an increment) runs only when the count it increments is odd.
bool FunctionClassifier::parityFix(const Event &Ev) {
  const Stmt *Child = Ev.S;
  const Stmt *P = PM->getParent(Child);
  for (unsigned I = 0; P && I < 3; ++I, Child = P, P = PM->getParent(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If)
      continue;
    if (Child != If->getThen())
      return false;
    const auto *BO = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
    if (!BO || BO->getOpcode() != BO_And)
      return false;
    const Expr *X = BO->getLHS(), *One = BO->getRHS();
    if (isIntLiteral(X, Ctx, 1))
      std::swap(X, One);
    return isIntLiteral(One, Ctx, 1) && loadedKey(X) == Ev.Key;
  }
  return false;
}

} // namespace detail
} // namespace seqlint
