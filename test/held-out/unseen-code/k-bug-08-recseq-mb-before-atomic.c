// Modelled on: include/linux/netfilter/x_tables.h:xt_write_recseq_begin()/_end() and
//   net/ipv4/netfilter/ip_tables.c:do_add_counters() (Linux 6.12).
// A per-CPU recursive write count (`tick`, bumped by 0 or 1) protects per-rule packet
// counters that get_counters() snapshots from other CPUs. The closing bump is
// open-coded with smp_mb__before_atomic() in place of xt_write_recseq_end()'s
// smp_wmb(). But `pc->tick += addend` is a plain per-CPU add, not an atomic RMW:
// smp_mb__before_atomic() only orders against an adjacent atomic RMW
// (Documentation/atomic_t.txt); whether it orders anything here is an accident of the
// architecture (a full barrier on arm64, at most a compiler barrier on x86).
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define NR_CPUS_STUB	64

struct pkt_recseq {
	unsigned int tick;
	unsigned int nest;
};

struct rule_counters {
	u64 bcnt;
	u64 pcnt;
};

struct rule {
	struct rule_counters cnt[NR_CPUS_STUB];
	unsigned int next_offset;
};

struct add_req {
	u64 bcnt;
	u64 pcnt;
};

extern struct pkt_recseq recseq_pcpu[NR_CPUS_STUB];
int this_cpu_id(void);
void local_bh_disable(void);
void local_bh_enable(void);

static inline unsigned int pkt_recseq_begin(struct pkt_recseq *pc)
{
	unsigned int addend;

	addend = (pc->tick + 1) & 1;
	pc->tick += addend;
	smp_mb();

	return addend;
}

int rules_add_counters(struct rule *rules, unsigned int nrules,
		       const struct add_req *req, unsigned int nreq)
{
	struct pkt_recseq *pc;
	unsigned int addend, i;
	int cpu;

	if (nreq != nrules)
		return -22;

	local_bh_disable();
	cpu = this_cpu_id();
	pc = &recseq_pcpu[cpu];

	addend = pkt_recseq_begin(pc);
	for (i = 0; i < nrules; i++) {
		struct rule_counters *tmp = &rules[i].cnt[cpu];

		tmp->bcnt += req[i].bcnt;
		tmp->pcnt += req[i].pcnt;
	}
	smp_mb__before_atomic(); /* EXPECT: seqlint-barrier-wrong-kind */
	pc->tick += addend;
	local_bh_enable();

	return 0;
}
