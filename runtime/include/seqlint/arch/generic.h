/* SPDX-License-Identifier: MIT */
/*
 * Generic barriers: C11 fences, for every architecture without a dedicated
 * header, or everywhere with -DSEQLINT_GENERIC_BARRIERS.
 * Included by seqlint/barrier.h only.
 *
 *   compiler barrier  atomic_signal_fence(memory_order_seq_cst)
 *   smp_mb            atomic_thread_fence(memory_order_seq_cst)
 *   smp_rmb           atomic_thread_fence(memory_order_acquire)
 *   smp_wmb           atomic_thread_fence(memory_order_release)
 *   load-acquire      atomic load, memory_order_acquire
 *   store-release     atomic store, memory_order_release
 *
 * Correct by the C11 model alone (docs/runtime.md has the argument): a
 * release fence before relaxed stores synchronizes with an acquire fence
 * after relaxed loads that read one of them.  Usually slower than the
 * arch headers (an acquire/release fence is wider than rmb/wmb: on arm64 the
 * release fence is a full dmb ish).
 */
#ifndef SEQLINT_ARCH_GENERIC_H
#define SEQLINT_ARCH_GENERIC_H

#define SEQLINT_ARCH "generic"
#if defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ >= 8 && \
	defined(__GCC_ATOMIC_LLONG_LOCK_FREE) && __GCC_ATOMIC_LLONG_LOCK_FREE == 2
#  define SEQLINT__HAVE_64 1
#endif

static inline void seqlint__arch_barrier(void)
{
	atomic_signal_fence(memory_order_seq_cst);
}
static inline void seqlint__arch_mb(void)
{
	atomic_thread_fence(memory_order_seq_cst);
}
static inline void seqlint__arch_rmb(void)
{
	atomic_thread_fence(memory_order_acquire);
}
static inline void seqlint__arch_wmb(void)
{
	atomic_thread_fence(memory_order_release);
}
static inline void seqlint__arch_cpu_relax(void)
{
	atomic_signal_fence(memory_order_seq_cst);
}

#define SEQLINT__GENERIC_ACQ_REL(bits)						\
static inline uint##bits##_t							\
seqlint__arch_load_acquire_##bits(const volatile void *p)			\
{										\
	return __atomic_load_n((const volatile seqlint__u##bits##a *)p,	\
			       __ATOMIC_ACQUIRE);				\
}										\
static inline void								\
seqlint__arch_store_release_##bits(volatile void *p, uint##bits##_t v)	\
{										\
	__atomic_store_n((volatile seqlint__u##bits##a *)p, v,		\
			 __ATOMIC_RELEASE);					\
}
SEQLINT__GENERIC_ACQ_REL(8)
SEQLINT__GENERIC_ACQ_REL(16)
SEQLINT__GENERIC_ACQ_REL(32)
#ifdef SEQLINT__HAVE_64
SEQLINT__GENERIC_ACQ_REL(64)
#endif
#undef SEQLINT__GENERIC_ACQ_REL

#endif
