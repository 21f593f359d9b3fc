/* seqlint test stub: mimics the shape of Linux 6.12 include/asm-generic/barrier.h
 * for CONFIG_SMP=y, CONFIG_KCSAN=n. Include <asm/barrier.h>, not this file. */
#ifndef SEQLINT_STUB_ASM_GENERIC_BARRIER_H
#define SEQLINT_STUB_ASM_GENERIC_BARRIER_H

#include <linux/compiler.h>
#include <linux/kcsan-checks.h>
#include <asm/processor.h>

#ifndef nop
#define nop() asm volatile("nop")
#endif

#define mb()      do { kcsan_mb(); __mb(); } while (0)
#define rmb()     do { kcsan_rmb(); __rmb(); } while (0)
#define wmb()     do { kcsan_wmb(); __wmb(); } while (0)
#define dma_rmb() do { kcsan_rmb(); __dma_rmb(); } while (0)
#define dma_wmb() do { kcsan_wmb(); __dma_wmb(); } while (0)

/* CONFIG_SMP variants */
#define smp_mb()  do { kcsan_mb(); __smp_mb(); } while (0)
#define smp_rmb() do { kcsan_rmb(); __smp_rmb(); } while (0)
#define smp_wmb() do { kcsan_wmb(); __smp_wmb(); } while (0)

#define smp_store_mb(var, value) do { kcsan_mb(); __smp_store_mb(var, value); } while (0)
#define smp_mb__before_atomic()  do { kcsan_mb(); __smp_mb__before_atomic(); } while (0)
#define smp_mb__after_atomic()   do { kcsan_mb(); __smp_mb__after_atomic(); } while (0)
#define smp_store_release(p, v)  do { kcsan_release(); __smp_store_release(p, v); } while (0)
#define smp_load_acquire(p)      __smp_load_acquire(p)

/* Guests talking to an SMP host: always the SMP barriers. */
#define virt_mb()                do { kcsan_mb(); __smp_mb(); } while (0)
#define virt_rmb()               do { kcsan_rmb(); __smp_rmb(); } while (0)
#define virt_wmb()               do { kcsan_wmb(); __smp_wmb(); } while (0)
#define virt_store_mb(var, value) do { kcsan_mb(); __smp_store_mb(var, value); } while (0)
#define virt_mb__before_atomic() do { kcsan_mb(); __smp_mb__before_atomic(); } while (0)
#define virt_mb__after_atomic()  do { kcsan_mb(); __smp_mb__after_atomic(); } while (0)
#define virt_store_release(p, v) do { kcsan_release(); __smp_store_release(p, v); } while (0)
#define virt_load_acquire(p)     __smp_load_acquire(p)

#define smp_acquire__after_ctrl_dep() smp_rmb()

/* Spin until cond_expr (which may use VAL) holds; returns the last value. */
#define smp_cond_load_relaxed(ptr, cond_expr)				\
({									\
	typeof(ptr) __PTR = (ptr);					\
	__unqual_scalar_typeof(*ptr) VAL;				\
	for (;;) {							\
		VAL = READ_ONCE(*__PTR);				\
		if (cond_expr)						\
			break;						\
		cpu_relax();						\
	}								\
	(typeof(*ptr))VAL;						\
})

#define smp_cond_load_acquire(ptr, cond_expr)				\
({									\
	__unqual_scalar_typeof(*ptr) _val;				\
	_val = smp_cond_load_relaxed(ptr, cond_expr);			\
	smp_acquire__after_ctrl_dep();					\
	(typeof(*ptr))_val;						\
})

#endif
