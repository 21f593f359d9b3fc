//===- OneSided.h - one side of a ring or publication protocol --*- C++ -*-===//
//
// Most barrier code is one half of a protocol whose other half is a device,
// the kernel, another process or another file: a producer that fills ring
// slots and then stores the index or rings a doorbell, a consumer that loads
// the index or a descriptor's ownership bit and then reads the slots, a
// consumer that reads a slot and then hands it back by storing its head, a
// writer that fills an object and publishes its address. What each side
// needs is known from that side alone (Documentation/memory-barriers.txt,
// "circular-buffers", "dma_wmb"):
//
//  - Publish: slot/descriptor/object stores, then the index, ownership or
//    pointer store (or a relaxed doorbell): a write barrier or a release
//    between;
//  - Consume: the index or ownership load, tested, then the slot loads: a
//    read barrier, an acquire or an address dependency between;
//  - Retire: slot loads, then the head store that gives the slot back:
//    load->store order (a release or a full barrier; smp_wmb() orders
//    stores only).
//
// A candidate is reported only with evidence that another agent accesses
// the location without this function's lock: a marked access (WRITE_ONCE,
// READ_ONCE, volatile, a relaxed atomic), a doorbell, device-endian
// descriptor fields (__le32: memory a device reads), or the same location
// accessed with a release or an acquire somewhere else in the file
// (deviant ordering, Engler et al.), or stored after a write barrier
// everywhere else. Evidence is gathered TU-wide; candidates are judged when
// the TU is done.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_ONESIDED_H
#define SEQLINT_ONESIDED_H

#include "analyses/Instances.h"
#include "analyses/QuietRecords.h"
#include "core/Classifier.h"
#include "core/Finding.h"
#include "core/Provenance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace seqlint {

enum class OsKind : unsigned char {
  Publish,         // store/doorbell after slot or object stores, unordered
  Consume,         // tested index/ownership load, then slot loads, unordered
  Retire,          // slot loads, then the head store, unordered
  RetireWrongKind, // ... with only a store->store barrier between
  Reserve,         // the other side's index loaded plainly (C11), tested,
                   // then slot stores: nothing orders load -> store
  StoreLoad,       // this side's word stored, then the other side's word
                   // loaded to decide a wake-up, no full barrier between
  StoreLoadWrongKind, // ... with only a release or a write barrier between
};

/// What is known TU-wide about one location (field or global).
enum OsEvidenceBits : unsigned {
  EvMarkedLoad = 1,        // READ_ONCE, volatile, relaxed atomic load
  EvAcquireLoad = 2,       // acquire, seq_cst, rcu_dereference
  EvMarkedStore = 4,       // WRITE_ONCE, volatile, relaxed atomic store
  EvReleaseStore = 8,      // release, seq_cst, rcu_assign_pointer
  EvFencedStore = 16,      // stored right after a write barrier
  EvPlainStore = 32,       // a plain or relaxed store not after a barrier
  EvTestedLoad = 64,       // loaded and tested (a status word polled)
  EvSiblingFenced = 128,   // stored after a write barrier that follows stores
                           // to other fields of the same object
  EvDeviceUnordered = 256, // a ring index stored after slot stores that no
                           // device barrier (wmb(), dma_wmb()) orders
  EvHandedOver = 512,      // an ownership word stored outside set-up after
                           // the record it owns is filled or read
};
/// Any store of the location.
constexpr unsigned EvAnyStore = EvPlainStore | EvMarkedStore | EvReleaseStore | EvFencedStore;
/// An access that treats the location as shared: marked, atomic or ordered.
constexpr unsigned EvSharedAccess =
    EvMarkedLoad | EvAcquireLoad | EvMarkedStore | EvReleaseStore | EvFencedStore;

struct OsCandidate {
  OsKind K = OsKind::Publish;
  // Copies: the events of inlined helpers live only during the scan.
  Event At{};   // the store, load or barrier to report at
  Event Data{}; // the slot/object access it must order
  Event Index{}; // Retire*: the head store
  Event Kick{};  // StoreLoad*: the wake-up the loaded value decides
  const clang::ValueDecl *Id = nullptr; // the index/flag/pointer location
  std::string IdName;          // 'vq->avail->idx'
  std::string DataName;        // 'vq->desc[]'
  bool SelfEvident = false;    // the access itself says it is shared
  std::string Why;             // what makes it so, for the message
  bool Dma = false;            // a device descriptor (dma_wmb/dma_rmb)
  bool Doorbell = false;       // Publish through a relaxed MMIO write
  bool NeedsPolled = false;    // a descriptor word: the file must test it
  /// ... that is a descriptor's only by its volatile declaration: not one
  /// if the file never orders or locks around it (QuietRecords).
  bool VolatileOnly = false;
  bool OwnerWord = false;      // an ownership word: the file must test and store it
  bool OwnerAcquired = false;  // ... and load it with an acquire (no provenance)
  bool OwnerMapped = false;    // ... the record lies in memory the file maps shared
  const clang::ValueDecl *DataId = nullptr; // OwnerWord: the record's field,
                                            // accessed plainly in the whole file
  bool LocklessReaders = false; // under a lock: readers must take none
  bool AcquireReaders = false;  // a pointer: readers must acquire/rcu it
  bool Sibling = false;         // a field after others of its object: deviant only
  bool SlotFlag = false;        // Consume: a flag word inside a slot: deviant only
  const clang::RecordDecl *Ring = nullptr; // SlotFlag: the record holding the slots
  /// Header: the record that holds the index and its slots in one block.
  const clang::RecordDecl *Block = nullptr;
  /// Consume of a device descriptor's word: the descriptor's record.
  const clang::RecordDecl *Descriptor = nullptr;
  bool SiblingAcquire = false;  // Publish: a slot's flag after its other fields,
                                // the flag loaded with an acquire elsewhere
  bool DoorbellIndex = false;   // a doorbell with an index stored elsewhere
  bool DoubleChecked = false;   // a pointer tested unlocked, then set under a lock
  const clang::ValueDecl *Cache = nullptr; // Consume: the field the loaded
                                           // index is cached in (deviant only)
  bool CacheSlot = false;       // Cache: a slot of the ring is read after it
  Event Slot{};                 // CacheSlot: that slot read
  std::string SlotName;         // CacheSlot: 'd->addr'
  const clang::FunctionDecl *Fn = nullptr; // judged only if nothing calls it
  /// Publish: the object the store is to (`dpr` in `dpr->prod_idx = n`)
  /// and the function it is written in (the helper's, for an inlined one).
  const clang::Expr *Object = nullptr;
  const clang::FunctionDecl *ObjectFn = nullptr;
  /// RetireWrongKind with no slot load in its function: the field the
  /// stored position comes from (`WRITE_ONCE(c->tail, r->pos)`: pos). The
  /// slots were read by another call of the consumer; judged TU-wide
  /// (osSlotsReadAt()).
  const clang::ValueDecl *Position = nullptr;

  OsCandidate() = default;
  /// Kind K, reported at At, ordered against Data, about location Id.
  OsCandidate(OsKind K, const Event &At, const Event &Data, const clang::ValueDecl *Id,
              std::string IdName, std::string DataName)
      : K(K), At(At), Data(Data), Id(Id), IdName(std::move(IdName)),
        DataName(std::move(DataName)) {}
};

/// The outermost named record a field belongs to (through anonymous
/// structs and unions).
const clang::RecordDecl *osOuterRecord(const clang::ValueDecl *Field);

/// Evidence about locations, from every function of the TU.
class OsEvidence {
public:
  void add(const FunctionTrace &T);
  unsigned of(const clang::ValueDecl *Id) const { return Bits.lookup(Id); }
  /// Where the strongest access of Id is (for the note), if any.
  struct Where {
    clang::SourceLocation Loc;
    std::string Spelling;
    std::string Fn;
  };
  const Where *strongest(const clang::ValueDecl *Id) const;
  /// Where Id is stored after a write barrier that follows its siblings.
  const Where *siblingFenced(const clang::ValueDecl *Id) const;
  /// A ring index Id stored after the slot stores in DataName's function
  /// with no barrier that orders them for a device.
  void markDeviceUnordered(const clang::ValueDecl *Id, Where W) {
    Bits[Id] |= EvDeviceUnordered;
    Unordered.try_emplace(Id, std::move(W));
  }
  /// Index Id loaded and cached in field Cache, followed by a read barrier
  /// in the same function (what a cached value promises its later users).
  void markCacheFenced(const clang::ValueDecl *Id, const clang::ValueDecl *Cache, Where W) {
    CacheFenced.try_emplace({Id, Cache}, std::move(W));
  }
  const Where *cacheFenced(const clang::ValueDecl *Id, const clang::ValueDecl *Cache) const {
    auto It = CacheFenced.find({Id, Cache});
    return It == CacheFenced.end() ? nullptr : &It->second;
  }
  const Where *deviceUnordered(const clang::ValueDecl *Id) const {
    auto It = Unordered.find(Id);
    return It == Unordered.end() ? nullptr : &It->second;
  }
  /// The trace of a small helper of the TU the one-sided scan inlines at
  /// its calls (computed once), or null.
  const FunctionTrace *helperTrace(Classifier &C, const clang::FunctionDecl *FD);
  /// Where the TU's shared and device memory comes from (computed once).
  const SharedMemory &shared(Classifier &C) { return C.sharedMemory(); }
  /// Does the TU load a field of record RD (or of a record nested in it)
  /// with an acquire: a ring whose index publishes its slots?
  bool acquiredRecord(const clang::RecordDecl *RD) const { return Acquired.count(RD); }
  /// ... an integer field of RD (a ring's position, not a pointer).
  bool acquiredPosition(const clang::RecordDecl *RD) const {
    return AcquiredPosition.count(RD);
  }
  /// Does a lock of the file (taken, released or asserted) lie in a
  /// record of RD's type?
  bool lockedRecord(const clang::RecordDecl *RD) const {
    return LockedRecords.count(RD);
  }
  /// An ownership word Id is stored outside set-up after the record it
  /// owns is filled or read (ownerWord()'s store rule): the file hands the
  /// record over with it, whether or not that store is reported.
  void markHandedOver(const clang::ValueDecl *Id) { Bits[Id] |= EvHandedOver; }
  /// Is FD called by a function of the TU seen so far?
  bool called(const clang::FunctionDecl *FD) const {
    return Called.count(FD->getCanonicalDecl());
  }
  /// Is Id quiet: see QuietRecords.
  bool quiet(const clang::ValueDecl *Id) const { return Quiet.quiet(Id); }
  /// Does the file load Cand's location in order (an acquire, a marked
  /// load, a load a read barrier follows), and is every such load provably
  /// of another object than Cand's store (Instances.h)? Then the file's
  /// ordered readers, which its ordered stores publish to, never read what
  /// Cand stores.
  bool readersOnOtherInstances(const OsCandidate &Cand) const;
  /// Does the file store Id, and only ever one constant (a cookie)?
  bool constantField(const clang::ValueDecl *Id) const {
    auto It = StoredConstant.find(Id);
    return It != StoredConstant.end() && It->second.has_value() &&
           !Stepped.count(Id);
  }

private:
  llvm::DenseSet<const clang::RecordDecl *> Acquired;
  llvm::DenseSet<const clang::RecordDecl *> AcquiredPosition;
  llvm::DenseSet<const clang::RecordDecl *> LockedRecords;
  llvm::DenseSet<const clang::FunctionDecl *> Called;
  llvm::DenseMap<const clang::FunctionDecl *, std::shared_ptr<const FunctionTrace>> Helpers;
  llvm::DenseMap<const clang::ValueDecl *, unsigned> Bits;
  llvm::DenseMap<const clang::ValueDecl *, Where> Strong;
  llvm::DenseMap<const clang::ValueDecl *, Where> Sibling;
  llvm::DenseMap<const clang::ValueDecl *, Where> Unordered;
  llvm::DenseMap<std::pair<const clang::ValueDecl *, const clang::ValueDecl *>, Where> CacheFenced;
  QuietRecords Quiet;
  const clang::FunctionDecl *Last = nullptr;
  struct Reader {
    const clang::FunctionDecl *Fn;
    const clang::Expr *Object;
  };
  llvm::DenseMap<const clang::ValueDecl *, std::vector<Reader>> OrderedReaders;
  llvm::DenseSet<const clang::ValueDecl *> UnresolvedReaders;
  mutable std::unique_ptr<CallSites> Sites;
  /// The constant every store of a location stores, or none (it varies).
  llvm::DenseMap<const clang::ValueDecl *, std::optional<int64_t>>
      StoredConstant;
  llvm::DenseSet<const clang::ValueDecl *> Stepped; // read-modify-written
};

class FunctionAnalyses;

/// The candidates of one function (its events must be alive while the
/// caller turns them into findings). FA: the function's analyses (its
/// must-held locks are shared with the other checks).
std::vector<OsCandidate> scanOneSided(FunctionAnalyses &FA, Classifier &C,
                                      OsEvidence &Tu);

/// Does the TU-wide evidence make Cand a bug worth reporting?
bool osSupported(const OsCandidate &Cand, const OsEvidence &Ev);

/// A function of the TU (not a system header's) that reads a slot at the
/// position kept in field Position (`&r->data[r->pos & r->mask]`), moves
/// that position, and stores no slot at it: a consumer's read step. Returns
/// the subscript read, or null; FnName is set to that function's name.
const clang::Expr *osSlotsReadAt(clang::ASTContext &Ctx,
                                 const clang::ValueDecl *Position,
                                 std::string &FnName);

/// A type that says "a device reads or writes this": the kernel's and
/// DPDK's endian-annotated integers (__le32, rte_be16_t: descriptor fields
/// in DMA memory), or volatile.
bool osDeviceTyped(clang::QualType T);

/// The location identity used by the one-sided analysis.
const clang::ValueDecl *osIdentity(const LocationKey &K);

} // namespace seqlint

#endif
