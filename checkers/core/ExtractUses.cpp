//===- ExtractUses.cpp - what a function does with its locals ------------===//
//
// One walk of the body after the events: which locals escape, which are
// tested for a protocol value or have their low bit tested or masked, and
// which pairs of locals are compared with each other.
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <functional>

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace detail {
namespace {

/// Collects which locals are read, and where the low bit is tested.
class UseCollector : public RecursiveASTVisitor<UseCollector> {
public:
  UseCollector(FunctionTrace &T, ASTContext &Ctx,
               std::function<int(const Expr *)> LoadedKey)
      : T(T), Ctx(Ctx), LoadedKey(std::move(LoadedKey)) {}

  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (!AssignTargets.count(DR)) {
        if (escapes(DR))
          T.EscapingVars.insert(V);
      }
    return true;
  }

  /// Does the value read here leave the function's own arithmetic: is it
  /// returned, passed, stored, compared with something that is not a
  /// constant, or its address taken?
  bool escapes(const DeclRefExpr *DR) {
    const Stmt *Cur = DR;
    const Stmt *P = T.PM->getParent(Cur);
    while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P) || isa<CStyleCastExpr>(P))) {
      Cur = P;
      P = T.PM->getParent(P);
    }
    if (!P)
      return false;
    if (isa<ReturnStmt>(P) || isa<CallExpr>(P) || isa<InitListExpr>(P) ||
        isa<DeclStmt>(P))
      return true;
    if (const auto *U = dyn_cast<UnaryOperator>(P))
      return U->getOpcode() == UO_AddrOf;
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp())
        return BO->getRHS()->IgnoreParenImpCasts() == cast<Expr>(Cur)->IgnoreParenImpCasts();
      if (BO->isComparisonOp()) {
        const Expr *Other = BO->getLHS()->IgnoreParenImpCasts() ==
                                    cast<Expr>(Cur)->IgnoreParenImpCasts()
                                ? BO->getRHS()
                                : BO->getLHS();
        Expr::EvalResult R;
        return Other->isValueDependent() || !Other->EvaluateAsInt(R, Ctx);
      }
      return false;
    }
    return false;
  }
  /// `if (!v)`, `if (v == C)`, `if (v != C)`: the condition tests a
  /// local against a constant of the protocol.
  bool VisitIfStmt(IfStmt *If) {
    const Expr *C = If->getCond() ? If->getCond()->IgnoreParenImpCasts() : nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(C); U && U->getOpcode() == UO_LNot)
      C = U->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(C);
             BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      Expr::EvalResult V;
      if (!R->isValueDependent() && R->EvaluateAsInt(V, Ctx))
        C = L;
      else if (!L->isValueDependent() && L->EvaluateAsInt(V, Ctx))
        C = R;
      else
        C = nullptr;
    }
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(C))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasLocalStorage())
        T.ValueTestedVars.insert(V);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) {
      const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
      const auto *R = dyn_cast<DeclRefExpr>(BO->getRHS()->IgnoreParenImpCasts());
      const auto *LV = L ? dyn_cast<VarDecl>(L->getDecl()) : nullptr;
      const auto *RV = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      if (LV && RV && LV != RV && LV->hasLocalStorage() && RV->hasLocalStorage()) {
        ComparedVars.insert({LV, RV});
        ComparedVars.insert({RV, LV});
      }
    }
    if (BO->getOpcode() == BO_Assign)
      if (auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        AssignTargets.insert(DR);
    auto Note = [&](const Expr *E) {
      const Expr *X = E->IgnoreParenImpCasts();
      // (seq = READ_ONCE(s->seq)) & 1
      if (const auto *A = dyn_cast<BinaryOperator>(X); A && A->getOpcode() == BO_Assign)
        X = A->getLHS()->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(X))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
          T.OddCheckedVars.insert(V);
      int K = LoadedKey(E);
      if (K >= 0)
        T.OddCheckedKeys.insert(K);
    };
    bool Odd = false;
    if (BO->getOpcode() == BO_And)
      Odd = isIntLiteral(BO->getRHS(), Ctx, 1) || isClearLowBitMask(BO->getRHS(), Ctx) ||
            isTopBit(BO->getRHS(), BO->getLHS());
    if (BO->getOpcode() == BO_Rem)
      Odd = isIntLiteral(BO->getRHS(), Ctx, 2);
    if (Odd)
      Note(BO->getLHS());
    if (BO->getOpcode() == BO_And &&
        (isIntLiteral(BO->getLHS(), Ctx, 1) || isClearLowBitMask(BO->getLHS(), Ctx)))
      Note(BO->getRHS());
    return true;
  }

private:
  /// M is the top bit of V's type: an update-in-progress flag where the
  /// odd bit would be (Xen's runstate: XEN_RUNSTATE_UPDATE, 1ULL << 63).
  bool isTopBit(const Expr *M, const Expr *V) const {
    if (!M || !V || M->isValueDependent())
      return false;
    Expr::EvalResult R;
    if (!M->EvaluateAsInt(R, Ctx))
      return false;
    QualType Ty = V->IgnoreParenImpCasts()->getType();
    if (!Ty->isIntegerType())
      return false;
    uint64_t Width = Ctx.getTypeSize(Ty);
    if (Width < 16 || Width > 64)
      return false;
    const llvm::APSInt &X = R.Val.getInt();
    return X.getActiveBits() == Width && X.popcount() == 1;
  }

public:
  /// Pairs of locals compared with each other (`before == after`).
  DenseSet<std::pair<const VarDecl *, const VarDecl *>> ComparedVars;

private:
  FunctionTrace &T;
  ASTContext &Ctx;
  std::function<int(const Expr *)> LoadedKey;
  DenseSet<const DeclRefExpr *> AssignTargets;
};

} // namespace

FunctionClassifier::VarPairs FunctionClassifier::collectUses(const Stmt *Body) {
  UseCollector UC(T, Ctx, [this](const Expr *E) { return loadedKey(E); });
  UC.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(UC.ComparedVars);
}

} // namespace detail
} // namespace seqlint
