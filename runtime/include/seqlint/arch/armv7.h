/* SPDX-License-Identifier: MIT */
/*
 * ARMv7-A barriers (ARM or Thumb-2).  Included by seqlint/barrier.h only.
 *
 * As in the Linux kernel (arch/arm/include/asm/barrier.h, SMP):
 *   smp_mb          dmb ish
 *   smp_rmb         dmb ish      (ARMv7 has no load-only dmb; ishld is ARMv8)
 *   smp_wmb         dmb ishst
 *   load-acquire    ldr; dmb ish
 *   store-release   dmb ish; str
 */
#ifndef SEQLINT_ARCH_ARMV7_H
#define SEQLINT_ARCH_ARMV7_H

#define SEQLINT_ARCH "armv7"
/* No SEQLINT__HAVE_64: a 64-bit ldr/str pair is not single-copy atomic. */

static inline void seqlint__arch_barrier(void)
{
	__asm__ __volatile__("" ::: "memory");
}
static inline void seqlint__arch_mb(void)
{
	__asm__ __volatile__("dmb ish" ::: "memory");
}
static inline void seqlint__arch_rmb(void)
{
	__asm__ __volatile__("dmb ish" ::: "memory");
}
static inline void seqlint__arch_wmb(void)
{
	__asm__ __volatile__("dmb ishst" ::: "memory");
}
static inline void seqlint__arch_cpu_relax(void)
{
	__asm__ __volatile__("yield" ::: "memory");
}

#define SEQLINT__ARMV7_ACQ_REL(bits)						\
static inline uint##bits##_t							\
seqlint__arch_load_acquire_##bits(const volatile void *p)			\
{										\
	uint##bits##_t v = __atomic_load_n(					\
		(const volatile seqlint__u##bits##a *)p, __ATOMIC_RELAXED);	\
	seqlint__arch_mb();							\
	return v;								\
}										\
static inline void								\
seqlint__arch_store_release_##bits(volatile void *p, uint##bits##_t v)	\
{										\
	seqlint__arch_mb();							\
	__atomic_store_n((volatile seqlint__u##bits##a *)p, v,		\
			 __ATOMIC_RELAXED);					\
}
SEQLINT__ARMV7_ACQ_REL(8)
SEQLINT__ARMV7_ACQ_REL(16)
SEQLINT__ARMV7_ACQ_REL(32)
#undef SEQLINT__ARMV7_ACQ_REL

#endif
