// REQUIRES: ck-headers
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * access-plain-reread and the single writer of a location (issue 14).
 *
 * Modelled on Concurrency Kit 0.7.1's list tests
 * (regressions/ck_queue/validate/ck_{list,slist,stailq}.c with ck_queue.h):
 * reader threads walk a list from ck_pr_load_ptr() of its head; one thread
 * changes the list. That thread tests the head with the same accessor the
 * readers use, and the insert/remove step then reads the head again plainly
 * right before it stores the new head with ck_pr_store_ptr(). Nobody else
 * stores the head, so the plain re-read sees the value that was tested: the
 * writer re-reads what it owns. Reported only when some other function of
 * the TU writes the location too, or the writer claims it with an atomic
 * read-modify-write (a compare-and-swap: writers race for it). In an object
 * the function allocated itself (a thread's own record), other functions
 * that write only objects they allocated themselves do not count.
 */
#include <ck_pr.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct item {
	struct item *link;
	int val;
};

/* ---- correct: one writer, the head in a global ---- */

struct chain {
	struct item *first;
};

static struct chain ch;

int chain_total(void)
{
	int t = 0;

	for (struct item *i = ck_pr_load_ptr(&ch.first); i; i = ck_pr_load_ptr(&i->link))
		t += i->val;
	return t;
}

/* The only function that changes ch.first: test, unlink, store. */
void chain_clear(void)
{
	while (ck_pr_load_ptr(&ch.first) != NULL) {
		struct item *gone = ch.first;

		ck_pr_store_ptr(&ch.first, ch.first->link);
		free(gone);
	}
}

/* ---- correct: the store is in a helper the writer calls (seen through) ---- */

struct pile {
	struct item *top;
};

static struct pile pl;

static inline void pile_set_top(struct pile *p, struct item *i)
{
	ck_pr_fence_store();
	ck_pr_store_ptr(&p->top, i);
}

int pile_peek(void)
{
	struct item *i = ck_pr_load_ptr(&pl.top);

	return i ? i->val : -1;
}

void pile_push_first(struct item *i)
{
	if (ck_pr_load_ptr(&pl.top) != NULL)
		return;
	i->link = pl.top;
	pile_set_top(&pl, i);
}

/* ---- correct: a thread writes the record it allocated ---- */

/* Modelled on ck_epoch.h and ck_epoch_section_2.c:123: each thread
 * allocates and registers a record of its own; only that thread changes its
 * nesting depth (enter claims it with an exchange, leave re-reads it plainly
 * and stores it back); other threads only scan the records. The reader
 * checks its own depth, then leaves: leave's plain re-read is the owner's. */
struct erec {
	unsigned int depth;
	struct erec *next;
};

static struct erec *erecs;

static inline void erec_enter(struct erec *r)
{
	if (r->depth == 0) {
		ck_pr_fas_uint(&r->depth, 1);
		ck_pr_fence_atomic_load();
	} else {
		ck_pr_store_uint(&r->depth, r->depth + 1);
	}
}

static inline void erec_leave(struct erec *r)
{
	ck_pr_fence_release();
	ck_pr_store_uint(&r->depth, r->depth - 1);
}

static void erec_register(struct erec *r)
{
	r->next = erecs;
	ck_pr_fence_store();
	ck_pr_store_ptr(&erecs, r);
}

unsigned int erec_busy(void)
{
	unsigned int n = 0;

	for (struct erec *r = ck_pr_load_ptr(&erecs); r; r = ck_pr_load_ptr(&r->next))
		n += ck_pr_load_uint(&r->depth) != 0;
	return n;
}

/* A thread's record: allocated, registered, then the thread's own. */
static struct erec *erec_new(void)
{
	struct erec *r = malloc(sizeof(*r));

	if (r == NULL)
		return NULL;
	r->depth = 0;
	erec_register(r);
	return r;
}

void *erec_reader(void *arg)
{
	struct erec *r = erec_new();

	for (int i = 0; r != NULL && i < 1000; i++) {
		erec_enter(r);
		erec_enter(r);
		erec_leave(r);
		if (ck_pr_load_uint(&r->depth) == 0)
			fprintf(stderr, "left too early\n");
		erec_leave(r);
	}
	return arg;
}

/* Another thread, with a record of its own. */
void *erec_writer(void *arg)
{
	struct erec *r = erec_new();

	if (r != NULL) {
		erec_enter(r);
		erec_leave(r);
	}
	return arg;
}

/* ---- bugs nearby ---- */

/* The same on an object the function did not allocate, while another
 * function writes the field too: anyone holding the lease can drop it. */
struct lease {
	unsigned int holders;
};

void lease_put(struct lease *l)
{
	if (ck_pr_load_uint(&l->holders) != 0)
		ck_pr_store_uint(&l->holders, l->holders - 1); // expected-warning {{plain re-read of 'l->holders'}}
}

/* Its own lease, but lease_put() drops the holders of any lease it is
 * handed. */
void *lease_user(void *arg)
{
	struct lease *l = malloc(sizeof(*l));

	(void)arg;
	if (l == NULL)
		return NULL;
	l->holders = 1;
	if (ck_pr_load_uint(&l->holders) == 1)
		ck_pr_store_uint(&l->holders, l->holders - 1); // expected-warning {{plain re-read of 'l->holders'}}
	return l;
}

/* A reader that does not write the head re-reads it. */
struct slot {
	struct item *cur;
};

static struct slot sl;

int slot_peek(void)
{
	if (ck_pr_load_ptr(&sl.cur) == NULL)
		return -1;
	return sl.cur->val; // expected-warning {{plain re-read of 'sl.cur'}}
}

/* This function writes the location, but so does another one: two
 * writers, the head can change between the test and the re-read. */
int slot_take(void)
{
	int v = -1;

	if (ck_pr_load_ptr(&sl.cur) != NULL) {
		v = sl.cur->val; // expected-warning {{plain re-read of 'sl.cur'}}
		ck_pr_store_ptr(&sl.cur, NULL);
	}
	return v;
}

void slot_offer(struct item *i)
{
	ck_pr_store_ptr(&sl.cur, i);
}

/* The writer claims the location with a compare-and-swap: writers race,
 * the plain re-read can see another writer's value (ck_hp_fifo's tail). */
struct tailq {
	struct item *tail;
};

bool tailq_advance(struct tailq *q)
{
	struct item *t = ck_pr_load_ptr(&q->tail);

	if (t == NULL || t != ck_pr_load_ptr(&q->tail))
		return false;
	return ck_pr_cas_ptr(&q->tail, t, q->tail->link); // expected-warning {{plain re-read of 'q->tail'}}
}
