/* SPDX-License-Identifier: MIT */
/*
 * POWER (ppc64le) barriers.  Included by seqlint/barrier.h only.
 *
 * As in the Linux kernel (arch/powerpc/include/asm/barrier.h, 64-bit SMP):
 *   smp_mb          sync         (heavyweight: the only store->load barrier)
 *   smp_rmb         lwsync
 *   smp_wmb         lwsync       (orders all but store->load)
 *   load-acquire    ld; lwsync
 *   store-release   lwsync; st
 */
#ifndef SEQLINT_ARCH_PPC64LE_H
#define SEQLINT_ARCH_PPC64LE_H

#define SEQLINT_ARCH "ppc64le"
#define SEQLINT__HAVE_64 1

static inline void seqlint__arch_barrier(void)
{
	__asm__ __volatile__("" ::: "memory");
}
static inline void seqlint__arch_mb(void)
{
	__asm__ __volatile__("sync" ::: "memory");
}
static inline void seqlint__arch_rmb(void)
{
	__asm__ __volatile__("lwsync" ::: "memory");
}
static inline void seqlint__arch_wmb(void)
{
	__asm__ __volatile__("lwsync" ::: "memory");
}
static inline void seqlint__arch_cpu_relax(void)
{
	/* Lower, then restore, SMT thread priority (HMT_low; HMT_medium). */
	__asm__ __volatile__("or 1,1,1\n\tor 2,2,2" ::: "memory");
}

#define SEQLINT__PPC_ACQ_REL(bits)						\
static inline uint##bits##_t							\
seqlint__arch_load_acquire_##bits(const volatile void *p)			\
{										\
	uint##bits##_t v = __atomic_load_n(					\
		(const volatile seqlint__u##bits##a *)p, __ATOMIC_RELAXED);	\
	__asm__ __volatile__("lwsync" ::: "memory");				\
	return v;								\
}										\
static inline void								\
seqlint__arch_store_release_##bits(volatile void *p, uint##bits##_t v)	\
{										\
	__asm__ __volatile__("lwsync" ::: "memory");				\
	__atomic_store_n((volatile seqlint__u##bits##a *)p, v,		\
			 __ATOMIC_RELAXED);					\
}
SEQLINT__PPC_ACQ_REL(8)
SEQLINT__PPC_ACQ_REL(16)
SEQLINT__PPC_ACQ_REL(32)
SEQLINT__PPC_ACQ_REL(64)
#undef SEQLINT__PPC_ACQ_REL

#endif
