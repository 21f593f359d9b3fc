// Linux commit 175e476b8cdf ("netfilter: x_tables: Use correct memory
// barriers"): when a table is replaced, the writer stores the new table
// pointer and then reads every CPU's xt_recseq sequence count to wait until
// no CPU still runs the old rules. It separated the store and the loads with
// smp_wmb(), which orders stores only: the loads of the counters could be
// satisfied before the new pointer was visible, so the old table could be
// freed while a CPU still used it. The fix is smp_mb(). Re-created shape,
// not the kernel source (the per-CPU counters are an array here, and the
// wait loop only spins).
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind,barrier-misplaced' -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only %s 2>&1 | FileCheck %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/seqlock.h>

#define NR_CPUS 8

struct table_info {
	unsigned int number;
	unsigned int initial_entries;
};

struct table {
	struct table_info *private;
};

static seqcount_t recseq[NR_CPUS];

static void wait_for_readers(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		seqcount_t *s = &recseq[cpu];
		unsigned int seq = raw_read_seqcount(s);

		if (seq & 1) {
			do {
				cpu_relax();
			} while (seq == raw_read_seqcount(s));
		}
	}
}

/* Buggy: the table pointer store, smp_wmb(), then the counter loads. */
struct table_info *replace_table_buggy(struct table *table, struct table_info *newinfo)
{
	struct table_info *private = table->private;

	newinfo->initial_entries = private->initial_entries;
	table->private = newinfo;
	// CHECK: :[[@LINE+1]]:2: warning: smp_wmb() does not order the store to 'table->private' before it against the load of '*s' after it: only a full barrier orders a store against a later load; use smp_mb() [seqlint-barrier-wrong-kind]
	smp_wmb(); // expected-warning {{use smp_mb() [seqlint-barrier-wrong-kind]}}
	// CHECK-NEXT: smp_wmb();
	// CHECK-NEXT: ^~~~~~~
	// CHECK-NEXT: smp_mb
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		seqcount_t *s = &recseq[cpu];
		unsigned int seq = raw_read_seqcount(s);

		if (seq & 1) {
			do {
				cpu_relax();
			} while (seq == raw_read_seqcount(s));
		}
	}
	return private;
}

/* Fixed: a full barrier. */
struct table_info *replace_table_fixed(struct table *table, struct table_info *newinfo)
{
	struct table_info *private = table->private;

	newinfo->initial_entries = private->initial_entries;
	table->private = newinfo;
	smp_mb();
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		seqcount_t *s = &recseq[cpu];
		unsigned int seq = raw_read_seqcount(s);

		if (seq & 1) {
			do {
				cpu_relax();
			} while (seq == raw_read_seqcount(s));
		}
	}
	return private;
}

/* Waiting in a helper: the loads are in the callee, so this function alone
 * cannot tell what the barrier must order (silent). */
struct table_info *replace_table_helper(struct table *table, struct table_info *newinfo)
{
	struct table_info *private = table->private;

	table->private = newinfo;
	smp_wmb();
	wait_for_readers();
	return private;
}
