// RUN: %clang_plugin -fplugin-arg-seqlint-checks=barrier-unpaired,mp-missing-barrier,barrier-wrong-kind -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * One missing barrier, one report, when other checks already name it:
 *  - a store that the one-sided analysis reports (mp-missing-barrier: an
 *    object filled and its address published with a relaxed store, the
 *    location acquired elsewhere) is not reported again as the lost partner
 *    of the reader's acquire;
 *  - a reader whose flag load and data loads have a barrier of the wrong
 *    kind between them (smp_wmb()) is barrier-wrong-kind's, at the barrier;
 *    it is not also "no read barrier" at the flag load. A compiler barrier
 *    is no barrier of any kind: that reader is still reported.
 */
#include <stdatomic.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

/* Modelled on a C11 plugin registry in the liburcu rcu_set_pointer() shape:
 * a loader thread fills an ops descriptor and installs its address in a
 * slot; worker threads load the slot with acquire and call through it. */
struct codec_ops {
	int (*decode)(void *priv, const void *in, unsigned int len);
	void *priv;
	unsigned int max_len;
};

struct codec_registry {
	_Atomic(struct codec_ops *) slot[16];
};

void codec_install(struct codec_registry *r, unsigned int id, struct codec_ops *ops,
		   void *priv, unsigned int max_len)
{
	ops->priv = priv;
	ops->max_len = max_len;
	atomic_store_explicit(&r->slot[id & 15], ops, memory_order_relaxed); // expected-warning {{[seqlint-mp-missing-barrier]}}
}

int codec_run(struct codec_registry *r, unsigned int id, const void *in, unsigned int len)
{
	struct codec_ops *ops = atomic_load_explicit(&r->slot[id & 15], memory_order_acquire);

	if (!ops || len > ops->max_len)
		return -1;
	return ops->decode(ops->priv, in, len);
}

/* Documentation/memory-barriers.txt, "SMP barrier pairing": the writer is
 * right; the first reader put smp_wmb() where smp_rmb() belongs, the second
 * only a compiler barrier. */
struct fw_caps {
	unsigned int n_modes;
	unsigned int modes[8];
	int ready;
};

void fw_caps_publish(struct fw_caps *c, unsigned int n)
{
	c->n_modes = n;
	smp_wmb();
	WRITE_ONCE(c->ready, 1);
}

unsigned int fw_caps_count(struct fw_caps *c)
{
	if (!READ_ONCE(c->ready))
		return 0;
	smp_wmb(); // expected-warning {{[seqlint-barrier-wrong-kind]}}
	return c->n_modes;
}

unsigned int fw_caps_count_compiler_only(struct fw_caps *c)
{
	if (!READ_ONCE(c->ready)) // expected-warning {{[seqlint-barrier-unpaired]}}
		return 0;
	barrier();
	return c->n_modes;
}

/* C11 accesses have no API name: the message names the kind of access. */
struct sample_slot {
	int value;
	_Atomic int full;
};

void slot_put(struct sample_slot *s, int v)
{
	s->value = v;
	atomic_store_explicit(&s->full, 1, memory_order_relaxed); // expected-warning {{its reader in 'slot_get()' orders its loads with an acquire load: that ordering has no partner here}}
}

int slot_get(struct sample_slot *s)
{
	if (!atomic_load_explicit(&s->full, memory_order_acquire)) // expected-note {{the read side's acquire load in 'slot_get()' is here}}
		return -1;
	return s->value;
}
