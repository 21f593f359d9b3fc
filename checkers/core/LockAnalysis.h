//===- LockAnalysis.h - which locks a function must hold at each event ----===//
//
// A forward dataflow over the function's CFG, like the lockset of Clang's
// thread-safety analysis. Its lattice carries two sets: a lock must be held
// at a program point if every path from the entry to it acquired the lock
// (or asserted it with lockdep_assert_held()) and did not release it (sets
// intersected where paths merge), and may be held if some path did (sets
// united). The checks that need a lock to be held use the first; the ones
// that report an access only when no lock can be held, the second.
//
// Locks are tracked per lock object: the LocationKey of the lock argument
// (`&s->lock` -> `s->lock`). Across functions, a lock is identified by its
// declaration (the FieldDecl of `s->lock`, the VarDecl of a global lock), as
// `sameLock()` does.
//
// Modelled (by the ApiModel and the Classifier's lock-like names):
// spin_lock/raw_spin_lock and their _irq/_irqsave/_bh forms, mutex_lock*,
// read_lock/write_lock*, down_read/down_write, write_seqlock* (takes the lock
// inside the seqlock_t: the lock object is the seqlock), read_seqlock_excl*,
// pthread mutex/rwlock/spin locks, lockdep_assert_held*(). A trylock (API or
// a lock-like name ending in "trylock") that is directly the condition of an
// if/while/for/do (optionally negated, compared with 0, or in likely()) is
// held on the success branch only; elsewhere it is counted as held.
// guard()/scoped_guard() locks (the class_<lock>_constructor() call of
// <linux/cleanup.h>) are held from the guard to the end of the enclosing
// block or scoped_guard statement, by source range (the CFG built here has
// no cleanup elements): `Scoped` marks them. Sets at block entries may still
// list a guard whose scope was left; the sets before events are exact.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_LOCKANALYSIS_H
#define SEQLINT_CORE_LOCKANALYSIS_H

#include "core/Classifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace seqlint {

/// What kind of lock object (from its type, else from the API name).
const char *lockKindName(LockKind K);

/// One lock object a function touches.
struct LockDesc {
  /// Identity across functions: the FieldDecl of `s->lock`, the VarDecl of a
  /// global lock, the ParmVarDecl/local VarDecl of `*lockp`. Null when the
  /// lock expression could not be named (then it matches nothing).
  const clang::ValueDecl *Decl = nullptr;
  int Key = -1;          // the function's LocationKey index, -1 if unnamed
  std::string Name;      // `s->lock`, as written
  LockKind Kind = LockKind::Unknown;
  /// The lock is a global variable (a single object program-wide).
  bool Global = false;
};

/// One held lock.
struct HeldLock {
  unsigned Lock = 0;     // index into LockSets::Locks
  bool Shared = false;   // read_lock, down_read, rdlock: excludes writers only
  bool Asserted = false; // lockdep_assert_held*(): the caller holds it
  bool Scoped = false;   // guard()/scoped_guard(): released at scope end
  clang::SourceLocation Loc; // where it was taken or asserted
  /// Scoped: the file range of the guard's scope (invalid: to the end).
  clang::SourceLocation ScopeBegin, ScopeEnd;
};
using LockSet = llvm::SmallVector<HeldLock, 2>; // sorted by Lock

/// Locks that may be held, by lock key (-1: a lock whose object is not
/// known). Joining two paths keeps the locks of both.
class MayLockSet {
public:
  bool any() const { return !Held.empty(); }
  /// Takes Key; a scoped guard (Scope valid, guardScope()) only until
  /// control leaves Scope.
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

/// The must-held lock sets of one function.
class LockSets {
public:
  std::vector<LockDesc> Locks;
  /// The function uses a lock the model cannot name (a lock call whose
  /// argument has no LocationKey): checks that need precision stay silent.
  bool HasUnnamedLock = false;

  /// Held just before E; null if E is unreachable (or not of this trace).
  const LockSet *before(const Event &E) const;
  /// May be held just before E (taken on some path to it); null if E is
  /// unreachable. Only lock events count here (a write_seqlock() does not),
  /// a tested trylock along its successful edge, a guard to its scope's end.
  const MayLockSet *mayBefore(const Event &E) const;
  /// Some lock may be held just before E.
  bool mayHold(const Event &E) const {
    const MayLockSet *S = mayBefore(E);
    return S && S->any();
  }
  /// Held at the entry of a block; null if unreachable.
  const LockSet *atBlockEntry(unsigned BlockID) const;
  const LockDesc &desc(const HeldLock &H) const { return Locks[H.Lock]; }
  /// "s->lock, g_lock" for messages and dumps.
  std::string describe(const LockSet &S) const;

  // Filled by computeLocks().
  llvm::DenseMap<const Event *, unsigned> EventSet;
  std::vector<int> BlockSet; // block id -> pool index, -1 if unreachable
  std::vector<LockSet> Pool;
  llvm::DenseMap<const Event *, unsigned> MayEventSet; // into MayPool
  std::vector<MayLockSet> MayPool;
};

/// Runs the lock dataflow over T: one lattice, the must-held set and the
/// may-held set together.
LockSets computeLocks(const FunctionTrace &T);

/// Same lock object across functions (same non-null declaration).
inline bool sameLock(const LockDesc &A, const LockDesc &B) {
  return A.Decl && A.Decl == B.Decl;
}

/// Is E an event that takes or releases a lock, in this model? (Lock and
/// Unlock events, and write_seqlock*/write_sequnlock*, which take and
/// release the lock inside a seqlock_t.)
bool isLockAcquire(const Event &E);
bool isLockRelease(const Event &E);

/// Is E (an event of block B) a trylock whose result B's branch tests
/// (`if (!spin_trylock(l))`, `if (refcount_dec_and_lock(r, l))`)? Then
/// HeldOnTrue says which successor holds the lock: the first (true) one, or
/// the second.
bool trylockTestedBy(const Event &E, const clang::CFGBlock &B,
                     bool &HeldOnTrue);

/// For a scoped guard (guard(), scoped_guard(): `class_*_constructor`), its
/// scope as a file range: the block that declares the guard's variable, or
/// the for statement of scoped_guard(). Invalid for any other lock, or when
/// the scope cannot be told (then the guard is held to the end).
clang::SourceRange guardScope(const FunctionTrace &T, const Event &E);
/// Has control left Scope at Loc (a guard of that scope is released)?
bool leftScope(const clang::SourceManager &SM, clang::SourceRange Scope,
               clang::SourceLocation Loc);

/// The kind of lock a declaration of type Ty is (spinlock_t ...).
LockKind lockKindOfType(clang::QualType Ty);

} // namespace seqlint

#endif
