//===- Fresh.cpp ----------------------------------------------------------===//
#include "core/Fresh.h"
#include "core/Classifier.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

/// For `&v.a.b` (no pointer on the way): v, with the member names a, b in
/// Fields (then every member must have a name); null for anything else.
const VarDecl *addressedObject(const Expr *E, SmallVectorImpl<StringRef> *Fields) {
  if (!E)
    return nullptr;
  const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenCasts());
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  const Expr *X = U->getSubExpr()->IgnoreParenImpCasts();
  SmallVector<StringRef, 4> Names;
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    const auto *ME = dyn_cast<MemberExpr>(X);
    if (!ME)
      break;
    if (ME->isArrow())
      return nullptr;
    // An anonymous member has no name to spell a path with.
    if (Fields && ME->getMemberDecl()->getName().empty())
      return nullptr;
    Names.push_back(ME->getMemberDecl()->getName());
    X = ME->getBase()->IgnoreParenImpCasts();
  }
  const auto *DR = dyn_cast<DeclRefExpr>(X);
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (V && Fields)
    Fields->assign(Names.rbegin(), Names.rend());
  return V;
}

bool FreshFinder::isAllocation(const Expr *E) const {
    if (!E)
      return false;
    E = E->IgnoreParenCasts();
    if (const auto *SE = dyn_cast<StmtExpr>(E))
      // kzalloc() and kmem_cache_alloc() are macros around alloc_hooks():
      // ({ …; _res = kzalloc_noprof(…); …; _res; }).
      return callsAllocator(SE->getSubStmt(), 0);
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const auto *ME =
              dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
        if (const IdentifierInfo *II = ME->getMemberDecl()->getIdentifier())
          if (ME->getType()->isFunctionPointerType() &&
              allocates(II->getName()))
            return true;
    if (const FunctionDecl *F = calleeOf(E)) {
      if (F->getIdentifier() && allocates(F->getName()))
        return true;
      return returnsFresh(F);
    }
    return false;
  }

bool FreshFinder::callsAllocator(const Stmt *S, unsigned Depth) const {
    if (!S || Depth > 12)
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = calleeOf(CE))
        if (F->getIdentifier() && allocates(F->getName()))
          return true;
    for (const Stmt *C : S->children())
      if (callsAllocator(C, Depth + 1))
        return true;
    return false;
  }

/// ERR_PTR(err): the failure return of an allocating helper.
static bool isErrorPointer(const Expr *V) {
  const auto *CE = dyn_cast<CallExpr>(V);
  const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && isErrorPointerName(F->getName());
}

bool FreshFinder::returnsFresh(const FunctionDecl *F) const {
    const FunctionDecl *Def = nullptr;
    if (!Helpers || Depth >= 2 || !F->getReturnType()->isPointerType() ||
        !F->hasBody(Def))
      return false;
    auto [It, New] = Helpers->try_emplace(Def->getCanonicalDecl(), false);
    if (!New)
      return It->second; // known, or being looked at (recursion: no)
    FreshFinder Inner(Helpers, Depth + 1, Model);
    Inner.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
    bool AnyFresh = false, AllFresh = true;
    std::vector<const Stmt *> Work{Def->getBody()};
    while (!Work.empty() && AllFresh) {
      const Stmt *S = Work.back();
      Work.pop_back();
      if (!S)
        continue;
      if (const auto *R = dyn_cast<ReturnStmt>(S)) {
        const Expr *V = R->getRetValue();
        V = V ? V->IgnoreParenCasts() : nullptr;
        if (V && Inner.isFreshCopy(V))
          AnyFresh = true;
        else if (!V || !(isa<GNUNullExpr>(V) ||
                         (isa<IntegerLiteral>(V) &&
                          cast<IntegerLiteral>(V)->getValue() == 0) ||
                         isErrorPointer(V)))
          AllFresh = false;
        continue;
      }
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
    bool Result = AnyFresh && AllFresh;
    (*Helpers)[Def->getCanonicalDecl()] = Result;
    return Result;
  }

} // namespace seqlint
