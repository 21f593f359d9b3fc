// Modelled on: net/netfilter/nft_counter.c:nft_counter_do_eval()/nft_counter_offload_stats() (Linux 6.12;
//              the 6.10 shape with a per-CPU seqcount_t, before the fix)
// Shipped bug: "netfilter: nft_counter: Disable BH in nft_counter_offload_stats()." (1eacdd71b343, 2024)
// The per-CPU sequence counter has no lock: the packet path writes it with BH
// disabled (it runs from the netfilter hook in softirq), while the hardware
// offload statistics path, run from a work item, only disables preemption.
// The softirq can interrupt the work item inside its write section on the same
// CPU: two writers, the count goes even while the first one is half done and
// a reader accepts a torn 64-bit pair (or an update is lost).
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>

extern unsigned long this_cpu_off;
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define DEFINE_PER_CPU(type, name) __section(".data..percpu") __typeof__(type) name
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

struct work_struct { atomic_long_t data; struct list_head entry; void (*func)(struct work_struct *); };
#define INIT_WORK(_work, _func) do { (_work)->func = (_func); } while (0)
extern bool queue_work_on(int cpu, void *wq, struct work_struct *work);

struct sk_buff { unsigned int len; };
struct net;
struct nf_hook_state { unsigned int hook; struct net *net; };
typedef unsigned int nf_hookfn(void *priv, struct sk_buff *skb, const struct nf_hook_state *state);
struct nf_hook_ops { nf_hookfn *hook; void *priv; u8 pf; unsigned int hooknum; int priority; };
extern int nf_register_net_hook(struct net *net, const struct nf_hook_ops *ops);
#define NF_ACCEPT 1

struct pcnt_cpu { u64 bytes; u64 packets; };
struct pcnt_priv { struct pcnt_cpu __percpu *counter; };
struct pcnt_hw_stats { u64 pkts; u64 bytes; u64 lastused; };

struct pcnt_flow {
	struct pcnt_priv *priv;
	struct pcnt_hw_stats hw;	/* filled by the driver callback */
	struct work_struct stats_work;
};

static DEFINE_PER_CPU(seqcount_t, pcnt_seq);

/* packet path: netfilter hook, softirq */
static unsigned int pcnt_hook(void *arg, struct sk_buff *skb,
			      const struct nf_hook_state *state)
{
	struct pcnt_priv *priv = arg;
	struct pcnt_cpu *mine;
	seqcount_t *myseq;

	local_bh_disable();
	mine = this_cpu_ptr(priv->counter);
	myseq = this_cpu_ptr(&pcnt_seq);

	write_seqcount_begin(myseq);
	mine->bytes += skb->len;
	mine->packets++;
	write_seqcount_end(myseq);

	local_bh_enable();
	return NF_ACCEPT;
}

/* hardware counters folded in from the offload stats work item */
static void pcnt_offload_stats(struct pcnt_priv *priv,
			       const struct pcnt_hw_stats *st)
{
	struct pcnt_cpu *mine;
	seqcount_t *myseq;

	preempt_disable();
	mine = this_cpu_ptr(priv->counter);
	myseq = this_cpu_ptr(&pcnt_seq);

	write_seqcount_begin(myseq); /* EXPECT: seqlint-seqcount-write-unlocked */
	mine->packets += st->pkts;
	mine->bytes += st->bytes;
	write_seqcount_end(myseq);
	preempt_enable();
}

static void pcnt_flow_stats_work(struct work_struct *work)
{
	struct pcnt_flow *flow = container_of(work, struct pcnt_flow, stats_work);

	if (!flow->hw.pkts)
		return;
	pcnt_offload_stats(flow->priv, &flow->hw);
	flow->hw.pkts = 0;
	flow->hw.bytes = 0;
}

static struct nf_hook_ops pcnt_ops = {
	.hook		= pcnt_hook,
	.pf		= 2,	/* NFPROTO_IPV4 */
	.hooknum	= 2,	/* NF_INET_FORWARD */
	.priority	= 0,
};

int pcnt_attach(struct net *net, struct pcnt_priv *priv, struct pcnt_flow *flow)
{
	pcnt_ops.priv = priv;
	flow->priv = priv;
	INIT_WORK(&flow->stats_work, pcnt_flow_stats_work);
	return nf_register_net_hook(net, &pcnt_ops);
}
