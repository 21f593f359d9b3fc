/* seqlint test stub: cpu_relax() is a static inline around "rep; nop" on x86. */
#ifndef SEQLINT_STUB_ASM_PROCESSOR_H
#define SEQLINT_STUB_ASM_PROCESSOR_H

#include <linux/compiler.h>

static __always_inline void rep_nop(void)
{
	asm volatile("rep; nop" ::: "memory");
}

static __always_inline void cpu_relax(void)
{
	rep_nop();
}

#endif
