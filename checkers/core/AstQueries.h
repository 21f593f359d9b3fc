//===- AstQueries.h - small questions about statements and events -*- C++ -*-===//
//
// Shared by the message-passing pairs and the one-sided ring analysis: what
// a store writes, what a condition tests, whether a call may order memory,
// whether a function sets an object up before it is shared.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_ASTQUERIES_H
#define SEQLINT_CORE_ASTQUERIES_H

#include "core/Classifier.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace seqlint {

/// Does S mention V?
bool refersTo(const clang::Stmt *S, const clang::VarDecl *V, unsigned Depth = 0);

/// Is V written anywhere in S (assigned, stepped, or its address taken)?
bool writtenIn(const clang::Stmt *S, const clang::VarDecl *V,
               unsigned Depth = 0);

/// Is Inner a node of Outer?
bool containsStmt(const clang::Stmt *Outer, const clang::Stmt *Inner, unsigned Depth = 0);

/// The value a store event writes: the right-hand side of the assignment
/// inside S (a WRITE_ONCE()/smp_store_release() instance, a plain store; a
/// compound assignment too when Compound), or an atomic's value.
const clang::Expr *storedValue(const clang::Stmt *S, bool Compound = false,
                               unsigned Depth = 0);

/// The declaration that names the location an lvalue writes, across
/// functions: its last field (`p->a.b`, `q->arr[i]`: b, arr), or a global
/// variable; null for locals and anything else.
const clang::ValueDecl *lvalueIdentity(const clang::Expr *E);

/// The integer value of a constant expression, if it has one that fits
/// in 64 bits.
std::optional<int64_t> integerConstant(const clang::Expr *E,
                                       const clang::ASTContext &Ctx);

/// What an atomic builtin does to its location: a Load, a Store (also an
/// initialisation) or an RMW (every other operation).
EventKind atomicAccessKind(const clang::AtomicExpr *AE);

/// 0, NULL or false, also through the temporaries of a macro
/// (rcu_assign_pointer() copies its value into a local first).
bool isZeroValue(const clang::Expr *E, clang::ASTContext &Ctx, unsigned Depth = 0);

/// A call that may order memory where we cannot see it: an unknown
/// function, or one whose body has a barrier, a lock or an ordered access;
/// of the known side effects, wake-ups and completions.
bool mayOrderCall(const Event &E, Classifier &C);
/// Does the call E order memory on every path through it (a barrier,
/// lock or ordered access on each; a call that cannot be seen into counts)?
/// A helper that orders only on its slow path (a mempool refilled from
/// its ring) leaves its fast path unordered.
bool mustOrderCall(const Event &E, Classifier &C);

/// A function that sets an object up before anyone else can see it: an
/// init/setup/create/alloc/probe/reset path. The one-sided ring rules and
/// the message-passing pairs share this notion of initialisation.
bool setupFunction(const clang::FunctionDecl *FD);

/// The function E names, a designator or its address (`f`, `&f`), when
/// this TU defines it: its definition; null otherwise.
const clang::FunctionDecl *functionRef(const clang::Expr *E);

/// Where the values of FD's locals come from: the parameters and globals
/// they are computed from, following other locals through their
/// initializers and assignments (`pavc` walks `src->anon_vma_chain`,
/// `anon_vma = pavc->anon_vma`, `root = lock_root(root, anon_vma)`: the
/// root of `root` is `src`). Flow-insensitive; one scan of the body.
class ValueRoots {
public:
  ValueRoots(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  /// Adds V's roots to Out (V itself for a parameter or a global). False
  /// when some value of V comes from nothing a variable names (a call
  /// without variable arguments, an address constant) or V's address is
  /// taken: then what it points to is not known.
  bool roots(const clang::VarDecl *V,
             llvm::SmallPtrSetImpl<const clang::VarDecl *> &Out) const;

private:
  const clang::FunctionDecl *FD;
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::Expr *, 2>>
      Defs;
  llvm::DenseSet<const clang::VarDecl *> AddressTaken;
};

/// Statements inside a branch condition, and the locals tested in one.
/// With Answers, a comparison anywhere and an integer return value count
/// as tests too (`return head != tail`), and the comparisons are listed.
struct BranchTests {
  explicit BranchTests(bool Answers = false) : Answers(Answers) {}
  void walk(const clang::Stmt *S, unsigned Depth = 0);

  llvm::DenseSet<const clang::Stmt *> Nodes;
  llvm::DenseSet<const clang::VarDecl *> Vars;
  llvm::SmallVector<const clang::BinaryOperator *, 16> Compares;

private:
  void add(const clang::Stmt *S, unsigned Depth = 0);
  bool Answers;
};

} // namespace seqlint

#endif
