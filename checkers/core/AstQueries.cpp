//===- AstQueries.cpp -----------------------------------------------------===//
#include "core/AstQueries.h"
#include "core/ApiModel.h"

#include "clang/AST/ASTContext.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

bool refersTo(const Stmt *S, const VarDecl *V, unsigned Depth) {
  if (!S || !V || Depth > 32)
    return false;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    return DR->getDecl() == V;
  for (const Stmt *Ch : S->children())
    if (refersTo(Ch, V, Depth + 1))
      return true;
  return false;
}

bool containsStmt(const Stmt *Outer, const Stmt *Inner, unsigned Depth) {
  if (!Outer || !Inner || Depth > 32)
    return false;
  if (Outer == Inner)
    return true;
  for (const Stmt *Ch : Outer->children())
    if (containsStmt(Ch, Inner, Depth + 1))
      return true;
  return false;
}

std::optional<int64_t> integerConstant(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().tryExtValue(); // (none for a 128-bit value)
}

EventKind atomicAccessKind(const AtomicExpr *AE) {
  switch (AE->getOp()) {
  case AtomicExpr::AO__c11_atomic_load:
  case AtomicExpr::AO__atomic_load_n:
  case AtomicExpr::AO__atomic_load:
    return EventKind::Load;
  case AtomicExpr::AO__c11_atomic_store:
  case AtomicExpr::AO__atomic_store_n:
  case AtomicExpr::AO__atomic_store:
  case AtomicExpr::AO__c11_atomic_init:
    return EventKind::Store;
  default:
    return EventKind::RMW;
  }
}

const ValueDecl *lvalueIdentity(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl()->getName().empty() ? nullptr
                                                    : ME->getMemberDecl();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      return V && V->hasGlobalStorage() && !V->isStaticLocal() ? V : nullptr;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool setupFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  return isSetupName(FD->getName());
}

const FunctionDecl *functionRef(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *FD = dyn_cast<FunctionDecl>(DR->getDecl()))
      return FD->getDefinition() ? FD->getDefinition() : nullptr;
  return nullptr;
}

namespace {
/// The local variable an lvalue names, through `.` members and elements of
/// a local array (`h.raw`, `v[2]`): storing there defines that local.
const VarDecl *definedLocal(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DR->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
             AS &&
             AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      E = AS->getBase();
    else
      return nullptr;
  }
  return nullptr;
}

void collectDefs(const Stmt *S,
                 DenseMap<const VarDecl *, SmallVector<const Expr *, 2>> &Defs,
                 DenseSet<const VarDecl *> &AddressTaken, unsigned Depth = 0) {
  if (!S || Depth > 256)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *V = definedLocal(BO->getLHS()))
        Defs[V].push_back(BO->getRHS());
  } else if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = definedLocal(U->getSubExpr()))
        // `&v` where v is a pointer or holds one: it can be set through
        // the address (`get(&p)`). The address of an object of the
        // function is its own (`w = &entry.wait`).
        if (V->getType()->isPointerType() || V->getType()->isRecordType() ||
            V->getType()->isArrayType())
          AddressTaken.insert(V);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
        Defs[V].push_back(V->getInit());
  }
  for (const Stmt *Ch : S->children())
    collectDefs(Ch, Defs, AddressTaken, Depth + 1);
}

/// The variables E reads, outside unevaluated operands (sizeof).
void readVars(const Stmt *S, SmallVectorImpl<const VarDecl *> &Out,
              unsigned Depth = 0) {
  if (!S || Depth > 64)
    return;
  if (isa<UnaryExprOrTypeTraitExpr>(S))
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      Out.push_back(V);
    return;
  }
  for (const Stmt *Ch : S->children())
    readVars(Ch, Out, Depth + 1);
}
} // namespace

ValueRoots::ValueRoots(const FunctionDecl *FD, ASTContext &Ctx)
    : FD(FD), Ctx(Ctx) {
  if (FD && FD->getBody())
    collectDefs(FD->getBody(), Defs, AddressTaken);
}

bool ValueRoots::roots(const VarDecl *V,
                       llvm::SmallPtrSetImpl<const VarDecl *> &Out) const {
  SmallVector<const VarDecl *, 8> Work{V};
  DenseSet<const VarDecl *> Seen;
  while (!Work.empty()) {
    const VarDecl *L = Work.pop_back_val();
    if (!L || !Seen.insert(L).second)
      continue;
    if (L->hasGlobalStorage() || isa<ParmVarDecl>(L)) {
      Out.insert(L);
      continue;
    }
    if (L->getDeclContext() != FD || AddressTaken.contains(L))
      return false;
    auto It = Defs.find(L);
    if (It == Defs.end())
      continue; // never given a value: points nowhere
    for (const Expr *D : It->second) {
      SmallVector<const VarDecl *, 4> Read;
      readVars(D, Read);
      if (Read.empty() && !isZeroValue(D, Ctx))
        return false;
      Work.append(Read.begin(), Read.end());
    }
  }
  return true;
}

const Expr *storedValue(const Stmt *S, bool Compound, unsigned Depth) {
  if (!S || Depth > 24)
    return nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->getOpcode() == BO_Assign || (Compound && BO->isCompoundAssignmentOp()))
      return BO->getRHS();
  if (const auto *AE = dyn_cast<AtomicExpr>(S))
    return AE->getNumSubExprs() > 2 ? AE->getVal1() : nullptr;
  for (const Stmt *Ch : S->children())
    if (const Expr *V = storedValue(Ch, Compound, Depth + 1))
      return V;
  return nullptr;
}

bool writtenIn(const Stmt *S, const VarDecl *V, unsigned Depth) {
  if (!S || Depth > 256)
    return false;
  auto Names = [V](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    return DR && DR->getDecl() == V;
  };
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp() && Names(B->getLHS()))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && Names(U->getSubExpr()))
    return true;
  for (const Stmt *C : S->children())
    if (writtenIn(C, V, Depth + 1))
      return true;
  return false;
}

bool isZeroValue(const Expr *E, ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParenCasts();
  if (E->isValueDependent())
    return false;
  if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return true;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().isZero();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (V->hasLocalStorage() && V->getInit()) {
        // `__le16 head_flags = 0; ... head_flags = flags;`: not a zero.
        const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
        if (FD && FD->getBody() && writtenIn(FD->getBody(), V))
          return false;
        return isZeroValue(V->getInit(), Ctx, Depth + 1);
      }
  return false;
}

bool mayOrderCall(const Event &E, Classifier &C) {
  if (E.Kind != EventKind::Call)
    return false;
  if (E.SideEffect) // wake-ups and completions order, logging does not
    return isOrderingSideEffectName(E.ApiName);
  if (!E.Callee || !E.Callee->hasBody())
    return true;
  return C.summary(E.Callee).MayOrder;
}

bool mustOrderCall(const Event &E, Classifier &C) {
  if (E.Kind != EventKind::Call)
    return false;
  if (E.SideEffect || !E.Callee || !E.Callee->hasBody())
    return mayOrderCall(E, C);
  return C.summary(E.Callee).MustOrder;
}

void BranchTests::add(const Stmt *S, unsigned Depth) {
  if (!S || Depth > 64)
    return;
  Nodes.insert(S);
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      Vars.insert(V);
  for (const Stmt *Ch : S->children())
    add(Ch, Depth + 1);
}

void BranchTests::walk(const Stmt *S, unsigned Depth) {
  if (!S || Depth > 256)
    return;
  if (const auto *I = dyn_cast<IfStmt>(S))
    add(I->getCond());
  else if (const auto *W = dyn_cast<WhileStmt>(S))
    add(W->getCond());
  else if (const auto *D = dyn_cast<DoStmt>(S))
    add(D->getCond());
  else if (const auto *F = dyn_cast<ForStmt>(S))
    add(F->getCond());
  else if (const auto *C = dyn_cast<ConditionalOperator>(S))
    add(C->getCond());
  else if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isLogicalOp())
    add(B->getLHS());
  if (Answers) {
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isComparisonOp()) {
      add(B); // `return head != tail`: the answer is a test
      Compares.push_back(B);
    } else if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (R->getRetValue() && R->getRetValue()->getType()->isIntegerType())
        add(R->getRetValue()); // a count or an "empty?" answer
    }
  }
  for (const Stmt *Ch : S->children())
    walk(Ch, Depth + 1);
}

} // namespace seqlint
