//===- ExtractEvents.cpp - API calls, atomics and fences to events ----------===//
//
// One event per known API call or macro instance (by the ApiModel's role),
// per atomic builtin, and per asm barrier.
//
//===----------------------------------------------------------------------===//
#include "core/AstQueries.h"
#include "core/Compat.h"
#include "core/FunctionClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace detail {

Order orderFromArg(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return Order::SeqCst;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return Order::SeqCst;
  switch (R.Val.getInt().getExtValue()) {
  case 0: // relaxed
    return Order::Once;
  case 1: // consume
  case 2: // acquire
    return Order::Acquire;
  case 3: // release
    return Order::Release;
  case 4: // acq_rel
    return Order::AcqRel;
  default:
    return Order::SeqCst;
  }
}

void FunctionClassifier::emitLocalUpdate(const VarDecl *V, const Stmt *At,
                                         bool Accumulates, BlockEvents &B) {
  Event Ev;
  Ev.Kind = EventKind::LocalUpdate;
  Ev.S = At;
  Ev.Loc = reportLoc(At);
  Ev.Var = V;
  Ev.Accumulates = Accumulates;
  B.Events.push_back(Ev);
  HasLocalUpdate = true;
  if (Accumulates)
    Accumulated.insert(V);
}

namespace {
/// Args[I], or null when there is no such argument.
const Expr *argAt(ArrayRef<const Expr *> Args, int I) {
  return I >= 0 && I < (int)Args.size() ? Args[I] : nullptr;
}
} // namespace

void FunctionClassifier::emitApiCall(const ApiEntry &E, StringRef Name,
                                     const Stmt *Root,
                                     ArrayRef<const Expr *> Args,
                                     BlockEvents &B) {
  Event Ev;
  Ev.S = Root;
  Ev.Loc = reportLoc(Root);
  Ev.Api = &E;
  Ev.ApiName = Name;
  Ev.Ord = E.Ord;
  Ev.Excludes = E.Excludes;
  Ev.ExcludeEnds = E.ExcludeEnds;
  switch (E.R) {
  case Role::ReadBegin:
  case Role::ReadBeginOrLock:
  case Role::ReadRetry:
  case Role::ReadDone:
  case Role::WriteBegin:
  case Role::WriteEnd:
  case Role::WriteOneShot:
    apiSequenceEvent(E, Root, Args, Ev);
    break;
  case Role::Barrier:
    Ev.Kind = EventKind::Barrier;
    Ev.Bits = barrierBits(E.Barrier);
    break;
  case Role::Load:
    Ev.Kind = EventKind::Load;
    Ev.Key = keyOf(argAt(Args, E.CounterArg), E.ArgIsPointer);
    if (Ev.Key >= 0 && T.Keys[Ev.Key].isLocal())
      return;
    LoadNodes[Root] = Ev.Key;
    useOf(Root, Ev);
    break;
  case Role::Store:
  case Role::RMW:
    if (!apiWriteEvent(E, Name, Args, Ev))
      return;
    break;
  case Role::Lock:
  case Role::Unlock:
    Ev.Kind = E.R == Role::Lock ? EventKind::Lock : EventKind::Unlock;
    Ev.Key = keyOf(argAt(Args, E.CounterArg), true);
    break;
  case Role::SideEffect:
    Ev.Kind = EventKind::Call;
    Ev.SideEffect = true;
    break;
  case Role::Pure:
    if (!apiPureEvent(E, Name, Args, Ev))
      return;
    break;
  }
  B.Events.push_back(Ev);
}

/// A seqcount API (begin, retry, end, one-shot step): its counter and the
/// variable that holds or validates the begin value.
void FunctionClassifier::apiSequenceEvent(const ApiEntry &E, const Stmt *Root,
                                          ArrayRef<const Expr *> Args, Event &Ev) {
  // A one-shot write step is the write barrier it issues, on its
  // counter (Event::isWriteStep()).
  Ev.Kind = E.R == Role::ReadBegin         ? EventKind::ReadBegin
            : E.R == Role::ReadBeginOrLock ? EventKind::ReadBeginOrLock
            : E.R == Role::ReadRetry       ? EventKind::ReadRetry
            : E.R == Role::ReadDone        ? EventKind::ReadDone
            : E.R == Role::WriteBegin      ? EventKind::WriteBegin
            : E.R == Role::WriteEnd        ? EventKind::WriteEnd
                                           : EventKind::Barrier;
  if (E.R == Role::WriteOneShot)
    Ev.Bits = OrdSS;
  Ev.Key = keyOf(argAt(Args, E.CounterArg), true);
  if (Ev.Key >= 0 && E.R != Role::WriteOneShot)
    T.Counters.insert(Ev.Key);
  Ev.Counter = true;
  Ev.RetryHasBarrier = E.RetryHasBarrier;
  if (E.ValueArg >= 0) {
    if (const Expr *V = argAt(Args, E.ValueArg)) {
      const Expr *X = V->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf)
        X = U->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(X))
        Ev.Var = dyn_cast<VarDecl>(DR->getDecl());
    }
  }
  if (Ev.Kind == EventKind::ReadBegin || Ev.Kind == EventKind::ReadRetry) {
    const VarDecl *RetryVar = Ev.Var;
    useOf(Root, Ev);
    if (Ev.Kind == EventKind::ReadRetry)
      Ev.Var = RetryVar;
  }
}

/// A marked store or an atomic read-modify-write: its object, and whether
/// it increments it. False: no event (a local's).
bool FunctionClassifier::apiWriteEvent(const ApiEntry &E, StringRef Name,
                                       ArrayRef<const Expr *> Args, Event &Ev) {
  Ev.Kind = E.R == Role::Store ? EventKind::Store : EventKind::RMW;
  const Expr *Target = argAt(Args, E.CounterArg);
  if (E.R == Role::RMW && E.ArgIsPointer && Target &&
      !Target->IgnoreParenImpCasts()->getType()->isPointerType()) {
    // atomic_add(i, v), atomic_fetch_add(i, v): the object is the
    // pointer argument, wherever it is.
    for (const Expr *A : Args)
      if (A && A->IgnoreParenImpCasts()->getType()->isPointerType()) {
        Target = A;
        break;
      }
  }
  // A device register is no memory location other CPUs read: the event
  // says "a doorbell is written here", ordered (writel) or not.
  Ev.Key = E.Mmio ? -1 : keyOf(Target, E.ArgIsPointer);
  if (Ev.Key >= 0 && T.Keys[Ev.Key].isLocal())
    return false;
  if (E.Mmio)
    return true;
  if (E.R == Role::Store) {
    Ev.Increment = isIncrementOf(argAt(Args, 1), Ev.Key);
    Ev.IncParam = Ev.Increment ? nullptr : incrementedParam(argAt(Args, 1), Ctx);
  } else
    Ev.Increment = isIncrementApiName(Name);
  return true;
}

/// An API with no effect on shared memory, but a bulk store to a ring's
/// slot or an exclusion (local_bh_disable()). False: no event.
bool FunctionClassifier::apiPureEvent(const ApiEntry &E, StringRef Name,
                                      ArrayRef<const Expr *> Args, Event &Ev) {
  // memcpy(&ring->slot[i], src, n): a store to the slot (a ring filled
  // in bulk). Only an element's address counts: the other destinations
  // are the caller's buffers.
  if (E.F == Family::Libc && isBulkCopyName(Name)) {
    const Expr *Dst = argAt(Args, 0);
    const auto *U = Dst ? dyn_cast<UnaryOperator>(Dst->IgnoreParenCasts()) : nullptr;
    if (U && U->getOpcode() == UO_AddrOf &&
        isa<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParenCasts())) {
      Ev.Kind = EventKind::Store;
      Ev.Ord = Order::Plain;
      Ev.Api = nullptr;
      Ev.ApiName = StringRef();
      Ev.Key = keyOf(Dst, true);
      return Ev.Key >= 0 && !T.Keys[Ev.Key].isLocal();
    }
  }
  // WARN_ON_ONCE(num_online_cpus() > 1): from here on the function says it
  // runs alone (Linux's synchronize_rcu() at early boot). Every other CPU is
  // held off as if by a lock the function asserts, as lockdep_assert_held()
  // asserts one; nothing releases it.
  if (isAssertionMacro(Name) && assertsOneCpu(argAt(Args, 0))) {
    Ev.Kind = EventKind::Lock;
    Ev.Key = -1;
    return true;
  }
  if (!E.Excludes)
    return false;
  Ev.Kind = EventKind::Exclude;
  return true;
}

/// `num_online_cpus() > 1`, `!= 1` or `>= 2`: the condition an assertion
/// rules out when it says one CPU is online.
bool FunctionClassifier::assertsOneCpu(const Expr *Cond) const {
  const auto *BO = Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts())
                        : nullptr;
  if (!BO)
    return false;
  const auto *Call = dyn_cast<CallExpr>(BO->getLHS()->IgnoreParenImpCasts());
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier() || !isOnlineCpuCount(F->getName()))
    return false;
  Expr::EvalResult R;
  if (BO->getRHS()->isValueDependent() ||
      !BO->getRHS()->EvaluateAsInt(R, Ctx))
    return false;
  const llvm::APSInt &V = R.Val.getInt();
  switch (BO->getOpcode()) {
  case BO_GT:
  case BO_NE:
    return V == 1;
  case BO_GE:
    return V == 2;
  default:
    return false;
  }
}

void FunctionClassifier::emitInstance(const MacroInstance *I, const Stmt *Root,
                                      BlockEvents &B) {
  SmallVector<const Expr *, 4> Args = instanceArgs(I, Root);
  emitApiCall(*I->Entry, I->Name, Root, Args, B);
}

void FunctionClassifier::classifyAtomic(const AtomicExpr *AE, BlockEvents &B) {
  Event Ev;
  Ev.S = AE;
  Ev.Loc = reportLoc(AE);
  Ev.Ord = orderFromArg(AE->getOrder(), Ctx);
  Ev.Key = keyOf(AE->getPtr(), true);
  if (Ev.Key >= 0 && T.Keys[Ev.Key].isLocal())
    return;
  Ev.Kind = atomicAccessKind(AE);
  if (Ev.Kind == EventKind::Load) {
    LoadNodes[AE] = Ev.Key;
    useOf(AE, Ev);
  } else if (Ev.Kind == EventKind::Store) {
    Ev.Increment = isIncrementOf(AE->getVal1(), Ev.Key);
    Ev.IncParam = Ev.Increment ? nullptr : incrementedParam(AE->getVal1(), Ctx);
  }
  switch (AE->getOp()) {
  case AtomicExpr::AO__c11_atomic_fetch_add:
  case AtomicExpr::AO__atomic_fetch_add:
  case AtomicExpr::AO__atomic_add_fetch:
    Ev.Increment = isIntLiteral(AE->getVal1(), Ctx, 1);
    break;
  case AtomicExpr::AO__c11_atomic_compare_exchange_strong:
  case AtomicExpr::AO__c11_atomic_compare_exchange_weak:
  case AtomicExpr::AO__atomic_compare_exchange_n:
    // cmpxchg(&x, old, old + 1) with old loaded from x: a claim of the
    // count, the writer's odd increment done atomically.
    Ev.Increment = isIncrementOf(AE->getVal2(), Ev.Key);
    Ev.Claim = Ev.Increment;
    break;
  default:
    break;
  }
  B.Events.push_back(Ev);
}

void FunctionClassifier::classifyAsm(const GCCAsmStmt *AS, BlockEvents &B) {
  bool Memory = false;
  for (unsigned I = 0; I != AS->getNumClobbers(); ++I)
    if (AS->getClobber(I) == "memory")
      Memory = true;
  if (!Memory)
    return;
  std::string Text = StringRef(compat::asmString(AS)).lower();
  unsigned Bits = Model.asmBits(Text);
  // A compiler barrier here that a macro spells as a barrier instruction on
  // another architecture (libbpf_smp_rmb(): "" on x86, `dmb ishld` on
  // arm64): the ordering the code asks for is the weakly ordered one.
  StringRef Macro;
  if (!Bits && StringRef(Text).trim().empty())
    for (SourceLocation L = AS->getBeginLoc(); L.isMacroID();
         L = SM.getImmediateMacroCallerLoc(L)) {
      StringRef Name = Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts());
      if (unsigned Other = Index.otherArchBits(Name)) {
        Bits = Other;
        Macro = Name; // the project's barrier, judged as an API barrier
        break;
      }
    }
  Event Ev;
  Ev.Kind = EventKind::Barrier;
  Ev.S = AS;
  Ev.Loc = reportLoc(AS);
  Ev.Bits = Bits;
  Ev.ApiName = Macro;
  B.Events.push_back(Ev);
}

} // namespace detail
} // namespace seqlint
