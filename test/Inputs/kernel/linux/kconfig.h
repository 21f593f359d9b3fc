/* seqlint test stub: mimics the shape of Linux 6.12 <linux/kconfig.h>. */
#ifndef SEQLINT_STUB_LINUX_KCONFIG_H
#define SEQLINT_STUB_LINUX_KCONFIG_H

/*
 * The stubs model an x86_64 defconfig build: CONFIG_SMP, CONFIG_PREEMPTION,
 * CONFIG_PREEMPT_RCU and CONFIG_PREEMPT_COUNT on; lockdep, KCSAN,
 * PREEMPT_RT and printk indexing off.
 */
#define CONFIG_SMP 1
#define CONFIG_64BIT 1
#define CONFIG_X86_64 1
#define CONFIG_PREEMPTION 1
#define CONFIG_PREEMPT_COUNT 1
#define CONFIG_PREEMPT_RCU 1

/* IS_ENABLED(CONFIG_FOO): 1 when CONFIG_FOO is defined to 1, else 0
 * (same placeholder trick as the kernel, so it is an integer constant). */
#define __STUB_ARG_PLACEHOLDER_1 0,
#define __stub_take_second(ignored, val, ...) val
#define __stub_is_defined3(arg_or_junk) __stub_take_second(arg_or_junk 1, 0, 0)
#define __stub_is_defined2(val) __stub_is_defined3(__STUB_ARG_PLACEHOLDER_##val)
#define __is_defined(x) __stub_is_defined2(x)
#define IS_ENABLED(option) __is_defined(option)

#endif
