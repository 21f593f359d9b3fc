//===- AccessContext.h - locks and sections around each access ------------===//
//
// What protects an access: whether a lock may be held (a lock taken on some
// path counts: a report then needs every path to be unprotected; the
// may-held part of the lock lattice, core/LockAnalysis.h), which write
// sections may be open, which read sections are definitely open. The
// sections come from the section dataflow (core/SectionAnalysis), which
// keeps this view beside its own; the checks about plain accesses
// (access-plain-*) and the message-passing collector ask the hub for it
// (FunctionAnalyses::accessContexts()).
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_ACCESSCONTEXT_H
#define SEQLINT_CORE_ACCESSCONTEXT_H

#include "core/Classifier.h"
#include "clang/Basic/SourceLocation.h"
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

} // namespace seqlint

#endif
