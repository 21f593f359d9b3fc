// Modelled on: net/sched/act_skbedit.c:tcf_skbedit_init(), tcf_skbedit_act() (Linux 6.12)
// Pattern: a tc action replaces its parameter block under the action's spinlock, but
//   stores the new pointer plainly (where upstream uses rcu_replace_pointer()).
// The other side is the packet path. tcf_skbedit_act() runs in softirq on any CPU,
// under RCU-bh only. It never takes tcf_lock. It loads d->params and reads
// priority/mark/queue_mapping through it. The writer's lock orders nothing for a
// reader that does not take it, so the fields of params_new must be ordered before
// the pointer store: rcu_assign_pointer()/rcu_replace_pointer() (a store-release).
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>
#include <asm/barrier.h>

#define ENOMEM		12
#define SKBEDIT_F_PRIORITY	0x1
#define SKBEDIT_F_MARK		0x2
#define SKBEDIT_F_QUEUE		0x4
#define TC_ACT_PIPE		3

struct skbedit_params {
	u32 flags;
	u32 priority;
	u32 mark, mask;
	u16 queue_mapping;
	struct rcu_head rcu;
};

struct skbedit {
	spinlock_t tcf_lock;
	int tcf_action;
	struct skbedit_params __rcu *params;
};

struct pkt { u32 priority, mark; u16 queue_mapping; };

extern struct skbedit_params *params_alloc(void);
extern void params_free_rcu(struct skbedit_params *p);

int skbedit_replace(struct skbedit *d, u32 flags, u32 prio, u32 mark, u32 mask,
		    u16 queue, int action)
{
	struct skbedit_params *params_new, *old;

	params_new = params_alloc();
	if (!params_new)
		return -ENOMEM;
	params_new->flags = flags;
	params_new->priority = prio;
	params_new->mark = mark;
	params_new->mask = mask ? mask : 0xffffffff;
	params_new->queue_mapping = queue;

	spin_lock_bh(&d->tcf_lock);
	d->tcf_action = action;
	old = d->params;
	d->params = params_new; /* EXPECT: seqlint-mp-missing-barrier */
	spin_unlock_bh(&d->tcf_lock);

	if (old)
		params_free_rcu(old);
	return 0;
}

int skbedit_act(struct skbedit *d, struct pkt *skb)
{
	struct skbedit_params *p;

	/* softirq: RCU-bh read side, no tcf_lock */
	p = rcu_dereference(d->params);
	if (p->flags & SKBEDIT_F_PRIORITY)
		skb->priority = p->priority;
	if (p->flags & SKBEDIT_F_MARK)
		skb->mark = (skb->mark & ~p->mask) | (p->mark & p->mask);
	if (p->flags & SKBEDIT_F_QUEUE)
		skb->queue_mapping = p->queue_mapping;
	return READ_ONCE(d->tcf_action);
}
