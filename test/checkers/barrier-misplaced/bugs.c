// barrier-misplaced: a barrier of the right kind in the wrong place.
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-misplaced' -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// Wrong-kind stays silent on these: the kind is right.
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only %s 2>&1 | count 0
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <stdatomic.h>
#include <linux/spinlock.h>

struct msg {
	int a, b;
	int ready;
	unsigned long gen;
	unsigned long state;
};

static inline int test_bit(long nr, const volatile unsigned long *addr)
{
	return 1UL & (*addr >> nr);
}

/* smp_wmb() after the flag store that publishes the data. */
void send_late_wmb(struct msg *m, int a, int b)
{
	m->a = a;
	m->b = b;
	WRITE_ONCE(m->ready, 1);
	smp_wmb(); // expected-warning {{smp_wmb() comes after the store to 'm->ready' that publishes the data, and no store follows it in this function: it does not order the store to 'm->b' before the publication; move it before the store to 'm->ready' [seqlint-barrier-misplaced]}}
}

/* Same, with a load after the barrier (still no store to order). */
int send_then_peek(struct msg *m, struct msg *peer, int a)
{
	m->a = a;
	WRITE_ONCE(m->ready, 1);
	smp_wmb(); // expected-warning {{smp_wmb() comes after the store to 'm->ready'}}
	return READ_ONCE(peer->ready);
}

/* C11: a release fence after the publishing store. */
void c11_late_fence(_Atomic int *flag, int *data)
{
	*data = 1;
	atomic_store_explicit(flag, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release); // expected-warning {{the fence comes after the store to '*flag' that publishes the data}}
}

/* smp_rmb() before both loads of the pair: gen, then the state word that
 * was already tested before the barrier. */
int check_late(struct msg *m, unsigned long gen)
{
	if (!test_bit(0, &m->state))
		return 0;
	smp_rmb(); // expected-warning {{smp_rmb() is placed before both loads of the pair 'm->gen' / 'm->state', so it does not order them against each other; move it between the load of 'm->gen' and the load of 'm->state' [seqlint-barrier-misplaced]}}
	return READ_ONCE(m->gen) == gen && test_bit(1, &m->state);
}

/* Same with plain fields. */
int ready_late(struct msg *m)
{
	if (!READ_ONCE(m->ready))
		return -1;
	smp_rmb(); // expected-warning {{smp_rmb() is placed before both loads of the pair 'm->a' / 'm->ready'}}
	if (m->a && READ_ONCE(m->ready) == 2)
		return m->b;
	return 0;
}

/* The unlock after the barrier does not hide that nothing follows. */
void send_then_unlock(struct msg *m, spinlock_t *l, int a)
{
	spin_lock(l);
	m->a = a;
	WRITE_ONCE(m->ready, 1);
	smp_wmb(); // expected-warning {{smp_wmb() comes after the store to 'm->ready'}}
	spin_unlock(l);
}
