// Modelled on: drivers/net/usb/usbnet.c:usbnet_skb_return() (reached from usbnet_bh(), a tasklet
//              and a timer) and tx_complete() (URB completion) (Linux 6.12)
// FLAGS: -DBITS_PER_LONG=32
// Correct: the per-CPU tstats u64_stats_sync has no lock. The rx bottom half
// (tasklet, or the same function from the retry timer -- softirq either way)
// uses u64_stats_update_begin_irqsave(), so the URB completion, which the host
// controller may give back in hard-interrupt context, cannot interrupt its
// section on this CPU. The completion itself runs with interrupts off (or in
// BH, where it cannot preempt the tasklet), and each touches this CPU's slot.
#include <linux/types.h>
#include <linux/u64_stats_sync.h>

extern unsigned long this_cpu_off;
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define container_of(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))

struct tasklet_struct { unsigned long state; void (*callback)(struct tasklet_struct *); };
extern void tasklet_setup(struct tasklet_struct *t, void (*cb)(struct tasklet_struct *));
extern void tasklet_schedule(struct tasklet_struct *t);
struct timer_list { unsigned long expires; void (*function)(struct timer_list *); u32 flags; };
extern void init_timer_key(struct timer_list *t, void (*fn)(struct timer_list *),
			   unsigned int flags, const char *name, struct lock_class_key *key);
#define timer_setup(timer, cb, flags) init_timer_key((timer), (cb), (flags), NULL, NULL)

struct sk_buff { unsigned int len; u16 protocol; char cb[48]; };
extern struct sk_buff *un_done_dequeue(void *dev);
extern int netif_rx(struct sk_buff *skb);
extern void dev_kfree_skb_any(struct sk_buff *skb);
struct urb;
typedef void (*usb_complete_t)(struct urb *);
struct urb { int status; void *context; void *transfer_buffer; u32 transfer_buffer_length; usb_complete_t complete; };
static inline void usb_fill_bulk_urb(struct urb *urb, void *buf, int len,
				     usb_complete_t complete_fn, void *context)
{
	urb->transfer_buffer = buf, urb->transfer_buffer_length = len;
	urb->complete = complete_fn, urb->context = context;
}
extern int usb_submit_urb(struct urb *urb, unsigned int mem_flags);

struct pcpu_sw_netstats {
	u64_stats_t rx_packets, rx_bytes, tx_packets, tx_bytes;
	struct u64_stats_sync syncp;
};

struct un_dev { struct pcpu_sw_netstats __percpu *tstats; struct tasklet_struct bh;
		struct timer_list delay; unsigned long rx_errors; };

struct un_skb_data { struct un_dev *dev; struct urb *urb; u32 length, packets; };

static void un_skb_return(struct un_dev *dev, struct sk_buff *skb)
{
	struct pcpu_sw_netstats *stats64 = this_cpu_ptr(dev->tstats);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&stats64->syncp);
	u64_stats_inc(&stats64->rx_packets);
	u64_stats_add(&stats64->rx_bytes, skb->len);
	u64_stats_update_end_irqrestore(&stats64->syncp, flags);
	netif_rx(skb);
}

/* softirq: rx bottom half, from the tasklet or the retry timer */
static void un_bh(struct timer_list *t)
{
	struct un_dev *dev = container_of(t, struct un_dev, delay);
	struct sk_buff *skb;

	while ((skb = un_done_dequeue(dev))) {
		if (skb->len < 14) {
			dev->rx_errors++;
			dev_kfree_skb_any(skb);
			continue;
		}
		un_skb_return(dev, skb);
	}
}

static void un_bh_tasklet(struct tasklet_struct *t)
{
	un_bh(&container_of(t, struct un_dev, bh)->delay);
}

/* URB completion: hard irq for most host controllers */
static void un_tx_complete(struct urb *urb)
{
	struct sk_buff *skb = urb->context;
	struct un_skb_data *entry = (struct un_skb_data *)skb->cb;
	struct un_dev *dev = entry->dev;

	if (urb->status == 0) {
		struct pcpu_sw_netstats *stats64 = this_cpu_ptr(dev->tstats);

		u64_stats_update_begin(&stats64->syncp);
		u64_stats_add(&stats64->tx_packets, entry->packets);
		u64_stats_add(&stats64->tx_bytes, entry->length);
		u64_stats_update_end(&stats64->syncp);
	}
	dev_kfree_skb_any(skb);
	tasklet_schedule(&dev->bh);
}

int un_start_xmit_urb(struct un_dev *dev, struct sk_buff *skb, struct urb *urb)
{
	struct un_skb_data *entry = (struct un_skb_data *)skb->cb;

	entry->dev = dev, entry->urb = urb;
	entry->length = skb->len, entry->packets = 1;
	usb_fill_bulk_urb(urb, skb, skb->len, un_tx_complete, skb);
	return usb_submit_urb(urb, 0x20 /* GFP_ATOMIC */);
}

void un_init(struct un_dev *dev)
{
	timer_setup(&dev->delay, un_bh, 0);
	tasklet_setup(&dev->bh, un_bh_tasklet);
}
