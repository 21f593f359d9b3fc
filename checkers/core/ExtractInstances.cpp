//===- ExtractInstances.cpp - known macro instances in a function -----------===//
//
// A known macro's instance becomes one event, anchored at its outermost
// node; nodes inside an instance emit nothing, so the trace is the same
// whatever the macro expands to.
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <functional>

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace detail {

SourceLocation FunctionClassifier::reportLoc(const Stmt *S) const {
  SourceLocation L = S->getBeginLoc();
  if (const MacroInstance *I = Index.instanceAt(L))
    if (wholeInstance(S) == I)
      return I->Loc.isMacroID() ? SM.getFileLoc(I->Loc) : I->Loc;
  return L.isMacroID() ? SM.getFileLoc(L) : L;
}

const MacroInstance *FunctionClassifier::wholeInstance(const Stmt *S) const {
  const MacroInstance *B = Index.instanceAt(S->getBeginLoc());
  if (!B)
    return nullptr;
  return Index.instanceAt(S->getEndLoc()) == B ? B : nullptr;
}

const Stmt *FunctionClassifier::rootOf(const MacroInstance *I, const Stmt *S) {
  auto It = Roots.find(I);
  if (It != Roots.end())
    return It->second;
  const Stmt *Root = S;
  while (const Stmt *P = PM->getParent(Root)) {
    if (wholeInstance(P) != I)
      break;
    Root = P;
  }
  Roots[I] = Root;
  return Root;
}

const Stmt *FunctionClassifier::anchorOf(const MacroInstance *I, const Stmt *S) {
  auto It = Anchors.find(I);
  if (It != Anchors.end())
    return It->second;
  const Stmt *Root = rootOf(I, S);
  const Stmt *A = nullptr;
  const Stmt *R = Root;
  if (const auto *E = dyn_cast<Expr>(R))
    R = E->IgnoreParens();
  if (Elements.count(R))
    A = R;
  else if (const auto *DS = dyn_cast<DoStmt>(R)) {
    const Expr *Cond = DS->getCond()->IgnoreParens();
    if (Elements.count(Cond))
      A = Cond;
  }
  if (!A)
    A = S; // first element of the instance met in CFG order
  Anchors[I] = A;
  return A;
}

/// The outermost evaluated node of every argument of instance I, in one
/// pre-order walk of its root (unevaluated copies under sizeof/_Generic are
/// used only when nothing else is found).
SmallVector<const Expr *, 4> FunctionClassifier::instanceArgs(const MacroInstance *I,
                                                             const Stmt *Root) {
  // The walk goes through the whole expansion (READ_ONCE() is a large
  // statement expression) and loadedKey() asks again for every use of the
  // value: once per instance and root.
  auto Cached = C.ArgsCache.find({I, Root});
  if (Cached != C.ArgsCache.end())
    return Cached->second;
  unsigned N = I->Args.size();
  SmallVector<const Expr *, 4> Found(N, nullptr), Unevaluated(N, nullptr);
  if (N == 0)
    return Found;
  unsigned Missing = N;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool Uneval) {
    if (!S || Missing == 0)
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      int A = Index.argumentIndex(*I, E->getBeginLoc());
      if (A >= 0 && Index.argumentIndex(*I, E->getEndLoc()) == A) {
        if (!Uneval && !Found[A]) {
          Found[A] = E;
          --Missing;
        } else if (Uneval && !Unevaluated[A]) {
          Unevaluated[A] = E;
        }
        return;
      }
    }
    if (const auto *GS = dyn_cast<GenericSelectionExpr>(S)) {
      if (GS->isExprPredicate())
        Walk(GS->getControllingExpr(), true);
      if (!GS->isResultDependent())
        Walk(GS->getResultExpr(), Uneval);
      return;
    }
    if (isa<UnaryExprOrTypeTraitExpr>(S)) {
      for (const Stmt *Ch : S->children())
        Walk(Ch, true);
      return;
    }
    if (const auto *SE = dyn_cast<StmtExpr>(S)) {
      Walk(SE->getSubStmt(), Uneval);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Walk(V->getInit(), Uneval);
      return;
    }
    for (const Stmt *Ch : S->children())
      Walk(Ch, Uneval);
  };
  Walk(Root, false);
  for (unsigned A = 0; A != N; ++A)
    if (!Found[A])
      Found[A] = Unevaluated[A];
  C.ArgsCache[{I, Root}] = Found;
  return Found;
}

} // namespace detail
} // namespace seqlint
