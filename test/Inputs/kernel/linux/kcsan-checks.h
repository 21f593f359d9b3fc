/* seqlint test stub: mimics Linux 6.12 <linux/kcsan-checks.h> with
 * CONFIG_KCSAN off: hooks are empty static inlines, barrier hooks empty
 * do/while macros. Note they still appear as calls inside seqlock.h. */
#ifndef SEQLINT_STUB_LINUX_KCSAN_CHECKS_H
#define SEQLINT_STUB_LINUX_KCSAN_CHECKS_H

static inline void __kcsan_disable_current(void) { }
static inline void __kcsan_enable_current(void) { }
static inline void kcsan_nestable_atomic_begin(void) { }
static inline void kcsan_nestable_atomic_end(void) { }
static inline void kcsan_atomic_next(int n) { (void)n; }

#define kcsan_mb()      do { } while (0)
#define kcsan_wmb()     do { } while (0)
#define kcsan_rmb()     do { } while (0)
#define kcsan_release() do { } while (0)

#endif
