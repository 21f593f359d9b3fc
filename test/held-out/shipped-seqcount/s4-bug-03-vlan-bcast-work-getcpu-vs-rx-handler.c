// Modelled on: drivers/net/macvlan.c:macvlan_process_broadcast()/macvlan_handle_frame() and
//              include/linux/if_macvlan.h:macvlan_count_rx() (Linux 6.12)
// FLAGS: -DBITS_PER_LONG=32
// Per-CPU rx counters under a u64_stats_sync (a seqcount on 32-bit) with no
// lock. Unicast frames are counted from the rx handler (NET_RX softirq);
// broadcast frames are deferred to a work item that counts them in process
// context with BH enabled, protected only by get_cpu_ptr() (preemption off).
// The rx softirq can run on that CPU in the middle of the work item's write
// section: a second writer on the same per-CPU seqcount (same bug class as the
// nft_counter and bpf prog-stats fixes; the work path needs local_bh_disable()).
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>

extern unsigned long this_cpu_off;
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define get_cpu_ptr(var) ({ preempt_disable(); this_cpu_ptr(var); })
#define put_cpu_ptr(var) do { (void)(var); preempt_enable(); } while (0)
/* asm-generic this_cpu_generic_to_op(): irq-safe single-counter RMW */
#define this_cpu_inc(pcp) do { unsigned long __f; raw_local_irq_save(__f);	\
	(*this_cpu_ptr(&(pcp)))++; raw_local_irq_restore(__f); } while (0)
#define container_of(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))

struct work_struct { atomic_long_t data; struct list_head entry; void (*func)(struct work_struct *); };
#define INIT_WORK(_work, _func) do { (_work)->func = (_func); } while (0)
extern bool schedule_work(struct work_struct *work);

struct net_device;
struct sk_buff { unsigned int len; struct net_device *dev; u8 pkt_type; };
typedef enum { RX_HANDLER_CONSUMED, RX_HANDLER_ANOTHER, RX_HANDLER_EXACT, RX_HANDLER_PASS } rx_handler_result_t;
typedef rx_handler_result_t rx_handler_func_t(struct sk_buff **pskb);
extern int netdev_rx_handler_register(struct net_device *dev, rx_handler_func_t *h, void *data);
extern int netif_rx(struct sk_buff *skb);
extern struct sk_buff *skb_clone(struct sk_buff *skb, unsigned int gfp);
extern void consume_skb(struct sk_buff *skb);
extern void cond_resched(void);
enum { NET_RX_SUCCESS = 0, PACKET_BROADCAST = 1, ETH_HLEN = 14 };
extern void *mvl_port_from_dev(struct net_device *dev);	/* rx_handler_data */
extern struct sk_buff *mvl_bc_dequeue(void *port);	/* bc_queue, spin_lock_bh inside */
extern void mvl_bc_enqueue(void *port, struct sk_buff *skb);

struct mvl_pcpu_stats {
	u64_stats_t rx_packets, rx_bytes, rx_multicast;
	struct u64_stats_sync syncp;
	u32 rx_errors;
};
struct mvl_dev { struct net_device *dev; struct mvl_pcpu_stats __percpu *pcpu_stats; };
struct mvl_port { struct mvl_dev *vlans[8]; unsigned int count; struct work_struct bc_work; };

static inline void mvl_count_rx(const struct mvl_dev *vlan, unsigned int len,
				bool success, bool multicast)
{
	struct mvl_pcpu_stats *ps;

	if (unlikely(!success)) {
		this_cpu_inc(vlan->pcpu_stats->rx_errors);
		return;
	}
	ps = get_cpu_ptr(vlan->pcpu_stats);
	u64_stats_update_begin(&ps->syncp); /* EXPECT: seqlint-seqcount-write-unlocked */
	u64_stats_inc(&ps->rx_packets);
	u64_stats_add(&ps->rx_bytes, len);
	if (multicast)
		u64_stats_inc(&ps->rx_multicast);
	u64_stats_update_end(&ps->syncp);
	put_cpu_ptr(vlan->pcpu_stats);
}

/* process context, BH enabled */
static void mvl_process_broadcast(struct work_struct *w)
{
	struct mvl_port *port = container_of(w, struct mvl_port, bc_work);
	struct sk_buff *skb, *nskb;
	unsigned int i;

	while ((skb = mvl_bc_dequeue(port))) {
		rcu_read_lock();
		for (i = 0; i < port->count; i++) {
			struct mvl_dev *vlan = port->vlans[i];
			int err = -1;

			if ((nskb = skb_clone(skb, 0x20))) {
				nskb->dev = vlan->dev;
				err = netif_rx(nskb);
			}
			mvl_count_rx(vlan, skb->len + ETH_HLEN, err == NET_RX_SUCCESS, true);
		}
		rcu_read_unlock();
		consume_skb(skb);
		cond_resched();
	}
}

/* NET_RX softirq */
static rx_handler_result_t mvl_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct mvl_port *port = mvl_port_from_dev(skb->dev);
	struct mvl_dev *vlan;

	if (skb->pkt_type == PACKET_BROADCAST) {
		mvl_bc_enqueue(port, skb);
		schedule_work(&port->bc_work);
		return RX_HANDLER_CONSUMED;
	}
	vlan = port->vlans[0];
	skb->dev = vlan->dev;
	mvl_count_rx(vlan, skb->len + ETH_HLEN, true, false);
	return RX_HANDLER_ANOTHER;
}

int mvl_port_create(struct net_device *lower, struct mvl_port *port)
{
	INIT_WORK(&port->bc_work, mvl_process_broadcast);
	return netdev_rx_handler_register(lower, mvl_handle_frame, port);
}
