//===- BarrierScan.h - what a barrier orders inside one function ----------===//
//
// For the barrier checks (barrier-wrong-kind, barrier-misplaced): walks the
// CFG from a barrier backwards and forwards and collects the memory accesses
// it orders in this function, up to the next barrier on each path. A call
// seqlint does not know, a lock or an unlock ends the walk as "unknown": the
// barrier may order what that call does. Paths that reach the function entry
// or exit are recorded: the caller's accesses are on that side too.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_BARRIERSCAN_H
#define SEQLINT_CORE_BARRIERSCAN_H

#include "core/Classifier.h"
#include <string>
#include <vector>

namespace seqlint {

enum AccessBits : unsigned { AccLoad = 1, AccStore = 2 };

/// One access a barrier orders (an event, or a known bit operation call).
struct BarrierAccess {
  const Event *E = nullptr;
  unsigned Bits = 0;      // AccLoad | AccStore
  bool AtomicRMW = false; // an atomic read-modify-write (atomic_inc, set_bit)
  bool Marked = false;    // WRITE_ONCE, release, atomic, volatile
};

/// The accesses on one side of a barrier, up to the next barrier.
struct BarrierSide {
  unsigned Kinds = 0;           // union of AccessBits in the window
  bool UnknownCall = false;     // an unknown call or asm in the window
  bool UnknownLock = false;     // a lock or unlock in the window
  bool EmptyToBoundary = false; // a path met entry/exit with no access
  bool ReachedBoundary = false; // a path met entry/exit (the caller's side)
  bool NearestUnknown = false;  // a path's nearest event is not an access
  std::vector<BarrierAccess> Nearest; // nearest access on each path
  std::vector<BarrierAccess> All;     // every access in the window

  bool unknown() const { return UnknownCall || UnknownLock; }
  /// Known: some access, and no unknown event on any path. A path that
  /// runs into the caller with no access in this function does not count
  /// (what the caller does there is the caller's business), unless every
  /// path does: then Kinds is empty.
  bool known() const { return !unknown() && Kinds; }
};

/// A barrier the checks judge: an API barrier (smp_wmb, rte_smp_rmb, a
/// user write-barrier), a C11/GNU thread fence, or a project's barrier
/// macro whose other architectures' definitions say what it orders
/// (libbpf_smp_wmb(): `dmb ishst` on arm64); not other inline asm, not the
/// barrier inside a seqcount write step, not a compiler barrier.
bool isJudgedBarrier(const Event &E);

/// Calls F(E, Block, Index) for every judged barrier of T, block by block.
template <typename Fn>
void forEachJudgedBarrier(const FunctionTrace &T, Fn &&F) {
  for (unsigned B = 0; B != T.Blocks.size(); ++B) {
    const std::vector<Event> &Ev = T.Blocks[B].Events;
    for (unsigned I = 0; I != Ev.size(); ++I)
      if (isJudgedBarrier(Ev[I]))
        F(Ev[I], B, I);
  }
}

/// Collects the accesses on one side of the barrier Events[Index] of block
/// Block. With NoBackEdges, the walk does not follow loop back edges
/// (accesses of the previous or the next iteration); with ThroughUnlock, an
/// unlock does not end it.
BarrierSide scanBarrierSide(const FunctionTrace &T, unsigned Block,
                            unsigned Index, bool Forward,
                            bool NoBackEdges = false,
                            bool ThroughUnlock = false);

/// Every access on one side of a barrier up to the next barrier, a lock or
/// an unlock, in this iteration of any loop (no back edges), looking past
/// calls seqlint does not know (listed in Calls, for a caller that looks
/// into them).
struct BarrierWindow {
  std::vector<BarrierAccess> Accesses;
  std::vector<const Event *> Calls;
  bool Lock = false;            // a path met a lock or an unlock
  bool ReachedBoundary = false; // a path met entry/exit
};
BarrierWindow barrierWindow(const FunctionTrace &T, unsigned Block,
                            unsigned Index, bool Forward);

/// The first marked load (READ_ONCE, acquire, atomic read, a read begin)
/// after the barrier on each path, looking past plain loads. Blocked when
/// some path meets a store, an unknown call, a lock or a barrier first;
/// paths that reach the exit with none add nothing.
struct FirstLoads {
  std::vector<BarrierAccess> Loads;
  bool Blocked = false;
};
FirstLoads firstMarkedLoadsAfter(const FunctionTrace &T, unsigned Block,
                                 unsigned Index);

/// What memory an access touches, to tell two accesses apart.
struct AccessIdentity {
  const clang::ValueDecl *Field = nullptr;
  const clang::VarDecl *Base = nullptr;
  std::string Text;
  bool valid() const { return Field || !Text.empty(); }
  bool same(const AccessIdentity &O) const;
};
AccessIdentity accessIdentity(const FunctionTrace &T, const Event &E);
/// `root->state` for messages.
std::string accessName(const FunctionTrace &T, const Event &E);

/// barrier-misplaced, write side: data stores, then the publishing (marked)
/// store, then the write barrier, and no store after it in this function.
/// Returns the publishing store and one data store.
struct MisplacedWrite {
  const Event *Publish = nullptr;
  const Event *Data = nullptr;
};
std::optional<MisplacedWrite> misplacedWriteBarrier(const FunctionTrace &T,
                                                    const Event &Barrier,
                                                    unsigned Block,
                                                    unsigned Index);

/// barrier-misplaced, read side: the read barrier comes after a load of X,
/// then the code loads Y and re-reads X; the barrier orders neither pair the
/// code relies on (Y then X). Returns the first load after the barrier and
/// the re-read.
struct MisplacedRead {
  const Event *First = nullptr;
  const Event *Reread = nullptr;
};
std::optional<MisplacedRead> misplacedReadBarrier(const FunctionTrace &T,
                                                  const Event &Barrier,
                                                  unsigned Block,
                                                  unsigned Index);

} // namespace seqlint

#endif
