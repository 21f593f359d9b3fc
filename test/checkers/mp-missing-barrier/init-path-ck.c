// REQUIRES: ck-headers
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier and initialisation (issue 14).
 *
 * Modelled on Concurrency Kit 0.7.1's src/ck_barrier_tournament.c: the init
 * function is handed the barrier object and its table of rounds, fills in
 * the size and every round, and ends by storing the table pointer into the
 * barrier with ck_pr_store_ptr(). The threads that run the barrier load the
 * table pointer with ck_pr_load_ptr() and read the size. No fence is needed:
 * the object is not shared yet while it is set up, and whatever hands it to
 * the threads (thread creation, a publication of the barrier itself) orders
 * it. The same stores outside an initialisation path are message passing,
 * and so is a set-up path that publishes into a global: a global is
 * reachable by threads that already run.
 */
#include <ck_pr.h>
#include <stdbool.h>

struct round {
	unsigned int flag;
	int role;
};

struct tbarrier {
	unsigned int size;
	struct round **rounds;
};

/* ---- correct: the object being initialised is not shared yet ---- */

void tbarrier_init(struct tbarrier *b, struct round **rounds, unsigned int n)
{
	b->size = n;
	for (unsigned int i = 0; i < n; i++) {
		rounds[i][0].flag = 0;
		rounds[i][0].role = 1;
	}
	ck_pr_store_ptr(&b->rounds, rounds);
}

void tbarrier_wait(struct tbarrier *b, unsigned int id, unsigned int sense)
{
	struct round **r = ck_pr_load_ptr(&b->rounds);

	if (b->size == 1)
		return;
	switch (r[id][1].role) {
	case 1:
		while (ck_pr_load_uint(&r[id][1].flag) != sense)
			ck_pr_stall();
		break;
	default:
		break;
	}
}

/* ---- bugs nearby ---- */

/* The same stores on a barrier that threads already use. */
struct gate {
	unsigned int width;
	struct round **steps;
};

void gate_rebuild(struct gate *g, struct round **steps, unsigned int n)
{
	g->width = n;
	ck_pr_store_ptr(&g->steps, steps); // expected-warning {{'g->steps' is published here after the store to 'g->width' with no write barrier in between}}
}

int gate_pass(struct gate *g, unsigned int id)
{
	struct round **s = ck_pr_load_ptr(&g->steps); // expected-warning {{'g->width' is read after the flag 'g->steps' with no read barrier}}

	if (g->width == 1)
		return 0;
	while (ck_pr_load_uint(&s[id][0].flag) == 0)
		ck_pr_stall();
	return s[id][0].role;
}

/* A set-up function that publishes into a global: readers may already
 * poll the flag. */
static unsigned int limits_max;
static unsigned int limits_ready;

void limits_init(unsigned int max)
{
	limits_max = max;
	ck_pr_store_uint(&limits_ready, 1); // expected-warning {{'limits_ready' is published here after the store to 'limits_max' with no write barrier in between}}
}

unsigned int limits_get(void)
{
	if (ck_pr_load_uint(&limits_ready) == 1) // expected-warning {{'limits_max' is read after the flag 'limits_ready'}}
		return limits_max;
	return 0;
}
