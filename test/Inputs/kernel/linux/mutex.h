/* seqlint test stub: mimics Linux 6.12 <linux/mutex.h> (no CONFIG_DEBUG_LOCK_ALLOC):
 * mutex_lock/mutex_unlock/mutex_trylock are out-of-line extern functions. */
#ifndef SEQLINT_STUB_LINUX_MUTEX_H
#define SEQLINT_STUB_LINUX_MUTEX_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/lockdep.h>
#include <linux/spinlock.h>

struct mutex {
	atomic_long_t owner;
	raw_spinlock_t wait_lock;
	struct list_head wait_list;
};

#define __MUTEX_INITIALIZER(lockname)					\
	{ .owner = { 0 },						\
	  .wait_lock = __RAW_SPIN_LOCK_INITIALIZER(lockname.wait_lock),	\
	  .wait_list = { &(lockname).wait_list, &(lockname).wait_list } }
#define DEFINE_MUTEX(mutexname) struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)

extern void __mutex_init(struct mutex *lock, const char *name, struct lock_class_key *key);
#define mutex_init(mutex)						\
do {									\
	static struct lock_class_key __key;				\
	__mutex_init((mutex), #mutex, &__key);				\
} while (0)

extern void mutex_lock(struct mutex *lock);
extern int __must_check mutex_lock_interruptible(struct mutex *lock);
extern int mutex_trylock(struct mutex *lock);
extern void mutex_unlock(struct mutex *lock);
extern bool mutex_is_locked(struct mutex *lock);
#define mutex_lock_nested(lock, subclass) mutex_lock(lock)

#endif
