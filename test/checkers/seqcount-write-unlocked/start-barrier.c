// seqcount-write-unlocked: a count that every thread bumps with an atomic
// increment to meet the others (a start barrier) is no seqcount, and its
// writers need no common lock. Modelled on Concurrency Kit 0.7.1's
// regressions/ck_barrier/validate/barrier_tournament.c: each thread bumps
// barrier_wait, spins until all have, does its work, and meets again.
// REQUIRES: ck-headers
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=*' -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <ck_pr.h>
#include <pthread.h>

static int barrier_wait;
static int nthr;
static int counters[8];

static void *thread(void *unused)
{
	(void)unused;
	ck_pr_inc_int(&barrier_wait);
	while (ck_pr_load_int(&barrier_wait) != nthr)
		ck_pr_stall();
	for (int j = 0; j < 100; j++)
		ck_pr_inc_int(&counters[j & 7]);
	ck_pr_inc_int(&barrier_wait);
	while (ck_pr_load_int(&barrier_wait) != nthr * 2)
		ck_pr_stall();
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread, NULL);
	return 0;
}
