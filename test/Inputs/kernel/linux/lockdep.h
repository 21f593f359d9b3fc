/* seqlint test stub: mimics Linux 6.12 <linux/lockdep.h> with CONFIG_LOCKDEP off:
 * every annotation is an empty or (void)-evaluating do/while macro. */
#ifndef SEQLINT_STUB_LINUX_LOCKDEP_H
#define SEQLINT_STUB_LINUX_LOCKDEP_H

#include <linux/types.h>

/* Arguments that name a dep_map member are never evaluated (the member does
 * not exist without CONFIG_DEBUG_LOCK_ALLOC). */
#define lockdep_init_map(lock, name, key, sub)				\
	do { (void)(name); (void)(key); } while (0)
#define lock_acquire(l, s, t, r, c, n, i)  do { } while (0)
#define lock_release(l, i)                 do { } while (0)
#define seqcount_acquire(l, s, t, i)       lock_acquire(l, s, t, 0, 1, NULL, i)
#define seqcount_acquire_read(l, s, t, i)  lock_acquire(l, s, t, 2, 1, NULL, i)
#define seqcount_release(l, i)             lock_release(l, i)

#define lockdep_assert_held(l)             do { (void)(l); } while (0)
#define lockdep_assert_held_write(l)       do { (void)(l); } while (0)
#define lockdep_assert_held_read(l)        do { (void)(l); } while (0)
#define lockdep_assert_held_once(l)        do { (void)(l); } while (0)
#define lockdep_assert_not_held(l)         do { (void)(l); } while (0)
#define lockdep_assert_irqs_disabled()     do { } while (0)
#define lockdep_assert_preemption_disabled() do { } while (0)

#define _RET_IP_ (unsigned long)__builtin_return_address(0)

#endif
