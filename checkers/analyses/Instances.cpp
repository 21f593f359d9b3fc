//===- Instances.cpp - which object a pointer names, at the callers -------===//
#include "analyses/Instances.h"
#include "core/AstQueries.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include <optional>

using namespace clang;
using namespace llvm;

namespace seqlint {

namespace {

/// Collects direct calls with their caller, and functions named anywhere
/// else (an ops table's initialiser, a callback argument).
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  DenseMap<const FunctionDecl *, std::vector<CallSites::Site>> &Calls;
  DenseMap<const FunctionDecl *, unsigned> Refs;
  const FunctionDecl *Current = nullptr;

  explicit CallCollector(
      DenseMap<const FunctionDecl *, std::vector<CallSites::Site>> &Calls)
      : Calls(Calls) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return R;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *F = CE->getDirectCallee())
      Calls[F->getCanonicalDecl()].push_back({Current, CE});
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *F = dyn_cast<FunctionDecl>(DR->getDecl()))
      ++Refs[F->getCanonicalDecl()];
    return true;
  }
};

/// The outermost for loop in S whose body holds At (null if none).
const ForStmt *loopAround(const Stmt *S, const CallExpr *At,
                          unsigned Depth = 0) {
  if (!S || Depth > 96)
    return nullptr;
  if (const auto *For = dyn_cast<ForStmt>(S);
      For && containsStmt(For->getBody(), At))
    return For;
  for (const Stmt *C : S->children())
    if (const ForStmt *F = loopAround(C, At, Depth + 1))
      return F;
  return nullptr;
}

/// The local V of FD as the counter of the outermost for loop around At
/// (a counter of a loop nested in it is not looked for): set to a
/// constant by the loop's init, stepped up by its increment, and changed
/// nowhere in its body. Its smallest value there.
std::optional<int64_t> loopLowerBound(const FunctionDecl *FD,
                                      const CallExpr *At, const VarDecl *V) {
  if (!FD || !At)
    return std::nullopt;
  const ForStmt *For = loopAround(FD->getBody(), At);
  if (!For)
    return std::nullopt;
  const ASTContext &Ctx = FD->getASTContext();
  auto IsV = [V](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == V;
  };
  std::optional<int64_t> Init;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit())) {
    if (BO->getOpcode() == BO_Assign && IsV(BO->getLHS()))
      Init = integerConstant(BO->getRHS(), Ctx);
  } else if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (DS->isSingleDecl() && DS->getSingleDecl() == V)
      Init = integerConstant(V->getInit(), Ctx);
  }
  bool Up = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(For->getInc())) {
    Up = UO->isIncrementOp() && IsV(UO->getSubExpr());
  } else if (const auto *CA =
                 dyn_cast_or_null<CompoundAssignOperator>(For->getInc())) {
    std::optional<int64_t> Step = integerConstant(CA->getRHS(), Ctx);
    Up = CA->getOpcode() == BO_AddAssign && IsV(CA->getLHS()) && Step &&
         *Step > 0;
  }
  if (Init && Up && !writtenIn(For->getBody(), V) &&
      !writtenIn(For->getCond(), V))
    return Init;
  return std::nullopt;
}

/// Can two subscripts, as written at their instances, never be equal?
bool indicesDiffer(const Expr *A, const Instance &IA, const Expr *B,
                   const Instance &IB) {
  const ASTContext &Ctx = IA.In->getASTContext();
  std::optional<int64_t> CA = integerConstant(A, Ctx),
                         CB = integerConstant(B, Ctx);
  if (CA && CB)
    return *CA != *CB;
  auto CounterAbove = [&](const Expr *X, const Instance &I, int64_t C) {
    const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || !I.In || !I.At)
      return false;
    std::optional<int64_t> Low = loopLowerBound(I.In, I.At, V);
    return Low && *Low > C;
  };
  if (CA)
    return CounterAbove(B, IB, *CA);
  if (CB)
    return CounterAbove(A, IA, *CB);
  return false;
}

/// One step of an access path from its root variable outward: a member,
/// a subscript, or a dereference (a pointer followed).
struct Step {
  const FieldDecl *Field = nullptr;
  const Expr *Index = nullptr;
  bool Deref = false;
};

/// E as a root variable and the steps from it (`&tp->napi[i].prodring`:
/// tp, deref, napi, [i], prodring). False if E is not such a chain.
bool flatten(const Expr *E, const VarDecl *&Root, SmallVectorImpl<Step> &Steps,
             unsigned Depth = 0) {
  if (!E || Depth > 16)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    Root = dyn_cast<VarDecl>(DR->getDecl());
    return Root != nullptr;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf) // the same object, by address
      return flatten(U->getSubExpr(), Root, Steps, Depth + 1);
    if (U->getOpcode() != UO_Deref ||
        !flatten(U->getSubExpr(), Root, Steps, Depth + 1))
      return false;
    Steps.push_back({nullptr, nullptr, true});
    return true;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!F || !flatten(M->getBase(), Root, Steps, Depth + 1))
      return false;
    if (M->isArrow())
      Steps.push_back({nullptr, nullptr, true});
    Steps.push_back({F, nullptr, false});
    return true;
  }
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = A->getBase()->IgnoreParenImpCasts();
    if (!flatten(Base, Root, Steps, Depth + 1))
      return false;
    if (!Base->getType()->isArrayType()) // p[i]: a pointer followed
      Steps.push_back({nullptr, nullptr, true});
    Steps.push_back({nullptr, A->getIdx(), false});
    return true;
  }
  return false;
}

/// Two paths from roots of one type name different objects if, at the
/// first step where they part, they take different members of one record
/// (not a union) or subscripts that cannot be equal, and no pointer is
/// followed after that: two subobjects of one object are apart, and so
/// are any subobjects of two objects of one type.
bool distinctExpr(const Instance &A, const Instance &B) {
  const VarDecl *RA = nullptr, *RB = nullptr;
  SmallVector<Step, 8> SA, SB;
  if (!flatten(A.E, RA, SA) || !flatten(B.E, RB, SB))
    return false;
  const ASTContext &Ctx = A.In->getASTContext();
  if (!Ctx.hasSameUnqualifiedType(RA->getType(), RB->getType()))
    return false;
  auto Derefs = [](ArrayRef<Step> S, size_t From) {
    return llvm::any_of(S.drop_front(std::min(From, S.size())),
                        [](const Step &X) { return X.Deref; });
  };
  for (size_t I = 0; I < SA.size() && I < SB.size(); ++I) {
    const Step &X = SA[I], &Y = SB[I];
    if (X.Deref || Y.Deref) {
      if (X.Deref != Y.Deref)
        return false;
      continue;
    }
    bool Apart = false;
    if (X.Field && Y.Field) {
      if (X.Field == Y.Field)
        continue;
      Apart = X.Field->getParent() == Y.Field->getParent() &&
              !X.Field->getParent()->isUnion();
    } else if (X.Index && Y.Index) {
      std::optional<int64_t> CX = integerConstant(X.Index, Ctx),
                             CY = integerConstant(Y.Index, Ctx);
      if (CX && CY && *CX == *CY)
        continue; // the same element
      Apart = indicesDiffer(X.Index, A, Y.Index, B);
      if (!Apart)
        return false; // maybe the same element: nothing below tells
    }
    return Apart && !Derefs(SA, I + 1) && !Derefs(SB, I + 1);
  }
  return false; // one path contains the other
}

bool instancesAt(const CallSites &CS, const FunctionDecl *FD,
                 const CallExpr *At, const Expr *Obj,
                 SmallVectorImpl<Instance> &Out, unsigned Depth) {
  if (!FD || !Obj || Depth > 2)
    return false;
  Obj = Obj->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(Obj);
  if (const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr) {
    if (writtenIn(FD->getBody(), P))
      return false;
    const std::vector<CallSites::Site> *Sites = CS.of(FD);
    if (!Sites || Sites->empty())
      return false;
    unsigned Index = P->getFunctionScopeIndex();
    for (const CallSites::Site &S : *Sites) {
      if (!S.Caller || Index >= S.Call->getNumArgs())
        return false;
      if (!instancesAt(CS, S.Caller, S.Call, S.Call->getArg(Index), Out,
                       Depth + 1))
        return false;
    }
    return true;
  }
  if (const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      V && V->hasLocalStorage()) {
    if (!V->getInit() || writtenIn(FD->getBody(), V))
      return false;
    return instancesAt(CS, FD, At, V->getInit(), Out, Depth);
  }
  Out.push_back({Obj, FD, At});
  return true;
}

} // namespace

CallSites::CallSites(ASTContext &Ctx) {
  CallCollector C(Calls);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  // A function named other than as a call's callee: its address is taken.
  for (const auto &[F, N] : C.Refs) {
    auto It = Calls.find(F);
    if (N > (It == Calls.end() ? 0 : It->second.size()))
      AddressTaken.insert(F);
  }
}

const std::vector<CallSites::Site> *
CallSites::of(const FunctionDecl *FD) const {
  if (!FD)
    return nullptr;
  FD = FD->getCanonicalDecl();
  if (FD->isExternallyVisible() || AddressTaken.count(FD))
    return nullptr;
  auto It = Calls.find(FD);
  return It == Calls.end() ? nullptr : &It->second;
}

bool instancesOf(const CallSites &CS, const FunctionDecl *FD, const Expr *Obj,
                 SmallVectorImpl<Instance> &Out) {
  return instancesAt(CS, FD, nullptr, Obj, Out, 0);
}

bool distinctInstances(const Instance &A, const Instance &B) {
  return A.In && B.In && distinctExpr(A, B);
}

} // namespace seqlint
