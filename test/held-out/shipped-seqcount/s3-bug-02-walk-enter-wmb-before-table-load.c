// Modelled on: include/linux/netfilter/x_tables.h:xt_write_recseq_begin() and
//              net/ipv4/netfilter/ip_tables.c:ipt_do_table() (Linux 6.12; the pre-5.12 barrier)
// Shipped bug: "netfilter: x_tables: Use correct memory barriers." (175e476b8cdf, 2021)
// The packet path makes its per-CPU walk sequence odd and then loads the table's
// blob pointer and rules. The replacer (other CPU) stores the new pointer, then
// reads this CPU's sequence. For the handshake to work, the sequence store must
// be visible before the pointer load: store -> load, so smp_mb(). With smp_wmb()
// at the end of the enter helper the pointer can be loaded early, the replacer
// sees an even count and frees the blob this CPU is about to walk.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/irqflags.h>
#include <asm/barrier.h>

/* x86 <asm/percpu.h> shape for this_cpu_ptr(); asm-generic ops for the RMW. */
extern unsigned long this_cpu_off;
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define __this_cpu_read(pcp)     (*this_cpu_ptr(&(pcp)))
#define __this_cpu_add(pcp, val) do { *this_cpu_ptr(&(pcp)) += (val); } while (0)
#define DEFINE_PER_CPU(type, name) __section(".data..percpu") __typeof__(type) name

#define FW_ACCEPT 1
#define FW_DROP   0

struct fw_counter { u64 pkts, bytes; };

struct fw_rule {
	u32 src, smask, dst, dmask;
	u16 next_off;
	u16 verdict;
	struct fw_counter cnt;
};

struct fw_blob {
	unsigned int nrules;
	unsigned int hook_off[5];
	unsigned char rules[] __aligned(8);
};

struct fw_table {
	unsigned int hooks;
	struct fw_blob *blob;
};

struct pkt { u32 saddr, daddr; unsigned int len; };

DEFINE_PER_CPU(seqcount_t, fw_walk_seq);

/* Returns 1 if this is the outermost walk on this cpu, 0 when nested. */
static inline unsigned int fw_walk_enter(void)
{
	unsigned int step;

	/* the low bit is already set when a target re-entered the walker */
	step = (__this_cpu_read(fw_walk_seq.sequence) + 1) & 1;
	__this_cpu_add(fw_walk_seq.sequence, step);
	smp_wmb(); /* EXPECT: seqlint-barrier-wrong-kind */

	return step;
}

static inline void fw_walk_leave(unsigned int step)
{
	/* the rule and counter accesses before the count goes even again */
	smp_wmb();
	__this_cpu_add(fw_walk_seq.sequence, step);
}

unsigned int fw_do_table(struct pkt *p, unsigned int hook,
			 const struct fw_table *t)
{
	const struct fw_blob *blob;
	const unsigned char *base;
	struct fw_rule *r;
	unsigned int verdict = FW_DROP;
	unsigned int step;

	local_bh_disable();
	step = fw_walk_enter();
	blob = READ_ONCE(t->blob);
	base = blob->rules;
	r = (struct fw_rule *)(base + blob->hook_off[hook]);

	for (;;) {
		if ((p->saddr & r->smask) == r->src &&
		    (p->daddr & r->dmask) == r->dst) {
			r->cnt.pkts++;
			r->cnt.bytes += p->len;
			verdict = r->verdict;
			break;
		}
		if (!r->next_off)
			break;
		r = (struct fw_rule *)((unsigned char *)r + r->next_off);
	}

	fw_walk_leave(step);
	local_bh_enable();
	return verdict;
}
