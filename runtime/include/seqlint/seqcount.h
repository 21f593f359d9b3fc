/* SPDX-License-Identifier: MIT */
/*
 * seqlint/seqcount.h - reference seqcount runtime (C11).
 *
 * A seqcount protects a small object that is written rarely and read often.
 * Readers never write shared memory: they copy the object and retry if a
 * writer was active.  The writer protocol (one writer at a time - use a
 * seqlint_seqlock_t or your own lock if there can be several):
 *
 *     seqlint_write_begin(&sc);     odd increment; smp_wmb()
 *     ... relaxed atomic stores (seqlint_copy_in, seqlint_write_once) ...
 *     seqlint_write_end(&sc);       smp_store_release(even)
 *
 * and the reader:
 *
 *     unsigned seq;
 *     do {
 *         seq = seqlint_read_begin(&sc);       acquire load, wait for even
 *         ... relaxed atomic loads (seqlint_copy_out, seqlint_read_once) ...
 *     } while (seqlint_read_retry(&sc, seq)); smp_rmb(); recheck
 *
 * Every public function is also a macro of the same name that type-checks its
 * pointer argument (_Generic): passing anything but the right object type is
 * a compile-time error, not a warning.
 *
 * Define SEQLINT_DEBUG to abort on a writer protocol error (write_end without
 * write_begin, nested or concurrent write_begin) and on misaligned objects
 * given to the copy helpers.
 *
 * docs/runtime.md explains each barrier and gives the memory-model argument.
 */
#ifndef SEQLINT_SEQCOUNT_H
#define SEQLINT_SEQCOUNT_H

#include <stdbool.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "barrier.h"

#ifdef SEQLINT_DEBUG
#  include <stdio.h>
#  include <stdlib.h>
static inline void seqlint__debug_fail(const char *func, const char *msg,
				       const void *obj)
{
	fprintf(stderr, "seqlint: %s(%p): %s\n", func, obj, msg);
	abort();
}
#  define SEQLINT__DEBUG_CHECK(cond, func, msg, obj) \
	((cond) ? (void)0 : seqlint__debug_fail(func, msg, obj))
#else
#  define SEQLINT__DEBUG_CHECK(cond, func, msg, obj) ((void)0)
#endif

#if defined(__GNUC__)
#  define seqlint__likely(x)	__builtin_expect(!!(x), 1)
#  define seqlint__unlikely(x)	__builtin_expect(!!(x), 0)
#else
#  define seqlint__likely(x)	(x)
#  define seqlint__unlikely(x)	(x)
#endif

/* _Generic pointer checks: an error for any other pointer type. */
#define SEQLINT__PTR(T, p)	_Generic((p), T *: (p))
#define SEQLINT__CPTR(T, p)	_Generic((p), T *: (p), const T *: (p))

/* ------------------------------------------------------------------------ */
/* seqcount                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct seqlint_seqcount {
	_Atomic unsigned sequence;	/* odd while a write is in progress */
} seqlint_seqcount_t;

#define SEQLINT_SEQCOUNT_INIT { 0 }

static inline void seqlint_seqcount_init(seqlint_seqcount_t *s)
{
	atomic_store_explicit(&s->sequence, 0, memory_order_relaxed);
}

/* Slow path of seqlint_read_begin(): a writer is active, wait for it.  Out
 * of line and cold, so that the fast path is one load and one untaken branch
 * and the caller's retry loop stays compact.  The first few reloads do not
 * pause: most write sections are a few stores long and end sooner than one
 * pause instruction (tens to 140 cycles); a writer still active after that
 * is waited for politely (cpu_relax: pause/yield), which also keeps the
 * reader from stealing the cache line from the writer at every iteration. */
#ifndef SEQLINT_READ_SPIN
#define SEQLINT_READ_SPIN 16
#endif
static __attribute__((__noinline__, __cold__, __unused__)) unsigned
seqlint__read_begin_wait(const seqlint_seqcount_t *s)
{
	unsigned seq, spins = 0;

	while ((seq = seqlint__arch_load_acquire_32(&s->sequence)) & 1u) {
		if (++spins > SEQLINT_READ_SPIN)
			seqlint_cpu_relax();
	}
	return seq;
}

/* Start a read section: load-acquire the count, waiting while it is odd. */
static inline unsigned seqlint_read_begin(const seqlint_seqcount_t *s)
{
	unsigned seq = seqlint__arch_load_acquire_32(&s->sequence);

	if (seqlint__unlikely(seq & 1u))
		seq = seqlint__read_begin_wait(s);
	return seq;
}

/* End a read section: true if it must be retried (a writer was active). */
static inline bool seqlint_read_retry(const seqlint_seqcount_t *s, unsigned start)
{
	seqlint_smp_rmb();
	return seqlint__unlikely(
		atomic_load_explicit(&s->sequence, memory_order_relaxed) != start);
}

/* Start a write section.  Writers must be serialized by the caller. */
static inline void seqlint_write_begin(seqlint_seqcount_t *s)
{
	unsigned seq = atomic_load_explicit(&s->sequence, memory_order_relaxed);

	SEQLINT__DEBUG_CHECK(!(seq & 1u), "seqlint_write_begin",
		"write section already open (nested or concurrent writer)", s);
	seqlint__arch_store_relaxed_32(&s->sequence, seq + 1u);
	seqlint_smp_wmb();
}

/* End a write section. */
static inline void seqlint_write_end(seqlint_seqcount_t *s)
{
	unsigned seq = atomic_load_explicit(&s->sequence, memory_order_relaxed);

	SEQLINT__DEBUG_CHECK(seq & 1u, "seqlint_write_end",
		"no write section open (write_end without write_begin)", s);
	seqlint__arch_store_release_32(&s->sequence, seq + 1u);
}

#define seqlint_seqcount_init(s) seqlint_seqcount_init(SEQLINT__PTR(seqlint_seqcount_t, s))
#define seqlint_read_begin(s)	seqlint_read_begin(SEQLINT__CPTR(seqlint_seqcount_t, s))
#define seqlint_read_retry(s, start) \
	seqlint_read_retry(SEQLINT__CPTR(seqlint_seqcount_t, s), (start))
#define seqlint_write_begin(s)	seqlint_write_begin(SEQLINT__PTR(seqlint_seqcount_t, s))
#define seqlint_write_end(s)	seqlint_write_end(SEQLINT__PTR(seqlint_seqcount_t, s))

/* ------------------------------------------------------------------------ */
/* copy helpers: move a protected object with relaxed atomic word accesses   */
/* ------------------------------------------------------------------------ */

/*
 * seqlint_copy_out(dst, src): copy the shared object *src into the private
 * object *dst with relaxed atomic loads.  seqlint_copy_in(dst, src): copy the
 * private *src into the shared *dst with relaxed atomic stores.  Both objects
 * must have the same type; its size must be a multiple of 4 bytes and its
 * alignment at least 4 (checked at compile time).  64-bit words are used on
 * 64-bit targets when size and alignment are multiples of 8.  The copy is
 * not atomic as a whole - that is what the seqcount is for - but no access is
 * a data race, so the program has defined behaviour under C11 and is clean
 * under ThreadSanitizer.
 */
#ifdef SEQLINT__HAVE_64
#  define SEQLINT__WORD64_OK(T) (sizeof(T) % 8 == 0 && _Alignof(T) >= 8)
#else
#  define SEQLINT__WORD64_OK(T) 0
#endif

static inline void seqlint__copy_out32(void *dst, const void *src, size_t n)
{
	const seqlint__u32a *s = (const seqlint__u32a *)src;
	seqlint__u32a *d = (seqlint__u32a *)dst;
	for (size_t i = 0; i < n / 4; i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
}
static inline void seqlint__copy_in32(void *dst, const void *src, size_t n)
{
	const seqlint__u32a *s = (const seqlint__u32a *)src;
	seqlint__u32a *d = (seqlint__u32a *)dst;
	for (size_t i = 0; i < n / 4; i++)
		seqlint__arch_store_relaxed_32(&d[i], s[i]);
}
#ifdef SEQLINT__HAVE_64
static inline void seqlint__copy_out64(void *dst, const void *src, size_t n)
{
	const seqlint__u64a *s = (const seqlint__u64a *)src;
	seqlint__u64a *d = (seqlint__u64a *)dst;
	for (size_t i = 0; i < n / 8; i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
}
static inline void seqlint__copy_in64(void *dst, const void *src, size_t n)
{
	const seqlint__u64a *s = (const seqlint__u64a *)src;
	seqlint__u64a *d = (seqlint__u64a *)dst;
	for (size_t i = 0; i < n / 8; i++)
		seqlint__arch_store_relaxed_64(&d[i], s[i]);
}
#else
#  define seqlint__copy_out64 seqlint__copy_out32
#  define seqlint__copy_in64 seqlint__copy_in32
#endif

/* Compile-time checks shared by both directions. */
#define SEQLINT__COPY_CHECKS(name, dst, src)					\
	_Static_assert(__builtin_types_compatible_p(__typeof__(*(dst)),	\
						    __typeof__(*(src))),	\
		name ": dst and src must point to objects of the same type");	\
	_Static_assert(sizeof(*(dst)) % 4 == 0,					\
		name ": object size must be a multiple of 4 bytes to be "	\
		"copied with atomic word accesses");				\
	_Static_assert(_Alignof(__typeof__(*(dst))) >= 4,			\
		name ": object type must be at least 4-byte aligned to be "	\
		"copied with atomic word accesses");				\
	(void)sizeof(*(dst) = *(src)) /* dst must be a modifiable lvalue */

#define SEQLINT__DEBUG_ALIGNED(name, p) SEQLINT__DEBUG_CHECK(			\
	((uintptr_t)(p) % _Alignof(__typeof__(*(p)))) == 0, name,		\
	"misaligned object", (const void *)(p))

#define seqlint_copy_out(dst, src) do {						\
	SEQLINT__COPY_CHECKS("seqlint_copy_out", dst, src);			\
	SEQLINT__DEBUG_ALIGNED("seqlint_copy_out", src);			\
	if (SEQLINT__WORD64_OK(__typeof__(*(dst))))				\
		seqlint__copy_out64((dst), (src), sizeof(*(dst)));		\
	else									\
		seqlint__copy_out32((dst), (src), sizeof(*(dst)));		\
} while (0)

#define seqlint_copy_in(dst, src) do {						\
	SEQLINT__COPY_CHECKS("seqlint_copy_in", dst, src);			\
	SEQLINT__DEBUG_ALIGNED("seqlint_copy_in", dst);				\
	if (SEQLINT__WORD64_OK(__typeof__(*(dst))))				\
		seqlint__copy_in64((dst), (src), sizeof(*(dst)));		\
	else									\
		seqlint__copy_in32((dst), (src), sizeof(*(dst)));		\
} while (0)

/* A whole read section: copy *shared into *out, retrying until consistent. */
#define seqlint_read_object(s, shared, out) do {				\
	unsigned seqlint__seq;							\
	do {									\
		seqlint__seq = seqlint_read_begin(s);				\
		seqlint_copy_out((out), (shared));				\
	} while (seqlint_read_retry((s), seqlint__seq));			\
} while (0)

/* A whole write section: copy *in into *shared.  Writers serialized. */
#define seqlint_write_object(s, shared, in) do {				\
	seqlint_write_begin(s);							\
	seqlint_copy_in((shared), (in));					\
	seqlint_write_end(s);							\
} while (0)

/* ------------------------------------------------------------------------ */
/* spinlock (writer-side lock of the seqlock)                               */
/* ------------------------------------------------------------------------ */

typedef struct seqlint_spinlock {
	atomic_uint locked;
} seqlint_spinlock_t;

#define SEQLINT_SPINLOCK_INIT { 0 }

#if defined(__unix__) || defined(__APPLE__)
#  include <sched.h>
#  define seqlint__yield() ((void)sched_yield())
#else
#  define seqlint__yield() ((void)0)
#endif

static inline void seqlint_spin_init(seqlint_spinlock_t *l)
{
	atomic_store_explicit(&l->locked, 0, memory_order_relaxed);
}

static inline bool seqlint_spin_trylock(seqlint_spinlock_t *l)
{
	return atomic_load_explicit(&l->locked, memory_order_relaxed) == 0 &&
	       atomic_exchange_explicit(&l->locked, 1, memory_order_acquire) == 0;
}

static inline void seqlint_spin_lock(seqlint_spinlock_t *l)
{
	unsigned spins = 0;

	while (!seqlint_spin_trylock(l)) {
		/* Writers are short; yield only if the holder was preempted. */
		if (++spins % 1024u == 0)
			seqlint__yield();
		else
			seqlint_cpu_relax();
	}
}

static inline void seqlint_spin_unlock(seqlint_spinlock_t *l)
{
	SEQLINT__DEBUG_CHECK(atomic_load_explicit(&l->locked, memory_order_relaxed),
		"seqlint_spin_unlock", "lock not held", l);
	atomic_store_explicit(&l->locked, 0, memory_order_release);
}

#define seqlint_spin_init(l)	seqlint_spin_init(SEQLINT__PTR(seqlint_spinlock_t, l))
#define seqlint_spin_trylock(l)	seqlint_spin_trylock(SEQLINT__PTR(seqlint_spinlock_t, l))
#define seqlint_spin_lock(l)	seqlint_spin_lock(SEQLINT__PTR(seqlint_spinlock_t, l))
#define seqlint_spin_unlock(l)	seqlint_spin_unlock(SEQLINT__PTR(seqlint_spinlock_t, l))

/* ------------------------------------------------------------------------ */
/* seqlock: seqcount + writer spinlock (any number of writers)               */
/* ------------------------------------------------------------------------ */

typedef struct seqlint_seqlock {
	seqlint_seqcount_t seqcount;
	seqlint_spinlock_t lock;
} seqlint_seqlock_t;

#define SEQLINT_SEQLOCK_INIT { SEQLINT_SEQCOUNT_INIT, SEQLINT_SPINLOCK_INIT }

static inline void seqlint_seqlock_init(seqlint_seqlock_t *sl)
{
	seqlint_seqcount_init(&sl->seqcount);
	seqlint_spin_init(&sl->lock);
}

static inline unsigned seqlint_seqlock_read_begin(const seqlint_seqlock_t *sl)
{
	return seqlint_read_begin(&sl->seqcount);
}

static inline bool seqlint_seqlock_read_retry(const seqlint_seqlock_t *sl,
					      unsigned start)
{
	return seqlint_read_retry(&sl->seqcount, start);
}

static inline void seqlint_seqlock_write_lock(seqlint_seqlock_t *sl)
{
	seqlint_spin_lock(&sl->lock);
	seqlint_write_begin(&sl->seqcount);
}

static inline void seqlint_seqlock_write_unlock(seqlint_seqlock_t *sl)
{
	seqlint_write_end(&sl->seqcount);
	seqlint_spin_unlock(&sl->lock);
}

#define seqlint_seqlock_init(sl) \
	seqlint_seqlock_init(SEQLINT__PTR(seqlint_seqlock_t, sl))
#define seqlint_seqlock_read_begin(sl) \
	seqlint_seqlock_read_begin(SEQLINT__CPTR(seqlint_seqlock_t, sl))
#define seqlint_seqlock_read_retry(sl, start) \
	seqlint_seqlock_read_retry(SEQLINT__CPTR(seqlint_seqlock_t, sl), (start))
#define seqlint_seqlock_write_lock(sl) \
	seqlint_seqlock_write_lock(SEQLINT__PTR(seqlint_seqlock_t, sl))
#define seqlint_seqlock_write_unlock(sl) \
	seqlint_seqlock_write_unlock(SEQLINT__PTR(seqlint_seqlock_t, sl))

/* ------------------------------------------------------------------------ */
/* latch: two copies, readers never wait for the writer                     */
/* ------------------------------------------------------------------------ */

/*
 * The protected data is an array of two copies, T copies[2].  The count's low
 * bit tells readers which copy is stable: readers use copies[seq & 1] while
 * the writer modifies the other one.  Writer (serialized by the caller):
 *
 *     seqlint_latch_write_begin(&l);    readers move to copies[1]
 *     modify copies[0]
 *     seqlint_latch_write_switch(&l);   readers move back to copies[0]
 *     modify copies[1]
 *     seqlint_latch_write_end(&l);
 *
 * Reader:
 *     do {
 *         seq = seqlint_latch_read_begin(&l);
 *         read copies[seqlint_latch_index(seq)]
 *     } while (seqlint_latch_read_retry(&l, seq));
 *
 * Readers may run in contexts that interrupt the writer (NMI, signal
 * handler): they never spin waiting for it.
 */
typedef struct seqlint_latch {
	seqlint_seqcount_t seqcount;
} seqlint_latch_t;

#define SEQLINT_LATCH_INIT { SEQLINT_SEQCOUNT_INIT }
#define seqlint_latch_index(seq) ((unsigned)(seq) & 1u)

static inline void seqlint_latch_init(seqlint_latch_t *l)
{
	seqlint_seqcount_init(&l->seqcount);
}

static inline unsigned seqlint_latch_read_begin(const seqlint_latch_t *l)
{
	return seqlint__arch_load_acquire_32(&l->seqcount.sequence);
}

static inline bool seqlint_latch_read_retry(const seqlint_latch_t *l,
					    unsigned start)
{
	seqlint_smp_rmb();
	return seqlint__unlikely(atomic_load_explicit(&l->seqcount.sequence,
						      memory_order_relaxed) != start);
}

/* Flip the readers to the other copy: stores to the copy they are moving to
 * (before) are ordered before the flip, stores to the copy they are leaving
 * (after) are ordered after it. */
static inline void seqlint__latch_flip(seqlint_latch_t *l)
{
	unsigned seq = atomic_load_explicit(&l->seqcount.sequence,
					    memory_order_relaxed);
	seqlint_smp_wmb();
	seqlint__arch_store_relaxed_32(&l->seqcount.sequence, seq + 1u);
	seqlint_smp_wmb();
}

static inline void seqlint_latch_write_begin(seqlint_latch_t *l)
{
	SEQLINT__DEBUG_CHECK(!(atomic_load_explicit(&l->seqcount.sequence,
						    memory_order_relaxed) & 1u),
		"seqlint_latch_write_begin",
		"latch write already in progress (nested or concurrent writer)", l);
	seqlint__latch_flip(l);
}

static inline void seqlint_latch_write_switch(seqlint_latch_t *l)
{
	SEQLINT__DEBUG_CHECK(atomic_load_explicit(&l->seqcount.sequence,
						  memory_order_relaxed) & 1u,
		"seqlint_latch_write_switch",
		"no latch write in progress (switch without begin)", l);
	seqlint__latch_flip(l);
}

static inline void seqlint_latch_write_end(seqlint_latch_t *l)
{
	/* Nothing to order: the switch already published copies[0]; copies[1]
	 * is published by the next write's begin. */
	(void)l;
}

#define seqlint_latch_init(l)	seqlint_latch_init(SEQLINT__PTR(seqlint_latch_t, l))
#define seqlint_latch_read_begin(l) \
	seqlint_latch_read_begin(SEQLINT__CPTR(seqlint_latch_t, l))
#define seqlint_latch_read_retry(l, start) \
	seqlint_latch_read_retry(SEQLINT__CPTR(seqlint_latch_t, l), (start))
#define seqlint_latch_write_begin(l) \
	seqlint_latch_write_begin(SEQLINT__PTR(seqlint_latch_t, l))
#define seqlint_latch_write_switch(l) \
	seqlint_latch_write_switch(SEQLINT__PTR(seqlint_latch_t, l))
#define seqlint_latch_write_end(l) \
	seqlint_latch_write_end(SEQLINT__PTR(seqlint_latch_t, l))

/* Whole-object latch helpers: copies is an array T[2], in/out point to T. */
#define seqlint_latch_read_object(l, copies, out) do {				\
	unsigned seqlint__seq;							\
	do {									\
		seqlint__seq = seqlint_latch_read_begin(l);			\
		seqlint_copy_out((out),						\
			&(copies)[seqlint_latch_index(seqlint__seq)]);		\
	} while (seqlint_latch_read_retry((l), seqlint__seq));			\
} while (0)

#define seqlint_latch_write_object(l, copies, in) do {				\
	_Static_assert(sizeof(copies) == 2 * sizeof((copies)[0]),		\
		"seqlint_latch_write_object: copies must be an array of 2");	\
	seqlint_latch_write_begin(l);						\
	seqlint_copy_in(&(copies)[0], (in));					\
	seqlint_latch_write_switch(l);						\
	seqlint_copy_in(&(copies)[1], (in));					\
	seqlint_latch_write_end(l);						\
} while (0)

#endif /* SEQLINT_SEQCOUNT_H */
