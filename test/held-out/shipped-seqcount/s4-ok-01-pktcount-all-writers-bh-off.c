// Modelled on: net/netfilter/nft_counter.c:nft_counter_do_eval(), nft_counter_reset(),
//              nft_counter_offload_stats() and nft_counter_fetch() (Linux 6.12, after 1eacdd71b343)
// FLAGS: -DBITS_PER_LONG=32
// Correct: the per-CPU u64_stats_sync has no lock, but every writer of this
// CPU's slot runs with BH disabled: the hook (softirq), the offload stats work
// item and the reset from the netlink dump (process context; its spinlock only
// serializes dumps). With softirqs off no other writer can interleave on this
// CPU and other CPUs write their own slot: exclusion per CPU, not per lock.
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/spinlock.h>

extern unsigned long __per_cpu_offset[], this_cpu_off;
extern unsigned int nr_cpu_ids;
#define per_cpu_ptr(ptr, cpu) ((typeof(ptr))((unsigned long)(ptr) + __per_cpu_offset[(cpu)]))
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)
#define DEFINE_PER_CPU(type, name) __section(".data..percpu") __typeof__(type) name
#define container_of(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))
struct work_struct { atomic_long_t data; struct list_head entry; void (*func)(struct work_struct *); };
#define INIT_WORK(_work, _func) do { (_work)->func = (_func); } while (0)
struct sk_buff { unsigned int len; }; struct net;
struct nf_hook_state { unsigned int hook; struct net *net; };
typedef unsigned int nf_hookfn(void *priv, struct sk_buff *skb, const struct nf_hook_state *state);
struct nf_hook_ops { nf_hookfn *hook; void *priv; u8 pf; unsigned int hooknum; int priority; };
extern int nf_register_net_hook(struct net *net, const struct nf_hook_ops *ops);

struct pcnt_cpu { u64_stats_t bytes, packets; };
struct pcnt_priv { struct pcnt_cpu __percpu *counter; };
struct pcnt_tot { s64 bytes, packets; };
struct pcnt_flow { struct pcnt_priv *priv; u64 hw_pkts, hw_bytes; struct work_struct stats_work; };

static DEFINE_PER_CPU(struct u64_stats_sync, pcnt_sync);
static DEFINE_SPINLOCK(pcnt_dump_lock);

static void pcnt_add(struct pcnt_priv *priv, u64 pkts, u64 bytes)
{
	struct u64_stats_sync *sync;
	struct pcnt_cpu *mine;

	local_bh_disable();
	mine = this_cpu_ptr(priv->counter);
	sync = this_cpu_ptr(&pcnt_sync);
	u64_stats_update_begin(sync);
	u64_stats_add(&mine->packets, pkts);
	u64_stats_add(&mine->bytes, bytes);
	u64_stats_update_end(sync);
	local_bh_enable();
}

/* softirq: netfilter hook */
static unsigned int pcnt_hook(void *arg, struct sk_buff *skb, const struct nf_hook_state *st)
{
	pcnt_add(arg, 1, skb->len);
	return 1;
}

/* process context: hardware offload counters */
static void pcnt_flow_stats_work(struct work_struct *work)
{
	struct pcnt_flow *flow = container_of(work, struct pcnt_flow, stats_work);

	pcnt_add(flow->priv, flow->hw_pkts, flow->hw_bytes);
	flow->hw_pkts = flow->hw_bytes = 0;
}

static void pcnt_fetch(struct pcnt_priv *priv, struct pcnt_tot *tot)
{
	int cpu;

	tot->bytes = tot->packets = 0;
	for_each_possible_cpu(cpu) {
		struct u64_stats_sync *sync = per_cpu_ptr(&pcnt_sync, cpu);
		struct pcnt_cpu *c = per_cpu_ptr(priv->counter, cpu);
		u64 bytes, packets;
		unsigned int seq;
		do {
			seq = u64_stats_fetch_begin(sync);
			bytes = u64_stats_read(&c->bytes);
			packets = u64_stats_read(&c->packets);
		} while (u64_stats_fetch_retry(sync, seq));
		tot->bytes += bytes;
		tot->packets += packets;
	}
}

static void pcnt_reset(struct pcnt_priv *priv, const struct pcnt_tot *tot)
{
	struct u64_stats_sync *sync;
	struct pcnt_cpu *mine;

	local_bh_disable();
	mine = this_cpu_ptr(priv->counter);
	sync = this_cpu_ptr(&pcnt_sync);
	u64_stats_update_begin(sync);
	u64_stats_sub(&mine->packets, tot->packets);
	u64_stats_sub(&mine->bytes, tot->bytes);
	u64_stats_update_end(sync);
	local_bh_enable();
}

/* process context: netlink dump with reset */
void pcnt_fetch_and_reset(struct pcnt_priv *priv, struct pcnt_tot *tot)
{
	spin_lock(&pcnt_dump_lock);
	pcnt_fetch(priv, tot);
	pcnt_reset(priv, tot);
	spin_unlock(&pcnt_dump_lock);
}

static struct nf_hook_ops pcnt_ops = { .hook = pcnt_hook, .pf = 2, .hooknum = 2 };
int pcnt_attach(struct net *net, struct pcnt_priv *priv, struct pcnt_flow *flow)
{
	pcnt_ops.priv = priv;
	flow->priv = priv;
	INIT_WORK(&flow->stats_work, pcnt_flow_stats_work);
	return nf_register_net_hook(net, &pcnt_ops);
}
