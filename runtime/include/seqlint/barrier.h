/* SPDX-License-Identifier: MIT */
/*
 * seqlint/barrier.h - memory barriers, acquire/release and ONCE accesses.
 *
 * One implementation per architecture, chosen at compile time:
 *
 *   x86-64   seqlint/arch/x86_64.h     (TSO: rmb/wmb are compiler barriers)
 *   arm64    seqlint/arch/arm64.h      (dmb ishld / dmb ishst / ldar / stlr)
 *   armv7-A  seqlint/arch/armv7.h      (dmb ish / dmb ishst)
 *   riscv64  seqlint/arch/riscv64.h    (fence r,r / fence w,w / fence r,rw ...)
 *   ppc64le  seqlint/arch/ppc64le.h    (lwsync / sync)
 *   others   seqlint/arch/generic.h    (C11 atomic_thread_fence)
 *
 * Define SEQLINT_GENERIC_BARRIERS to force the C11 fallback everywhere.
 *
 * Public names (all macros, so that tools which recognize APIs by macro name
 * see them; see docs/runtime.md):
 *
 *   seqlint_barrier()              compiler barrier, no instruction
 *   seqlint_smp_mb()               full barrier (orders everything, incl. store->load)
 *   seqlint_smp_rmb()              read barrier (load->load)
 *   seqlint_smp_wmb()              write barrier (store->store)
 *   seqlint_cpu_relax()            spin-wait hint
 *   seqlint_load_acquire(p)        *p with acquire semantics (scalar, 1/2/4/8 bytes)
 *   seqlint_store_release(p, v)    *p = v with release semantics
 *   seqlint_read_once(x)           relaxed atomic load of the scalar lvalue x
 *   seqlint_write_once(x, v)       relaxed atomic store to the scalar lvalue x
 *   SEQLINT_ARCH                   string naming the barrier implementation in use
 *
 * Why mixing inline-asm barriers with C11 relaxed atomics is correct for the
 * compiler: every asm barrier is `__asm__ __volatile__(... ::: "memory")`.
 * "volatile" keeps it from being deleted, merged or hoisted out of a loop;
 * the "memory" clobber tells the compiler that the asm may read and write any
 * memory whose address escaped, so no load or store of such memory - plain or
 * atomic, whatever its memory_order - may be moved across it, and no value may
 * be cached in a register across it.  C11 alone lets a compiler reorder two
 * relaxed accesses to different objects; the clobber forbids exactly that.
 * The relaxed atomics, in turn, guarantee that each data access is compiled to
 * one single-copy-atomic load or store instruction (no tearing, fusing,
 * duplication or invented accesses), so the hardware barrier emitted by the
 * asm orders the very instructions the source shows.  The ordering argument is
 * then the hardware one (as in the Linux kernel memory model), while the C11
 * argument guarantees the absence of data races (undefined behaviour).  With
 * SEQLINT_GENERIC_BARRIERS everything is plain C11 and the proof is the C11
 * one: fence-fence and fence-atomic synchronization (docs/runtime.md).
 *
 * Requires a GNU C compatible compiler (tested: GCC 12, clang 19) in C11 mode or
 * later: inline asm, __typeof__, statement expressions and __atomic builtins.
 */
#ifndef SEQLINT_BARRIER_H
#define SEQLINT_BARRIER_H

#ifdef __cplusplus
#error "the seqlint runtime headers are C (C11 or later), not C++"
#endif
#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "the seqlint runtime needs C11 or later (-std=c11 or -std=gnu11)"
#endif

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Word types that may alias anything: the copy helpers and READ_ONCE access
 * arbitrary objects through them without breaking type-based alias analysis. */
typedef uint8_t  __attribute__((__may_alias__)) seqlint__u8a;
typedef uint16_t __attribute__((__may_alias__)) seqlint__u16a;
typedef uint32_t __attribute__((__may_alias__)) seqlint__u32a;
typedef uint64_t __attribute__((__may_alias__)) seqlint__u64a;

#if defined(SEQLINT_GENERIC_BARRIERS)
#  include "arch/generic.h"
#elif defined(__x86_64__)
#  include "arch/x86_64.h"
#elif defined(__aarch64__)
#  include "arch/arm64.h"
#elif defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7 && \
	defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'A'
#  include "arch/armv7.h"
#elif defined(__riscv) && defined(__riscv_xlen) && __riscv_xlen == 64
#  include "arch/riscv64.h"
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#  include "arch/ppc64le.h"
#else
#  include "arch/generic.h"
#endif

/* Each arch header defines SEQLINT_ARCH and these static inline functions:
 *   seqlint__arch_barrier, _mb, _rmb, _wmb, _cpu_relax          (void)
 *   seqlint__arch_load_acquire_{8,16,32[,64]}(const volatile void *)
 *   seqlint__arch_store_release_{8,16,32[,64]}(volatile void *, value)
 * and SEQLINT__HAVE_64 when 8-byte accesses are single-copy atomic. */

/* Relaxed atomic stores: __atomic_store_n unless the arch header has a
 * cheaper single-instruction store (riscv64 with GCC < 13). */
#ifndef SEQLINT__ARCH_HAS_STORE_RELAXED
#define SEQLINT__STORE_RELAXED(bits)						\
static inline void								\
seqlint__arch_store_relaxed_##bits(volatile void *p, uint##bits##_t v)	\
{										\
	__atomic_store_n((volatile seqlint__u##bits##a *)p, v,		\
			 __ATOMIC_RELAXED);					\
}
SEQLINT__STORE_RELAXED(8)
SEQLINT__STORE_RELAXED(16)
SEQLINT__STORE_RELAXED(32)
#ifdef SEQLINT__HAVE_64
SEQLINT__STORE_RELAXED(64)
#endif
#undef SEQLINT__STORE_RELAXED
#endif

#define seqlint_barrier()	seqlint__arch_barrier()
#define seqlint_smp_mb()	seqlint__arch_mb()
#define seqlint_smp_rmb()	seqlint__arch_rmb()
#define seqlint_smp_wmb()	seqlint__arch_wmb()
#define seqlint_cpu_relax()	seqlint__arch_cpu_relax()

#ifdef SEQLINT__HAVE_64
#  define SEQLINT__SCALAR_SIZE_OK(n) ((n) == 1 || (n) == 2 || (n) == 4 || (n) == 8)
#else
#  define SEQLINT__SCALAR_SIZE_OK(n) ((n) == 1 || (n) == 2 || (n) == 4)
#endif

static inline void seqlint__load_acquire_n(const volatile void *p, void *res,
					   size_t size)
{
	switch (size) {
	case 1: { uint8_t v = seqlint__arch_load_acquire_8(p);
		  __builtin_memcpy(res, &v, 1); break; }
	case 2: { uint16_t v = seqlint__arch_load_acquire_16(p);
		  __builtin_memcpy(res, &v, 2); break; }
	case 4: { uint32_t v = seqlint__arch_load_acquire_32(p);
		  __builtin_memcpy(res, &v, 4); break; }
#ifdef SEQLINT__HAVE_64
	case 8: { uint64_t v = seqlint__arch_load_acquire_64(p);
		  __builtin_memcpy(res, &v, 8); break; }
#endif
	default: __builtin_unreachable();
	}
}

static inline void seqlint__store_relaxed_n(volatile void *p, const void *val,
					    size_t size)
{
	switch (size) {
	case 1: { uint8_t v; __builtin_memcpy(&v, val, 1);
		  seqlint__arch_store_relaxed_8(p, v); break; }
	case 2: { uint16_t v; __builtin_memcpy(&v, val, 2);
		  seqlint__arch_store_relaxed_16(p, v); break; }
	case 4: { uint32_t v; __builtin_memcpy(&v, val, 4);
		  seqlint__arch_store_relaxed_32(p, v); break; }
#ifdef SEQLINT__HAVE_64
	case 8: { uint64_t v; __builtin_memcpy(&v, val, 8);
		  seqlint__arch_store_relaxed_64(p, v); break; }
#endif
	default: __builtin_unreachable();
	}
}

static inline void seqlint__store_release_n(volatile void *p, const void *val,
					    size_t size)
{
	switch (size) {
	case 1: { uint8_t v; __builtin_memcpy(&v, val, 1);
		  seqlint__arch_store_release_8(p, v); break; }
	case 2: { uint16_t v; __builtin_memcpy(&v, val, 2);
		  seqlint__arch_store_release_16(p, v); break; }
	case 4: { uint32_t v; __builtin_memcpy(&v, val, 4);
		  seqlint__arch_store_release_32(p, v); break; }
#ifdef SEQLINT__HAVE_64
	case 8: { uint64_t v; __builtin_memcpy(&v, val, 8);
		  seqlint__arch_store_release_64(p, v); break; }
#endif
	default: __builtin_unreachable();
	}
}

/* The unqualified type of the scalar *p (typeof of an rvalue drops
 * qualifiers; __atomic_load_n also rejects non-scalar types with an error). */
#define seqlint__unqual_typeof_deref(p) \
	__typeof__(__atomic_load_n((p), __ATOMIC_RELAXED))

#define seqlint_load_acquire(p) (__extension__ ({			\
	_Static_assert(SEQLINT__SCALAR_SIZE_OK(sizeof(*(p))),		\
		"seqlint_load_acquire: *p must be a scalar of 1, 2, 4 or "	\
		"(on 64-bit targets) 8 bytes");				\
	union { seqlint__unqual_typeof_deref(p) v;			\
		unsigned char c[sizeof(*(p))]; } seqlint__u;		\
	seqlint__load_acquire_n((p), seqlint__u.c, sizeof(*(p)));	\
	seqlint__u.v;							\
}))

#define seqlint_store_release(p, val) do {				\
	_Static_assert(SEQLINT__SCALAR_SIZE_OK(sizeof(*(p))),		\
		"seqlint_store_release: *p must be a scalar of 1, 2, 4 or "	\
		"(on 64-bit targets) 8 bytes");				\
	seqlint__unqual_typeof_deref(p) seqlint__v = (val);		\
	seqlint__store_release_n((p), &seqlint__v, sizeof(*(p)));	\
} while (0)

/* READ_ONCE/WRITE_ONCE: relaxed atomic accesses to a scalar lvalue; a single
 * load/store instruction on every architecture.  They are C11 atomic accesses
 * (GNU __atomic builtins on a non-_Atomic object), so they never form a data
 * race, and ThreadSanitizer knows them. */
#define seqlint_read_once(x) (__extension__ ({				\
	_Static_assert(SEQLINT__SCALAR_SIZE_OK(sizeof(x)),		\
		"seqlint_read_once: x must be a scalar of 1, 2, 4 or "	\
		"(on 64-bit targets) 8 bytes");				\
	__atomic_load_n(&(x), __ATOMIC_RELAXED);			\
}))

#define seqlint_write_once(x, val) do {					\
	_Static_assert(SEQLINT__SCALAR_SIZE_OK(sizeof(x)),		\
		"seqlint_write_once: x must be a scalar of 1, 2, 4 or "	\
		"(on 64-bit targets) 8 bytes");				\
	seqlint__unqual_typeof_deref(&(x)) seqlint__v = (val);		\
	seqlint__store_relaxed_n(&(x), &seqlint__v, sizeof(x));	\
} while (0)

#endif /* SEQLINT_BARRIER_H */
