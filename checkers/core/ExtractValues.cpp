//===- ExtractValues.cpp - how values are used and what locals hold ---------===//
//
// How an access's value is used (assigned to a local, compared, returned,
// masked), which local holds a copy of a count or its next value, and
// whether a stored value is a count's increment.
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace detail {

bool isIntLiteral(const Expr *E, ASTContext &Ctx, int64_t V) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent())
    return false;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return false;
  return R.Val.getInt().getSExtValue() == V;
}

bool isClearLowBitMask(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Not)
      return isIntLiteral(U->getSubExpr(), Ctx, 1);
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
    APSInt V = R.Val.getInt();
    if (V.getBitWidth() >= 2 && !V[0] && V.countr_zero() == 1 &&
        (V.isAllOnes() || V.popcount() == V.getBitWidth() - 1 ||
         V.getSExtValue() == -2))
      return true;
  }
  return false;
}

/// How the value of Node (an expression) is used; fills Use/Var/Masked.
void FunctionClassifier::useOf(const Stmt *Node, Event &Ev) {
  const Stmt *Cur = Node;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Stmt *P = PM->getParent(Cur);
    while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P))) {
      Cur = P;
      P = PM->getParent(P);
    }
    // A known wrapper macro around the value (unlikely(), likely()): look
    // through the nodes of that instance.
    if (P && !isa<CompoundStmt>(P)) {
      if (const MacroInstance *W = wholeInstance(P))
        if (W->Entry->R == Role::Pure && W != wholeInstance(Node)) {
          Cur = P;
          continue;
        }
    }
    if (!P) {
      Ev.Use = ValueUse::Discarded;
      return;
    }
    if (const auto *CS = dyn_cast<CStyleCastExpr>(P)) {
      if (CS->getType()->isVoidType()) {
        Ev.Use = ValueUse::VoidCast;
        return;
      }
      Cur = P;
      continue;
    }
    if (isa<CompoundStmt>(P) || isa<LabelStmt>(P) || isa<CaseStmt>(P) ||
        isa<DefaultStmt>(P)) {
      Ev.Use = ValueUse::Discarded;
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (!useInBinary(BO, Cur, Ev))
        return;
      Cur = P;
      continue;
    }
    useInStatement(P, Cur, Ev);
    return;
  }
}

/// How BO uses the value Cur, one of its operands: false with Ev's use
/// set, true to look through BO (a mask of the low bit, a shift).
bool FunctionClassifier::useInBinary(const BinaryOperator *BO, const Stmt *Cur,
                                     Event &Ev) const {
  const Expr *Other =
      BO->getLHS()->IgnoreParenImpCasts() == cast<Expr>(Cur)->IgnoreParenImpCasts()
          ? BO->getRHS()
          : BO->getLHS();
  if (BO->getOpcode() == BO_And && isClearLowBitMask(Other, Ctx)) {
    Ev.Masked = true;
    return true;
  }
  // seq >> 1 drops the low bit without checking it: look through.
  if (BO->getOpcode() == BO_Shr && BO->getLHS()->IgnoreParenImpCasts() ==
                                       cast<Expr>(Cur)->IgnoreParenImpCasts())
    return true;
  if (BO->getOpcode() == BO_Assign && BO->getRHS()->IgnoreParenImpCasts() ==
                                          cast<Expr>(Cur)->IgnoreParenImpCasts()) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        if (V->hasLocalStorage()) {
          Ev.Use = ValueUse::Assigned;
          Ev.Var = V;
          return false;
        }
    Ev.Use = ValueUse::Escapes;
    return false;
  }
  if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) {
    const Expr *O = Other->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(O))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        if (V->hasLocalStorage()) {
          Ev.Use = ValueUse::Compared;
          Ev.Var = V;
          return false;
        }
  }
  Ev.Use = ValueUse::Other;
  return false;
}

/// How P, a statement or an expression that is no operator useOf() looks
/// through, uses the value Cur: sets Ev's use.
void FunctionClassifier::useInStatement(const Stmt *P, const Stmt *Cur, Event &Ev) const {
  if (isa<ReturnStmt>(P)) {
    Ev.Use = ValueUse::Returned;
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (V->getInit() && V->getInit()->IgnoreParenImpCasts() ==
                                cast<Expr>(Cur)->IgnoreParenImpCasts() &&
            V->hasLocalStorage()) {
          Ev.Use = ValueUse::Assigned;
          Ev.Var = V;
          return;
        }
    Ev.Use = ValueUse::Other;
    return;
  }
  if (isa<CallExpr>(P)) {
    Ev.Use = ValueUse::Escapes;
    return;
  }
  if (isa<IfStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<ForStmt>(P)) {
    Ev.Use = ValueUse::Condition;
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(P))
    if (U->getOpcode() == UO_LNot) {
      Ev.Use = ValueUse::Condition;
      return;
    }
  Ev.Use = ValueUse::Other;
}

/// X when Value is `X + 1` or `X + 2` (either way round): a count's next
/// value, odd or even.
static const Expr *steppedFrom(const Expr *Value, ASTContext &Ctx) {
  if (!Value)
    return nullptr;
  const auto *BO = dyn_cast<BinaryOperator>(Value->IgnoreParenImpCasts());
  // `(X + 1) | 1`: the next odd value (KVM's pvclock update,
  // `(guest->version + 1) | 1`).
  if (BO && BO->getOpcode() == BO_Or && isIntLiteral(BO->getRHS(), Ctx, 1))
    BO = dyn_cast<BinaryOperator>(BO->getLHS()->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Add)
    return nullptr;
  for (int Step : {1, 2}) {
    if (isIntLiteral(BO->getRHS(), Ctx, Step))
      return BO->getLHS();
    if (isIntLiteral(BO->getLHS(), Ctx, Step))
      return BO->getRHS();
  }
  return nullptr;
}

/// The value an assignment chain stores: v for `m = v`, `x = m = v`.
static const Expr *assignedValue(const Expr *Value) {
  while (const auto *A = dyn_cast<BinaryOperator>(Value->IgnoreParenImpCasts())) {
    if (A->getOpcode() != BO_Assign)
      break;
    Value = A->getRHS();
  }
  return Value;
}

const UnaryOperator *preIncrement(const Expr *Value) {
  const auto *U = dyn_cast<UnaryOperator>(assignedValue(Value)->IgnoreParenImpCasts());
  return U && U->getOpcode() == UO_PreInc ? U : nullptr;
}

const VarDecl *incrementedParam(const Expr *Value, ASTContext &Ctx) {
  if (const Expr *X = steppedFrom(Value, Ctx))
    if (const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()))
      if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
        if (P->getType()->isIntegerType())
          return P;
  return nullptr;
}

/// X is the count Key itself, or a local that holds its value (w = hdr->w;
/// ... store(&hdr->w, w + 1); ... store(&hdr->w, w + 2)) or its next value.
bool FunctionClassifier::holdsCount(const Expr *X, int Key) {
  int L = loadedKey(X);
  if (L == Key)
    return true;
  // A field that was given the count's new value in the same assignment
  // (`g->v = h->v = (g->v + 1) | 1;`): a mirror of the count.
  if (L >= 0) {
    auto M = MirrorOf.find(L);
    if (M != MirrorOf.end() && M->second == Key)
      return true;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      auto It = CopyOf.find(V);
      if (It != CopyOf.end() && It->second == Key)
        return true;
      auto Inc = IncCopyOf.find(V);
      return Inc != IncCopyOf.end() && Inc->second == Key;
    }
  return false;
}

/// Value is `X + 1` (or 1 + X) where X holds the count Key; `X + 2` where X
/// was loaded before the odd increment closes the section.
bool FunctionClassifier::isIncrementOf(const Expr *Value, int Key) {
  if (!Value || Key < 0)
    return false;
  // `x = m = v`: the value stored is v.
  Value = assignedValue(Value);
  // `x = ++m`, with m a mirror of the count.
  if (const UnaryOperator *U = preIncrement(Value)) {
    int M = keyOf(U->getSubExpr(), false);
    auto It = M >= 0 ? MirrorOf.find(M) : MirrorOf.end();
    return It != MirrorOf.end() && It->second == Key;
  }
  // s = x + 1; store(&x, s): the local holds the incremented count.
  if (const auto *DR = dyn_cast<DeclRefExpr>(Value->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      auto Inc = IncCopyOf.find(V);
      return Inc != IncCopyOf.end() && Inc->second == Key;
    }
  const Expr *From = steppedFrom(Value, Ctx);
  return From && holdsCount(From, Key);
}

/// Value (through chained assignments) is `E | 1`.
bool FunctionClassifier::forcesOdd(const Expr *Value) const {
  const auto *A = dyn_cast<BinaryOperator>(assignedValue(Value)->IgnoreParenImpCasts());
  return A && A->getOpcode() == BO_Or && isIntLiteral(A->getRHS(), Ctx, 1);
}

bool FunctionClassifier::isParityStep(const Expr *Value, int Key) const {
  if (const auto *DR = dyn_cast<DeclRefExpr>(Value->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      auto It = T.ParityStepOf.find(V);
      return It != T.ParityStepOf.end() && It->second == Key;
    }
  return false;
}

bool FunctionClassifier::isConstant(const Expr *E) const {
  Expr::EvalResult R;
  return E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx);
}

void FunctionClassifier::noteLocalAssign(const VarDecl *V, const Expr *Init) {
  if (!V || !Init || !V->hasLocalStorage())
    return;
  // w = hdr->w: w holds a copy of the count (for isIncrementOf).
  int Copy = loadedKey(Init);
  if (Copy >= 0 && !T.Keys[Copy].isLocal())
    CopyOf[V] = Copy;
  else
    CopyOf.erase(V);
  IncCopyOf.erase(V);
  T.ParityStepOf.erase(V);
  if (const auto *BO = dyn_cast<BinaryOperator>(Init->IgnoreParenImpCasts());
      BO && BO->getOpcode() == BO_And && isIntLiteral(BO->getRHS(), Ctx, 1))
    if (const Expr *From = steppedFrom(BO->getLHS(), Ctx)) {
      int K = loadedKey(From);
      if (K >= 0 && !T.Keys[K].isLocal())
        T.ParityStepOf[V] = K;
    }
  if (const Expr *From = steppedFrom(Init, Ctx)) {
    int K = loadedKey(From);
    if (K >= 0 && !T.Keys[K].isLocal())
      IncCopyOf[V] = K;
  }
  // addend = xt_write_recseq_begin(): the helper returns the parity step.
  if (const auto *CE = dyn_cast<CallExpr>(Init->IgnoreParenImpCasts()))
    if (const FunctionDecl *F = calleeOf(CE))
      if (const HelperEffect *H = C.helperEffect(F, /*Getters=*/true))
        if (H->ReturnParityKey >= 0) {
          int K = mapKey(H->Keys[H->ReturnParityKey], CE);
          if (K >= 0 && !T.Keys[K].isLocal())
            T.ParityStepOf[V] = K;
        }
  const Expr *X = Init->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(X))
    if (BO->getOpcode() == BO_And) {
      if (isClearLowBitMask(BO->getRHS(), Ctx))
        X = BO->getLHS();
      else if (isClearLowBitMask(BO->getLHS(), Ctx))
        X = BO->getRHS();
    }
  int K = loadedKey(X);
  if (K >= 0 && !T.Keys[K].isLocal())
    T.VarSource[V] = K;
}

} // namespace detail
} // namespace seqlint
