/* seqlint test stub: mimics Linux 6.12 <asm-generic/bug.h> (CONFIG_BUG,
 * x86): WARN_ON*() are statement expressions that test their condition
 * once and return it; BUG_ON() does not return when it holds. */
#ifndef SEQLINT_STUB_LINUX_BUG_H
#define SEQLINT_STUB_LINUX_BUG_H

#include <linux/compiler.h>

extern void __warn_report(const char *file, int line);
extern void __noreturn __bug_report(const char *file, int line);

#define __WARN() __warn_report(__FILE__, __LINE__)
#define BUG() __bug_report(__FILE__, __LINE__)

#define WARN_ON(condition) ({						\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__WARN();						\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON_ONCE(condition) ({					\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__WARN();						\
	unlikely(__ret_warn_on);					\
})

#define BUG_ON(condition) do { if (unlikely(condition)) BUG(); } while (0)

#endif
