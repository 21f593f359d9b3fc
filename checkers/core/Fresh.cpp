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

/// An offset built of constants only (offsetof(), sizeof, literals).
static bool constantOffset(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 16)
    return S == nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    return isa<EnumConstantDecl>(DR->getDecl());
  for (const Stmt *C : S->children())
    if (!constantOffset(C, Depth + 1))
      return false;
  return true;
}

static bool pointsIntoIn(const Expr *E,
                         function_ref<bool(const VarDecl *)> Root,
                         function_ref<bool(const Expr *)> RootExpr,
                         SmallVectorImpl<const VarDecl *> &Temps,
                         unsigned Depth) {
  if (!E || Depth > 12)
    return false;
  E = E->IgnoreParenCasts();
  if (RootExpr && RootExpr(E))
    return true;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return false;
    if (Root(V))
      return true;
    // container_of()'s `void *__mptr = (void *)(ptr);`: a local of the
    // statement expression, initialised and used once.
    return llvm::is_contained(Temps, V) &&
           pointsIntoIn(V->getInit(), Root, RootExpr, Temps, Depth + 1);
  }
  if (const auto *SE = dyn_cast<StmtExpr>(E)) {
    const CompoundStmt *CS = SE->getSubStmt();
    if (!CS || CS->body_empty())
      return false;
    size_t Mark = Temps.size();
    for (const Stmt *B : CS->body())
      if (const auto *DS = dyn_cast<DeclStmt>(B))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
            Temps.push_back(V);
    bool R = pointsIntoIn(dyn_cast<Expr>(CS->body_back()), Root, RootExpr,
                          Temps, Depth + 1);
    Temps.resize(Mark);
    return R;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return false;
    const Expr *Off = BO->getRHS();
    return Off->getType()->isIntegerType() && constantOffset(Off) &&
           pointsIntoIn(BO->getLHS(), Root, RootExpr, Temps, Depth + 1);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() != UO_AddrOf)
      return false;
    // &p->a.b: the arrow's base.
    const Expr *X = U->getSubExpr()->IgnoreParenImpCasts();
    for (unsigned I = 0; I < 16; ++I) {
      const auto *ME = dyn_cast<MemberExpr>(X);
      if (!ME)
        return false;
      if (ME->isArrow())
        return pointsIntoIn(ME->getBase(), Root, RootExpr, Temps, Depth + 1);
      X = ME->getBase()->IgnoreParenImpCasts();
    }
    return false;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *F = CE->getDirectCallee()) {
      if (Depth > 4)
        return false;
      int I = sameObjectParam(F);
      return I >= 0 && unsigned(I) < CE->getNumArgs() &&
             pointsIntoIn(CE->getArg(I), Root, RootExpr, Temps, Depth + 1);
    }
  return false;
}

bool pointsInto(const Expr *E, function_ref<bool(const VarDecl *)> Root,
                function_ref<bool(const Expr *)> RootExpr) {
  SmallVector<const VarDecl *, 2> Temps;
  return pointsIntoIn(E, Root, RootExpr, Temps, 0);
}

int sameObjectParam(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->getReturnType()->isPointerType() || !F->hasBody(Def))
    return -1;
  // Accessors of this kind are one statement or two; a short body also
  // keeps the question cheap where it is asked for every call.
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() > 3)
    return -1;
  // Accessors that call accessors: a few levels, never around a cycle.
  static thread_local unsigned Nest = 0;
  if (Nest > 4)
    return -1;
  struct Guard {
    Guard() { ++Nest; }
    ~Guard() { --Nest; }
  } G;
  int Found = -1;
  bool Any = false, Bad = false;
  std::vector<const Stmt *> Work{Def->getBody()};
  while (!Work.empty() && !Bad) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      int Which = -1;
      for (unsigned I = 0; I < Def->getNumParams() && Which < 0; ++I) {
        const ParmVarDecl *P = Def->getParamDecl(I);
        if (pointsInto(R->getRetValue(),
                       [P](const VarDecl *V) { return V == P; }))
          Which = I;
      }
      if (Which < 0 || (Any && Which != Found))
        Bad = true;
      Found = Which;
      Any = true;
      continue;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Any && !Bad ? Found : -1;
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
