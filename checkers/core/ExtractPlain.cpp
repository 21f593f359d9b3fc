//===- ExtractPlain.cpp - plain statements to events ------------------------===//
//
// Loads, stores, increments, declarations, returns and calls that are not
// a known macro's instance: each CFG element outside an instance.
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace detail {

namespace {

unsigned fenceBits(Order O) {
  switch (O) {
  case Order::Plain:
  case Order::Once:
    return 0;
  case Order::Acquire:
    return OrdLL | OrdLS;
  case Order::Release:
    return OrdLS | OrdSS;
  case Order::AcqRel:
    return OrdLL | OrdLS | OrdSS;
  case Order::SeqCst:
    return OrdFull;
  }
  return 0;
}

/// E mentions the variable V.
bool refersTo(const Stmt *E, const VarDecl *V) {
  if (!E)
    return false;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    return DR->getDecl() == V;
  for (const Stmt *C : E->children())
    if (refersTo(C, V))
      return true;
  return false;
}


} // namespace

void FunctionClassifier::classifyPlain(const Stmt *S, BlockEvents &B) {
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S)) {
    classifyLoad(IC, B);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    classifyAssign(BO, B);
  } else if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    classifyIncDec(U, B);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    classifyDecl(DS, B);
  } else if (const auto *AE = dyn_cast<AtomicExpr>(S)) {
    classifyAtomic(AE, B);
  } else if (const auto *AS = dyn_cast<GCCAsmStmt>(S)) {
    classifyAsm(AS, B);
  } else if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    Event Ev;
    Ev.Kind = EventKind::Return;
    Ev.S = RS;
    Ev.Loc = reportLoc(RS);
    B.Events.push_back(Ev);
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    classifyCall(CE, B);
  }
}

/// A load of shared memory: an lvalue-to-rvalue conversion of anything but
/// a plain local or parameter.
void FunctionClassifier::classifyLoad(const ImplicitCastExpr *IC, BlockEvents &B) {
  if (IC->getCastKind() != CK_LValueToRValue)
    return;
  const Expr *Sub = IC->getSubExpr();
  const auto *SubRef = dyn_cast<DeclRefExpr>(Sub->IgnoreParens());
  const auto *SubVar = SubRef ? dyn_cast<VarDecl>(SubRef->getDecl()) : nullptr;
  if (SubVar && SubVar->isLocalVarDeclOrParm() &&
      !Sub->getType().isVolatileQualified() && !Sub->getType()->isAtomicType())
    return; // reading a local or a parameter
  int K = keyOf(Sub, false);
  if (K < 0 || T.Keys[K].isLocal() || inAddressOffset(IC, PM))
    return;
  Event Ev;
  Ev.Kind = EventKind::Load;
  Ev.S = IC;
  Ev.Loc = reportLoc(Sub);
  Ev.Key = K;
  QualType Ty = Sub->getType();
  Ev.Ord = Ty->isAtomicType()             ? Order::SeqCst
           : Ty.isVolatileQualified()     ? Order::Once
                                          : Order::Plain;
  LoadNodes[IC] = K;
  useOf(IC, Ev);
  B.Events.push_back(Ev);
}

/// An assignment: to a local (what it now holds), to part of a local
/// aggregate (an accumulation), or a store to shared memory.
void FunctionClassifier::classifyAssign(const BinaryOperator *BO, BlockEvents &B) {
  if (!BO->isAssignmentOp())
    return;
  const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(L))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (V->hasLocalStorage()) {
        assignLocal(BO, V, B);
        return;
      }
  int K = keyOf(BO->getLHS(), false);
  if (K < 0)
    return;
  if (T.Keys[K].isLocal()) {
    // A part of a local aggregate (tmp.rx += v, sums[i] += v): only an
    // accumulation matters; a partial store does not renew the whole.
    if (BO->isCompoundAssignmentOp() && T.Keys[K].Base && !isConstant(BO->getRHS()))
      emitLocalUpdate(T.Keys[K].Base, BO, /*Accumulates=*/true, B);
    return;
  }
  Event Ev;
  Ev.Kind = BO->getOpcode() == BO_Assign ? EventKind::Store : EventKind::RMW;
  Ev.S = BO;
  Ev.Loc = reportLoc(BO->getLHS());
  Ev.Key = K;
  Ev.Ord = BO->getLHS()->getType()->isAtomicType() ? Order::SeqCst
           : BO->getLHS()->getType().isVolatileQualified() ? Order::Once
                                                           : Order::Plain;
  if (BO->getOpcode() == BO_Assign)
    noteStoredValue(BO, K, Ev, B);
  else
    noteCompoundStep(BO, K, Ev);
  B.Events.push_back(Ev);
}

/// `v = ...` or `v op= ...` for a local v.
void FunctionClassifier::assignLocal(const BinaryOperator *BO, const VarDecl *V,
                                     BlockEvents &B) {
  if (BO->getOpcode() == BO_Assign)
    noteLocalAssign(V, BO->getRHS());
  if (V->getType()->isPointerType()) {
    // p = next: what p->x designates changes from here on.
    Event Ev;
    Ev.Kind = EventKind::LocalDef;
    Ev.S = BO;
    Ev.Loc = reportLoc(BO);
    Ev.Var = V;
    B.Events.push_back(Ev);
  } else if (!(BO->isCompoundAssignmentOp() && isConstant(BO->getRHS()))) {
    // tries += 1 counts attempts, not data: no accumulation.
    emitLocalUpdate(V, BO, BO->isCompoundAssignmentOp() || refersTo(BO->getRHS(), V), B);
  }
}

/// Store Ev (`x = value` to key K): is the value the count's increment?
void FunctionClassifier::noteStoredValue(const BinaryOperator *BO, int K, Event &Ev,
                                         BlockEvents &B) {
  // `g->v = h->v = (g->v + 1) | 1;`: h->v mirrors g->v's new value.
  if (const auto *Inner = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
      Inner && Inner->getOpcode() == BO_Assign)
    if (int M = keyOf(Inner->getLHS(), false); M >= 0 && M != K)
      MirrorOf[M] = K;
  Ev.Increment = isIncrementOf(BO->getRHS(), K);
  // `g->v = ++h->v;` with h->v a mirror: the mirror's step computes the
  // count's next value, it is no data store of the section.
  if (Ev.Increment)
    if (const UnaryOperator *U = preIncrement(BO->getRHS())) {
      int M = keyOf(U->getSubExpr(), false);
      auto It = llvm::find_if(llvm::reverse(B.Events), [&](const Event &E) {
        return E.Kind == EventKind::RMW && E.Key == M && E.S == U;
      });
      if (It != B.Events.rend())
        B.Events.erase(std::next(It).base());
    }
  // Forcing the low bit on is a parity step: the count is odd after it.
  if (Ev.Increment && forcesOdd(BO->getRHS()))
    T.OddCheckedKeys.insert(K);
  Ev.IncParam = Ev.Increment ? nullptr : incrementedParam(BO->getRHS(), Ctx);
}

/// RMW Ev (`x op= value` to key K): is it a step of the count?
void FunctionClassifier::noteCompoundStep(const BinaryOperator *BO, int K, Event &Ev) {
  Ev.Increment = BO->getOpcode() == BO_AddAssign &&
                 (isIntLiteral(BO->getRHS(), Ctx, 1) || isParityStep(BO->getRHS(), K));
  // count += step, with the step a parameter: the caller's increment
  // when it passes a parity step (xt_write_recseq_end(addend)).
  if (!Ev.Increment && BO->getOpcode() == BO_AddAssign)
    if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getRHS()->IgnoreParenImpCasts()))
      if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
          P && P->getType()->isIntegerType()) {
        Ev.IncParam = P;
        Ev.StepParam = true;
      }
}

/// `x++`, `--x` of shared memory: a read-modify-write.
void FunctionClassifier::classifyIncDec(const UnaryOperator *U, BlockEvents &B) {
  if (!U->isIncrementDecrementOp())
    return;
  int K = keyOf(U->getSubExpr(), false);
  if (K < 0)
    return;
  if (T.Keys[K].isLocal())
    return; // tries++, i++: counts attempts or steps, not data

  Event Ev;
  Ev.Kind = EventKind::RMW;
  Ev.S = U;
  Ev.Loc = reportLoc(U);
  Ev.Key = K;
  Ev.Ord = U->getSubExpr()->getType()->isAtomicType() ? Order::SeqCst : Order::Plain;
  Ev.Increment = U->isIncrementOp();
  B.Events.push_back(Ev);
}

void FunctionClassifier::classifyDecl(const DeclStmt *DS, BlockEvents &B) {
  for (const Decl *D : DS->decls())
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      noteLocalAssign(V, V->getInit());
      // A declaration inside a loop makes a new object every iteration.
      if (V->hasLocalStorage() && !V->getType()->isPointerType())
        emitLocalUpdate(V, DS, /*Accumulates=*/false, B);
    }
}

/// A call: a known API, a builtin, a helper of the TU seen through, a lock
/// by its name, or a call.
void FunctionClassifier::classifyCall(const CallExpr *CE, BlockEvents &B) {
  const FunctionDecl *F = calleeOf(CE);
  StringRef Name = F && F->getIdentifier() ? F->getName() : StringRef();
  if (!Name.empty() && classifyKnownCall(CE, Name, B))
    return;
  Event Ev;
  Ev.Kind = EventKind::Call;
  Ev.S = CE;
  Ev.Loc = reportLoc(CE);
  Ev.Callee = F;
  Ev.Noreturn = F && (F->isNoReturn() || F->hasAttr<NoReturnAttr>());
  if (!Name.empty())
    if (std::optional<BitOp> Op = Model.bitOp(Name)) {
      Ev.BitOp = Op->Modifies ? 2 : 1;
      Ev.BitAtomic = Op->Atomic;
      Ev.BitWordArg = (unsigned char)Op->WordArg;
    }
  // A helper of the TU: what it does to sections, locks and ordering
  // happens here, in this function's terms (and its name says nothing).
  if (F && !Ev.Noreturn && !isLockGuardConstructor(Name) &&
      C.helperEffect(F, /*Getters=*/true)) {
    spliceHelper(CE, F, B);
    return;
  }
  // Subsystem locks the model does not list by name (lock_sock,
  // raw_spin_lock_rcu_node, down_read_trylock, ...): by naming convention.
  if (int L = lockLikeName(Name)) {
    Ev.Kind = L > 0 ? EventKind::Lock : EventKind::Unlock;
    Ev.Key = CE->getNumArgs() ? keyOf(CE->getArg(0), true) : -1;
  }
  // guard(spinlock)(&s->lock), scoped_guard(mutex, &m): <linux/cleanup.h>
  // calls class_<guard>_constructor(lock); the release runs as a cleanup
  // at the end of the scope, which the CFG here does not show.
  if (isLockGuardConstructor(Name)) {
    Ev.Kind = EventKind::Lock;
    Ev.ApiName = Name;
    Ev.Key = CE->getNumArgs() ? keyOf(CE->getArg(0), true) : -1;
  }
  B.Events.push_back(Ev);
}

/// A call of an API the model knows, a fence or __sync builtin, or a
/// builtin that does nothing seqlint sees: its events, and true.
bool FunctionClassifier::classifyKnownCall(const CallExpr *CE, StringRef Name,
                                           BlockEvents &B) {
  if (const ApiEntry *E = Model.lookup(Name)) {
    SmallVector<const Expr *, 4> Args(CE->arguments());
    emitApiCall(*E, Name, CE, Args, B);
    return true;
  }
  BuiltinKind BK = builtinKind(Name);
  if (BK == BuiltinKind::SignalFence) {
    Event Ev; // orders nothing across threads
    Ev.Kind = EventKind::Barrier;
    Ev.S = CE;
    Ev.Loc = reportLoc(CE);
    B.Events.push_back(Ev);
    return true;
  }
  if (BK == BuiltinKind::ThreadFence) {
    Event Ev;
    Ev.Kind = EventKind::Barrier;
    Ev.S = CE;
    Ev.Loc = reportLoc(CE);
    Ev.Bits = fenceBits(orderFromArg(CE->getNumArgs() ? CE->getArg(0) : nullptr, Ctx));
    B.Events.push_back(Ev);
    return true;
  }
  if (BK == BuiltinKind::SyncRmw) {
    Event Ev;
    Ev.Kind = EventKind::RMW;
    Ev.S = CE;
    Ev.Loc = reportLoc(CE);
    Ev.Ord = Order::SeqCst;
    Ev.Key = CE->getNumArgs() ? keyOf(CE->getArg(0), true) : -1;
    B.Events.push_back(Ev);
    return true;
  }
  return BK == BuiltinKind::Transparent;
}

} // namespace detail
} // namespace seqlint
