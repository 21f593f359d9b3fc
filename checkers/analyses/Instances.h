//===- Instances.h - which object a pointer names, at the callers -*- C++
//-*-===//
//
// Two accesses of one field through two pointers (`dpr->prod_idx`,
// `spr->prod_idx`) touch the same memory only if the pointers can name the
// same object. Field identity cannot tell; the callers can. A parameter of
// a function that only this TU can call names what its callers pass, and a
// local set once names its initialiser, so `dpr` in a relay called as
// `xfer(tp, &tp->napi[0].prodring, &tp->napi[i].prodring)` with `i`
// counting up from 1 is never `spr`.
//
// The answer is "provably different" or "don't know": two instances are
// different when, along the same chain of members and subscripts, they
// take different members of one record or subscripts that cannot be equal
// (two constants, or a constant and a loop counter that starts above it
// and only counts up).
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_INSTANCES_H
#define SEQLINT_INSTANCES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace seqlint {

/// The calls of the TU's functions, collected once.
class CallSites {
public:
  explicit CallSites(clang::ASTContext &Ctx);
  struct Site {
    const clang::FunctionDecl *Caller = nullptr;
    const clang::CallExpr *Call = nullptr;
  };
  /// Every call of FD in the TU, or null when FD may also be called from
  /// elsewhere: it is visible outside the TU, or its address is taken.
  const std::vector<Site> *of(const clang::FunctionDecl *FD) const;

private:
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<Site>> Calls;
  llvm::DenseSet<const clang::FunctionDecl *> AddressTaken;
};

/// An object expression as written in function In (at a call of the
/// function the access was in, when it came from a parameter).
struct Instance {
  const clang::Expr *E = nullptr;
  const clang::FunctionDecl *In = nullptr;
  const clang::CallExpr *At = nullptr; // the call whose argument E is
};

/// The expressions Obj, written in FD, can stand for: itself, a local's
/// one initialiser, or what FD's callers pass for a parameter (one level
/// of callers, or two when a caller passes its own parameter on). False if
/// a parameter's callers are not all known.
bool instancesOf(const CallSites &CS, const clang::FunctionDecl *FD,
                 const clang::Expr *Obj, llvm::SmallVectorImpl<Instance> &Out);

/// Are A and B provably different objects?
bool distinctInstances(const Instance &A, const Instance &B);

} // namespace seqlint

#endif
