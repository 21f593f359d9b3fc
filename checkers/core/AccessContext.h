//===- AccessContext.h - locks and sections around each access ------------===//
//
// What protects an access: whether a lock may be held (a lock taken on some
// path counts: a report then needs every path to be unprotected; the
// may-held part of the lock lattice, core/LockAnalysis.h), which write
// sections may be open, which read sections are definitely open. A small
// forward dataflow over one function's event trace for the sections; the
// checks about plain accesses (access-plain-*) share it.
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
/// Validated: the begins T's retries validate (validatedBegins()); Locks:
/// T's lock sets (computeLocks()), whose may-held part says whether a lock
/// may be held. Checks ask FunctionAnalyses::accessContexts(), which runs
/// it once.
void scanAccessContexts(
    const FunctionTrace &T, const ValidatedBegins &Validated,
    const LockSets &Locks,
    llvm::function_ref<void(const Event &, const AccessContext &)> Visit);

} // namespace seqlint

#endif
