// Modelled on: Documentation/RCU/rcu_dereference.rst, Documentation/memory-barriers.txt
//              ("Address-dependency barriers"), Linux 6.12 docs
// Pattern: open-coded smp_wmb() + pointer publication, the shape that came before
//   rcu_assign_pointer(), with lockless dependency-ordered readers.
// Correct: the writer fills the new object, then smp_wmb(), then stores the pointer
// with WRITE_ONCE(). A write barrier between the init stores and the publishing
// store is enough for the writer side. The readers do not take the writer's mutex
// and use no read barrier: they READ_ONCE() (or rcu_dereference()) the pointer and
// only touch the object through it. The address dependency orders those loads on
// every architecture Linux supports (READ_ONCE has had the Alpha barrier since
// 4.15). A checker that asks for smp_rmb() or an acquire on the reader is wrong.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <asm/barrier.h>

#define ENOMEM 12

struct quota_limits {
	u64 soft, hard;
	u32 grace_secs;
	u32 flags;
	struct rcu_head rcu;
};

struct quota_dom {
	struct mutex lock;		/* writers */
	struct quota_limits *limits;	/* readers: lockless */
};

extern struct quota_limits *limits_alloc(void);
extern void limits_free_rcu(struct quota_limits *old);

int quota_set_limits(struct quota_dom *q, u64 soft, u64 hard, u32 grace)
{
	struct quota_limits *n = limits_alloc(), *old;

	if (!n)
		return -ENOMEM;
	n->soft = soft;
	n->hard = hard;
	n->grace_secs = grace;
	n->flags = 1;

	mutex_lock(&q->lock);
	old = q->limits;
	smp_wmb();		/* contents before the pointer */
	WRITE_ONCE(q->limits, n);
	mutex_unlock(&q->lock);
	if (old)
		limits_free_rcu(old);
	return 0;
}

bool quota_over_hard(struct quota_dom *q, u64 usage)
{
	struct quota_limits *l;
	bool over;

	rcu_read_lock();
	l = READ_ONCE(q->limits);
	over = l && usage > l->hard;
	rcu_read_unlock();
	return over;
}

u32 quota_grace(struct quota_dom *q)
{
	struct quota_limits *l;
	u32 g = 0;

	rcu_read_lock();
	l = rcu_dereference(q->limits);
	if (l)
		g = l->grace_secs;
	rcu_read_unlock();
	return g;
}
