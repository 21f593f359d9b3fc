// Modelled on: QEMU util/qemu-coroutine-lock.c:qemu_co_mutex_unlock() and
//   qemu_co_mutex_lock_slowpath() (the "responsibility hand-off" protocol, QEMU 2.9+).
// Correct, and not a seqcount despite the name: `sequence` only mints a fresh non-zero
// token for each hand-off attempt. unlock() stores the token in `handoff` with a full
// barrier; a concurrent lock() reads `handoff` and tries to claim it with cmpxchg;
// unlock() then tries to take it back with cmpxchg on the same token. Ownership is
// decided by the cmpxchg results, not by comparing two reads of a counter around data.
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

/* include/qemu/atomic.h */
#define barrier()		({ asm volatile("" ::: "memory"); (void)0; })
#define smp_mb()		({ barrier(); __atomic_thread_fence(__ATOMIC_SEQ_CST); })
#define qatomic_read(ptr)	__atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_set(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)
#define qatomic_mb_read(ptr)	__atomic_load_n(ptr, __ATOMIC_SEQ_CST)
#define qatomic_mb_set(ptr, i)	((void)__atomic_exchange_n(ptr, i, __ATOMIC_SEQ_CST))
#define qatomic_fetch_dec(ptr)	__atomic_fetch_sub(ptr, 1, __ATOMIC_SEQ_CST)
#define qatomic_cmpxchg(ptr, old, new) ({				\
	__typeof__(*(ptr)) _old = (old);				\
	(void)__atomic_compare_exchange_n(ptr, &_old, new, false,	\
			__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);		\
	_old;								\
})

typedef struct Coroutine Coroutine;
typedef struct CoWaitRecord {
	Coroutine *co;
	struct CoWaitRecord *next;
} CoWaitRecord;

typedef struct CoMutex {
	unsigned locked;
	void *ctx;
	CoWaitRecord *from_push, *to_pop;
	unsigned handoff, sequence;
	Coroutine *holder;
} CoMutex;

Coroutine *qemu_coroutine_self(void);
void qemu_coroutine_yield(void);
void qemu_co_mutex_wake(CoMutex *mutex, Coroutine *co);
CoWaitRecord *pop_waiter(CoMutex *mutex);
void push_waiter(CoMutex *mutex, CoWaitRecord *w);
bool has_waiters(CoMutex *mutex);

void qemu_co_mutex_unlock(CoMutex *mutex)
{
	mutex->ctx = NULL;
	mutex->holder = NULL;
	if (qatomic_fetch_dec(&mutex->locked) == 1)
		return;		/* no waiting qemu_co_mutex_lock() */

	for (;;) {
		CoWaitRecord *to_wake = pop_waiter(mutex);
		unsigned our_handoff;

		if (to_wake) {
			qemu_co_mutex_wake(mutex, to_wake->co);
			break;
		}

		/* A concurrent lock() has not queued itself yet: pick a token (not 0). */
		if (++mutex->sequence == 0)
			mutex->sequence = 1;

		our_handoff = mutex->sequence;
		qatomic_mb_set(&mutex->handoff, our_handoff);
		if (!has_waiters(mutex))
			break;	/* the concurrent lock() will pick up our token */

		/* Take the token back; if somebody else has, they are responsible now. */
		if (qatomic_cmpxchg(&mutex->handoff, our_handoff, 0) != our_handoff)
			break;
	}
}

void qemu_co_mutex_lock_slowpath(void *ctx, CoMutex *mutex)
{
	Coroutine *self = qemu_coroutine_self();
	CoWaitRecord w;
	unsigned old_handoff;

	w.co = self;
	push_waiter(mutex, &w);

	old_handoff = qatomic_mb_read(&mutex->handoff);
	if (old_handoff && has_waiters(mutex) &&
	    qatomic_cmpxchg(&mutex->handoff, old_handoff, 0) == old_handoff) {
		CoWaitRecord *to_wake = pop_waiter(mutex);
		Coroutine *co = to_wake->co;

		if (co == self) {
			mutex->ctx = ctx;	/* we got the lock ourselves */
			return;
		}
		qemu_co_mutex_wake(mutex, co);
	}

	qemu_coroutine_yield();
}
