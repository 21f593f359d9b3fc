//===- QuietRecords.cpp - records a TU never orders or locks -------------===//
#include "analyses/QuietRecords.h"
#include "analyses/MessagePassing.h"
#include "analyses/OneSided.h"

#include "clang/AST/Decl.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

namespace {

/// What a field belongs to: its record (the outermost one around
/// anonymous members); a global is its own.
const void *scopeOf(const ValueDecl *Id) {
  if (const RecordDecl *RD = osOuterRecord(Id))
    return RD->getCanonicalDecl();
  return Id->getCanonicalDecl();
}

bool isAccess(const Event &E) {
  return E.Kind == EventKind::Load || E.Kind == EventKind::Store ||
         E.Kind == EventKind::RMW;
}

} // namespace

void QuietRecords::add(const FunctionTrace &T) {
  if (T.FD == Last)
    return;
  Last = T.FD;
  bool Orders = false;
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &E : BE.Events) {
      // A barrier, a lock, or an access marked at the access: an API
      // (READ_ONCE(), an atomic builtin) or an ordering of its own. A
      // volatile access is marked by its declaration (Once, no API).
      Orders |= E.Kind == EventKind::Barrier || E.Kind == EventKind::Lock ||
                E.Kind == EventKind::Unlock ||
                (isAccess(E) && E.Ord != Order::Plain &&
                 (E.Api || E.Ord != Order::Once));
      if (E.Kind == EventKind::Store && E.Key >= 0 &&
          (E.Ord == Order::Plain || (E.Ord == Order::Once && !E.Api)))
        if (const ValueDecl *Id = MpCollector::identity(T.key(E.Key))) {
          const void *Fn = (E.Via ? E.Via : T.FD)->getCanonicalDecl();
          auto [It, New] = PlainWriter.try_emplace(Id, Fn);
          if (!New && It->second != Fn)
            It->second = nullptr;
        }
    }
  if (!Orders)
    return;
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &E : BE.Events)
      if (E.Key >= 0)
        if (const ValueDecl *Id = MpCollector::identity(T.key(E.Key)))
          Ordered.insert(scopeOf(Id));
}

bool QuietRecords::quiet(const ValueDecl *Id) const {
  if (!Id || Ordered.count(scopeOf(Id)))
    return false;
  auto W = PlainWriter.find(Id);
  return W != PlainWriter.end() && !W->second;
}

bool QuietRecords::declVolatileOnly(const Event &E, const ValueDecl *Id) {
  return !E.Api && !E.Via && E.Ord == Order::Once && Id &&
         Id->getType().isVolatileQualified();
}

} // namespace seqlint
