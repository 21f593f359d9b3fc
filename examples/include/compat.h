/*
 * compat.h - just enough of the Linux kernel's lockless primitives to build
 * the seqlint examples in user space (GNU C, gcc or clang).
 *
 * The names are the kernel's, so seqlint recognizes them exactly as it does
 * in kernel code: READ_ONCE/WRITE_ONCE, smp_mb/smp_rmb/smp_wmb,
 * smp_load_acquire/smp_store_release, seqcount_t with read_seqcount_begin/
 * read_seqcount_retry/write_seqcount_begin/write_seqcount_end, spinlocks and
 * pr_info()/pr_warn(). The definitions are deliberately simple: __atomic
 * builtins for the fences and acquire/release accesses, volatile accesses
 * for the *_ONCE() macros, and an empty asm with a "memory" clobber for the
 * compiler barrier. This is not the seqlint runtime (see runtime/ for a
 * complete, data-race-free implementation).
 */
#ifndef SEQLINT_EXAMPLES_COMPAT_H
#define SEQLINT_EXAMPLES_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#define EINVAL 22
#define EBUSY  16

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* Compiler barrier: orders nothing between CPUs. */
#define barrier()	__asm__ __volatile__("" : : : "memory")

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__builtin_ia32_pause()
#else
#define cpu_relax()	barrier()
#endif

/* Single-copy-atomic, non-reordered-by-the-compiler accesses. */
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)						\
	do {								\
		*(volatile __typeof__(x) *)&(x) = (val);		\
	} while (0)

/* CPU barriers. smp_rmb/smp_wmb are at least as strong as the kernel's:
 * an acquire fence orders earlier loads before later loads, a release
 * fence orders earlier stores before later stores. */
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)

#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* A test-and-set spinlock. */
typedef struct {
	int locked;
} spinlock_t;

#define DEFINE_SPINLOCK(name)	spinlock_t name = { 0 }
#define spin_lock_init(l)	do { (l)->locked = 0; } while (0)
#define spin_lock(l)							\
	do {								\
		while (__atomic_exchange_n(&(l)->locked, 1, __ATOMIC_ACQUIRE)) \
			cpu_relax();					\
	} while (0)
#define spin_unlock(l)	__atomic_store_n(&(l)->locked, 0, __ATOMIC_RELEASE)

/* Sequence counter: odd while a writer is inside its write section. */
typedef struct seqcount {
	unsigned int sequence;
} seqcount_t;

#define SEQCNT_ZERO(name)	{ .sequence = 0 }
#define seqcount_init(s)	do { (s)->sequence = 0; } while (0)

/* Waits for an even count; acquire orders the caller's loads after it. */
#define read_seqcount_begin(s)						\
	({								\
		unsigned int __seq;					\
									\
		while ((__seq = smp_load_acquire(&(s)->sequence)) & 1)	\
			cpu_relax();					\
		__seq;							\
	})

/* Nonzero when a writer ran since read_seqcount_begin() returned start. */
static inline int read_seqcount_retry(const seqcount_t *s, unsigned int start)
{
	smp_rmb();
	return unlikely(READ_ONCE(s->sequence) != start);
}

/* Writers must be serialized by the caller (a lock or a single thread). */
#define write_seqcount_begin(s)						\
	do {								\
		WRITE_ONCE((s)->sequence, (s)->sequence + 1);		\
		smp_wmb();						\
	} while (0)

#define write_seqcount_end(s)						\
	do {								\
		smp_wmb();						\
		WRITE_ONCE((s)->sequence, (s)->sequence + 1);		\
	} while (0)

/* Logging. */
#define pr_info(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fprintf(stderr, "warning: " fmt, ##__VA_ARGS__)

#endif /* SEQLINT_EXAMPLES_COMPAT_H */
