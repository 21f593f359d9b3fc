//===- HelperSplice.cpp - a helper's effect at a call -----------------------===//
//
// A helper of the TU seen through (Classifier::helperEffect()): its events
// are spliced in at the call, with the caller's arguments for its
// parameters in the keys, and the caller's use of its value.
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace detail {

/// The caller's key for the helper's key K at the call CE: the helper's
/// parameter replaced by the argument (`l->epoch` with `&ts->lk` is
/// `ts->lk.epoch`, with `cd` it is `cd->epoch`); globals stay what they
/// are. -1 if the location is the helper's own.
int FunctionClassifier::mapKey(const LocationKey &K, const CallExpr *CE,
                               bool KeepLocal) {
  if (!K.Base) {
    // this_cpu_ptr(&x)->f, per-CPU statement expressions: the same memory
    // whoever names it; `this` is the helper's object.
    if (!K.Path.empty() && K.Path.front().Kind == KeyStep::This)
      return -1;
    return internKey(K);
  }
  const auto *P = dyn_cast<ParmVarDecl>(K.Base);
  if (!P)
    return K.Storage == LocationKey::Global ? internKey(K) : -1;
  if (!K.ViaPointer)
    return -1; // a by-value parameter is the helper's copy
  unsigned I = P->getFunctionScopeIndex();
  if (I >= CE->getNumArgs() || K.Path.empty() || K.Path.front().D != P)
    return -1;
  // The steps after the parameter, and whether one is spelled around it.
  ArrayRef<KeyStep> Rest = ArrayRef<KeyStep>(K.Path).drop_front();
  auto IsWrap = [](const KeyStep &S) {
    return S.Kind == KeyStep::Deref || S.Kind == KeyStep::AddrOf;
  };
  unsigned Wraps = llvm::count_if(Rest, IsWrap);
  const Expr *A = CE->getArg(I)->IgnoreParenImpCasts();
  bool AddrOf = false;
  if (const auto *U = dyn_cast<UnaryOperator>(A); U && U->getOpcode() == UO_AddrOf) {
    AddrOf = true;
    A = U->getSubExpr()->IgnoreParenImpCasts();
  }
  LocationKey N;
  if (!buildKey(A, N, 0))
    return -1;
  bool DirectMember = false; // `p->f` with `&x`: f is a member of x itself
  bool Arrows = false;       // the helper's path goes through a pointer
  if (AddrOf) {
    // p designates the argument's object itself.
    if (!Rest.empty() && Rest.front().Kind == KeyStep::Deref && Wraps == 1) {
      Rest = Rest.drop_front(); // *p is x
    } else if (!Rest.empty() && Rest.front().Kind == KeyStep::Arrow && Rest.front().D) {
      KeyStep Member = Rest.front(); // p->f is x.f
      Member.Kind = KeyStep::Member;
      N.Path.push_back(Member);
      Rest = Rest.drop_front();
      DirectMember = Wraps == 0 && llvm::none_of(Rest, [](const KeyStep &S) {
                       return S.isMember();
                     });
    } else {
      return -1; // (&x)[i]
    }
  } else {
    N.ViaPointer = true;
  }
  for (const KeyStep &S : Rest)
    Arrows |= S.Kind == KeyStep::Arrow;
  N.Path.append(Rest.begin(), Rest.end());
  if (Wraps || Arrows)
    N.ViaPointer = true;
  if (K.Field) {
    // `l->epoch` with `&ts->lk`: epoch held by lk (with `&g`: by g), as if
    // written there.
    const ValueDecl *Holder =
        N.Field ? N.Field
        : (N.Storage == LocationKey::Global && !N.ViaPointer) ? N.Base
                                                               : nullptr;
    N.Outer = K.Outer;
    if (!K.Outer && DirectMember)
      N.Outer = Holder;
    N.Field = K.Field;
  }
  N.spell();
  if (N.isLocal() && !KeepLocal)
    return -1;
  return internKey(N);
}

namespace {
/// The caller's local passed at CE for the helper's parameter V, if any.
const VarDecl *argLocal(const CallExpr *CE, const VarDecl *V) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(V);
  if (!P || P->getFunctionScopeIndex() >= CE->getNumArgs())
    return nullptr;
  const Expr *A = CE->getArg(P->getFunctionScopeIndex())->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(A))
    if (const auto *X = dyn_cast<VarDecl>(DR->getDecl()))
      if (X->hasLocalStorage())
        return X;
  return nullptr;
}
} // namespace

void FunctionClassifier::spliceHelper(const CallExpr *CE, const FunctionDecl *F,
                                      BlockEvents &B) {
  const HelperEffect *H = C.helperEffect(F, /*Getters=*/true);
  if (!H)
    return;
  C.noteSeenThrough(F);
  // How this function uses the helper's value.
  Event CallUse;
  useOf(CE, CallUse);
  SmallVector<int, 8> Map(H->Keys.size(), -2);
  auto Mapped = [&](int K) {
    if (K < 0)
      return -1;
    if (Map[K] == -2)
      Map[K] = mapKey(H->Keys[K], CE);
    return Map[K];
  };
  SourceLocation At = reportLoc(CE);
  for (const Event &E : H->Events) {
    Event Ev = E;
    Ev.S = CE;
    Ev.Loc = At;
    if (!E.Via) {
      Ev.Via = F;
      Ev.InnerLoc = E.Loc;
      Ev.InnerS = E.S;
    }
    if (E.Key >= 0) {
      Ev.Key = Mapped(E.Key);
      // A fully ordered RMW orders the caller's accesses whatever it
      // writes: on the caller's own object (a hazard pointer published
      // through a record on its stack) it stays, as a local access.
      if (Ev.Key < 0 && E.Kind == EventKind::RMW && E.Ord >= Order::AcqRel)
        Ev.Key = mapKey(H->Keys[E.Key], CE, /*KeepLocal=*/true);
      if (Ev.Key < 0 && E.Kind != EventKind::Lock && E.Kind != EventKind::Unlock)
        continue; // the helper's own memory (or through its own pointers)
    }
    bool Value = E.Kind == EventKind::Load || E.Kind == EventKind::ReadBegin ||
                 E.Kind == EventKind::ReadRetry || E.Kind == EventKind::ReadBeginOrLock;
    if (Value)
      spliceValueUse(CE, *H, CallUse, E, Ev);
    // store(&c->era, e + 1) in the helper, with the caller's copy of the
    // count for e: the caller's increment.
    if (E.IncParam && Ev.Key >= 0 &&
        (E.Kind == EventKind::Store || E.Kind == EventKind::RMW))
      spliceIncrement(CE, E, Ev);
    if (Ev.Counter && Ev.Key >= 0 && !Ev.isWriteStep())
      T.Counters.insert(Ev.Key);
    B.Events.push_back(Ev);
  }
  for (int K : H->OddCheckedKeys)
    if (int M = Mapped(K); M >= 0)
      T.OddCheckedKeys.insert(M);
  for (const ParmVarDecl *P : H->OddCheckedParams)
    if (const VarDecl *V = argLocal(CE, P))
      T.OddCheckedVars.insert(V);
  for (const ParmVarDecl *P : H->ValueTestedParams)
    if (const VarDecl *V = argLocal(CE, P))
      T.ValueTestedVars.insert(V);
}

/// Ev, the copy of the helper's load or begin/retry E at the call CE: the
/// caller's use of the value (CallUse) when the helper returns it, the
/// caller's local when the helper compares it with a parameter.
void FunctionClassifier::spliceValueUse(const CallExpr *CE, const HelperEffect &H,
                                        const Event &CallUse, const Event &E, Event &Ev) {
  bool Returned = E.Use == ValueUse::Returned ||
                  (E.Use == ValueUse::Assigned && E.Var && E.Var == H.ReturnVar);
  if (E.Kind == EventKind::ReadRetry) {
    // The begin value it validates is an argument.
    Ev.Var = argLocal(CE, E.Var);
    if (E.Use == ValueUse::Returned)
      Ev.Use = CallUse.Use;
  } else if (Returned) {
    Ev.Use = CallUse.Use;
    Ev.Var = CallUse.Var;
    Ev.Masked = E.Masked || CallUse.Masked || H.ReturnMasked;
    if (H.ReturnOddChecked && Ev.Var)
      T.OddCheckedVars.insert(Ev.Var);
    Ev.HelperBegin = H.BeginHelper && E.Kind == EventKind::Load;
    if (E.Kind == EventKind::Load && Ev.Key >= 0)
      LoadNodes[CE] = Ev.Key;
  } else if (E.Use == ValueUse::Compared) {
    Ev.Var = argLocal(CE, E.Var);
    Ev.Use = Ev.Var ? ValueUse::Compared : ValueUse::Other;
    Ev.RetryTrueIfValid = H.LoadComparedEqual;
  } else if (E.Use == ValueUse::Assigned) {
    auto It = E.Var ? H.ComparedWithParam.find(E.Var) : H.ComparedWithParam.end();
    Ev.Var = It != H.ComparedWithParam.end() ? argLocal(CE, It->second) : nullptr;
    Ev.Use = Ev.Var ? ValueUse::Compared : ValueUse::Other;
    Ev.RetryTrueIfValid = E.Var && H.ComparedEqual.count(E.Var);
  }
}

/// Ev, the copy of the helper's store E of its parameter plus one (or plus
/// a step it is passed), is an increment when the caller passes the count
/// (or a parity step of it).
void FunctionClassifier::spliceIncrement(const CallExpr *CE, const Event &E, Event &Ev) {
  Ev.IncParam = nullptr;
  Ev.StepParam = false;
  const auto *P = cast<ParmVarDecl>(E.IncParam);
  if (P->getFunctionScopeIndex() < CE->getNumArgs()) {
    const Expr *A = CE->getArg(P->getFunctionScopeIndex());
    Ev.Increment = E.StepParam ? isParityStep(A, Ev.Key) : holdsCount(A, Ev.Key);
  }
}

} // namespace detail
} // namespace seqlint
