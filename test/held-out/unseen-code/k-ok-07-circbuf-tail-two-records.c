// Modelled on: Documentation/core-api/circular-buffers.rst (producer/consumer with
//   smp_store_release()/smp_load_acquire(), Linux 6.12), free-running indices as in
//   io_uring's SQ/CQ rings.
// Correct message passing that looks like a seqcount: the producer publishes two
// records per event (header, then payload) and bumps `tail` by one after each with
// smp_store_release(), so `tail` is incremented twice around data stores and can be
// odd in between. The consumer acquires `tail`, consumes up to it, releases `head`, and
// re-reads `tail` to see whether more arrived. Every slot is published by its own
// release/acquire pair; an odd `tail` just means one record is ready.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

#define LB_SLOTS	256	/* power of two */

struct lb_rec {
	u32 kind;
	u32 len;
	u64 payload[4];
};

struct logbuf {
	unsigned int head;	/* consumer index */
	unsigned int tail;	/* producer index */
	spinlock_t producer_lock;
	struct lb_rec slot[LB_SLOTS];
};

void lb_consume(const struct lb_rec *r);

bool lb_emit(struct logbuf *lb, u32 kind, const u64 *data, u32 len)
{
	unsigned int tail, head;
	struct lb_rec *r;

	spin_lock(&lb->producer_lock);
	tail = lb->tail;
	head = READ_ONCE(lb->head);
	if (LB_SLOTS - (tail - head) < 2) {
		spin_unlock(&lb->producer_lock);
		return false;
	}

	r = &lb->slot[tail & (LB_SLOTS - 1)];
	r->kind = kind | 0x80000000;
	r->len = len;
	smp_store_release(&lb->tail, tail + 1);

	r = &lb->slot[(tail + 1) & (LB_SLOTS - 1)];
	r->kind = kind;
	r->len = len;
	r->payload[0] = data[0];
	r->payload[1] = len > 1 ? data[1] : 0;
	smp_store_release(&lb->tail, tail + 2);

	spin_unlock(&lb->producer_lock);
	return true;
}

unsigned int lb_drain(struct logbuf *lb)
{
	unsigned int t, h, n = 0;

again:
	/* Read index before reading contents at that index. */
	t = smp_load_acquire(&lb->tail);
	h = lb->head;
	while (h != t) {
		lb_consume(&lb->slot[h & (LB_SLOTS - 1)]);
		h++;
		n++;
	}
	/* Finish reading the records before handing the slots back. */
	smp_store_release(&lb->head, h);

	if (READ_ONCE(lb->tail) != t)
		goto again;
	return n;
}
