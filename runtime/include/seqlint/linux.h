/* SPDX-License-Identifier: MIT */
/*
 * seqlint/linux.h - Linux kernel names mapped onto the seqlint runtime, so
 * kernel-style lockless code compiles and runs in user space unchanged (unit
 * tests, fuzzing, ThreadSanitizer).
 *
 * Every function-like name is a macro with exactly the kernel's name: the
 * seqlint analyzer recognizes APIs by the outermost macro expanded, so code
 * written against this header is analysed exactly like kernel code.  The two
 * types are typedefs, as in the kernel, so the kernel type name survives in
 * the AST.
 *
 * Semantics follow Linux 6.12 (include/linux/seqlock.h, asm/barrier.h):
 *   read_seqcount_begin      load-acquire, spin while odd
 *   raw_read_seqcount_begin  same (no lockdep in user space)
 *   read_seqcount_retry      smp_rmb(); reload; compare
 *   write_seqcount_begin     odd increment; smp_wmb()
 *   write_seqcount_end       smp_store_release(even)   (kernel: smp_wmb(); ++)
 * As in the kernel, writers of a plain seqcount_t must be serialized by the
 * caller; seqlock_t embeds a spinlock for that.
 */
#ifndef SEQLINT_LINUX_H
#define SEQLINT_LINUX_H

#include "seqcount.h"

/* asm/rwonce.h, asm/barrier.h, linux/compiler.h */
#ifndef READ_ONCE
#define READ_ONCE(x)		seqlint_read_once(x)
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, val)	seqlint_write_once(x, val)
#endif
#ifndef barrier
#define barrier()		seqlint_barrier()
#endif
#define smp_mb()		seqlint_smp_mb()
#define smp_rmb()		seqlint_smp_rmb()
#define smp_wmb()		seqlint_smp_wmb()
#define smp_load_acquire(p)	seqlint_load_acquire(p)
#define smp_store_release(p, v)	seqlint_store_release(p, v)
#define cpu_relax()		seqlint_cpu_relax()

/* linux/seqlock.h: seqcount_t */
typedef seqlint_seqcount_t seqcount_t;

#define SEQCNT_ZERO(name)		SEQLINT_SEQCOUNT_INIT
#define seqcount_init(s)		seqlint_seqcount_init(s)
#define read_seqcount_begin(s)		seqlint_read_begin(s)
#define raw_read_seqcount_begin(s)	seqlint_read_begin(s)
#define read_seqcount_retry(s, start)	seqlint_read_retry(s, start)
#define write_seqcount_begin(s)		seqlint_write_begin(s)
#define write_seqcount_end(s)		seqlint_write_end(s)

/* linux/seqlock.h: seqlock_t (seqcount + spinlock) */
typedef seqlint_seqlock_t seqlock_t;

#define __SEQLOCK_UNLOCKED(name)	SEQLINT_SEQLOCK_INIT
#define DEFINE_SEQLOCK(name)		seqlock_t name = SEQLINT_SEQLOCK_INIT
#define seqlock_init(sl)		seqlint_seqlock_init(sl)
#define write_seqlock(sl)		seqlint_seqlock_write_lock(sl)
#define write_sequnlock(sl)		seqlint_seqlock_write_unlock(sl)
#define read_seqbegin(sl)		seqlint_seqlock_read_begin(sl)
#define read_seqretry(sl, start)	seqlint_seqlock_read_retry(sl, start)

#endif /* SEQLINT_LINUX_H */
