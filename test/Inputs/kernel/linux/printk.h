/* seqlint test stub: mimics Linux 6.12 <linux/printk.h> (no CONFIG_PRINTK_INDEX):
 * printk() is a macro whose statement expression calls the extern _printk(). */
#ifndef SEQLINT_STUB_LINUX_PRINTK_H
#define SEQLINT_STUB_LINUX_PRINTK_H

#include <linux/compiler.h>

#define KERN_SOH     "\001"
#define KERN_EMERG   KERN_SOH "0"
#define KERN_ERR     KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE  KERN_SOH "5"
#define KERN_INFO    KERN_SOH "6"
#define KERN_DEBUG   KERN_SOH "7"

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

extern __printf(1, 2) __cold int _printk(const char *fmt, ...);

#define __printk_index_emit(...) do {} while (0)

#define printk_index_wrap(_p_func, _fmt, ...)				\
	({								\
		__printk_index_emit(_fmt, NULL, NULL);			\
		_p_func(_fmt, ##__VA_ARGS__);				\
	})

#define printk(fmt, ...) printk_index_wrap(_printk, fmt, ##__VA_ARGS__)

#define pr_emerg(fmt, ...)  printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)    printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)   printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)   printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)

/* pr_debug without DEBUG/dynamic debug: type-checked, never called. */
#define no_printk(fmt, ...)						\
({									\
	if (0)								\
		_printk(fmt, ##__VA_ARGS__);				\
	0;								\
})
#define pr_debug(fmt, ...)  no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)

#endif
