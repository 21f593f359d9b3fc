//===- Summaries.cpp - what a call does, seen from its caller ---------------===//
//
// FunctionSummary: whether a function of the TU writes globals or its
// parameters' objects, may order memory, or has side effects (through its
// callees too); and the side-effect question a read section asks of a call.
//
//===----------------------------------------------------------------------===//
#include "core/Classifier.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace seqlint {

namespace {
/// Has every path from the entry passed a block of Must? A must-analysis
/// (the join of two paths is their conjunction). A struct, not a bool: the
/// solver keeps a vector of states.
struct Passed {
  bool V = false;
};
struct MustPass : DataflowPolicy<Passed> {
  const std::vector<bool> &Must;
  explicit MustPass(const std::vector<bool> &Must) : Must(Must) {}
  void transfer(const CFGBlock &B, Passed &S) {
    S.V = S.V || (B.getBlockID() < Must.size() && Must[B.getBlockID()]);
  }
  bool join(Passed &Into, const Passed &Out, const CFGBlock &, unsigned) {
    if (!Into.V || Out.V)
      return false;
    Into.V = false;
    return true;
  }
};
} // namespace

/// Does every path from G's entry to its exit pass a block of Must? A
/// function whose exit no path reaches returns to no one and counts as
/// ordering.
static bool mustPassOrdering(const CFG &G, const std::vector<bool> &Must,
                             const FunctionDecl *FD) {
  MustPass A(Must);
  ForwardDataflow<Passed, MustPass> Flow(G, A);
  // Each block's state can only fall (true to false) once: two visits a
  // block reach the fixpoint.
  if (!Flow.solve(Passed{}, 4 * G.getNumBlockIDs() + 16, "must-order", FD))
    return true; // not known: as a call that cannot be seen into
  const Passed *AtExit = Flow.in(G.getExit());
  return !AtExit || AtExit->V;
}

const FunctionSummary &Classifier::summary(const FunctionDecl *FD) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  FunctionSummary &S = Summaries[FD];
  if (S.Done || S.Computing)
    return S;
  S.Computing = true;
  FunctionSummary R;
  if (auto T = classify(FD)) {
    // Per block: does it order (one of its events may, or must, order
    // memory)? MayOrder is any block's; MustOrder is that every path from
    // the entry to the exit passes a block that must.
    std::vector<bool> BlockMust(T->Blocks.size());
    for (unsigned BI = 0; BI != T->Blocks.size(); ++BI)
      for (const Event &Ev : T->Blocks[BI].Events) {
        // Whether this event orders: on some path through it (May), on
        // every path (Must; the two differ only for a call).
        bool May = false, Must = false;
        switch (Ev.Kind) {
        case EventKind::Store:
        case EventKind::RMW:
        case EventKind::CounterInc: {
          if (Ev.Key < 0) {
            // A helper's store through its own pointer, seen through: the
            // helper's summary (its Call) said what it writes before.
            if (!Ev.Via)
              R.WritesGlobal = true;
            break;
          }
          const LocationKey &K = T->key(Ev.Key);
          if (K.Storage == LocationKey::Param && K.ViaPointer) {
            if (const auto *P = dyn_cast<ParmVarDecl>(K.Base))
              R.WritesParams |= 1u << std::min(P->getFunctionScopeIndex(), 31u);
          } else if (K.Storage == LocationKey::Global) {
            R.WritesGlobal = true;
          }
          if (Ev.Kind != EventKind::Store && Ev.Ord >= Order::Acquire)
            May = Must = true;
          break;
        }
        case EventKind::Call:
          if (Ev.SideEffect) {
            R.SideEffect = true;
            break;
          }
          if (Ev.Callee && Ev.Callee->hasBody()) {
            const FunctionSummary &C = summary(Ev.Callee);
            R.WritesGlobal |= C.WritesGlobal;
            R.SideEffect |= C.SideEffect;
            May = C.MayOrder;
            Must = C.MustOrder;
          } else {
            May = Must = true; // cannot see inside
          }
          break;
        case EventKind::Lock:
        case EventKind::Unlock:
        case EventKind::WriteBegin:
        case EventKind::WriteEnd:
        case EventKind::ReadRetry:
        case EventKind::ReadBegin:
          May = Must = true;
          break;
        case EventKind::Barrier:
          May = Must = Ev.Bits != 0;
          break;
        case EventKind::Load:
          May = Must = Ev.Ord >= Order::Acquire;
          break;
        default:
          break;
        }
        R.MayOrder |= May;
        if (Must)
          BlockMust[BI] = true;
      }
    R.MustOrder = mustPassOrdering(*T->Cfg, BlockMust, FD);
  }
  FunctionSummary &Out = Summaries[FD];
  Out = R;
  Out.Done = true;
  return Out;
}

bool Classifier::callHasSideEffects(const FunctionTrace &T, const Event &E,
                                    int CounterKey) {
  if (E.SideEffect)
    return true;
  if (!E.Callee || !E.Callee->hasBody())
    return false; // unknown: stay silent
  // A call inside a helper seen through: its arguments are the helper's,
  // so only what it does to globals is known here.
  if (E.Via)
    return summary(E.Callee).WritesGlobal;
  // Kernel read sections call helpers that take references, lock and
  // unlock around their own data: only writes to global variables count.
  const FunctionSummary &S = summary(E.Callee);
  if (S.WritesGlobal)
    return true;
  if (!S.WritesParams)
    return false;
  // Stores through a parameter matter when the argument is shared data:
  // the object the counter lives in, or a global.
  const auto *CE = cast<CallExpr>(E.S);
  const LocationKey *Counter = CounterKey >= 0 ? &T.key(CounterKey) : nullptr;
  for (unsigned I = 0; I < CE->getNumArgs() && I < 32; ++I) {
    if (!(S.WritesParams & (1u << I)))
      continue;
    const Expr *A = CE->getArg(I)->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(A); U && U->getOpcode() == UO_AddrOf)
      A = U->getSubExpr()->IgnoreParenImpCasts();
    while (const auto *ME = dyn_cast<MemberExpr>(A))
      A = ME->getBase()->IgnoreParenImpCasts();
    const auto *DR = dyn_cast<DeclRefExpr>(A);
    if (!DR)
      continue;
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      continue;
    if (V->hasGlobalStorage())
      return true;
    if (Counter && Counter->Base == V)
      return true;
  }
  return false;
}


} // namespace seqlint
