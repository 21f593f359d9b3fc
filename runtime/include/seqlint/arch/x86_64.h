/* SPDX-License-Identifier: MIT */
/*
 * x86-64 barriers.  Included by seqlint/barrier.h only.
 *
 * x86-64 is TSO: loads are not reordered with loads, stores not with stores,
 * and stores are not reordered with earlier loads.  Only store->load needs an
 * instruction.  So, as in the Linux kernel:
 *   smp_rmb, smp_wmb         compiler barrier only
 *   load-acquire             plain mov (C11 acquire load compiles to exactly that)
 *   store-release            plain mov (C11 release store compiles to exactly that)
 *   smp_mb                   lock; addl $0,-4(%rsp)  - a locked no-op on the
 *                            (red-zone, always mapped) stack, cheaper than mfence
 *                            on current cores and a full barrier for all normal
 *                            write-back memory accesses.
 * Acquire/release use C11 orderings rather than a mov in asm: same instruction,
 * and ThreadSanitizer then sees the synchronization.
 */
#ifndef SEQLINT_ARCH_X86_64_H
#define SEQLINT_ARCH_X86_64_H

#define SEQLINT_ARCH "x86_64"
#define SEQLINT__HAVE_64 1

static inline void seqlint__arch_barrier(void)
{
	__asm__ __volatile__("" ::: "memory");
}

static inline void seqlint__arch_mb(void)
{
	__asm__ __volatile__("lock; addl $0,-4(%%rsp)" ::: "memory", "cc");
}

static inline void seqlint__arch_rmb(void) { seqlint__arch_barrier(); }
static inline void seqlint__arch_wmb(void) { seqlint__arch_barrier(); }

static inline void seqlint__arch_cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

#define SEQLINT__X86_ACQ(bits)						\
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
SEQLINT__X86_ACQ(8)
SEQLINT__X86_ACQ(16)
SEQLINT__X86_ACQ(32)
SEQLINT__X86_ACQ(64)
#undef SEQLINT__X86_ACQ

#endif
