/* seqlint test stub: mimics Linux 6.12 <linux/irqflags.h> / <linux/bottom_half.h> (x86). */
#ifndef SEQLINT_STUB_LINUX_IRQFLAGS_H
#define SEQLINT_STUB_LINUX_IRQFLAGS_H

#include <linux/compiler.h>

static __always_inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags;
	asm volatile("pushf ; pop %0 ; cli" : "=rm"(flags) : : "memory");
	return flags;
}

static __always_inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & 0x200)
		asm volatile("sti" ::: "memory");
}

#define raw_local_irq_disable() asm volatile("cli" ::: "memory")
#define raw_local_irq_enable()  asm volatile("sti" ::: "memory")
#define raw_local_irq_save(flags)					\
	do {								\
		typecheck(unsigned long, flags);			\
		flags = arch_local_irq_save();				\
	} while (0)
#define raw_local_irq_restore(flags)					\
	do {								\
		typecheck(unsigned long, flags);			\
		arch_local_irq_restore(flags);				\
	} while (0)

#define local_irq_disable()        do { raw_local_irq_disable(); } while (0)
#define local_irq_enable()         do { raw_local_irq_enable(); } while (0)
#define local_irq_save(flags)      do { raw_local_irq_save(flags); } while (0)
#define local_irq_restore(flags)   do { raw_local_irq_restore(flags); } while (0)

/* bottom_half.h */
extern void __local_bh_disable_ip(unsigned long ip, unsigned int cnt);
extern void __local_bh_enable_ip(unsigned long ip, unsigned int cnt);
static inline void local_bh_disable(void) { __local_bh_disable_ip(0, 0x200); }
static inline void local_bh_enable(void) { __local_bh_enable_ip(0, 0x200); }

#endif
