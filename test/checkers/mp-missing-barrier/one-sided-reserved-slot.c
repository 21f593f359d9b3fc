// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier, one side: an index stepped with an atomic whose old
 * value addresses a slot stored after it (`n = fetch_add(&t->n_poll, 1);
 * t->poll[n] = id;`) reserves that slot: its ring is that array. A slot of
 * another array of the same object, stored before the step and addressed
 * by something else (a per-CPU "in use" mark), is no data the index
 * publishes. Modelled on DPDK's software event timer adapter
 * (swtim_arm_burst(), swtim_callback()): the first timer armed on an lcore
 * marks the lcore in use, then appends it to the list of lcores the
 * service polls.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct timers {
	struct {
		unsigned short v;
	} in_use[64];
	unsigned int poll[64];
	int n_poll;
	unsigned int ring[64];
	int n_ring;
};

extern unsigned int this_cpu(void);

/* Correct for this rule: the step reserves poll[n]; in_use[] is not its
 * data. */
void timers_arm(struct timers *t)
{
	unsigned int cpu = this_cpu();
	int n;

	if (t->in_use[cpu].v == 0) {
		t->in_use[cpu].v = 1;
		n = __atomic_fetch_add(&t->n_poll, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&t->poll[n], cpu, __ATOMIC_RELAXED);
	}
}

/* Bug: the slot of the index's own array, then the index, relaxed. */
void timers_push(struct timers *t, unsigned int v)
{
	int n = __atomic_load_n(&t->n_ring, __ATOMIC_RELAXED);

	t->ring[n] = v; // expected-note {{the store to 't->ring[]' is here}}
	__atomic_store_n(&t->n_ring, n + 1, __ATOMIC_RELAXED); // expected-warning {{'t->n_ring' is published here after the store to 't->ring[]' with no write barrier in between}} expected-note {{shared with the other side}}
}

unsigned int timers_poll(struct timers *t)
{
	unsigned int s = 0;
	int i, n = __atomic_load_n(&t->n_poll, __ATOMIC_RELAXED);

	for (i = 0; i < n; i++)
		s += t->poll[i];
	return s;
}
