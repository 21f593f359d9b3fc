//===- AccessContext.h - locks and sections around each access ------------===//
//
// What protects an access: which locks may be held (a lock taken on some
// path counts: a report then needs every path to be unprotected; a trylock
// whose result a branch tests holds its lock on the successful edge only,
// as in the must-held LockAnalysis), which
// write sections may be open, which read sections are definitely open.
// A small forward dataflow over one function's event trace; the checks
// about plain accesses (access-plain-*) share it.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_ACCESSCONTEXT_H
#define SEQLINT_CORE_ACCESSCONTEXT_H

#include "core/Classifier.h"
#include "core/LockAnalysis.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace seqlint {

/// Locks that may be held, by lock key (-1: a lock whose object is not
/// known). Joining two paths keeps the locks of both.
class MayLockSet {
public:
  bool any() const { return !Held.empty(); }
  /// Takes Key; a scoped guard (Scope valid, core/LockAnalysis.h
  /// guardScope()) only until control leaves Scope.
  void lock(int Key, clang::SourceRange Scope = {});
  /// Releases Key; a release of a lock not seen taken (another spelling,
  /// taken by the caller) forgets one held lock, the unknown one first.
  void unlock(int Key);
  /// Releases the guards whose scope control has left at Loc.
  void leaveScopes(const clang::SourceManager &SM, clang::SourceLocation Loc);
  /// Union; true if this set grew.
  bool join(const MayLockSet &O);
  void clear() { Held.clear(); }
  bool operator==(const MayLockSet &O) const { return Held == O.Held; }

private:
  struct Entry {
    int Key;
    clang::SourceRange Scope; // a guard's; invalid for a lock held to its unlock
    bool operator==(const Entry &O) const {
      return Key == O.Key && Scope == O.Scope;
    }
    bool operator<(const Entry &O) const {
      if (Key != O.Key)
        return Key < O.Key;
      if (Scope.getBegin() != O.Scope.getBegin())
        return Scope.getBegin() < O.Scope.getBegin();
      return Scope.getEnd() < O.Scope.getEnd();
    }
  };
  llvm::SmallVector<Entry, 2> Held; // sorted, unique
  bool Scoped = false;              // some entry may have a scope
};

/// The lock part of a may-held transfer, shared by the two may-held views
/// (the access contexts below, access-plain-reread's checked loads) so that
/// they agree with each other and with the must-held LockAnalysis: a guard
/// is released where its scope ends, a trylock's lock is taken along its
/// successful edge only.
class MayLockTransfer {
public:
  explicit MayLockTransfer(const FunctionTrace &T);
  /// Before E: releases the guards whose scope control has left.
  void enter(const Event &E, MayLockSet &S) const;
  /// E itself: a lock (not a tested trylock) takes its key, a guard with its
  /// scope; an unlock releases.
  void step(const Event &E, MayLockSet &S) const;
  /// S along successor SuccIndex of B: with the lock of a trylock that B's
  /// branch tests, on its successful edge.
  MayLockSet alongEdge(const MayLockSet &S, const clang::CFGBlock &B,
                       unsigned SuccIndex) const;

private:
  const FunctionTrace &T;
  const clang::SourceManager &SM;
  TrylockEdges Trylocks;
};

/// The context of one access.
struct AccessContext {
  bool MayLocked = false;         // some lock may be held
  bool MayInWriteSection = false; // some write section may be open
  /// Counters whose write section may be open.
  llvm::SmallVector<int, 1> WriteSections;
  /// Counters whose read section is open on every path to the access, each
  /// with its begin event.
  llvm::SmallVector<std::pair<int, const Event *>, 1> ReadSections;
};

/// Runs the dataflow over T and calls Visit for every event of every
/// reachable block (in reverse post-order) with the context before it.
/// Validated: the begins T's retries validate (validatedBegins()). Checks
/// ask FunctionAnalyses::accessContexts(), which runs it once.
void scanAccessContexts(
    const FunctionTrace &T, const ValidatedBegins &Validated,
    llvm::function_ref<void(const Event &, const AccessContext &)> Visit);

} // namespace seqlint

#endif
