// Modelled on: net/netfilter/x_tables.c:xt_replace_table() and
//              include/linux/netfilter/x_tables.h:xt_write_recseq_begin() (Linux 6.12, after 175e476b8cdf)
// Correct: both halves of the handshake use smp_mb(). The replacer stores the
// new blob pointer and only then (full barrier) samples every CPU's walk
// sequence; the packet path makes its sequence odd and only then (full
// barrier) loads the pointer. The smp_wmb() before the pointer store orders
// the blob's contents (stores) before its publication (a store), and the
// smp_wmb() in fw_walk_leave() orders the counter updates before the
// sequence goes even. A tool that only pairs "store, barrier, load" with the
// kind of the barrier must accept all four.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/irqflags.h>
#include <asm/barrier.h>
#include <asm/processor.h>

extern unsigned long __per_cpu_offset[];
extern unsigned long this_cpu_off;
extern unsigned int nr_cpu_ids;
#define per_cpu_ptr(ptr, cpu) ((typeof(ptr))((unsigned long)(ptr) + __per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu)      (*per_cpu_ptr(&(var), (cpu)))
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define __this_cpu_read(pcp)     (*this_cpu_ptr(&(pcp)))
#define __this_cpu_add(pcp, val) do { *this_cpu_ptr(&(pcp)) += (val); } while (0)
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)
#define DEFINE_PER_CPU(type, name) __section(".data..percpu") __typeof__(type) name
extern void __cond_resched(void);

struct fw_blob { unsigned int nrules, first_rule; unsigned char rules[] __aligned(8); };
struct fw_table { unsigned int hooks; struct fw_blob *blob; char name[32]; };

DEFINE_PER_CPU(seqcount_t, fw_walk_seq);

static inline unsigned int fw_walk_enter(void)
{
	unsigned int step = (__this_cpu_read(fw_walk_seq.sequence) + 1) & 1;

	__this_cpu_add(fw_walk_seq.sequence, step);
	smp_mb();
	return step;
}

static inline void fw_walk_leave(unsigned int step)
{
	smp_wmb();
	__this_cpu_add(fw_walk_seq.sequence, step);
}

unsigned int fw_peek_first(const struct fw_table *t)
{
	const struct fw_blob *b;
	unsigned int step, first;

	local_bh_disable();
	step = fw_walk_enter();
	b = READ_ONCE(t->blob);
	first = b->rules[b->first_rule];
	fw_walk_leave(step);
	local_bh_enable();
	return first;
}

struct fw_blob *fw_table_swap(struct fw_table *t, struct fw_blob *fresh)
{
	struct fw_blob *old;
	unsigned int cpu;

	local_bh_disable();
	old = t->blob;
	fresh->first_rule = old->first_rule;
	smp_wmb();
	t->blob = fresh;

	/* make sure every cpu sees ->blob before we sample its sequence */
	smp_mb();
	local_bh_enable();

	for_each_possible_cpu(cpu) {
		seqcount_t *sc = &per_cpu(fw_walk_seq, cpu);
		u32 snap = raw_read_seqcount(sc);

		if (snap & 1) {
			do {
				__cond_resched();
				cpu_relax();
			} while (snap == raw_read_seqcount(sc));
		}
	}
	return old;
}
