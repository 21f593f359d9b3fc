// RUN: %clang_plugin -fsyntax-only -Xclang -verify %s
/*
 * seqcount-write-unbalanced: a generation number is not a seqcount.
 * Modelled on Concurrency Kit's ck_rhs.c (robin-hood hash set): each update
 * stores the slot, then bumps the generation of that bucket once, then a
 * store fence; readers load the generation, probe, and probe again when it
 * changed. The count is never odd "during" an update (nobody tests its low
 * bit, no barrier orders stores before a closing increment), so a path with
 * one bump more than another leaves nothing open.
 * The same function with a section that is closed by an increment ordered
 * after its stores (the count's parity is the protocol) is still reported.
 */
#include <stdatomic.h>

#define NBUCKET 16
struct hset {
	unsigned gen[NBUCKET];
	void *slot[64];
	int probes[64];
};

static inline void store_fence(void) { atomic_thread_fence(memory_order_release); }

int hset_insert(struct hset *m, unsigned long h, long at, void *obj, int n)
{
	if (n > 8) {
		atomic_store_explicit((_Atomic(void *) *)&m->slot[at], obj, memory_order_relaxed);
		__atomic_fetch_add(&m->gen[h % NBUCKET], 1, __ATOMIC_SEQ_CST);
		store_fence();
		m->probes[at] = n;
	}
	while (n-- > 0) {
		atomic_store_explicit((_Atomic(void *) *)&m->slot[at + n], obj, memory_order_relaxed);
		__atomic_fetch_add(&m->gen[h % NBUCKET], 1, __ATOMIC_SEQ_CST);
		store_fence();
	}
	return 0;
}

void *hset_get(struct hset *m, unsigned long h, long at)
{
	unsigned g;
	void *o;

	do {
		g = __atomic_load_n(&m->gen[h % NBUCKET], __ATOMIC_ACQUIRE);
		o = __atomic_load_n(&m->slot[at], __ATOMIC_RELAXED);
		atomic_thread_fence(memory_order_acquire);
	} while (g != __atomic_load_n(&m->gen[h % NBUCKET], __ATOMIC_RELAXED));
	return o;
}

/* A seqcount: the closing increment is ordered after the stores. */
struct clk {
	unsigned seq;
	long sec, nsec;
};

int clk_set(struct clk *c, long s, long ns)
{
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_RELAXED); // expected-note-re {{write section begins here{{$}}}}
	store_fence();
	c->sec = s;
	c->nsec = ns;
	if (s < 0)
		return -1; // expected-warning {{write section of 'c->seq' is still open when the function returns here}}
	store_fence();
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_RELAXED);
	return 0;
}
