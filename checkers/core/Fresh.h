//===- Fresh.h - objects no other thread can reach yet ----------*- C++ -*-===//
//
// "Not yet shared" (docs/architecture.md): a local pointer that holds memory this
// function allocated — an allocator by name, an allocator hook, a helper of
// the TU that returns such memory — or the address of a local object.
// Shared by access-plain-shared (a fresh object's fields are not racing) and
// access-plain-reread (an object a thread allocated is its own to write).
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_FRESH_H
#define SEQLINT_CORE_FRESH_H

#include "core/ApiModel.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace seqlint {

/// For `&v.a.b` (no pointer on the way): v, with the member names a, b in
/// Fields (then every member must have a name); null for anything else.
const clang::VarDecl *
addressedObject(const clang::Expr *E,
                llvm::SmallVectorImpl<llvm::StringRef> *Fields = nullptr);

/// Does the pointer E point into the object that a variable for which Root
/// holds points to, or that an expression for which RootExpr holds yields:
/// through casts, the address of a member (`&p->a.b`), constant pointer
/// arithmetic and the locals of a statement expression (container_of()),
/// or a helper that returns its argument as another type
/// (sameObjectParam())?
bool pointsInto(const clang::Expr *E,
                llvm::function_ref<bool(const clang::VarDecl *)> Root,
                llvm::function_ref<bool(const clang::Expr *)> RootExpr = nullptr);

/// The index of the parameter F returns a pointer into, when every return
/// of F does (`return (struct sock *)req;`, `return container_of(inode,
/// struct nfs_inode, vfs_inode);`); -1 otherwise.
int sameObjectParam(const clang::FunctionDecl *F);

/// Local pointers assigned an allocator's result in FD: an allocator by
/// name, an allocator hook (`table->m->malloc(size)`, Concurrency Kit's
/// struct ck_malloc), or a helper of the TU that returns such a pointer
/// (`update = ck_ht_map_create(table, capacity)`: made, not yet published).
class FreshFinder : public clang::RecursiveASTVisitor<FreshFinder> {
public:
  using Memo = llvm::DenseMap<const clang::FunctionDecl *, bool>;
  /// Model: the APIs in force, for the allocators .seqlint.yaml declares
  /// (without it, allocators by name only).
  explicit FreshFinder(Memo *Helpers = nullptr, unsigned Depth = 0,
                       const ApiModel *Model = nullptr)
      : Helpers(Helpers), Depth(Depth), Model(Model) {}
  llvm::DenseSet<const clang::VarDecl *> Fresh;
  bool isAllocation(const clang::Expr *E) const;
  bool callsAllocator(const clang::Stmt *S, unsigned Depth) const;
  /// &local, &local.member: an object on this function's stack.
  static bool isAddressOfLocal(const clang::Expr *E) {
    const clang::VarDecl *V = addressedObject(E);
    return V && V->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(V);
  }
  bool VisitVarDecl(clang::VarDecl *V) {
    if (V->hasLocalStorage() && V->getType()->isPointerType() &&
        (isAllocation(V->getInit()) || isAddressOfLocal(V->getInit()) ||
         (V->getInit() && isFreshCopy(V->getInit()))))
      Fresh.insert(V);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *BO) {
    if (BO->getOpcode() != clang::BO_Assign)
      return true;
    if (const auto *DR =
            llvm::dyn_cast<clang::DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(DR->getDecl()))
        if (V->hasLocalStorage() &&
            (isAllocation(BO->getRHS()) || isFreshCopy(BO->getRHS())))
          Fresh.insert(V);
    return true;
  }
  /// A pointer into a fresh object: a copy of a fresh local pointer
  /// (`entry = table;` to walk it), the address of one of its members
  /// (`&req->poll`), container_of() of it, or the result of a helper that
  /// returns its argument as another type (`req_to_sk(nreq)`,
  /// `NFS_I(inode)`).
  bool isFreshCopy(const clang::Expr *E) const {
    return pointsInto(
        E, [this](const clang::VarDecl *V) { return Fresh.count(V) > 0; },
        [this](const clang::Expr *X) { return isAllocation(X); });
  }

private:
  /// A helper whose every return is a fresh local of its own or NULL (and
  /// one at least is fresh), two calls deep at most.
  bool returnsFresh(const clang::FunctionDecl *F) const;
  bool allocates(llvm::StringRef Name) const {
    return Model ? Model->allocates(Name) : isAllocatorName(Name);
  }
  Memo *Helpers;
  unsigned Depth;
  const ApiModel *Model;
};

} // namespace seqlint

#endif
