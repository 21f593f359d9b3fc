// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s -Xclang -plugin-arg-seqlint -Xclang checks=*
/*
 * The steps of an open-coded writer in the shapes real code gives them: the
 * odd increment as a compare-and-swap claim in a retry loop, the new count
 * computed into a local first (s = x + 1; store(&x, s); ... store(&x, s + 1)),
 * KVM's parity fix (if (v & 1) v += 1) before the section, and a return that
 * leaves an open-coded section odd.
 */
#include <stdatomic.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct slot {
	_Atomic unsigned int word;
	_Atomic unsigned int a, b;
};

/* Claim by CAS, then an acquire fence: it does not order the data stores
 * after the claim. */
void slot_write_bad(struct slot *s, unsigned int a, unsigned int b)
{
	unsigned int old;

	for (;;) {
		old = atomic_load_explicit(&s->word, memory_order_relaxed);
		if (old & 1)
			continue;
		if (atomic_compare_exchange_strong_explicit(&s->word, &old, old + 1,
							    memory_order_relaxed,
							    memory_order_relaxed))
			break;
	}
	atomic_thread_fence(memory_order_acquire); // expected-warning-re {{the acquire fence inside the write section of {{.*}} does not order stores}}
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->word, 1, memory_order_release);
}

/* The same with a full fence after the claim: it orders the data stores. */
void slot_write_good(struct slot *s, unsigned int a, unsigned int b)
{
	unsigned int old;

	for (;;) {
		old = atomic_load_explicit(&s->word, memory_order_relaxed);
		if (old & 1)
			continue;
		if (atomic_compare_exchange_strong_explicit(&s->word, &old, old + 1,
							    memory_order_relaxed,
							    memory_order_relaxed))
			break;
	}
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store_explicit(&s->a, a, memory_order_relaxed);
	atomic_store_explicit(&s->b, b, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->word, 1, memory_order_release);
}

struct adj {
	unsigned int state;
	unsigned long hz, off;
};

/* The new count computed into a local before it is stored. */
void adj_update_bad(struct adj *a, unsigned long hz, unsigned long off)
{
	unsigned int s = a->state + 1;

	__atomic_store_n(&a->state, s, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE); // expected-warning-re {{the acquire fence inside the write section of {{.*}} does not order stores}}
	a->hz = hz;
	a->off = off;
	__atomic_store_n(&a->state, s + 1, __ATOMIC_RELEASE);
}

void adj_update_good(struct adj *a, unsigned long hz, unsigned long off)
{
	unsigned int s = a->state + 1;

	__atomic_store_n(&a->state, s, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	a->hz = hz;
	a->off = off;
	__atomic_store_n(&a->state, s + 1, __ATOMIC_RELEASE);
}

struct steal { unsigned int v; unsigned long steal; };

/* KVM: a count left odd by a guest is made even first; not a section. */
void steal_record(struct steal *st, unsigned long d)
{
	if (st->v & 1)
		st->v += 1;
	st->v += 1;
	smp_wmb();
	st->steal += d;
	smp_wmb();
	st->v += 1;
}

/* An open-coded section left open by an early return. */
void steal_record_bad(struct steal *st, unsigned long d)
{
	WRITE_ONCE(st->v, st->v + 1);
	smp_wmb();
	if (!d)
		return; // expected-warning {{write section of 'st->v' is still open when the function returns here}}
	st->steal += d;
	smp_wmb();
	WRITE_ONCE(st->v, st->v + 1);
}

/* `x = x + 1` written out as a plain assignment is an increment too. */
struct pstate { unsigned int seq; int a; };

void pstate_set(struct pstate *p, int a)
{
	p->seq = p->seq + 1;
	p->a = a; // expected-warning {{store to 'p->a' is not ordered after the odd increment of seqcount 'p->seq'}}
	smp_wmb();
	p->seq = p->seq + 1;
}
