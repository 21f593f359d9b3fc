//===- QuietRecords.h - records a TU never orders or locks --*- C++ -*-===//
//
// Legacy code declares shared words volatile and serializes their users by
// other means: the callers' lock in another file (DPDK's malloc heap), or a
// contract ("call this only with the port stopped": DPDK's power
// management API). In such a file the qualifier is the only sign of another
// agent. A record is quiet when no function of the TU that touches it has a
// barrier, a lock, an atomic or a marked access; a word of it is quiet when
// it is also stored plainly by two or more functions of the TU, writers
// that no barrier could make correct unless something outside the file
// serializes them (and their readers with them).
//
// The message-passing collector and the one-sided scan both ask: a flag, or
// the ownership word of a "descriptor", that is volatile by declaration
// only and quiet is no evidence of a lockless protocol.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_ANALYSES_QUIETRECORDS_H
#define SEQLINT_ANALYSES_QUIETRECORDS_H

#include "core/Classifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace seqlint {

class QuietRecords {
public:
  /// Notes what function T touches, stores and orders (once per function).
  void add(const FunctionTrace &T);
  /// Is Id (a field or a global) quiet: nothing the TU does orders or
  /// locks around its record, and two or more functions store it plainly?
  bool quiet(const clang::ValueDecl *Id) const;
  /// Is E's access marked only by the volatile declaration of Id (a plain
  /// access of a volatile field or global: not READ_ONCE(), not a volatile
  /// cast, not an atomic)?
  static bool declVolatileOnly(const Event &E, const clang::ValueDecl *Id);

private:
  /// The records (and globals) that a function with a barrier, a lock, an
  /// atomic or a marked access touches.
  llvm::DenseSet<const void *> Ordered;
  /// The function that stores each field or global plainly, or null once
  /// two or more do.
  llvm::DenseMap<const clang::ValueDecl *, const void *> PlainWriter;
  const clang::FunctionDecl *Last = nullptr;
};

} // namespace seqlint

#endif
