/* Test stand-in for <linux/cleanup.h>: the spinlock guard, reduced to what
 * guard(spinlock)(&l) expands to (a variable whose cleanup releases the lock,
 * initialised by the class constructor that takes it). */
#ifndef _TEST_LINUX_CLEANUP_H
#define _TEST_LINUX_CLEANUP_H
#include <linux/spinlock.h>

typedef struct { spinlock_t *lock; } class_spinlock_t;
static inline class_spinlock_t class_spinlock_constructor(spinlock_t *l)
{
	class_spinlock_t t = { .lock = l };
	spin_lock(l);
	return t;
}
static inline void class_spinlock_destructor(class_spinlock_t *t)
{
	spin_unlock(t->lock);
}
#define guard_spinlock(l)                                                      \
	class_spinlock_t __g __attribute__((cleanup(class_spinlock_destructor))) = \
		class_spinlock_constructor(l)
#endif
