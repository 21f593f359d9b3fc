/* seqlint test stub: mimics Linux 6.12 <linux/seqlock_types.h>. */
#ifndef SEQLINT_STUB_LINUX_SEQLOCK_TYPES_H
#define SEQLINT_STUB_LINUX_SEQLOCK_TYPES_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>

/* Plain sequence counter: no writer serialization of its own. */
typedef struct seqcount {
	unsigned sequence;
} seqcount_t;

/*
 * __SEQ_LOCK(expr) keeps expr only when the kernel is built with
 * CONFIG_LOCKDEP or CONFIG_PREEMPT_RT. In a real x86_64 defconfig build it
 * expands to NOTHING, so seqcount_LOCKNAME_t has no .lock member and the
 * associated lock is only visible in the init/ZERO macro arguments.
 * The stubs keep the member by default (lockdep-like shape); compile with
 * -DSEQLINT_STUB_SEQ_LOCK=0 for the exact defconfig shape.
 */
#ifndef SEQLINT_STUB_SEQ_LOCK
#define SEQLINT_STUB_SEQ_LOCK 1
#endif
#if SEQLINT_STUB_SEQ_LOCK || defined(CONFIG_PREEMPT_RT)
#define __SEQ_LOCK(expr) expr
#else
#define __SEQ_LOCK(expr)
#endif

/* seqcount_<lockname>_t: a seqcount plus (maybe) a pointer to its writer lock. */
#define SEQCOUNT_LOCKNAME(lockname, locktype, preemptible, lockbase)	\
typedef struct seqcount_##lockname {					\
	seqcount_t seqcount;						\
	__SEQ_LOCK(locktype *lock);					\
} seqcount_##lockname##_t;

SEQCOUNT_LOCKNAME(raw_spinlock, raw_spinlock_t, false,    raw_spin)
SEQCOUNT_LOCKNAME(spinlock,     spinlock_t,     __SEQ_RT, spin)
SEQCOUNT_LOCKNAME(rwlock,       rwlock_t,       __SEQ_RT, read)
SEQCOUNT_LOCKNAME(mutex,        struct mutex,   true,     mutex)
#undef SEQCOUNT_LOCKNAME

/* seqlock_t: a spinlock-associated seqcount with its spinlock embedded. */
typedef struct {
	seqcount_spinlock_t seqcount;
	spinlock_t lock;
} seqlock_t;

#endif
