// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier, one side: a consumer reads completion entries from a
 * ring the kernel fills, then hands them back by moving its head, and puts
 * its barrier after the head store, where it orders nothing for the entry
 * loads. The barrier shows the head is shared; the producer may overwrite
 * an entry still being read.
 * Modelled on liburing's io_uring_cq_advance() before ecefd7958eb3 (2019)
 * and on a completion loop that runs each request's callback.
 */
#include <stdatomic.h>
#include <stdint.h>

#define compiler_fence() __asm__ __volatile__("" ::: "memory")

struct cqe { uint64_t tag; int32_t res; };
struct job { int32_t res; void (*done)(struct job *); };

struct cring {
	unsigned *head, *tail, *mask;
	struct cqe *entries;
};

static inline void cring_release(struct cring *c, unsigned n)
{
	*c->head += n; // expected-note {{inside 'cring_release'}}
	compiler_fence();
}

unsigned cring_reap(struct cring *c)
{
	unsigned h = *c->head, m = *c->mask, n = 0;
	unsigned t = atomic_load_explicit((_Atomic unsigned *)c->tail,
					  memory_order_acquire);

	for (; h != t; h++, n++) {
		const struct cqe *e = &c->entries[h & m];
		struct job *j = (struct job *)(uintptr_t)e->tag;

		j->res = e->res; // expected-note {{the load of 'e->res' is here}}
		j->done(j);
	}
	cring_release(c, n); // expected-warning {{'*(c->head)' hands the slot back to the producer here, after the load of 'e->res'}}
	// expected-note@-1 {{shared with the other side: the barrier right after it}}
	return n;
}

/* Fixed: the head is store-released after the entries are read. */
static inline void cring_release_ok(struct cring *c, unsigned n)
{
	atomic_store_explicit((_Atomic unsigned *)c->head, *c->head + n,
			      memory_order_release);
}

unsigned cring_reap_ok(struct cring *c)
{
	unsigned h = *c->head, m = *c->mask, n = 0;
	unsigned t = atomic_load_explicit((_Atomic unsigned *)c->tail,
					  memory_order_acquire);

	for (; h != t; h++, n++) {
		const struct cqe *e = &c->entries[h & m];
		struct job *j = (struct job *)(uintptr_t)e->tag;

		j->res = e->res;
		j->done(j);
	}
	cring_release_ok(c, n);
	return n;
}

/* A full barrier before the head store orders the entry loads. */
unsigned cring_reap_mb(struct cring *c)
{
	unsigned h = *c->head, m = *c->mask, n = 0;
	unsigned t = atomic_load_explicit((_Atomic unsigned *)c->tail,
					  memory_order_acquire);

	for (; h != t; h++, n++)
		c->entries[h & m].res = 0;
	while (n--) {
		struct cqe *e = &c->entries[(h - n - 1) & m];

		if (e->res)
			break;
	}
	atomic_thread_fence(memory_order_seq_cst);
	*c->head = h;
	compiler_fence();
	return n;
}

/* A thread's own slot index, flipped after its partner's flag was read,
 * then an acquire fence (Concurrency Kit's ck_barrier_dissemination():
 * `state->parity = 1 - state->parity; ck_pr_fence_acquire();`). A read-side
 * fence after the store orders nothing for another agent and says nothing
 * about the index being shared. */
struct dflag { unsigned tflag; unsigned *pflag; };
struct dbarrier { struct dflag *flags[2]; };
struct dstate { unsigned parity, sense, tid; };
void dissemination_wait(struct dbarrier *b, struct dstate *st)
{
	for (unsigned i = 0; i < 4; i++) {
		unsigned *pflag = b[st->tid].flags[st->parity][i].pflag;
		unsigned *tflag = &b[st->tid].flags[st->parity][i].tflag;

		atomic_store_explicit((_Atomic unsigned *)pflag, st->sense,
				      memory_order_relaxed);
		while (atomic_load_explicit((_Atomic unsigned *)tflag,
					    memory_order_relaxed) != st->sense)
			;
	}
	if (st->parity == 1)
		st->sense = ~st->sense;
	st->parity = 1 - st->parity;
	atomic_thread_fence(memory_order_acquire);
}
