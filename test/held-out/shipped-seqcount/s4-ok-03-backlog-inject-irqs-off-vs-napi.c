// Modelled on: net/core/dev.c:enqueue_to_backlog()/process_backlog() (per-CPU softnet_data
//              touched with interrupts off from any context, drained by a per-CPU NAPI) (Linux 6.12)
// FLAGS: -DBITS_PER_LONG=32
// Correct: each CPU's backlog has a u64_stats_sync with no lock. The NAPI
// poll of that backlog (softirq, always on its own CPU) writes the stats; the
// char-device write path (process context) writes them too, but inside
// local_irq_save(), which it needs anyway for the queue it shares with the
// poll. With interrupts off no softirq can start on this CPU, so the process
// writer cannot be interrupted by the poll writer, and neither touches another
// CPU's backlog: the two writers are serialized by the CPU, not by a lock.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>
#include <linux/irqflags.h>

extern unsigned long __per_cpu_offset[], this_cpu_off;
extern unsigned int nr_cpu_ids;
#define per_cpu_ptr(ptr, cpu) ((typeof(ptr))((unsigned long)(ptr) + __per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu)      (*per_cpu_ptr(&(var), (cpu)))
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)
#define DEFINE_PER_CPU(type, name) __section(".data..percpu") __typeof__(type) name
#define container_of(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))

struct net_device;
struct sk_buff { struct sk_buff *next; unsigned int len; };
struct sk_buff_head { struct sk_buff *next, *tail; u32 qlen; };
struct napi_struct { unsigned long state; int weight; };
extern void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int));
extern void __napi_schedule_irqoff(struct napi_struct *n);
extern bool napi_complete_done(struct napi_struct *n, int work_done);
extern void __skb_queue_tail(struct sk_buff_head *list, struct sk_buff *skb);
extern struct sk_buff *__skb_dequeue(struct sk_buff_head *list);
extern int netif_receive_skb(struct sk_buff *skb);
struct file; struct kiocb; struct iov_iter;
struct file_operations { ssize_t (*write_iter)(struct kiocb *, struct iov_iter *); };
extern struct sk_buff *inj_build_skb(struct kiocb *iocb, struct iov_iter *from);

struct inj_backlog {
	struct sk_buff_head queue;
	struct napi_struct napi;
	struct u64_stats_sync syncp;
	u64_stats_t injected, injected_bytes, delivered;
};

static DEFINE_PER_CPU(struct inj_backlog, inj_backlog);

/* process context: write(2) on the injection device */
static ssize_t inj_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct sk_buff *skb = inj_build_skb(iocb, from);
	struct inj_backlog *bl;
	unsigned long flags;
	unsigned int len;

	if (!skb)
		return -12;
	len = skb->len;

	local_irq_save(flags);
	bl = this_cpu_ptr(&inj_backlog);
	__skb_queue_tail(&bl->queue, skb);
	u64_stats_update_begin(&bl->syncp);
	u64_stats_inc(&bl->injected);
	u64_stats_add(&bl->injected_bytes, len);
	u64_stats_update_end(&bl->syncp);
	if (bl->queue.qlen == 1)
		__napi_schedule_irqoff(&bl->napi);
	local_irq_restore(flags);
	return len;
}

/* softirq: per-CPU NAPI, runs on the CPU that scheduled it */
static int inj_poll(struct napi_struct *napi, int quota)
{
	struct inj_backlog *bl = container_of(napi, struct inj_backlog, napi);
	struct sk_buff *skb;
	int work = 0;

	while (work < quota) {
		local_irq_disable();
		skb = __skb_dequeue(&bl->queue);
		local_irq_enable();
		if (!skb)
			break;
		netif_receive_skb(skb);
		work++;
	}
	u64_stats_update_begin(&bl->syncp);
	u64_stats_add(&bl->delivered, work);
	u64_stats_update_end(&bl->syncp);

	if (work < quota)
		napi_complete_done(napi, work);
	return work;
}

const struct file_operations inj_fops = { .write_iter = inj_write_iter };

void inj_init(struct net_device *dev)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct inj_backlog *bl = &per_cpu(inj_backlog, cpu);

		u64_stats_init(&bl->syncp);
		netif_napi_add(dev, &bl->napi, inj_poll);
	}
}
