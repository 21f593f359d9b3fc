/* SPDX-License-Identifier: MIT */
/*
 * arm64 (AArch64) barriers.  Included by seqlint/barrier.h only.
 *
 * As in the Linux kernel (arch/arm64/include/asm/barrier.h):
 *   smp_mb          dmb ish      (full barrier, inner shareable domain)
 *   smp_rmb         dmb ishld    (orders earlier loads against later loads and stores)
 *   smp_wmb         dmb ishst    (orders earlier stores against later stores)
 *   load-acquire    ldar / ldarb / ldarh
 *   store-release   stlr / stlrb / stlrh
 * A C11 acquire fence would also be dmb ishld, but a C11 release fence is a
 * full dmb ish: there is no store-store-only fence in C11, hence the asm.
 */
#ifndef SEQLINT_ARCH_ARM64_H
#define SEQLINT_ARCH_ARM64_H

#define SEQLINT_ARCH "arm64"
#define SEQLINT__HAVE_64 1

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
	__asm__ __volatile__("dmb ishld" ::: "memory");
}
static inline void seqlint__arch_wmb(void)
{
	__asm__ __volatile__("dmb ishst" ::: "memory");
}
static inline void seqlint__arch_cpu_relax(void)
{
	__asm__ __volatile__("yield" ::: "memory");
}

/* ldar/stlr take a base register only: the "Q" constraint. */
#define SEQLINT__ARM64_ACQ_REL(bits, sfx, reg)					\
static inline uint##bits##_t							\
seqlint__arch_load_acquire_##bits(const volatile void *p)			\
{										\
	uint##bits##_t v;							\
	__asm__ __volatile__("ldar" sfx " %" reg "0, %1"			\
		: "=r"(v)							\
		: "Q"(*(const volatile seqlint__u##bits##a *)p)			\
		: "memory");							\
	return v;								\
}										\
static inline void								\
seqlint__arch_store_release_##bits(volatile void *p, uint##bits##_t v)	\
{										\
	__asm__ __volatile__("stlr" sfx " %" reg "1, %0"			\
		: "=Q"(*(volatile seqlint__u##bits##a *)p)			\
		: "rZ"(v)							\
		: "memory");							\
}
SEQLINT__ARM64_ACQ_REL(8, "b", "w")
SEQLINT__ARM64_ACQ_REL(16, "h", "w")
SEQLINT__ARM64_ACQ_REL(32, "", "w")
SEQLINT__ARM64_ACQ_REL(64, "", "x")
#undef SEQLINT__ARM64_ACQ_REL

#endif
