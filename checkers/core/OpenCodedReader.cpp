//===- OpenCodedReader.cpp - open-coded seqcount readers --------------------===//
//
// The evidence that a load kept in a local and a later load of the same
// location compared with it form a seqcount read section, and not a change
// detector or a ring consumer: the begin is acquired, masked or fenced, the
// recheck is fenced, nothing is stored in between.
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace detail {

/// Some load of Key into V satisfies P.
bool FunctionClassifier::anyBeginLoad(int Key, const VarDecl *V,
                                      function_ref<bool(const Event &)> P) const {
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &Ev : BE.Events)
      if (Ev.Kind == EventKind::Load && Ev.Key == Key && Ev.Var == V &&
          Ev.Use == ValueUse::Assigned && P(Ev))
        return true;
  return false;
}

/// A load of Key into V is a sequence begin: an acquire, or masked with ~1.
bool FunctionClassifier::beginIsSequenceLoad(int Key, const VarDecl *V) const {
  return anyBeginLoad(Key, V, [](const Event &Ev) {
    return Ev.Masked || Ev.Ord == Order::Acquire || Ev.Ord == Order::AcqRel;
  });
}

/// The load of Key into V is followed by a read barrier before any other
/// shared load: the open-coded read_seqcount_begin() of a reader whose
/// count is neither acquired nor masked (`s = READ_ONCE(t->gen[b]);
/// smp_rmb();`). A change detector does not order its snapshot before the
/// loads that follow it.
bool FunctionClassifier::beginFencedBeforeData(int Key, const VarDecl *V) const {
  bool In = false;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      if (!In) {
        In = Ev.Kind == EventKind::Load && Ev.Key == Key && Ev.Var == V &&
             Ev.Use == ValueUse::Assigned;
        continue;
      }
      if (Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdLL))
        return true;
      if ((Ev.Kind == EventKind::Load || Ev.Kind == EventKind::Store ||
           Ev.Kind == EventKind::RMW || Ev.Kind == EventKind::Call) &&
          (Ev.Key < 0 || !T.Keys[Ev.Key].isLocal()))
        return false;
    }
  return false;
}

/// A read barrier runs between the last shared load before the load of Key
/// compared with V and that load: the recheck half of the open-coded
/// reader that beginFencedBeforeData() describes.
bool FunctionClassifier::recheckFencedAfterData(int Key, const VarDecl *V) const {
  bool Fenced = false;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      if (Ev.Kind == EventKind::Load && Ev.Key == Key && Ev.Var == V &&
          Ev.Use == ValueUse::Compared)
        return Fenced;
      if (Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdLL))
        Fenced = true;
      else if (Ev.Kind == EventKind::Load && Ev.Key >= 0 && !T.Keys[Ev.Key].isLocal() &&
               !T.Keys[Ev.Key].addresses(T.Keys[Key]))
        Fenced = false;
    }
  return false;
}

/// The function stores to Key or modifies it (a CAS, an increment).
bool FunctionClassifier::writes(int Key) const {
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &Ev : BE.Events)
      if ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) && Ev.Key == Key)
        return true;
  return false;
}

/// A load of Key into V is masked with ~1 (its low bit cleared).
bool FunctionClassifier::maskedBegin(int Key, const VarDecl *V) const {
  return anyBeginLoad(Key, V, [](const Event &Ev) { return Ev.Masked; });
}

/// In reverse post-order between the load of Key into V and the load of
/// Key compared with V, a store or RMW of a global or of the object that
/// holds Key (the caller's out-parameters are a reader's copy).
bool FunctionClassifier::storesBetween(int Key, const VarDecl *V) const {
  bool In = false;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      if (Ev.Kind == EventKind::Load && Ev.Key == Key && Ev.Var == V) {
        if (Ev.Use == ValueUse::Assigned)
          In = true;
        else if (Ev.Use == ValueUse::Compared)
          return false;
      } else if (In && (Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) &&
                 Ev.Key != Key && Ev.Key >= 0) {
        const LocationKey &K = T.Keys[Ev.Key];
        if (K.Storage == LocationKey::Global ||
            (K.Base && K.Base == T.Keys[Key].Base))
          return true;
      }
    }
  return false;
}


/// A recheck loaded into a local of its own and compared with the begin
/// value afterwards (PostgreSQL's pgstat_end_read_activity(): `after =
/// be->st_changecount;` ... `before == after`) is a compared load.
void FunctionClassifier::convertRechecks(const VarPairs &ComparedVars) {
  DenseMap<int, SmallVector<const VarDecl *, 2>> Earlier;
  for (const CFGBlock *B : Rpo)
    for (Event &Ev : T.Blocks[B->getBlockID()].Events) {
      if (Ev.Kind != EventKind::Load || Ev.Key < 0 || Ev.Use != ValueUse::Assigned ||
          !Ev.Var)
        continue;
      SmallVector<const VarDecl *, 2> &Vars = Earlier[Ev.Key];
      auto It = llvm::find_if(Vars, [&](const VarDecl *V) {
        return V != Ev.Var && ComparedVars.count({V, Ev.Var});
      });
      if (It != Vars.end()) {
        Ev.Use = ValueUse::Compared;
        Ev.Var = *It;
        ConvertedRechecks.insert({Ev.Key, Ev.Var});
      } else if (!is_contained(Vars, Ev.Var)) {
        Vars.push_back(Ev.Var);
      }
    }
}

/// Open-coded counters. A reader: a load of a seqcount-like location kept
/// in a local, and later a load of the same location compared with it, in
/// a function that orders its loads.
void FunctionClassifier::recognizeReaders() {
  findOpenReaders();
  if (!ordersLoads())
    T.OpenReaders.clear();
  markOpenReaders();
}

/// T.OpenReaders: each location loaded into a local and later loaded again
/// and compared with that local, where the pair reads like a sequence.
void FunctionClassifier::findOpenReaders() {
  DenseMap<int, SmallVector<const VarDecl *, 2>> Begins;
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events)
      if (Ev.Kind == EventKind::Load && Ev.Key >= 0 && Ev.Use == ValueUse::Assigned &&
          !T.Counters.count(Ev.Key))
        Begins[Ev.Key].push_back(Ev.Var);
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events) {
      if (Ev.Kind != EventKind::Load || Ev.Key < 0 || Ev.Use != ValueUse::Compared)
        continue;
      auto It = Begins.find(Ev.Key);
      if (It == Begins.end() || !is_contained(It->second, Ev.Var))
        continue;
      if (!closesReadSection(Ev))
        continue;
      auto &Vars = T.OpenReaders[Ev.Key];
      if (!is_contained(Vars, Ev.Var))
        Vars.push_back(Ev.Var);
    }
}

/// Ev, a load of Ev.Key compared with the begin value in Ev.Var, is the
/// recheck of a read section. A pair without the evidence makes the
/// location a counter candidate (for other translation units to confirm).
bool FunctionClassifier::closesReadSection(const Event &Ev) {
  // A count is an integer: a pointer loaded until it stops changing
  // (QEMU's rr_kick_next_cpu(): kick the current vCPU, again if another
  // became current meanwhile) is not a section.
  QualType KeyTy = accessedTypeOf(T.Keys[Ev.Key]);
  if (!KeyTy.isNull() && KeyTy->isPointerType())
    return false;
  // Whatever its name (a name is no evidence either way), a location
  // read this way is a sequence when the reader treats it as one: the
  // begin value's low bit is tested or masked, the begin load is an
  // acquire, a read barrier orders the begin before the data and the
  // data before the recheck, or another function of the TU uses the
  // location as a count (the function-wide check, ordersLoads(), still
  // applies).
  bool OddChecked = T.OddCheckedVars.count(Ev.Var) || T.OddCheckedKeys.count(Ev.Key);
  // A recheck loaded into a local of its own is the looser shape (two
  // snapshots compared): it needs evidence of its own reader, not only
  // a counter elsewhere in the file. Concurrency Kit's ck_ht compares
  // two snapshots of a deletion version that its gc brackets: its
  // readers order each slot themselves and never wait for parity.
  bool Converted = ConvertedRechecks.count({Ev.Key, Ev.Var});
  bool Known = C.isKnownCounter(T.Keys[Ev.Key]) && !Converted;
  // Read barriers on both sides make a reader only of a function that
  // does not write the location itself: ck_ring's multi-producer
  // enqueue reloads its head around the consumer's, then CASes it.
  bool Fenced = beginFencedBeforeData(Ev.Key, Ev.Var) &&
                recheckFencedAfterData(Ev.Key, Ev.Var) && !writes(Ev.Key);
  if (!OddChecked && !Known && !beginIsSequenceLoad(Ev.Key, Ev.Var) && !Fenced) {
    T.CounterCandidates.insert(Ev.Key);
    return false;
  }
  // Nor may it write shared memory between the begin and the recheck:
  // a ring consumer that acquires the tail, releases its head and
  // re-reads the tail for more work is not a read section. A begin
  // whose low bit is tested or masked is a sequence's all the same: a
  // ring index is never taken modulo two.
  bool Parity = OddChecked || maskedBegin(Ev.Key, Ev.Var);
  if (!Parity && storesBetween(Ev.Key, Ev.Var))
    return false;
  if (Known)
    CorroboratedReaders.insert(Ev.Key);
  return true;
}

/// Evidence that a "load, compare later" pair is a seqcount reader and not
/// a change detector (TCP sequence numbers, printk sequence numbers): the
/// function orders its loads somewhere (a read barrier, an acquire load).
bool FunctionClassifier::ordersLoads() const {
  bool OrdersLoads = false;
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &Ev : BE.Events)
      // A full barrier alone is a change detector's or Dekker's
      // (srcu_might_be_idle(): smp_mb() between two reads of gp_seq).
      if ((Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdLL) && Ev.Bits != OrdFull) ||
          (Ev.Kind == EventKind::Load && T.OpenReaders.count(Ev.Key) &&
           Ev.Ord >= Order::Acquire))
        OrdersLoads = true;
  // A mask or test of the low bit is seqcount-specific too.
  for (auto &[Key, Vars] : T.OpenReaders) {
    if (T.OddCheckedKeys.count(Key) || CorroboratedReaders.count(Key))
      OrdersLoads = true;
    for (const VarDecl *V : Vars)
      if (T.OddCheckedVars.count(V))
        OrdersLoads = true;
  }
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &Ev : BE.Events)
      if (Ev.Kind == EventKind::Load && Ev.Masked && T.OpenReaders.count(Ev.Key))
        OrdersLoads = true;
  return OrdersLoads;
}

/// The begins and rechecks of T.OpenReaders become ReadBegin and ReadRetry
/// events, open-coded, and their locations counters.
void FunctionClassifier::markOpenReaders() {
  for (auto &[Key, Vars] : T.OpenReaders) {
    T.Counters.insert(Key);
    for (BlockEvents &BE : T.Blocks)
      for (Event &Ev : BE.Events) {
        if (Ev.Kind != EventKind::Load || Ev.Key != Key)
          continue;
        if (Ev.Use == ValueUse::Assigned && is_contained(Vars, Ev.Var)) {
          Ev.Kind = EventKind::ReadBegin;
          Ev.Counter = true;
          Ev.OpenCoded = true;
        } else if (Ev.Use == ValueUse::Compared && is_contained(Vars, Ev.Var)) {
          Ev.Kind = EventKind::ReadRetry;
          Ev.RetryHasBarrier = false;
          Ev.Counter = true;
          Ev.OpenCoded = true;
        }
      }
  }
}

/// A begin helper's count (masked or tested, then ordered: a begin API
/// in all but name) begins a read section even with no retry here: the
/// value escapes to a caller, or is never validated.
void FunctionClassifier::recognizeBeginHelpers() {
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events)
      if (Ev.Kind == EventKind::Load && Ev.HelperBegin && Ev.Key >= 0 &&
          (Ev.Use == ValueUse::Assigned || Ev.Use == ValueUse::Discarded)) {
        Ev.Kind = EventKind::ReadBegin;
        Ev.Counter = true;
        Ev.OpenCoded = true;
        T.Counters.insert(Ev.Key);
      }
}

} // namespace detail
} // namespace seqlint
