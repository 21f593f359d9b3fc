//===- ApiModel.cpp - the built-in API profiles ---------------------------===//
#include "core/ApiModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace seqlint {

namespace {
ApiEntry barrier(BarrierKind K, Family F = Family::Linux) {
  ApiEntry E{Role::Barrier, F};
  E.Barrier = K;
  return E;
}
ApiEntry role(Role R, Family F = Family::Linux) { return ApiEntry{R, F}; }
ApiEntry access(Role R, Order O, bool ArgIsPointer, Family F = Family::Linux) {
  ApiEntry E{R, F};
  E.Ord = O;
  E.ArgIsPointer = ArgIsPointer;
  return E;
}
ApiEntry retry(bool HasBarrier, Family F = Family::Linux) {
  ApiEntry E{Role::ReadRetry, F};
  E.ValueArg = 1;
  E.RetryHasBarrier = HasBarrier;
  return E;
}
ApiEntry begin(Order O = Order::Acquire, Family F = Family::Linux) {
  ApiEntry E{Role::ReadBegin, F};
  E.Ord = O;
  return E;
}
} // namespace

ApiModel::ApiModel() {
  // --- Linux: include/linux/seqlock.h (6.12) -------------------------------
  // Read side. In 6.12 every begin loads the count with smp_load_acquire()
  // (seqprop_sequence), the plain begins spin while the count is odd.
  for (StringRef N : {"read_seqcount_begin", "raw_read_seqcount_begin",
                      "__read_seqcount_begin", "raw_seqcount_begin",
                      "raw_read_seqcount", "read_seqbegin",
                      "raw_read_seqcount_latch", "read_seqcount_latch",
                      "u64_stats_fetch_begin", "__u64_stats_fetch_begin"})
    add(N, begin());
  // raw_read_seqcount() returns the count as it is: the caller must deal
  // with an odd value.
  {
    ApiEntry E = begin();
    E.MayBeOdd = true;
    add("raw_read_seqcount", E);
  }
  add("read_seqcount_retry", retry(true));
  add("read_seqretry", retry(true));
  add("need_seqretry", retry(true));
  add("read_seqcount_latch_retry", retry(true));
  add("raw_read_seqcount_latch_retry", retry(true));
  add("u64_stats_fetch_retry", retry(true));
  add("__u64_stats_fetch_retry", retry(true));
  // __read_seqcount_retry() does not issue smp_rmb(): the caller must.
  add("__read_seqcount_retry", retry(false));
  add("do___read_seqcount_retry", retry(false));
  {
    ApiEntry E{Role::ReadBeginOrLock};
    E.ValueArg = 1;
    add("read_seqbegin_or_lock", E);
    add("read_seqbegin_or_lock_irqsave", E);
    ApiEntry D{Role::ReadDone};
    D.ValueArg = 1;
    add("done_seqretry", D);
    add("done_seqretry_irqrestore", D);
  }
  // Write side.
  for (StringRef N :
       {"write_seqcount_begin", "write_seqcount_begin_nested",
        "raw_write_seqcount_begin", "write_seqlock", "write_seqlock_bh",
        "write_seqlock_irq", "write_seqlock_irqsave", "write_seqcount_latch_begin",
        "u64_stats_update_begin", "u64_stats_update_begin_irqsave"})
    add(N, role(Role::WriteBegin));
  for (StringRef N :
       {"write_seqcount_end", "raw_write_seqcount_end", "write_sequnlock",
        "write_sequnlock_bh", "write_sequnlock_irq", "write_sequnlock_irqrestore",
        "write_seqcount_latch_end", "u64_stats_update_end",
        "u64_stats_update_end_irqrestore"})
    add(N, role(Role::WriteEnd));
  for (StringRef N : {"write_seqcount_invalidate", "raw_write_seqcount_barrier",
                      "raw_write_seqcount_latch", "write_seqcount_latch"})
    add(N, role(Role::WriteOneShot));
  // Exclusive readers take the lock: they are not lockless sections.
  add("read_seqlock_excl", role(Role::Lock));
  add("read_seqlock_excl_bh", role(Role::Lock));
  add("read_seqlock_excl_irq", role(Role::Lock));
  add("read_seqlock_excl_irqsave", role(Role::Lock));
  add("read_sequnlock_excl", role(Role::Unlock));
  add("read_sequnlock_excl_bh", role(Role::Unlock));
  add("read_sequnlock_excl_irq", role(Role::Unlock));
  add("read_sequnlock_excl_irqrestore", role(Role::Unlock));
  for (StringRef N : {"seqcount_init", "seqlock_init", "seqcount_latch_init",
                      "seqcount_spinlock_init", "seqcount_raw_spinlock_init",
                      "seqcount_mutex_init", "seqcount_rwlock_init",
                      "u64_stats_init", "seqcount_lockdep_reader_access",
                      "u64_stats_read", "u64_stats_set", "u64_stats_add",
                      "u64_stats_inc", "scoped_seqlock_read",
                      // Static initializers naming a seqcount's lock.
                      "SEQCNT_RAW_SPINLOCK_ZERO", "SEQCNT_SPINLOCK_ZERO",
                      "SEQCNT_RWLOCK_ZERO", "SEQCNT_MUTEX_ZERO"})
    add(N, role(Role::Pure));

  // --- Linux: barriers and accessors ---------------------------------------
  for (StringRef N : {"smp_mb", "mb", "virt_mb", "smp_mb__before_atomic",
                      "smp_mb__after_atomic", "smp_mb__after_spinlock",
                      "smp_mb__after_unlock_lock", "smp_mb__after_srcu_read_unlock"})
    add(N, barrier(BarrierKind::Full));
  for (StringRef N : {"smp_rmb", "rmb", "dma_rmb", "virt_rmb"})
    add(N, barrier(BarrierKind::Read));
  for (StringRef N : {"smp_wmb", "wmb", "dma_wmb", "virt_wmb"})
    add(N, barrier(BarrierKind::Write));
  add("smp_acquire__after_ctrl_dep", barrier(BarrierKind::Acquire));
  add("barrier", barrier(BarrierKind::Compiler));
  add("barrier_data", barrier(BarrierKind::Compiler));
  add("READ_ONCE", access(Role::Load, Order::Once, false));
  add("ACCESS_ONCE", access(Role::Load, Order::Once, false));
  add("data_race", role(Role::Pure));
  add("WRITE_ONCE", access(Role::Store, Order::Once, false));
  add("smp_load_acquire", access(Role::Load, Order::Acquire, true));
  add("smp_store_release", access(Role::Store, Order::Release, true));
  add("smp_store_mb", access(Role::Store, Order::SeqCst, false));
  add("virt_load_acquire", access(Role::Load, Order::Acquire, true));
  add("virt_store_release", access(Role::Store, Order::Release, true));
  add("virt_store_mb", access(Role::Store, Order::SeqCst, false));
  // rcu_dereference: an address-dependency ordered load.
  for (StringRef N : {"rcu_dereference", "rcu_dereference_raw", "rcu_dereference_check",
                      "rcu_dereference_bh", "rcu_dereference_sched",
                      "rcu_dereference_protected", "srcu_dereference",
                      "rcu_access_pointer"})
    add(N, access(Role::Load, Order::Once, false));
  add("rcu_assign_pointer", access(Role::Store, Order::Release, false));
  for (StringRef N :
       {"rcu_read_lock", "rcu_read_unlock", "rcu_read_lock_bh", "rcu_read_unlock_bh",
        "rcu_read_lock_sched", "rcu_read_unlock_sched", "preempt_disable",
        "preempt_enable", "preempt_disable_notrace", "preempt_enable_notrace",
        "migrate_disable", "migrate_enable", "cpu_relax", "might_sleep",
        "lockdep_assert_irqs_disabled",
        "lockdep_assert_preemption_disabled", "kcsan_atomic_next", "kcsan_mb",
        "local_irq_save", "local_irq_restore", "local_irq_disable",
        "local_irq_enable", "raw_local_irq_save", "raw_local_irq_restore",
        "local_bh_disable", "local_bh_enable", "unlikely", "likely",
        "WARN_ON", "WARN_ON_ONCE", "WARN", "WARN_ONCE", "BUG_ON",
        "VM_BUG_ON", "VM_WARN_ON", "VM_WARN_ON_ONCE", "this_cpu_ptr",
        "per_cpu_ptr", "raw_cpu_ptr", "smp_processor_id",
        "raw_smp_processor_id"})
    add(N, role(Role::Pure));

  // --- Device register writes (doorbells) -----------------------------------
  // writel() and friends are ordered after the CPU's earlier stores to
  // memory (Documentation/memory-barriers.txt, "KERNEL I/O BARRIER
  // EFFECTS"): a release as far as the ring in memory is concerned. The
  // _relaxed and __raw_ variants are not. DPDK's rte_write*() issue
  // rte_io_wmb() first; rte_write*_relaxed() do not. Arguments: (value, addr).
  {
    ApiEntry Ordered = access(Role::Store, Order::Release, true);
    Ordered.CounterArg = 1;
    Ordered.Mmio = true;
    ApiEntry Relaxed = Ordered;
    Relaxed.Ord = Order::Once;
    for (StringRef N : {"writeb", "writew", "writel", "writeq", "iowrite8",
                        "iowrite16", "iowrite32", "iowrite64", "iowrite16be",
                        "iowrite32be", "iowrite64be"})
      add(N, Ordered);
    for (StringRef N : {"writeb_relaxed", "writew_relaxed", "writel_relaxed",
                        "writeq_relaxed", "__raw_writeb", "__raw_writew",
                        "__raw_writel", "__raw_writeq"})
      add(N, Relaxed);
    Ordered.F = Relaxed.F = Family::DPDK;
    for (StringRef N : {"rte_write8", "rte_write16", "rte_write32", "rte_write64"})
      add(N, Ordered);
    for (StringRef N : {"rte_write8_relaxed", "rte_write16_relaxed",
                        "rte_write32_relaxed", "rte_write64_relaxed"})
      add(N, Relaxed);
  }

  // --- Linux: locks ----------------------------------------------------------
  // lockdep_assert_held(l): the caller holds l from here on.
  for (StringRef N : {"lockdep_assert_held", "lockdep_assert_held_write",
                      "lockdep_assert_held_read", "lockdep_assert_held_once"})
    add(N, role(Role::Lock));
  for (StringRef N :
       {"spin_lock", "spin_lock_bh", "spin_lock_irq", "spin_lock_irqsave",
        "spin_lock_nested", "raw_spin_lock", "raw_spin_lock_irq",
        "raw_spin_lock_irqsave", "raw_spin_lock_bh", "mutex_lock",
        "mutex_lock_nested", "mutex_lock_interruptible", "mutex_lock_killable",
        "read_lock", "read_lock_bh", "read_lock_irq", "read_lock_irqsave",
        "write_lock", "write_lock_bh", "write_lock_irq", "write_lock_irqsave",
        "down_read", "down_write", "spin_trylock", "mutex_trylock"})
    add(N, role(Role::Lock));
  for (StringRef N :
       {"spin_unlock", "spin_unlock_bh", "spin_unlock_irq",
        "spin_unlock_irqrestore", "raw_spin_unlock", "raw_spin_unlock_irq",
        "raw_spin_unlock_irqrestore", "raw_spin_unlock_bh", "mutex_unlock",
        "read_unlock", "read_unlock_bh", "read_unlock_irq",
        "read_unlock_irqrestore", "write_unlock", "write_unlock_bh",
        "write_unlock_irq", "write_unlock_irqrestore", "up_read", "up_write"})
    add(N, role(Role::Unlock));
  // atomic_dec_and_lock(&cnt, &lock) and its kin drop a reference and, on
  // the last one, return true with the lock (their second argument) held:
  // a trylock of that lock.
  for (StringRef N :
       {"atomic_dec_and_lock", "atomic_dec_and_lock_irqsave",
        "atomic_dec_and_raw_lock", "atomic_dec_and_raw_lock_irqsave",
        "atomic_dec_and_mutex_lock", "refcount_dec_and_lock",
        "refcount_dec_and_lock_irqsave", "refcount_dec_and_mutex_lock",
        "refcount_dec_and_raw_lock", "refcount_dec_and_raw_lock_irqsave"}) {
    ApiEntry E = role(Role::Lock);
    E.CounterArg = 1;
    E.TryLock = true;
    add(N, E);
  }
  for (StringRef N : {"pthread_mutex_lock", "pthread_rwlock_rdlock",
                      "pthread_rwlock_wrlock", "pthread_spin_lock"})
    add(N, role(Role::Lock, Family::Posix));
  for (StringRef N : {"pthread_mutex_unlock", "pthread_rwlock_unlock",
                      "pthread_spin_unlock"})
    add(N, role(Role::Unlock, Family::Posix));
  // QEMU include/qemu/thread.h: qemu_mutex_lock() is a macro that calls
  // through a function pointer (or the _impl function under Coverity).
  for (StringRef N : {"qemu_mutex_lock", "qemu_rec_mutex_lock", "qemu_spin_lock",
                      "qemu_mutex_lock_impl", "qemu_rec_mutex_lock_impl",
                      "qemu_mutex_trylock", "qemu_spin_trylock"})
    add(N, role(Role::Lock, Family::QEMU));
  for (StringRef N : {"qemu_mutex_unlock", "qemu_rec_mutex_unlock", "qemu_spin_unlock",
                      "qemu_mutex_unlock_impl", "qemu_rec_mutex_unlock_impl"})
    add(N, role(Role::Unlock, Family::QEMU));

  // --- PostgreSQL: src/include/port/atomics.h, storage/{s_lock,lwlock}.h ------
  add("pg_memory_barrier", barrier(BarrierKind::Full, Family::Postgres));
  add("pg_read_barrier", barrier(BarrierKind::Read, Family::Postgres));
  add("pg_write_barrier", barrier(BarrierKind::Write, Family::Postgres));
  add("pg_compiler_barrier", barrier(BarrierKind::Compiler, Family::Postgres));
  for (StringRef N : {"pg_atomic_read_u32", "pg_atomic_read_u64"})
    add(N, access(Role::Load, Order::Once, true, Family::Postgres));
  for (StringRef N : {"pg_atomic_read_membarrier_u32", "pg_atomic_read_membarrier_u64"})
    add(N, access(Role::Load, Order::SeqCst, true, Family::Postgres));
  for (StringRef N : {"pg_atomic_write_u32", "pg_atomic_write_u64",
                      "pg_atomic_unlocked_write_u32", "pg_atomic_unlocked_write_u64"})
    add(N, access(Role::Store, Order::Once, true, Family::Postgres));
  for (StringRef N : {"pg_atomic_write_membarrier_u32", "pg_atomic_write_membarrier_u64"})
    add(N, access(Role::Store, Order::SeqCst, true, Family::Postgres));
  // Every pg_atomic read-modify-write is a full barrier.
  for (StringRef N :
       {"pg_atomic_fetch_add_u32", "pg_atomic_fetch_add_u64", "pg_atomic_fetch_sub_u32",
        "pg_atomic_fetch_sub_u64", "pg_atomic_fetch_and_u32", "pg_atomic_fetch_and_u64",
        "pg_atomic_fetch_or_u32", "pg_atomic_fetch_or_u64", "pg_atomic_add_fetch_u32",
        "pg_atomic_add_fetch_u64", "pg_atomic_sub_fetch_u32", "pg_atomic_sub_fetch_u64",
        "pg_atomic_exchange_u32", "pg_atomic_exchange_u64",
        "pg_atomic_compare_exchange_u32", "pg_atomic_compare_exchange_u64",
        "pg_atomic_test_set_flag"})
    add(N, access(Role::RMW, Order::SeqCst, true, Family::Postgres));
  for (StringRef N : {"SpinLockAcquire", "LWLockAcquire", "LWLockConditionalAcquire"})
    add(N, role(Role::Lock, Family::Postgres));
  for (StringRef N : {"SpinLockRelease", "LWLockRelease"})
    add(N, role(Role::Unlock, Family::Postgres));

  // --- Side effects that must never repeat on a retry ------------------------
  for (StringRef N :
       {"printk", "_printk", "printk_deferred", "pr_emerg", "pr_alert", "pr_crit",
        "pr_err", "pr_warn", "pr_notice", "pr_info", "pr_debug", "pr_cont",
        "dev_err", "dev_warn", "dev_info", "dev_dbg", "kfree", "kvfree", "vfree",
        "kmem_cache_free", "kfree_rcu", "call_rcu", "msleep", "kmalloc", "kzalloc",
        "kcalloc", "kvmalloc", "vmalloc", "kmem_cache_alloc", "kmem_cache_zalloc",
        "copy_to_user", "put_user", "wake_up",
        "wake_up_process", "complete", "queue_work", "schedule_work"})
    add(N, role(Role::SideEffect));
  for (StringRef N :
       {"printf", "fprintf", "puts", "fputs", "putchar", "write", "free",
        "malloc", "calloc", "realloc",
        "fwrite", "fflush", "syslog", "send", "sendto", "usleep", "sleep",
        "nanosleep"})
    add(N, role(Role::SideEffect, Family::Libc));
  // --- Memory another agent sees (checkers/core/Provenance.h) ---------------
  for (StringRef N : {"mmap", "mmap64"}) {
    ApiEntry E = role(Role::SideEffect, Family::Posix);
    E.Shares = Sharing::Process;
    E.SharedFlagsArg = 3;
    add(N, E);
  }
  {
    ApiEntry E = role(Role::SideEffect, Family::Posix);
    E.Shares = Sharing::Process;
    add("shmat", E);
  }
  for (StringRef N : {"dma_alloc_coherent", "dmam_alloc_coherent", "dma_alloc_attrs",
                      "dma_alloc_wc", "dma_pool_alloc", "dma_pool_zalloc"}) {
    ApiEntry E = role(Role::SideEffect);
    E.Shares = Sharing::Device;
    add(N, E);
  }
  for (StringRef N : {"warn_report", "error_report", "info_report", "warn_report_once",
                      "error_report_once", "qemu_log", "qemu_log_mask"})
    add(N, role(Role::SideEffect, Family::QEMU));
  for (StringRef N : {"rte_log", "rte_exit", "rte_panic"})
    add(N, role(Role::SideEffect, Family::DPDK));
  for (StringRef N : {"memcpy", "memset", "memmove", "__builtin_memcpy",
                      "__builtin_memset", "__builtin_memmove"})
    add(N, role(Role::Pure, Family::Libc)); // stores through args are checked

  // --- QEMU include/qemu/seqlock.h and atomic.h ------------------------------
  add("seqlock_read_begin", begin(Order::Acquire, Family::QEMU));
  add("seqlock_read_retry", retry(true, Family::QEMU));
  add("seqlock_write_begin", role(Role::WriteBegin, Family::QEMU));
  add("seqlock_write_end", role(Role::WriteEnd, Family::QEMU));
  add("seqlock_write_lock", role(Role::WriteBegin, Family::QEMU));
  add("seqlock_write_unlock", role(Role::WriteEnd, Family::QEMU));
  add("qatomic_read", access(Role::Load, Order::Once, true, Family::QEMU));
  add("qatomic_set", access(Role::Store, Order::Once, true, Family::QEMU));
  add("qatomic_load_acquire", access(Role::Load, Order::Acquire, true, Family::QEMU));
  add("qatomic_store_release", access(Role::Store, Order::Release, true, Family::QEMU));
  add("qatomic_rcu_read", access(Role::Load, Order::Once, true, Family::QEMU));
  add("qatomic_rcu_set", access(Role::Store, Order::Release, true, Family::QEMU));
  add("qatomic_inc", access(Role::RMW, Order::SeqCst, true, Family::QEMU));
  add("qatomic_dec", access(Role::RMW, Order::SeqCst, true, Family::QEMU));
  add("qatomic_fetch_add", access(Role::RMW, Order::SeqCst, true, Family::QEMU));
  add("qatomic_mb_set", access(Role::Store, Order::SeqCst, true, Family::QEMU));

  // --- DPDK rte_seqcount.h / rte_seqlock.h / rte_atomic.h --------------------
  add("rte_seqcount_read_begin", begin(Order::Acquire, Family::DPDK));
  add("rte_seqcount_read_retry", retry(true, Family::DPDK));
  add("rte_seqcount_write_begin", role(Role::WriteBegin, Family::DPDK));
  add("rte_seqcount_write_end", role(Role::WriteEnd, Family::DPDK));
  add("rte_seqlock_read_begin", begin(Order::Acquire, Family::DPDK));
  add("rte_seqlock_read_retry", retry(true, Family::DPDK));
  add("rte_seqlock_write_lock", role(Role::WriteBegin, Family::DPDK));
  add("rte_seqlock_write_unlock", role(Role::WriteEnd, Family::DPDK));
  add("rte_smp_mb", barrier(BarrierKind::Full, Family::DPDK));
  add("rte_mb", barrier(BarrierKind::Full, Family::DPDK));
  add("rte_smp_rmb", barrier(BarrierKind::Read, Family::DPDK));
  add("rte_rmb", barrier(BarrierKind::Read, Family::DPDK));
  add("rte_smp_wmb", barrier(BarrierKind::Write, Family::DPDK));
  add("rte_wmb", barrier(BarrierKind::Write, Family::DPDK));
  add("rte_compiler_barrier", barrier(BarrierKind::Compiler, Family::DPDK));
  add("rte_pause", role(Role::Pure, Family::DPDK));

  // --- Concurrency Kit ck_sequence.h / ck_pr.h --------------------------------
  add("ck_sequence_read_begin", begin(Order::Acquire, Family::CK));
  add("ck_sequence_read_retry", retry(true, Family::CK));
  add("ck_sequence_write_begin", role(Role::WriteBegin, Family::CK));
  add("ck_sequence_write_end", role(Role::WriteEnd, Family::CK));
  add("ck_pr_fence_memory", barrier(BarrierKind::Full, Family::CK));
  add("ck_pr_fence_strict_memory", barrier(BarrierKind::Full, Family::CK));
  add("ck_pr_fence_load", barrier(BarrierKind::Read, Family::CK));
  add("ck_pr_fence_strict_load", barrier(BarrierKind::Read, Family::CK));
  add("ck_pr_fence_store", barrier(BarrierKind::Write, Family::CK));
  add("ck_pr_fence_strict_store", barrier(BarrierKind::Write, Family::CK));
  add("ck_pr_fence_acquire", barrier(BarrierKind::Acquire, Family::CK));
  add("ck_pr_fence_release", barrier(BarrierKind::Release, Family::CK));
  add("ck_pr_barrier", barrier(BarrierKind::Compiler, Family::CK));
  add("ck_pr_stall", role(Role::Pure, Family::CK));

  // --- GNU builtins ---------------------------------------------------------
  add("__sync_synchronize", barrier(BarrierKind::Full, Family::GNU));

  // --- seqlint's own runtime (runtime/include/seqlint/seqcount.h) ------------
  add("seqlint_read_begin", begin(Order::Acquire, Family::Runtime));
  add("seqlint_read_retry", retry(true, Family::Runtime));
  add("seqlint_write_begin", role(Role::WriteBegin, Family::Runtime));
  add("seqlint_write_end", role(Role::WriteEnd, Family::Runtime));
  add("seqlint_seqlock_read_begin", begin(Order::Acquire, Family::Runtime));
  add("seqlint_seqlock_read_retry", retry(true, Family::Runtime));
  add("seqlint_seqlock_write_lock", role(Role::WriteBegin, Family::Runtime));
  add("seqlint_seqlock_write_unlock", role(Role::WriteEnd, Family::Runtime));
  add("seqlint_smp_mb", barrier(BarrierKind::Full, Family::Runtime));
  add("seqlint_smp_rmb", barrier(BarrierKind::Read, Family::Runtime));
  add("seqlint_smp_wmb", barrier(BarrierKind::Write, Family::Runtime));
  add("seqlint_barrier", barrier(BarrierKind::Compiler, Family::Runtime));
  add("seqlint_load_acquire", access(Role::Load, Order::Acquire, true, Family::Runtime));
  add("seqlint_store_release", access(Role::Store, Order::Release, true, Family::Runtime));
  add("seqlint_read_once", access(Role::Load, Order::Once, false, Family::Runtime));
  add("seqlint_write_once", access(Role::Store, Order::Once, false, Family::Runtime));
  // Latch readers use the odd bit to pick a copy: never an odd-count bug.
  add("seqlint_latch_read_begin", begin(Order::Acquire, Family::Runtime));
  add("seqlint_latch_read_retry", retry(true, Family::Runtime));
  for (StringRef N : {"seqlint_latch_write_begin", "seqlint_latch_write_switch",
                      "seqlint_latch_write_end"})
    add(N, role(Role::WriteOneShot, Family::Runtime));
  add("seqlint_spin_lock", role(Role::Lock, Family::Runtime));
  add("seqlint_spin_trylock", role(Role::Lock, Family::Runtime));
  add("seqlint_spin_unlock", role(Role::Unlock, Family::Runtime));
  for (StringRef N : {"seqlint_copy_in", "seqlint_copy_out", "seqlint_read_object",
                      "seqlint_write_object", "seqlint_latch_read_object",
                      "seqlint_latch_write_object", "seqlint_cpu_relax",
                      "seqlint_seqcount_init", "seqlint_seqlock_init",
                      "seqlint_latch_init", "seqlint_spin_init", "seqlint_latch_index"})
    add(N, role(Role::Pure, Family::Runtime));

  // --- Linux: what each call keeps out of the CPU ---------------------------
  for (StringRef N : {"get_cpu", "put_cpu", "get_cpu_ptr", "put_cpu_ptr",
                      "get_cpu_var", "put_cpu_var", "disable_irq", "disable_irq_nosync",
                      "disable_irq_lockdep", "enable_irq", "enable_irq_lockdep",
                      "disable_irq_nosync_lockdep", "disable_irq_nosync_lockdep_irqsave",
                      "enable_irq_lockdep_irqrestore"})
    add(N, role(Role::Pure));
  struct Excl {
    const char *Name;
    unsigned char Level;
    bool Ends;
  };
  static const Excl Exclusions[] = {
      {"preempt_disable", ExclPreempt, false}, {"preempt_enable", ExclPreempt, true},
      {"preempt_disable_notrace", ExclPreempt, false},
      {"preempt_enable_notrace", ExclPreempt, true},
      {"migrate_disable", ExclPreempt, false}, {"migrate_enable", ExclPreempt, true},
      {"get_cpu", ExclPreempt, false}, {"put_cpu", ExclPreempt, true},
      {"get_cpu_ptr", ExclPreempt, false}, {"put_cpu_ptr", ExclPreempt, true},
      {"get_cpu_var", ExclPreempt, false}, {"put_cpu_var", ExclPreempt, true},
      {"local_bh_disable", ExclBH, false}, {"local_bh_enable", ExclBH, true},
      {"rcu_read_lock_bh", ExclBH, false}, {"rcu_read_unlock_bh", ExclBH, true},
      {"local_irq_save", ExclIrq, false}, {"local_irq_restore", ExclIrq, true},
      {"local_irq_disable", ExclIrq, false}, {"local_irq_enable", ExclIrq, true},
      {"raw_local_irq_save", ExclIrq, false}, {"raw_local_irq_restore", ExclIrq, true},
      // disable_irq(n) keeps one line's handler out, on every CPU: taken as
      // keeping out the handlers of the file (the driver's own lines).
      {"disable_irq", ExclIrq, false}, {"disable_irq_nosync", ExclIrq, false},
      {"disable_irq_lockdep", ExclIrq, false}, {"enable_irq", ExclIrq, true},
      {"enable_irq_lockdep", ExclIrq, true},
      {"disable_irq_nosync_lockdep", ExclIrq, false},
      {"disable_irq_nosync_lockdep_irqsave", ExclIrq, false},
      {"enable_irq_lockdep_irqrestore", ExclIrq, true},
  };
  for (const Excl &X : Exclusions) {
    Entries[X.Name].Excludes = X.Level;
    Entries[X.Name].ExcludeEnds = X.Ends;
  }
  // Spinning locks disable preemption; their _bh and _irq forms more. The
  // writer sides of seqlocks and u64_stats take the same forms.
  for (auto &KV : Entries) {
    ApiEntry &E = KV.getValue();
    StringRef N = KV.getKey();
    bool Lockish = E.R == Role::Lock || E.R == Role::Unlock ||
                   ((E.R == Role::WriteBegin || E.R == Role::WriteEnd) &&
                    (N.starts_with("write_seq") || N.starts_with("u64_stats")));
    if (!Lockish || E.F != Family::Linux)
      continue;
    bool Spinning = N.contains("spin") || N.starts_with("read_lock") ||
                    N.starts_with("write_lock") || N.starts_with("read_unlock") ||
                    N.starts_with("write_unlock") || N.starts_with("write_seqlock") ||
                    N.starts_with("write_sequnlock") || N.starts_with("read_seqlock_excl") ||
                    N.starts_with("read_sequnlock_excl");
    unsigned char L = ExclNone;
    if (N.ends_with("_irq") || N.ends_with("_irqsave") || N.ends_with("_irqrestore"))
      L = ExclIrq;
    else if (N.ends_with("_bh"))
      L = ExclBH;
    else if (Spinning)
      L = ExclPreempt;
    if (L == ExclNone)
      continue;
    E.Excludes = L;
    E.ExcludeEnds = E.R == Role::Unlock || E.R == Role::WriteEnd;
  }
  addDialects();
}

void ApiModel::addDialects() {
  // Each family's own spellings. The markers are the names that tell one
  // family from another: QEMU defines smp_wmb() too, liburing's
  // io_uring_smp_*() are C11 underneath, Concurrency Kit and PostgreSQL
  // have fences but no release store.
  auto Rule = [&](std::initializer_list<StringLiteral> Markers, bool MacroOnly, Dialect D) {
    Dialects.push_back({SmallVector<StringLiteral, 2>(Markers), MacroOnly, std::move(D)});
  };
  Rule({"qatomic_store_release"}, false,
       {"smp_wmb();", "smp_rmb();", "smp_mb()", "qatomic_store_release()",
        "qatomic_load_acquire()", "", "", ""});
  Rule({"smp_wmb"}, true,
       {"smp_wmb();", "smp_rmb();", "smp_mb()", "smp_store_release()",
        "smp_load_acquire()", "", "", "mb()"});
  Rule({"io_uring_smp_store_release"}, false,
       {"atomic_thread_fence(memory_order_release);",
        "atomic_thread_fence(memory_order_acquire);", "io_uring_smp_mb()",
        "io_uring_smp_store_release()", "io_uring_smp_load_acquire()", "", "", ""});
  Rule({"ck_pr_fence_store"}, false,
       {"ck_pr_fence_store();", "ck_pr_fence_load();", "ck_pr_fence_memory()", "", "",
        "ck_pr_fence_release()", "ck_pr_fence_acquire()", ""});
  Rule({"rte_smp_wmb", "rte_atomic_store_explicit"}, false,
       {"rte_smp_wmb();", "rte_smp_rmb();", "rte_smp_mb()",
        "rte_atomic_store_explicit(..., rte_memory_order_release)",
        "rte_atomic_load_explicit(..., rte_memory_order_acquire)", "", "", ""});
  Rule({"rte_smp_wmb"}, false,
       {"rte_smp_wmb();", "rte_smp_rmb();", "rte_smp_mb()",
        "__atomic_store_n(..., __ATOMIC_RELEASE)", "__atomic_load_n(..., __ATOMIC_ACQUIRE)",
        "", "", ""});
  Rule({"seqlint_smp_wmb"}, true,
       {"seqlint_smp_wmb();", "seqlint_smp_rmb();", "seqlint_smp_mb()",
        "atomic_store_explicit(..., memory_order_release)",
        "atomic_load_explicit(..., memory_order_acquire)", "", "", ""});
  Rule({"pg_write_barrier"}, false,
       {"pg_write_barrier();", "pg_read_barrier();", "pg_memory_barrier()", "", "",
        "pg_memory_barrier()", "pg_read_barrier()", ""});
  C11 = {"atomic_thread_fence(memory_order_release);",
         "atomic_thread_fence(memory_order_acquire);",
         "atomic_thread_fence(memory_order_seq_cst)",
         "atomic_store_explicit(..., memory_order_release)",
         "atomic_load_explicit(..., memory_order_acquire)", "", "", ""};
}

/// Kernel atomics follow a naming scheme: classify by pattern rather than
/// listing hundreds of names. Value-returning RMWs without an ordering
/// suffix are fully ordered; void RMWs and _relaxed ones are unordered.
static std::optional<ApiEntry> classifyKernelAtomic(StringRef Name) {
  StringRef Rest;
  if (Name.starts_with("atomic64_"))
    Rest = Name.drop_front(9);
  else if (Name.starts_with("atomic_long_"))
    Rest = Name.drop_front(12);
  else if (Name.starts_with("atomic_"))
    Rest = Name.drop_front(7);
  else
    return std::nullopt;
  if (Rest == "read")
    return access(Role::Load, Order::Once, true);
  if (Rest == "read_acquire")
    return access(Role::Load, Order::Acquire, true);
  if (Rest == "set")
    return access(Role::Store, Order::Once, true);
  if (Rest == "set_release")
    return access(Role::Store, Order::Release, true);
  // C11 generic functions share the prefix; they are handled structurally.
  if (Rest.starts_with("load") || Rest.starts_with("store") ||
      Rest.starts_with("thread_fence") || Rest.starts_with("signal_fence") ||
      Rest.starts_with("init") || Rest.starts_with("is_lock_free") ||
      Rest.starts_with("compare_exchange") || Rest.starts_with("flag"))
    return std::nullopt;
  static const char *Ops[] = {"inc", "dec", "add", "sub", "and", "or", "xor",
                              "andnot", "xchg", "cmpxchg", "try_cmpxchg",
                              "fetch_"};
  bool IsRMW = false;
  for (const char *Op : Ops)
    if (Rest.starts_with(Op))
      IsRMW = true;
  if (!IsRMW)
    return std::nullopt;
  Order O = Order::SeqCst;
  if (Rest.ends_with("_relaxed"))
    O = Order::Once;
  else if (Rest.ends_with("_acquire"))
    O = Order::Acquire;
  else if (Rest.ends_with("_release"))
    O = Order::Release;
  else if (Rest == "inc" || Rest == "dec" || Rest == "add" || Rest == "sub" ||
           Rest == "and" || Rest == "or" || Rest == "xor" || Rest == "andnot")
    O = Order::Once; // void RMWs are unordered in the LKMM
  return access(Role::RMW, O, true);
}

/// Concurrency Kit's typed accessors: ck_pr_load_64, ck_pr_store_ptr,
/// ck_pr_faa_int, ck_pr_inc_32 ...
static std::optional<ApiEntry> classifyCK(StringRef Name) {
  if (!Name.consume_front("ck_pr_"))
    return std::nullopt;
  if (Name.starts_with("load_"))
    return access(Role::Load, Order::Once, true, Family::CK);
  if (Name.starts_with("store_"))
    return access(Role::Store, Order::Once, true, Family::CK);
  for (const char *Op : {"faa_", "fas_", "cas_", "inc_", "dec_", "add_", "sub_",
                         "and_", "or_", "xor_", "btc_", "bts_", "btr_", "neg_", "not_"})
    if (Name.starts_with(Op))
      return access(Role::RMW, Order::SeqCst, true, Family::CK);
  return std::nullopt;
}

const ApiEntry *ApiModel::lookup(StringRef Name) const {
  auto It = Entries.find(Name);
  if (It != Entries.end())
    return &It->second;
  std::optional<ApiEntry> E = classifyKernelAtomic(Name);
  if (!E)
    E = classifyCK(Name);
  if (E) {
    // Cache pattern hits so the returned pointer stays valid.
    auto &Self = const_cast<ApiModel &>(*this);
    return &Self.Entries.insert({Name, *E}).first->second;
  }
  return nullptr;
}

bool ApiModel::isImplementationFunction(StringRef Name) const {
  // The API's own functions (read_seqbegin, atomic_read, ...): their bodies
  // are the implementation, recognised at the call site.
  if (lookup(Name))
    return true;
  // Internal helpers of the APIs (not names users write). Whole headers
  // that implement an API are skipped by isApiHeader().
  static const char *Prefixes[] = {
      "seqprop_", "__seqprop", "__seqcount_", "do_write_seqcount",
      "do_raw_write_seqcount", "do_read_seqcount", "do___read_seqcount",
      "do_raw_read_seqcount", "__read_seqcount_t", "__u64_stats", "__scoped_seqlock",
      "arch_atomic", "raw_atomic", "__c11_", "seqlint__", "ck_pr_md_",
      "__rte_", "instrument_", "kcsan_", "__kcsan_", "__arch_", "arch_"};
  for (const char *P : Prefixes)
    if (Name.starts_with(P))
      return true;
  return false;
}

bool ApiModel::isApiHeader(StringRef FileName) const {
  if (FileName.contains("/seqlint/") &&
      (FileName.ends_with("seqcount.h") || FileName.ends_with("barrier.h") ||
       FileName.ends_with("linux.h") || FileName.contains("/arch/")))
    return true;
  size_t Slash = FileName.find_last_of('/');
  if (Slash != StringRef::npos)
    FileName = FileName.drop_front(Slash + 1);
  // Not StringSwitch::Cases(): deprecated on LLVM 22 (see core/Compat.h).
  static const StringLiteral Headers[] = {
      "seqlock.h",     "seqlock_types.h", "u64_stats_sync.h", "rwonce.h",
      "barrier.h",     "rte_seqlock.h",   "rte_seqcount.h",   "ck_sequence.h",
      "ck_pr.h",       "stdatomic.h",     "atomic.h"};
  return llvm::is_contained(Headers, FileName);
}

const ApiModel &getApiModel() {
  static ApiModel M;
  return M;
}


// --- Locks by name (ApiModel.h) ---------------------------------------------

int lockLikeName(StringRef Name) {
  if (Name.empty())
    return 0;
  if (Name.contains("unlock") || Name == "release_sock" || Name.starts_with("up_read") ||
      Name.starts_with("up_write"))
    return -1;
  if (Name.contains("is_locked") || Name.contains("lockdep") || Name.contains("lockref") ||
      Name.contains("lockless") || Name.contains("_locked") || Name.contains("block") ||
      Name.contains("clock") || Name.contains("flock"))
    return 0;
  if (Name.ends_with("_lock") || Name.contains("_lock_") || Name.starts_with("lock_") ||
      Name.ends_with("trylock") || Name.starts_with("down_read") ||
      Name.starts_with("down_write") || Name == "lock")
    return 1;
  return 0;
}

bool isLockGuardConstructor(StringRef Name) {
  if (!Name.consume_front("class_") || !Name.consume_back("_constructor"))
    return false;
  Name.consume_back("_try");
  Name.consume_back("_nested");
  static const char *Guards[] = {
      "raw_spinlock", "raw_spinlock_irq", "raw_spinlock_bh",
      "raw_spinlock_irqsave", "spinlock", "spinlock_irq", "spinlock_bh",
      "spinlock_irqsave", "read_lock", "read_lock_irq", "read_lock_irqsave",
      "write_lock", "write_lock_irq", "write_lock_irqsave", "mutex",
      "mutex_intr", "rwsem_read", "rwsem_write"};
  for (const char *G : Guards)
    if (Name == G)
      return true;
  return false;
}

LockKind lockKindOfName(StringRef N) {
  if (N.consume_front("class_"))
    N.consume_back("_constructor");
  if (N.starts_with("raw_spin"))
    return LockKind::RawSpin;
  if (N.starts_with("spin"))
    return LockKind::Spin;
  if (N.starts_with("mutex"))
    return LockKind::Mutex;
  if (N.starts_with("read_lock") || N.starts_with("write_lock") ||
      N.starts_with("read_unlock") || N.starts_with("write_unlock") ||
      N.starts_with("read_trylock") || N.starts_with("write_trylock"))
    return LockKind::RwLock;
  if (N.starts_with("down_") || N.starts_with("up_") || N.starts_with("rwsem"))
    return LockKind::RwSem;
  if (N.starts_with("write_seq") || N.starts_with("read_seqlock_excl") ||
      N.starts_with("read_sequnlock_excl"))
    return LockKind::Seqlock;
  if (N.starts_with("pthread_"))
    return LockKind::Pthread;
  return LockKind::Other;
}

bool isSeqlockWriteLock(StringRef N) {
  return N.starts_with("write_seqlock") || N == "rte_seqlock_write_lock" ||
         N == "seqlint_seqlock_write_lock" || N == "seqlock_write_lock";
}
bool isSeqlockWriteUnlock(StringRef N) {
  return N.starts_with("write_sequnlock") || N == "rte_seqlock_write_unlock" ||
         N == "seqlint_seqlock_write_unlock" || N == "seqlock_write_unlock";
}

bool lockIsShared(StringRef N) {
  return N.starts_with("read_lock") || N.starts_with("down_read") ||
         N.starts_with("read_trylock") || N == "pthread_rwlock_rdlock" ||
         N == "pthread_rwlock_tryrdlock" || N == "lockdep_assert_held_read" ||
         N == "class_read_lock_constructor" ||
         N == "class_read_lock_irq_constructor" ||
         N == "class_read_lock_irqsave_constructor" ||
         N == "class_rwsem_read_constructor";
}

bool lockIsTry(StringRef N) { return N.contains("trylock"); }

bool tryLockZeroIsSuccess(StringRef N) { return N.starts_with("pthread_"); }

bool lockIsAssertion(StringRef N) {
  return N.starts_with("lockdep_assert_held") || isAssertionMacro(N);
}

bool lockIsScoped(StringRef N) { return N.starts_with("class_"); }

LockKind lockKindOfTypeName(StringRef Name) {
  if (Name == "spinlock_t" || Name == "spinlock")
    return LockKind::Spin;
  if (Name == "raw_spinlock_t" || Name == "raw_spinlock")
    return LockKind::RawSpin;
  if (Name == "mutex")
    return LockKind::Mutex;
  if (Name == "rwlock_t")
    return LockKind::RwLock;
  if (Name == "rw_semaphore")
    return LockKind::RwSem;
  if (Name == "seqlock_t")
    return LockKind::Seqlock;
  if (Name.starts_with("pthread_") &&
      (Name.contains("mutex") || Name.contains("rwlock") || Name.contains("spin")))
    return LockKind::Pthread;
  return LockKind::Unknown;
}


// --- Entry points by name (ApiModel.h) ----------------------------------------

std::optional<EntryRegistrar> entryRegistrar(StringRef N) {
  EntryRegistrar R;
  if (N == "request_threaded_irq" || N == "devm_request_threaded_irq") {
    R.Kind = EntryKind::Irq;
    R.Threaded = true;
  } else if (N == "init_timer_key" || N == "timer_setup" || N == "timer_setup_on_stack" ||
             N == "__init_timer" || N == "init_timer_on_stack_key")
    R.Kind = EntryKind::Timer;
  else if (N == "hrtimer_setup" || N == "hrtimer_setup_on_stack")
    R.Kind = EntryKind::HRTimer;
  else if (N == "request_irq" || N == "devm_request_irq" ||
           N == "request_any_context_irq" || N == "devm_request_any_context_irq" ||
           N == "request_nmi")
    R.Kind = EntryKind::Irq;
  else if (N == "request_percpu_irq" || N == "__request_percpu_irq" ||
           N == "request_percpu_nmi") {
    R.Kind = EntryKind::Irq;
    R.PerCpu = true;
  } else if (N == "kthread_create_on_node" || N == "kthread_create_on_cpu" ||
             N == "kthread_create" || N == "kthread_run" || N == "kthread_run_on_cpu")
    R.Kind = EntryKind::KThread;
  else if (N == "pthread_create" || N == "thrd_create")
    R.Kind = EntryKind::Thread;
  else if (N == "tasklet_init" || N == "tasklet_setup")
    R.Kind = EntryKind::Tasklet;
  else if (N == "init_irq_work")
    R.Kind = EntryKind::IrqWork;
  else if (N.starts_with("netif_napi_add") || N == "netif_threaded_napi_add")
    R.Kind = EntryKind::Napi;
  else if (N == "netdev_rx_handler_register")
    R.Kind = EntryKind::RxHandler;
  else
    return std::nullopt;
  return R;
}

std::optional<EntryKind> ApiModel::entryMemberKind(StringRef RN,
                                                   StringRef FN) const {
  if (!UserEntryMembers.empty() && !RN.empty()) {
    auto It = UserEntryMembers.find((RN + "." + FN).str());
    if (It != UserEntryMembers.end())
      return It->second;
  }
  return entryMember(RN, FN);
}

std::optional<EntryKind> entryMember(StringRef RN, StringRef FN) {
  if (RN == "work_struct" && FN == "func")
    return EntryKind::Work;
  if (RN == "kthread_work" && FN == "func")
    return EntryKind::Work;
  if (RN == "timer_list" && FN == "function")
    return EntryKind::Timer;
  if (RN == "hrtimer" && FN == "function")
    return EntryKind::HRTimer;
  if (RN == "tasklet_struct" && (FN == "func" || FN == "callback"))
    return EntryKind::Tasklet;
  if (RN == "irq_work" && FN == "func")
    return EntryKind::IrqWork;
  if (RN == "net_device_ops" && FN == "ndo_start_xmit")
    return EntryKind::Xmit;
  if (RN == "nf_hook_ops" && FN == "hook")
    return EntryKind::Hook;
  // get/setsockopt of netfilter: process context, any CPU, preemptible.
  if (RN == "nf_sockopt_ops" && (FN == "set" || FN == "get"))
    return EntryKind::Syscall;
  if (RN == "napi_struct" && FN == "poll")
    return EntryKind::Napi;
  return std::nullopt;
}


// --- Barrier spellings (ApiModel.h) -------------------------------------------

bool isLinuxBarrierName(StringRef N) {
  return N == "smp_wmb" || N == "smp_rmb" || N == "smp_mb" || N == "wmb" ||
         N == "rmb" || N == "mb" || N == "virt_wmb" || N == "virt_rmb" ||
         N == "virt_mb" || N == "smp_mb__before_atomic" ||
         N == "smp_mb__after_atomic";
}

bool isCounterAccessorName(StringRef Name) {
  return Name.starts_with("atomic") || Name.starts_with("local_") ||
         Name.starts_with("arch_atomic") || Name.starts_with("raw_atomic") ||
         Name.starts_with("pg_atomic");
}

// --- Function-name conventions (ApiModel.h) ----------------------------------

bool isAllocatorName(StringRef N) {
  // (PostgreSQL's palloc() and MemoryContextAlloc() too.) Linux's
  // iget_locked() family returns a new inode with I_NEW set, which no one
  // else uses until unlock_new_inode() (or an inode found in the cache,
  // which callers return at once when I_NEW is clear).
  return N.contains_insensitive("alloc") || N.contains("kmemdup") || N.contains("strdup") ||
         N.ends_with("_new") || N == "new" || N == "iget_locked" ||
         N == "iget5_locked" || N == "iget5_locked_rcu";
}

bool isErrorPointerName(StringRef N) {
  return N == "ERR_PTR" || N == "ERR_CAST";
}

bool isSetupName(StringRef Name) {
  std::string N = Name.lower();
  for (const char *W : {"init", "setup", "create", "alloc", "probe", "reset"})
    if (StringRef(N).contains(W))
      return true;
  return false;
}

/// The words of a name: split at '_' and, for CamelCase names (PostgreSQL's
/// CreateSharedBackendStatus, QEMU's VirtIODevice helpers), before each
/// capital that follows a lower-case letter.
SmallVector<StringRef, 6> nameWords(StringRef Name) {
  SmallVector<StringRef, 6> Parts, Words;
  Name.split(Parts, '_', -1, false);
  for (StringRef P : Parts) {
    size_t Start = 0;
    for (size_t I = 1; I < P.size(); ++I)
      if (isUpper(P[I]) && isLower(P[I - 1])) {
        Words.push_back(P.slice(Start, I));
        Start = I;
      }
    Words.push_back(P.drop_front(Start));
  }
  return Words;
}

/// Functions that run before the object is published or after it is
/// unpublished, by the name's words: foo_init, setup_bar, baz_alloc,
/// CreateSharedFoo, a fork callback filling the child …
bool isLifecycleName(StringRef Name) {
  static const char *Words[] = {
      "init",    "setup",  "alloc",       "create", "probe",    "new",
      "ctor",    "exit",   "destroy",     "free",   "release",  "cleanup",
      "remove",  "fini",   "teardown",    "dtor",   "shutdown", "uninit",
      "deinit",  "reinit", "constructor", "dying",  "dead",     "offline",
      "suspend", "resume",      "startup", "fork"};
  for (StringRef P : nameWords(Name)) {
    std::string L = P.lower();
    for (const char *W : Words)
      if (L == W || (StringRef(L).starts_with(W) && StringRef(W) == "init"))
        return true;
  }
  return false;
}

} // namespace seqlint
