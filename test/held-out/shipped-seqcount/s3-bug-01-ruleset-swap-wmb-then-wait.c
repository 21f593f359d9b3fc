// Modelled on: net/netfilter/x_tables.c:xt_replace_table() (Linux 6.12; the 5.11 shape before the fix)
// Shipped bug: "netfilter: x_tables: Use correct memory barriers." (175e476b8cdf, 2021)
// The replacer publishes the new ruleset pointer and then samples every CPU's
// walk sequence to learn when no packet still walks the old rules, then frees
// them. Publishing store -> loads of other CPUs' counters needs smp_mb(): the
// second smp_wmb() only orders the pointer store against later stores, so a
// CPU can read an even sequence before its packet path sees the new pointer and
// the old blob is freed under it (the panic reported in 2021). The first
// smp_wmb() (blob contents before the pointer) is fine.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/irqflags.h>
#include <linux/printk.h>
#include <asm/barrier.h>
#include <asm/processor.h>

#define EAGAIN 11

/* <linux/percpu-defs.h>: a per-CPU object is reached through the CPU's offset. */
extern unsigned long __per_cpu_offset[];
extern unsigned int nr_cpu_ids;
#define per_cpu_ptr(ptr, cpu) ((typeof(ptr))((unsigned long)(ptr) + __per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu)      (*per_cpu_ptr(&(var), (cpu)))
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)
#define DEFINE_PER_CPU(type, name) __section(".data..percpu") __typeof__(type) name

extern void __cond_resched(void);
#define cond_resched() __cond_resched()

struct fw_blob {
	unsigned int size;
	unsigned int nrules;
	unsigned int first_rule;
	unsigned int hook_off[5];
	unsigned int stack_depth;
	void ***stacks;
	unsigned char rules[] __aligned(8);
};

struct fw_table {
	struct list_head node;
	unsigned int hooks;
	struct fw_blob *blob;		/* read locklessly by the packet path */
	u8 family;
	char name[32];
};

/* Bumped to odd by a CPU while it walks a blob, back to even when done. */
DEFINE_PER_CPU(seqcount_t, fw_walk_seq);

extern int fw_stacks_alloc(struct fw_blob *b);

struct fw_blob *fw_table_swap(struct fw_table *t, unsigned int expect_rules,
			      struct fw_blob *fresh, int *err)
{
	struct fw_blob *old;
	unsigned int cpu;
	int ret;

	ret = fw_stacks_alloc(fresh);
	if (ret < 0) {
		*err = ret;
		return NULL;
	}

	local_bh_disable();
	old = t->blob;
	if (expect_rules != old->nrules) {
		pr_debug("%s: rule count changed (%u/%u)\n", t->name,
			 expect_rules, old->nrules);
		local_bh_enable();
		*err = -EAGAIN;
		return NULL;
	}

	fresh->first_rule = old->first_rule;
	/* the blob's contents before the pointer that makes them reachable */
	smp_wmb();
	t->blob = fresh;

	/* every cpu must observe ->blob before we look at its sequence */
	smp_wmb(); /* EXPECT: seqlint-barrier-wrong-kind */

	local_bh_enable();

	/* a cpu with an odd count may still be inside the old blob */
	for_each_possible_cpu(cpu) {
		seqcount_t *sc = &per_cpu(fw_walk_seq, cpu);
		u32 snap = raw_read_seqcount(sc);

		if (!(snap & 1))
			continue;
		do {
			cond_resched();
			cpu_relax();
		} while (snap == raw_read_seqcount(sc));
	}

	return old;
}
