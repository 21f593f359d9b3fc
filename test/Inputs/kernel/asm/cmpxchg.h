/* seqlint test stub: x86 xchg()/cmpxchg() are statement expressions around
 * inline asm (not __atomic builtins), as in Linux 6.12 arch/x86/include/asm/cmpxchg.h. */
#ifndef SEQLINT_STUB_ASM_CMPXCHG_H
#define SEQLINT_STUB_ASM_CMPXCHG_H

#include <linux/compiler.h>

#define arch_xchg(ptr, v)						\
({									\
	__typeof__(*(ptr)) __ret = (v);					\
	asm volatile("xchg %0, %1"					\
		     : "+r"(__ret), "+m"(*(ptr)) : : "memory", "cc");	\
	__ret;								\
})

#define arch_cmpxchg(ptr, old, new)					\
({									\
	__typeof__(*(ptr)) __ret;					\
	__typeof__(*(ptr)) __old = (old);				\
	__typeof__(*(ptr)) __new = (new);				\
	asm volatile("lock cmpxchg %2, %1"				\
		     : "=a"(__ret), "+m"(*(ptr))			\
		     : "r"(__new), "0"(__old) : "memory");		\
	__ret;								\
})

#define xchg(ptr, ...)    arch_xchg(ptr, __VA_ARGS__)
#define cmpxchg(ptr, ...) arch_cmpxchg(ptr, __VA_ARGS__)

#endif
