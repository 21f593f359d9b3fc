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

const FunctionSummary &Classifier::summary(const FunctionDecl *FD) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  FunctionSummary &S = Summaries[FD];
  if (S.Done || S.Computing)
    return S;
  S.Computing = true;
  FunctionSummary R;
  if (auto T = classify(FD)) {
    for (const BlockEvents &BE : T->Blocks)
      for (const Event &Ev : BE.Events) {
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
            R.MayOrder = true;
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
            R.MayOrder |= C.MayOrder;
            R.SideEffect |= C.SideEffect;
          } else {
            R.MayOrder = true; // cannot see inside
          }
          break;
        case EventKind::Lock:
        case EventKind::Unlock:
        case EventKind::WriteBegin:
        case EventKind::WriteEnd:
          R.MayOrder = true;
          break;
        case EventKind::Barrier:
          if (Ev.Bits)
            R.MayOrder = true;
          break;
        case EventKind::ReadRetry:
        case EventKind::ReadBegin:
          R.MayOrder = true;
          break;
        case EventKind::Load:
          if (Ev.Ord >= Order::Acquire)
            R.MayOrder = true;
          break;
        default:
          break;
        }
      }
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
