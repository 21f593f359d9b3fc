// Modelled on: net/ipv4/netfilter/ip_tables.c:get_counters() and alloc_counters()
//   (Linux 6.12)
// Correct: for every rule and CPU the byte/packet pair is read under the
// per-CPU xt_recseq seqcount into locals declared in the loop body, and
// ADD_COUNTER() into the caller's counters[] plus the "++i" of the rule index
// both happen after read_seqcount_retry() has validated the pair. The
// accumulation is into caller memory and a long-lived index, but outside the
// read section.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/slab.h>

#define NR_CPUS 8
#define ENOMEM 12
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define per_cpu(var, cpu) ((var)[cpu])
#define ERR_PTR(err) ((void *)(long)(err))

struct xt_counters {
	u64 pcnt, bcnt;		/* Packet and byte counters */
};

#define ADD_COUNTER(c, b, p) do { (c).bcnt += (b); (c).pcnt += (p); } while (0)

struct ipt_entry {
	unsigned int nfcache;
	u16 target_offset;
	u16 next_offset;
	unsigned int comefrom;
	struct xt_counters counters;	/* pcnt holds the per-cpu base */
	unsigned char elems[];
};

struct xt_table_info {
	unsigned int size;
	unsigned int number;
	unsigned int initial_entries;
	void *entries;
};

struct xt_table {
	struct xt_table_info *private;
	const char *name;
};

#define xt_entry_foreach(pos, ehead, esize)				\
	for ((pos) = (typeof(pos))(ehead);				\
	     (pos) < (typeof(pos))((char *)(ehead) + (esize));		\
	     (pos) = (typeof(pos))((char *)(pos) + (pos)->next_offset))

extern seqcount_t xt_recseq[NR_CPUS];

struct xt_counters *xt_get_per_cpu_counter(struct xt_counters *cnt,
					   unsigned int cpu);
void cond_resched(void);

static void get_counters(const struct xt_table_info *t,
			 struct xt_counters counters[])
{
	struct ipt_entry *iter;
	unsigned int cpu;
	unsigned int i;

	for_each_possible_cpu(cpu) {
		seqcount_t *s = &per_cpu(xt_recseq, cpu);

		i = 0;
		xt_entry_foreach(iter, t->entries, t->size) {
			struct xt_counters *tmp;
			u64 bcnt, pcnt;
			unsigned int start;

			tmp = xt_get_per_cpu_counter(&iter->counters, cpu);
			do {
				start = read_seqcount_begin(s);
				bcnt = tmp->bcnt;
				pcnt = tmp->pcnt;
			} while (read_seqcount_retry(s, start));

			ADD_COUNTER(counters[i], bcnt, pcnt);
			++i; /* macro does multi eval of i */
			cond_resched();
		}
	}
}

struct xt_counters *alloc_counters(const struct xt_table *table)
{
	const struct xt_table_info *private = table->private;
	struct xt_counters *counters;
	unsigned int countersize;

	/* We need atomic snapshot of counters: rest doesn't change. */
	countersize = sizeof(struct xt_counters) * private->number;
	counters = kzalloc(countersize, GFP_KERNEL);
	if (counters == NULL)
		return ERR_PTR(-ENOMEM);

	get_counters(private, counters);
	return counters;
}
