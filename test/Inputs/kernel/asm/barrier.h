/* seqlint test stub: mimics the shape of Linux 6.12 arch/x86/include/asm/barrier.h
 * (x86_64). The arch supplies the __-prefixed primitives; <asm-generic/barrier.h>
 * wraps them into the public smp_*() API.
 *
 * On x86: smp_rmb() and smp_wmb() are only compiler barriers, and
 * smp_mb__before_atomic()/smp_mb__after_atomic() emit nothing at all. */
#ifndef SEQLINT_STUB_ASM_X86_BARRIER_H
#define SEQLINT_STUB_ASM_X86_BARRIER_H

#include <linux/compiler.h>
#include <asm/cmpxchg.h>

#define __mb()      asm volatile("mfence" ::: "memory")
#define __rmb()     asm volatile("lfence" ::: "memory")
#define __wmb()     asm volatile("sfence" ::: "memory")

#define __dma_rmb() barrier()
#define __dma_wmb() barrier()

#define __smp_mb()  asm volatile("lock addl $0,-4(%%rsp)" ::: "memory", "cc")
#define __smp_rmb() dma_rmb()
#define __smp_wmb() barrier()
#define __smp_store_mb(var, value) do { (void)xchg(&var, value); } while (0)

/* x86 is TSO: release = compiler barrier + WRITE_ONCE, acquire = READ_ONCE +
 * compiler barrier. Note the x86 acquire keeps typeof(*p) (qualifiers and all). */
#define __smp_store_release(p, v)					\
do {									\
	compiletime_assert_atomic_type(*p);				\
	barrier();							\
	WRITE_ONCE(*p, v);						\
} while (0)

#define __smp_load_acquire(p)						\
({									\
	typeof(*p) ___p1 = READ_ONCE(*p);				\
	compiletime_assert_atomic_type(*p);				\
	barrier();							\
	___p1;								\
})

/* Locked atomics already serialize on x86. */
#define __smp_mb__before_atomic() do { } while (0)
#define __smp_mb__after_atomic()  do { } while (0)

#include <asm-generic/barrier.h>

#endif
