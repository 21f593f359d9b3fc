/* seqlint test stub: mimics Linux 6.12 <linux/preempt.h> with CONFIG_PREEMPT_COUNT
 * and CONFIG_PREEMPTION (x86_64 defconfig uses PREEMPT_DYNAMIC). */
#ifndef SEQLINT_STUB_LINUX_PREEMPT_H
#define SEQLINT_STUB_LINUX_PREEMPT_H

#include <linux/compiler.h>
#include <linux/types.h>

/* x86 keeps the count in a per-CPU variable updated with %gs-relative asm. */
extern int __stub_preempt_count;

static __always_inline int preempt_count(void)
{
	return READ_ONCE(__stub_preempt_count);
}

static __always_inline void __preempt_count_add(int val)
{
	asm volatile("addl %1, %0" : "+m"(__stub_preempt_count) : "ir"(val));
}

static __always_inline void __preempt_count_sub(int val)
{
	asm volatile("subl %1, %0" : "+m"(__stub_preempt_count) : "ir"(val));
}

static __always_inline bool __preempt_count_dec_and_test(void)
{
	__preempt_count_sub(1);
	return READ_ONCE(__stub_preempt_count) == 0;
}

extern void preempt_schedule(void);
#define __preempt_schedule()        preempt_schedule()

#define preempt_count_inc()         __preempt_count_add(1)
#define preempt_count_dec()         __preempt_count_sub(1)
#define preempt_count_dec_and_test() __preempt_count_dec_and_test()

#define preempt_disable()						\
do {									\
	preempt_count_inc();						\
	barrier();							\
} while (0)

#define preempt_enable_no_resched()					\
do {									\
	barrier();							\
	preempt_count_dec();						\
} while (0)

#define preempt_enable()						\
do {									\
	barrier();							\
	if (unlikely(preempt_count_dec_and_test()))			\
		__preempt_schedule();					\
} while (0)

#define preemptible()  (preempt_count() == 0)

#include <linux/lockdep.h>

/* Without PREEMPT_RT these only assert (which is empty without lockdep). */
#define preempt_disable_nested()					\
do {									\
	if (IS_ENABLED(CONFIG_PREEMPT_RT))				\
		preempt_disable();					\
	else								\
		lockdep_assert_preemption_disabled();			\
} while (0)

#define preempt_enable_nested()						\
do {									\
	if (IS_ENABLED(CONFIG_PREEMPT_RT))				\
		preempt_enable();					\
} while (0)

#endif
