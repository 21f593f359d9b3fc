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
 * read-modify-write (a compare-and-swap: writers race for it).
 *
 * And ck_epoch_section_2.c: a failed check whose path ends the program
 * (the suite's ck_error(), a function that prints and calls exit()) re-reads
 * the value only for the error message.
 */
#include <ck_pr.h>
#include <stdarg.h>
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

/* ---- correct: a failed check that ends the program ---- */

struct rec {
	unsigned int active;
};

/* The test suite's error helper: print, then exit (not declared noreturn). */
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(EXIT_FAILURE);
}

void rec_expect_active(struct rec *r)
{
	if (ck_pr_load_uint(&r->active) == 0)
		die("not active: %u\n", r->active);
}

/* ---- bugs nearby ---- */

/* The same failed check, but the path goes on: the message can show a
 * value that was never tested. */
void rec_warn_inactive(struct rec *r)
{
	if (ck_pr_load_uint(&r->active) == 0)
		fprintf(stderr, "not active: %u\n", r->active); // expected-warning {{plain re-read of 'r->active'}}
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
