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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace seqlint {

/// Locks that may be held, by lock key (-1: a lock whose object is not
/// known). Joining two paths keeps the locks of both.
class MayLockSet {
public:
  bool any() const { return !Held.empty(); }
  void lock(int Key);
  /// Releases Key; a release of a lock not seen taken (another spelling,
  /// taken by the caller) forgets one held lock, the unknown one first.
  void unlock(int Key);
  /// Union; true if this set grew.
  bool join(const MayLockSet &O);
  void clear() { Held.clear(); }
  bool operator==(const MayLockSet &O) const { return Held == O.Held; }

private:
  llvm::SmallVector<int, 2> Held; // sorted, unique
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
