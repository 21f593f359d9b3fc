/* SPDX-License-Identifier: MIT */
/*
 * RISC-V 64 (RVWMO) barriers.  Included by seqlint/barrier.h only.
 *
 * As in the Linux kernel (arch/riscv/include/asm/barrier.h):
 *   smp_mb          fence rw,rw
 *   smp_rmb         fence r,r
 *   smp_wmb         fence w,w
 *   load-acquire    l{b,h,w,d}; fence r,rw
 *   store-release   fence rw,w; s{b,h,w,d}
 * (The RISC-V psABI mapping of C11 acquire/release; without Zalasr there are
 * no load-acquire/store-release instructions for plain loads and stores.)
 */
#ifndef SEQLINT_ARCH_RISCV64_H
#define SEQLINT_ARCH_RISCV64_H

#define SEQLINT_ARCH "riscv64"
#define SEQLINT__HAVE_64 1

static inline void seqlint__arch_barrier(void)
{
	__asm__ __volatile__("" ::: "memory");
}
static inline void seqlint__arch_mb(void)
{
	__asm__ __volatile__("fence rw,rw" ::: "memory");
}
static inline void seqlint__arch_rmb(void)
{
	__asm__ __volatile__("fence r,r" ::: "memory");
}
static inline void seqlint__arch_wmb(void)
{
	__asm__ __volatile__("fence w,w" ::: "memory");
}
static inline void seqlint__arch_cpu_relax(void)
{
	/* Zihintpause "pause" (a FENCE w,0 encoding: a no-op hint on cores
	 * without the extension), spelled as data for older assemblers. */
	__asm__ __volatile__(".4byte 0x0100000f" ::: "memory");
}

/*
 * GCC before 13 compiles a relaxed (and release) atomic store as an AMO
 * (amoswap.w zero,...), which is slower than the plain sw/sd the kernel uses.
 * For those compilers the relaxed store is one sw/sd in inline asm: the
 * "=m" output tells the compiler exactly which location is written (so it
 * stays ordered with other accesses to that location, as a relaxed atomic
 * must); there is no memory clobber because a relaxed store orders nothing
 * else.  Clang and GCC >= 13 already emit sw/sd for __atomic_store_n.
 */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#define SEQLINT__ARCH_HAS_STORE_RELAXED 1
#define SEQLINT__RISCV_STORE(bits, insn)					\
static inline void								\
seqlint__arch_store_relaxed_##bits(volatile void *p, uint##bits##_t v)	\
{										\
	__asm__ __volatile__(insn " %z1, %0"					\
		: "=m"(*(volatile seqlint__u##bits##a *)p) : "rJ"(v));		\
}
SEQLINT__RISCV_STORE(8, "sb")
SEQLINT__RISCV_STORE(16, "sh")
SEQLINT__RISCV_STORE(32, "sw")
SEQLINT__RISCV_STORE(64, "sd")
#undef SEQLINT__RISCV_STORE
#define SEQLINT__RISCV_STORE_RELAXED(bits, p, v) \
	seqlint__arch_store_relaxed_##bits((p), (v))
#else
#define SEQLINT__RISCV_STORE_RELAXED(bits, p, v) \
	__atomic_store_n((volatile seqlint__u##bits##a *)(p), (v), __ATOMIC_RELAXED)
#endif

#define SEQLINT__RISCV_ACQ_REL(bits)						\
static inline uint##bits##_t							\
seqlint__arch_load_acquire_##bits(const volatile void *p)			\
{										\
	uint##bits##_t v = __atomic_load_n(					\
		(const volatile seqlint__u##bits##a *)p, __ATOMIC_RELAXED);	\
	__asm__ __volatile__("fence r,rw" ::: "memory");			\
	return v;								\
}										\
static inline void								\
seqlint__arch_store_release_##bits(volatile void *p, uint##bits##_t v)	\
{										\
	__asm__ __volatile__("fence rw,w" ::: "memory");			\
	SEQLINT__RISCV_STORE_RELAXED(bits, p, v);				\
}
SEQLINT__RISCV_ACQ_REL(8)
SEQLINT__RISCV_ACQ_REL(16)
SEQLINT__RISCV_ACQ_REL(32)
SEQLINT__RISCV_ACQ_REL(64)
#undef SEQLINT__RISCV_ACQ_REL

#endif
