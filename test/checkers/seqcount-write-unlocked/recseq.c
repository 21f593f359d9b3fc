// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,seqcount-write-unlocked,seqcount-write-unbalanced,seqcount-write-missing-barrier' -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-write-unlocked, x_tables' per-CPU recursion count
 * (include/linux/netfilter/x_tables.h): the enter helper adds
 * `(seq + 1) & 1` (1 for an even count, 0 when re-entered) and returns it,
 * the leave helper adds the same value back. The writers rely on bottom
 * halves being disabled; a setsockopt path that only disables preemption
 * can be interrupted by the packet hook on the same CPU.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <asm/barrier.h>
#include <linux/netfilter.h>

extern unsigned long this_cpu_off;
#define my_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + this_cpu_off))
#define my_cpu_read(pcp) (*my_cpu_ptr(&(pcp)))
#define my_cpu_add(pcp, val) do { *my_cpu_ptr(&(pcp)) += (val); } while (0)

struct recseq { unsigned int sequence; };
__attribute__((section(".data..percpu"))) struct recseq walk_recseq;

static inline unsigned int recseq_begin(void)
{
	unsigned int addend = (my_cpu_read(walk_recseq.sequence) + 1) & 1;

	my_cpu_add(walk_recseq.sequence, addend);
	smp_mb();
	return addend;
}

static inline void recseq_end(unsigned int addend)
{
	smp_wmb();
	my_cpu_add(walk_recseq.sequence, addend);
}

struct sk_buff { unsigned int len; };

unsigned long long rule_bytes;

static unsigned int walk_hook(void *priv, struct sk_buff *skb, const struct nf_hook_state *st)
{
	unsigned int addend;

	local_bh_disable();
	addend = recseq_begin();
	rule_bytes += skb->len;
	recseq_end(addend);
	local_bh_enable();
	return 1;
}

/* Only preemption disabled: the hook can run on this CPU in between. */
static int add_counters(struct sock *sk, int opt, void *arg, unsigned int len)
{
	unsigned int addend;

	preempt_disable();
	addend = recseq_begin(); // expected-warning {{write section of 'walk_recseq.sequence' runs with only preemption disabled when reached from 'add_counters'}}
	rule_bytes += len;
	recseq_end(addend);
	preempt_enable();
	return 0;
}

/* Correct: the same with bottom halves disabled. */
static int add_counters_bh(struct sock *sk, int opt, void *arg, unsigned int len)
{
	unsigned int addend;

	local_bh_disable();
	addend = recseq_begin();
	rule_bytes += len;
	recseq_end(addend);
	local_bh_enable();
	return 0;
}

static struct nf_hook_ops walk_ops = { .hook = walk_hook };
static struct nf_sockopt_ops walk_sockopts = { .set = add_counters };
static struct nf_sockopt_ops walk_sockopts_bh = { .set = add_counters_bh };

int walk_init(void)
{
	nf_register_sockopt(&walk_sockopts);
	nf_register_sockopt(&walk_sockopts_bh);
	return nf_register_net_hook(0, &walk_ops);
}
