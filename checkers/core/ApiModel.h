//===- ApiModel.h - what seqlint knows about seqcount/barrier APIs --------===//
//
// Every API seqlint recognizes is described here by name: the Linux kernel
// (seqlock.h, barrier.h, compiler.h, u64_stats_sync.h, atomics, locks), QEMU,
// DPDK, Concurrency Kit, C11 <stdatomic.h> and GCC __atomic builtins, and
// seqlint's own runtime. Recognition is by the outermost known macro name, or
// by callee name for functions; what the API expands to does not matter.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_APIMODEL_H
#define SEQLINT_CORE_APIMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace seqlint {

enum class Role : unsigned char {
  ReadBegin,        // v = begin(counter)
  ReadBeginOrLock,  // begin_or_lock(counter, &v)
  ReadRetry,        // retry(counter, v) -> nonzero: retry
  ReadDone,         // done_seqretry(counter, v): ends a begin_or_lock section
  WriteBegin,       // begin(counter): count becomes odd, write barrier after
  WriteEnd,         // end(counter): write barrier before, count even again
  WriteOneShot,     // invalidate/latch/barrier: a complete write-side step
  Barrier,          // a fence; see BarrierKind
  Load,             // once/acquire load of *arg or arg (see ArgIsPointer)
  Store,            // once/release store to *arg or arg
  RMW,              // atomic read-modify-write on *arg
  Lock,             // takes a lock (arg 0)
  Unlock,           // releases a lock (arg 0)
  SideEffect,       // I/O, allocation, logging: never inside a read section
  Pure,             // no effect on shared memory (rcu_read_lock, cpu_relax…)
};

enum class BarrierKind : unsigned char {
  Compiler, // barrier(), atomic_signal_fence: orders nothing across CPUs
  Read,     // smp_rmb: load->load
  Write,    // smp_wmb: store->store
  Acquire,  // acquire fence: prior loads -> later loads and stores
  Release,  // release fence: prior loads and stores -> later stores
  Full,     // smp_mb, seq_cst fence
};

/// Memory order of an access, from weakest to strongest.
enum class Order : unsigned char {
  Plain,   // ordinary C access
  Once,    // READ_ONCE/WRITE_ONCE/relaxed atomic: single-copy atomic, unordered
  Acquire, // load-acquire
  Release, // store-release
  AcqRel,  // RMW with both
  SeqCst,  // seq_cst atomic or fully ordered kernel RMW
};

/// Which API family an entry comes from; used for fix-it spelling and docs.
enum class Family : unsigned char { Linux, QEMU, DPDK, CK, C11, GNU, Runtime, Posix, Libc, Postgres };

/// What a call keeps out of the current CPU from here on (or, with
/// ExcludeEnds, stops keeping out): preemption, softirqs (bottom halves),
/// hard interrupts. Each level implies the ones below it.
enum ExcludeLevel : unsigned char {
  ExclNone = 0,
  ExclPreempt = 1, // preempt_disable(), get_cpu(), spin_lock()
  ExclBH = 2,      // local_bh_disable(), spin_lock_bh(), softirq context
  ExclIrq = 3,     // local_irq_save(), spin_lock_irqsave(), hardirq context
};

/// Memory an allocator returns that another agent sees: mapped shared with
/// another process (mmap(MAP_SHARED), shmat()) or coherent DMA memory a
/// device reads and writes (dma_alloc_coherent()).
enum class Sharing : unsigned char { None, Process, Device };

/// The kinds of lock seqlint tells apart (which contexts they keep out,
/// and the messages).
enum class LockKind : unsigned char {
  Unknown,
  Spin,      // spinlock_t
  RawSpin,   // raw_spinlock_t
  Mutex,     // struct mutex
  RwLock,    // rwlock_t
  RwSem,     // struct rw_semaphore
  Seqlock,   // seqlock_t (write_seqlock, read_seqlock_excl)
  Pthread,   // pthread_mutex_t, pthread_rwlock_t, pthread_spinlock_t
  Other,     // a lock the model knows by name only (lock_sock ...)
};

/// How a function the code registers runs: the contexts that call it.
/// SoftIrq and Process are the contexts .seqlint.yaml declares
/// (softirq-entry, process-entry) for a project's own registrations.
enum class EntryKind : unsigned char {
  Work, Timer, HRTimer, Irq, IrqThread, KThread, Thread, Tasklet, IrqWork,
  Napi, Xmit, Hook, RxHandler, Syscall, SoftIrq, Process
};

/// A call that registers a function (an argument) as an entry point.
struct EntryRegistrar {
  EntryKind Kind = EntryKind::Thread;
  bool PerCpu = false;   // request_percpu_irq(): one instance per CPU
  bool Threaded = false; // request_threaded_irq(): handler (arg 1) and
                         // thread function (arg 2) of one interrupt
};

/// A bit operation (test_bit(), set_bit(), __clear_bit()): an access to the
/// word one of its arguments points to.
struct BitOp {
  bool Modifies = false; // sets, clears or changes the bit; else tests it
  bool Atomic = true;    // not __set_bit(), the non-atomic variant
  int WordArg = 1;       // the argument that points to the word
};

struct ApiEntry {
  Role R;
  Family F = Family::Linux;
  BarrierKind Barrier = BarrierKind::Full; // Role::Barrier
  Order Ord = Order::Once;                 // Load/Store/RMW; also begin/retry
  int CounterArg = 0;   // which argument names the counter/lock/location
  int ValueArg = -1;    // ReadRetry/ReadDone: the begin value; BeginOrLock: &v
  bool ArgIsPointer = true; // arg is a pointer to the object (else an lvalue)
  bool RetryHasBarrier = true; // ReadRetry: issues a read barrier itself
  bool MayBeOdd = false;       // ReadBegin: returns odd counts (no wait, no mask)
  unsigned char Excludes = ExclNone; // Pure/Lock/Unlock/WriteBegin/End: see ExcludeLevel
  bool ExcludeEnds = false;          // ... and this call ends it (enable, unlock)
  bool Mmio = false; // Store: a device register write (a doorbell); Release
                     // if ordered after earlier memory stores (writel())
  /// SideEffect: the call returns memory shared with another agent.
  Sharing Shares = Sharing::None;
  /// ... only if this argument has MAP_SHARED (bit 0) set (mmap's flags).
  int SharedFlagsArg = -1;
  /// Lock: takes the shared side of a reader-writer lock (.seqlint.yaml's
  /// read-lock); the built-in APIs say it by name (lockIsShared()).
  bool SharedLock = false;
  /// Lock: may fail; held where its nonzero result is tested true
  /// (.seqlint.yaml's trylock); built-in: lockIsTry().
  bool TryLock = false;
  /// SideEffect: a function passed to the call runs as an entry point of
  /// this kind (.seqlint.yaml's thread-create, hardirq-entry, ...);
  /// built-in: entryRegistrar().
  std::optional<EntryKind> Starts = std::nullopt;
  /// Returns memory no other thread can reach yet (.seqlint.yaml's
  /// allocator); not an entry of the table: ApiModel::allocates().
  bool Allocates = false;
  /// A bit operation (.seqlint.yaml's bit-test, bit-modify ...); not an
  /// entry of the table either: ApiModel::bitOp().
  std::optional<BitOp> Bit = std::nullopt;
};

// --- Locks by name ---------------------------------------------------------
// What the name of a lock operation or a lock type says. The APIs of the
// table above and a subsystem's own locks by the kernel's naming
// conventions (lock_sock(), down_read_trylock(), raw_spin_lock_rcu_node())
// are both known here, and nowhere else.

/// +1 for a callee name that reads like taking a lock, -1 for releasing
/// one, 0 otherwise.
int lockLikeName(llvm::StringRef Name);
/// class_spinlock_irqsave_constructor, class_mutex_constructor ...: the
/// constructor of a lock guard class of <linux/cleanup.h>.
bool isLockGuardConstructor(llvm::StringRef Name);
/// The kind of lock a lock operation of this name takes or releases.
LockKind lockKindOfName(llvm::StringRef Name);
/// The kind of lock a type name (or a typedef on the way to it) names.
LockKind lockKindOfTypeName(llvm::StringRef TypeName);
/// write_seqlock*(): a write begin that also takes the seqlock's lock; and
/// the write end that releases it.
bool isSeqlockWriteLock(llvm::StringRef Name);
bool isSeqlockWriteUnlock(llvm::StringRef Name);
/// Takes the shared (reader) side of a reader-writer lock.
bool lockIsShared(llvm::StringRef Name);
/// May fail: the lock is held on one branch of the result.
bool lockIsTry(llvm::StringRef Name);
/// A trylock that returns 0 on success (pthread_*_trylock()).
bool tryLockZeroIsSuccess(llvm::StringRef Name);
/// lockdep_assert_held*(): says the caller holds the lock; and an
/// assertion macro that says only one CPU is online (see
/// isAssertionMacro()), which holds every other CPU off.
bool lockIsAssertion(llvm::StringRef Name);
/// A guard() / scoped_guard() lock, released when its scope ends.
bool lockIsScoped(llvm::StringRef Name);
/// A callee whose name mentions a lock (spin_lock, mutex_unlock,
/// lock_sock, ...; not block or clock): the caller does locking of its own.
bool mentionsLock(llvm::StringRef Name);
/// A function whose name says its caller holds the lock (foo_locked,
/// bar_nolock, baz_locked_irq).
bool isCallerLockedName(llvm::StringRef Name);

// --- Seqcount types and families --------------------------------------------

/// What a counter's type (a typedef or record name, without `_t`) says about
/// the exclusion its writers need.
enum class CounterTypeClass : unsigned char {
  Unknown,    // not a type seqlint knows
  SelfLocked, // seqlock_t (its own lock), u64_stats_sync (per-CPU by design)
  Associated, // seqcount_<lock>_t: the writers hold that lock
};
/// Classifies a counter type name (without `_t`); for Associated, Needs is
/// the associated lock's kind.
CounterTypeClass counterTypeClass(llvm::StringRef TypeName, LockKind &Needs);
/// The u64_stats_sync API (u64_stats_update_begin(), u64_stats_fetch_*()).
bool isStatsSyncApi(llvm::StringRef Name);
/// A type spelling that names struct u64_stats_sync.
bool isStatsSyncTypeSpelling(llvm::StringRef TypeSpelling);
/// The retry call that goes with a read begin of this name, for messages
/// and fix-its ("read_seqretry()" for read_seqbegin).
std::string retryPartnerOf(llvm::StringRef BeginName);
/// rcu_assign_pointer(), rcu_dereference*(), srcu_dereference*(): RCU's
/// publication and subscription accessors.
bool isRcuAccessorName(llvm::StringRef Name);
/// rcu_dereference_protected() and its kin, the update side's access under
/// the lock that excludes other updaters, and rcu_access_pointer(), which
/// dereferences nothing: no reader's load.
bool isRcuUpdateSideAccess(llvm::StringRef Name);
/// seqcount_spinlock_init(s, lock), SEQCNT_MUTEX_ZERO(name, lock), ...: the
/// initialisers that associate a seqcount with its writers' lock (arg 1).
llvm::ArrayRef<llvm::StringLiteral> seqcountLockInitNames();
/// WARN_ON(), WARN_ON_ONCE(), WARN_ONCE(), BUG_ON() and their VM_ kin: the
/// condition (argument 0) is false here, or the code is broken.
bool isAssertionMacro(llvm::StringRef Name);
/// num_online_cpus(): how many CPUs run. Asserted to be at most one (early
/// boot, a kexec or hibernation path), nothing else runs concurrently.
bool isOnlineCpuCount(llvm::StringRef Name);
/// data_race(expr): marks an intended race.
bool isDataRaceMarker(llvm::StringRef MacroName);
/// A header of the kernel's user-space ABI (`include/uapi/` in a kernel
/// tree, `/usr/include/linux/` installed): its records are what user space
/// and the kernel share (a mapped ring, an ioctl argument, a wire format).
bool isUapiHeaderPath(llvm::StringRef File);

// --- Builtins and calls outside the table -----------------------------------

/// What a compiler builtin or a C11 fence function does, when the table
/// does not list it.
enum class BuiltinKind : unsigned char {
  None,        // not one of them
  SignalFence, // atomic_signal_fence(): orders nothing across threads
  ThreadFence, // atomic_thread_fence(order) and its builtins, DPDK's
  SyncRmw,     // __sync_fetch_and_add() ...: a seq_cst read-modify-write
  Transparent, // __builtin_*, KCSAN and sanitizer hooks: nothing seqlint sees
};
BuiltinKind builtinKind(llvm::StringRef Name);
/// A callee that is a fence or a __sync builtin by name (also wrappers whose
/// name contains atomic_thread_fence): the driver's test before building a
/// CFG counts it as an ordering operation that can make a section.
bool isFenceLikeName(llvm::StringRef Name);
/// smp_*() and virt_*() barriers order CPUs against each other only; the
/// mandatory ones (wmb(), dma_wmb(), writel()) also order a device's view.
bool isCpuOnlyBarrierName(llvm::StringRef Name);
/// The same, as the one-sided rules judge a barrier before a device index:
/// an unnamed fence (C11) or any name with smp in it too.
bool isCpuToCpuBarrierName(llvm::StringRef Name);
/// smp_mb__before_atomic() / smp_mb__after_atomic(): barriers that upgrade
/// the atomic they stand next to.
bool isBeforeAtomicBarrier(llvm::StringRef Name);
bool isAfterAtomicBarrier(llvm::StringRef Name);
/// An atomic API that adds to its location (atomic_inc(), atomic_add_return
/// is not; atomic_inc_not_zero() and *_unless() are conditional).
bool isIncrementApiName(llvm::StringRef Name);
/// memcpy()/memmove()/memset() and their checked variants: a bulk store.
bool isBulkCopyName(llvm::StringRef Name);
/// wake_up(), complete(), queue_work(), call_rcu(): a call with a side
/// effect that orders, as the other side waits for it.
bool isOrderingSideEffectName(llvm::StringRef Name);
/// The kernel's bit operations by name, in their arch_, generic_, const_
/// and underscore variants (two leading underscores: non-atomic).
std::optional<BitOp> bitOpOfName(llvm::StringRef Name);
/// waitqueue_active(), swait_active(): the lockless peek at a wait queue
/// that a waker makes after setting the condition the waiter re-checks.
bool isWaitQueuePeekName(llvm::StringRef Name);
/// signal(), sigset(), bsd_signal(), sysv_signal() and PostgreSQL's
/// pqsignal()/pqsignal_pm(): the function handed as the argument at the
/// returned index runs as a signal handler, on the thread it interrupts.
std::optional<unsigned> signalRegistrarArg(llvm::StringRef Name);
/// struct sigaction's sa_handler and sa_sigaction.
bool isSignalHandlerMemberName(llvm::StringRef Name);
/// Linux's __le32/__be64 and DPDK's rte_le32_t/rte_be16_t: fields a device
/// reads, by their byte order.
bool isDeviceEndianTypeName(llvm::StringRef Name);
/// A callee that returns a new object by its name, as the one-sided rules
/// read it (alloc anywhere in the name, malloc, *_new*).
bool isNewObjectName(llvm::StringRef Name);

// --- Linker sections ---------------------------------------------------------

/// A Linux per-CPU variable's section (.data..percpu).
bool isPerCpuSection(llvm::StringRef Section);
/// A section of code that runs only while the system starts or stops
/// (.init.text, .exit.text, .ref.text).
bool isInitOrExitSection(llvm::StringRef Section);

// --- Barrier spellings --------------------------------------------------------

/// What a barrier instruction in an asm string orders, as Events.h's Ord*
/// bits (`dmb ishst`: store to store; `lwsync`: all but store to load); 0
/// for an empty string or an instruction seqlint does not know. Lowercase
/// text.
unsigned asmBarrierBits(llvm::StringRef Text);
/// The ordering one `#define` body asks for, as the same bits, or 0: a
/// barrier instruction in an asm string, a __sync_synchronize(), a C11 or
/// GNU thread fence with its memory order.
unsigned macroBodyBarrierBits(llvm::StringRef Body);
/// The text of the string literals of a `#define` body that holds inline
/// asm, lower-case and separated by spaces; "" when it holds none.
std::string macroBodyAsmText(llvm::StringRef Body);
/// The Linux barrier macros a fix-it may rename in place (smp_wmb ->
/// smp_mb): smp_*, the mandatory and virt_* ones, smp_mb__{before,after}_atomic.
bool isLinuxBarrierName(llvm::StringRef Name);
/// Accessors of atomic_t, local_t and their kin (Linux, PostgreSQL's
/// pg_atomic_*): the location is a counter, not a message-passing flag.
bool isCounterAccessorName(llvm::StringRef Name);

// --- Function-name conventions ----------------------------------------------
// What a function's name says about the memory it returns or the objects it
// works on, where nothing else says it.

/// kmalloc, palloc, MemoryContextAlloc, *_new, kmemdup, strdup ...: returns
/// memory no other thread can reach yet.
bool isAllocatorName(llvm::StringRef N);
/// ERR_PTR(-ENOMEM), ERR_CAST(p): an error coded as a pointer, no object
/// (an allocating helper that fails returns one).
bool isErrorPointerName(llvm::StringRef N);
/// Sets an object up before it is shared: a name containing init, setup,
/// create, alloc, probe or reset (setupFunction()).
bool isSetupName(llvm::StringRef Name);
/// Runs before the object is published or after it is unpublished, by the
/// name's words: foo_init, setup_bar, baz_alloc, CreateSharedFoo, a fork
/// callback filling the child, teardown, ...
bool isLifecycleName(llvm::StringRef Name);
/// A C identifier: a letter or '_', then letters, digits and '_'.
bool isCIdentifier(llvm::StringRef S);
/// The words of a name: split at '_' and, for CamelCase names, before each
/// capital that follows a lower-case letter.
llvm::SmallVector<llvm::StringRef, 6> nameWords(llvm::StringRef Name);

// --- Entry points by name ----------------------------------------------------

/// A call of this name registers the function it is passed as an entry
/// point (timer_setup(), request_irq(), pthread_create(), ...).
std::optional<EntryRegistrar> entryRegistrar(llvm::StringRef Callee);
/// A function stored into this member of this record runs as an entry
/// point (work_struct.func, net_device_ops.ndo_start_xmit, ...).
std::optional<EntryKind> entryMember(llvm::StringRef Record,
                                     llvm::StringRef Field);

/// How a code base spells its ordering operations, for the fix-its and
/// messages of a TU: the dialect of the API family the TU uses.
struct Dialect {
  std::string Wmb, Rmb;     // statements: "smp_wmb();"
  std::string Mb;           // "smp_mb()"
  std::string Release;      // a release store, "" if the family has none
  std::string Acquire;      // an acquire load, "" if none
  std::string ReleaseFence; // then: the fence to put before the store
  std::string AcquireFence; // and after the load
  /// The full barrier against a device on the other side, "" if Mb is it
  /// (the kernel's smp_mb() is no barrier on a uniprocessor build: mb()).
  std::string DeviceMb;
};

/// A row of the dialect table: a TU that defines every one of Markers (as a
/// macro, or, unless MacroOnly, declares it as a function) speaks Spelling.
struct DialectRule {
  llvm::SmallVector<llvm::StringLiteral, 2> Markers;
  bool MacroOnly = false;
  Dialect Spelling;
};

class ApiModel {
public:
  ApiModel();
  /// Look up a macro or function name.
  const ApiEntry *lookup(llvm::StringRef Name) const;
  /// True if a function of this name is part of an API implementation and
  /// must not be analysed as user code (seqprop_*, __read_seqcount_t_*, …).
  bool isImplementationFunction(llvm::StringRef Name) const;
  /// True if a header of this file name implements an API (seqlock.h …).
  bool isApiHeader(llvm::StringRef FileName) const;
  /// Does a call of this name return memory no other thread can reach yet
  /// (an allocator by name, isAllocatorName(), or one .seqlint.yaml
  /// declares)?
  bool allocates(llvm::StringRef Name) const {
    return UserAllocators.count(Name) || isAllocatorName(Name);
  }
  /// Adds (or replaces) a user API from .seqlint.yaml.
  void addUser(llvm::StringRef Name, ApiEntry E) {
    if (E.Starts && Name.contains('.')) {
      // `record.field`: a member a function is stored into, not a call.
      UserEntryMembers[Name] = *E.Starts;
      return;
    }
    if (E.Bit) {
      // Also a property of the call, which stays a call: an access to the
      // word its argument points to, for the barrier checks.
      UserBitOps[Name] = *E.Bit;
      return;
    }
    if (E.Allocates) {
      // A property of the callee's result, not an event: the call itself
      // stays what it was (a helper seen through, an unknown call).
      UserAllocators.insert(Name);
      return;
    }
    Entries[Name] = E;
    if (!llvm::is_contained(UserNames, Name))
      UserNames.push_back(Name.str());
  }
  /// Declares that inline asm containing Spelling (any case, runs of white
  /// space as one) orders Bits (Events.h's Ord*): .seqlint.yaml's
  /// AsmBarriers, for an instruction the built-in table does not know.
  void addUserAsm(llvm::StringRef Spelling, unsigned Bits);
  /// What inline asm with this text orders: the longest spelling
  /// .seqlint.yaml declares that occurs in it, else asmBarrierBits().
  unsigned asmBits(llvm::StringRef Text) const;
  /// macroBodyBarrierBits() with the asm spellings of asmBits().
  unsigned macroBodyBits(llvm::StringRef Body) const;
  /// A call of this name is a bit operation: one .seqlint.yaml declares,
  /// else bitOpOfName().
  std::optional<BitOp> bitOp(llvm::StringRef Name) const {
    if (!UserBitOps.empty()) {
      auto It = UserBitOps.find(Name);
      if (It != UserBitOps.end())
        return It->second;
    }
    return bitOpOfName(Name);
  }
  /// The kind of entry point a function stored into Record's Field runs as:
  /// a `record.field` .seqlint.yaml declares, else entryMember().
  std::optional<EntryKind> entryMemberKind(llvm::StringRef Record,
                                           llvm::StringRef Field) const;
  /// The names .seqlint.yaml added, in the order the file gives them: a
  /// project's own barriers, which its fix-its then spell.
  llvm::ArrayRef<std::string> userNames() const { return UserNames; }
  /// Names of every known macro (for the preprocessor index).
  const llvm::StringMap<ApiEntry> &entries() const { return Entries; }
  /// The dialects, most specific first (QEMU also defines smp_wmb(), DPDK
  /// with rte_atomic_store_explicit() is a newer DPDK), and the one of a TU
  /// that matches none of them: C11's.
  llvm::ArrayRef<DialectRule> dialects() const { return Dialects; }
  const Dialect &c11Dialect() const { return C11; }

private:
  void add(llvm::StringRef Name, ApiEntry E) { Entries[Name] = E; }
  llvm::StringMap<ApiEntry> Entries;
  std::vector<std::string> UserNames;
  llvm::StringSet<> UserAllocators;
  llvm::StringMap<BitOp> UserBitOps;
  llvm::StringMap<EntryKind> UserEntryMembers;        // "record.field"
  std::vector<std::pair<std::string, unsigned>> UserAsm; // normalised spelling
  std::vector<DialectRule> Dialects;
  Dialect C11;
  void addDialects();
};

const ApiModel &getApiModel();

} // namespace seqlint

#endif
