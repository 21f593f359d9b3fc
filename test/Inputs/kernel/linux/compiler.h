/* seqlint test stub: mimics the shapes of Linux 6.12 <linux/compiler.h>,
 * <linux/compiler_types.h> and <asm-generic/rwonce.h> (clang, -O2 build). */
#ifndef SEQLINT_STUB_LINUX_COMPILER_H
#define SEQLINT_STUB_LINUX_COMPILER_H

#include <linux/kconfig.h>
#include <linux/kcsan-checks.h>

/* ---- attributes (compiler_attributes.h) ---- */
#undef __always_inline /* glibc's <sys/cdefs.h> defines it too (C11 tests mix both) */
#define __always_inline     inline __attribute__((__always_inline__))
#define noinline            __attribute__((__noinline__))
#define __noreturn          __attribute__((__noreturn__))
#define __maybe_unused      __attribute__((__unused__))
#define __used              __attribute__((__used__))
#define __must_check        __attribute__((__warn_unused_result__))
#define __aligned(x)        __attribute__((__aligned__(x)))
#define __section(s)        __attribute__((__section__(s)))
#define __cold              __attribute__((__cold__))
#define __cleanup(func)     __attribute__((__cleanup__(func)))
#define __printf(a, b)      __attribute__((__format__(printf, a, b)))
#define __compiletime_error(msg) __attribute__((__error__(msg)))
/* sparse annotations: nothing for the compiler */
#define __force
#define __kernel
#define __user
#define __iomem
#define __percpu
#define __rcu
#define __acquires(x)
#define __releases(x)
#define __acquire(x)        (void)0
#define __release(x)        (void)0
#define __cond_lock(x, c)   (c)

/* ---- token helpers ---- */
#define ___PASTE(a, b)      a##b
#define __PASTE(a, b)       ___PASTE(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)
#define __stringify_1(x...) #x
#define __stringify(x...)   __stringify_1(x)
#define __same_type(a, b)   __builtin_types_compatible_p(typeof(a), typeof(b))

/* typeof(x) with qualifiers dropped for scalar types, via _Generic. */
#define __stub_scalar_case(t) unsigned t: (unsigned t)0, signed t: (signed t)0
#define __unqual_scalar_typeof(x) typeof(				\
	_Generic((x),							\
		char: (char)0,						\
		__stub_scalar_case(char),				\
		__stub_scalar_case(short),				\
		__stub_scalar_case(int),				\
		__stub_scalar_case(long),				\
		__stub_scalar_case(long long),				\
		default: (x)))

#define __native_word(t)						\
	(sizeof(t) == sizeof(char) || sizeof(t) == sizeof(short) ||	\
	 sizeof(t) == sizeof(int) || sizeof(t) == sizeof(long))

/* The kernel always builds with -O2, so this is the __OPTIMIZE__ shape:
 * a do/while declaring an error-attributed extern and calling it in a
 * branch that folds away. */
#define __compiletime_assert(cond, msg, prefix, suffix)			\
	do {								\
		__noreturn extern void prefix##suffix(void)		\
			__compiletime_error(msg);			\
		if (!(cond))						\
			prefix##suffix();				\
	} while (0)
#define _compiletime_assert(cond, msg, prefix, suffix)			\
	__compiletime_assert(cond, msg, prefix, suffix)
#define compiletime_assert(cond, msg)					\
	_compiletime_assert(cond, msg, __compiletime_assert_, __COUNTER__)
#define compiletime_assert_atomic_type(t)				\
	compiletime_assert(__native_word(t),				\
			   "Need native word sized stores/loads for atomicity.")
#define BUILD_BUG_ON(cond)						\
	compiletime_assert(!(cond), "BUILD_BUG_ON failed: " #cond)

/* ---- compiler.h proper ---- */
#define likely(x)           __builtin_expect(!!(x), 1)
#define unlikely(x)         __builtin_expect(!!(x), 0)
#define barrier()           __asm__ __volatile__("" : : : "memory")

#define data_race(expr)							\
({									\
	__kcsan_disable_current();					\
	__auto_type __v = (expr);					\
	__kcsan_enable_current();					\
	__v;								\
})

/* typecheck.h */
#define typecheck(type, x)						\
({									\
	type __dummy;							\
	typeof(x) __dummy2;						\
	(void)(&__dummy == &__dummy2);					\
	1;								\
})

/* ---- rwonce.h: READ_ONCE / WRITE_ONCE ---- */
#define compiletime_assert_rwonce_type(t)				\
	compiletime_assert(__native_word(t) || sizeof(t) == sizeof(long long), \
			   "Unsupported access size for {READ,WRITE}_ONCE().")

#define __READ_ONCE(x)  (*(const volatile __unqual_scalar_typeof(x) *)&(x))

#define READ_ONCE(x)							\
({									\
	compiletime_assert_rwonce_type(x);				\
	__READ_ONCE(x);							\
})

#define __WRITE_ONCE(x, val)						\
do {									\
	*(volatile typeof(x) *)&(x) = (val);				\
} while (0)

#define WRITE_ONCE(x, val)						\
do {									\
	compiletime_assert_rwonce_type(x);				\
	__WRITE_ONCE(x, val);						\
} while (0)

#endif
