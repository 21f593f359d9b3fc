// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
/*
 * barrier-wrong-kind, store->load: a writer that publishes a pointer or
 * bumps a sequence and then loads what other CPUs write (their sequence,
 * the table its own section reads) needs a full barrier; smp_wmb() orders
 * stores only. Modelled on net/netfilter/x_tables.c (xt_replace_table(),
 * fixed in 2021 from smp_wmb() to smp_mb(), and xt_write_recseq_begin()).
 */
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <asm/barrier.h>
#include <asm/processor.h>

struct table_info { unsigned int number; void *entries; };
struct xtable { struct table_info *private; const char *name; };

extern seqcount_t cpu_recseq[64];
extern unsigned int nr_cpus;
void cond_resched(void);

/* Publish, then wait for every CPU to leave the old table. */
struct table_info *replace_table(struct xtable *t, struct table_info *fresh)
{
	struct table_info *old = t->private;

	t->private = fresh;
	smp_wmb(); // expected-warning {{smp_wmb() does not order the store to 't->private' before it against the load of 'cpu_recseq[]' after it: only a full barrier orders a store against a later load; use smp_mb()}}
	// CHECK: fix-it:"{{.*}}store-load.c":{[[@LINE-1]]:2-[[@LINE-1]]:9}:"smp_mb"
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		unsigned int seq = raw_read_seqcount(&cpu_recseq[cpu]);

		if (!(seq & 1))
			continue;
		do {
			cond_resched();
		} while (seq == raw_read_seqcount(&cpu_recseq[cpu]));
	}
	return old;
}

/* Bump the per-CPU sequence, then read the table pointer. */
struct recseq { unsigned int sequence; };
void *walk_enter(struct recseq *rs, struct xtable *t, unsigned int *addend)
{
	WRITE_ONCE(rs->sequence, rs->sequence + 1);
	smp_wmb(); // expected-warning {{smp_wmb() does not order the store to 'rs->sequence' before it against the load of 't->private' after it}}
	struct table_info *p = READ_ONCE(t->private);
	*addend = 1;
	return p->entries;
}

/* Dekker: store my flag, load yours. */
int try_enter(int *mine, int *theirs)
{
	WRITE_ONCE(*mine, 1);
	smp_wmb(); // expected-warning {{does not order the store to '*mine' before it against the load of '*theirs'}}
	return !READ_ONCE(*theirs);
}

/* ---- correct code ---- */

struct table_info *replace_table_fixed(struct xtable *t, struct table_info *fresh)
{
	struct table_info *old = t->private;

	t->private = fresh;
	smp_mb();
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		while (raw_read_seqcount(&cpu_recseq[cpu]) & 1)
			cpu_relax();
	return old;
}

/* Message passing: the barrier orders data before the flag; the load
 * after the flag store is another matter (and another barrier's). */
int publish(int *data, int *flag, int *waiters)
{
	WRITE_ONCE(*data, 1);
	smp_wmb();
	WRITE_ONCE(*flag, 1);
	return READ_ONCE(*waiters);
}

/* Store, barrier, then a store before any load: store->store. */
void publish_then_peek(struct xtable *t, struct table_info *fresh, int *seen)
{
	fresh->number = 1;
	smp_wmb();
	WRITE_ONCE(t->private, fresh);
	*seen = READ_ONCE(t->private->number);
}

/* Loads before the barrier: a read barrier is what is needed, and it is
 * a different finding (not store->load). */
int reader(struct xtable *t, int *copy)
{
	*copy = t->private->number;
	smp_rmb();
	return READ_ONCE(t->private->number);
}
