// Modelled on: the ring (re)initialisation done by NIC drivers between napi_disable()
//              and napi_enable(), e.g. drivers/net/ethernet/intel/igb/igb_main.c:
//              igb_configure_tx_ring() / igb_clean_tx_ring() (Linux 6.12)
// Pattern: a driver-to-NAPI ring. The hot path publishes the producer index with
//   smp_store_release() and NAPI consumes it with smp_load_acquire().
// Correct: the reset path writes the same index, and clears the slots, with plain
// stores. This is safe. It runs with NAPI disabled (napi_disable() waits for a
// running poll and stops new ones) and under the same ring lock as the producer, so
// no consumer is running concurrently. napi_enable() and the lock release
// order the reset before the next poll. The index has a release in one place and
// a plain store in the other, and that difference is correct.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

#define EBUSY	16

struct cmd { u32 op; u32 arg; u64 cookie; };

struct cmd_ring {
	spinlock_t lock;		/* producers and reset */
	unsigned int prod;		/* published to the poller */
	unsigned int cons;		/* poller-owned */
	unsigned int size;		/* power of two */
	struct cmd *slot;
	bool stopped;
};

extern void napi_disable_ring(struct cmd_ring *r);
extern void napi_enable_ring(struct cmd_ring *r);
extern void handle_cmd(const struct cmd *c);

int ring_post(struct cmd_ring *r, u32 op, u32 arg, u64 cookie)
{
	unsigned long flags;
	unsigned int p;

	spin_lock_irqsave(&r->lock, flags);
	if (r->stopped || r->prod - READ_ONCE(r->cons) == r->size) {
		spin_unlock_irqrestore(&r->lock, flags);
		return -EBUSY;
	}
	p = r->prod;
	r->slot[p & (r->size - 1)] = (struct cmd){ .op = op, .arg = arg, .cookie = cookie };
	smp_store_release(&r->prod, p + 1);
	spin_unlock_irqrestore(&r->lock, flags);
	return 0;
}

/* NAPI poll: the only consumer */
int ring_poll(struct cmd_ring *r, int budget)
{
	unsigned int c = r->cons, p = smp_load_acquire(&r->prod);
	int done = 0;

	while (c != p && done < budget) {
		handle_cmd(&r->slot[c & (r->size - 1)]);
		c++;
		done++;
	}
	smp_store_release(&r->cons, c);
	return done;
}

/* ndo_stop / reset worker */
void ring_reset(struct cmd_ring *r)
{
	unsigned long flags;
	unsigned int i;

	napi_disable_ring(r);		/* no poll runs after this returns */
	spin_lock_irqsave(&r->lock, flags);
	for (i = 0; i < r->size; i++)
		r->slot[i] = (struct cmd){ 0 };
	r->prod = 0;
	r->cons = 0;
	r->stopped = false;
	spin_unlock_irqrestore(&r->lock, flags);
	napi_enable_ring(r);
}
