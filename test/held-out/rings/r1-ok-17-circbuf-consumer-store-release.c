// Modelled on: Documentation/core-api/circular-buffers.rst (producer and consumer
//              examples), include/linux/circ_buf.h (Linux 6.12)
// Correct: the documented lockless SPSC circular buffer. The producer fills the slot
// and publishes head with smp_store_release(). The consumer loads head with
// smp_load_acquire(), reads the item, and gives the slot back with smp_store_release()
// of tail. That release orders the item loads before the tail store, which a
// store-only barrier would not. The producer reads the consumer's tail with
// READ_ONCE() only. In the kernel memory model the control dependency (the slot is
// written only if CIRC_SPACE() >= 1) orders that load before the slot store, as
// the document explains. Each side reads its own index plainly.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

#define CIRC_CNT(head, tail, size)	(((head) - (tail)) & ((size) - 1))
#define CIRC_SPACE(head, tail, size)	CIRC_CNT((tail), ((head) + 1), (size))

struct item { u32 len; u8 data[60]; };

struct circ_ring {
	struct item *buf;
	unsigned long head;	/* producer */
	unsigned long tail;	/* consumer */
	unsigned long size;	/* power of two */
	spinlock_t producer_lock, consumer_lock;
};

extern void produce_item(struct item *it, const void *src, u32 len);
extern void consume_item(const struct item *it);
extern void wake_consumer(struct circ_ring *r);

int circ_produce(struct circ_ring *r, const void *src, u32 len)
{
	unsigned long head, tail;
	int ret = -1;

	spin_lock(&r->producer_lock);
	head = r->head;
	/* The spin_unlock() and next spin_lock() provide needed ordering. */
	tail = READ_ONCE(r->tail);
	if (CIRC_SPACE(head, tail, r->size) >= 1) {
		produce_item(&r->buf[head], src, len);
		smp_store_release(&r->head, (head + 1) & (r->size - 1));
		wake_consumer(r);
		ret = 0;
	}
	spin_unlock(&r->producer_lock);
	return ret;
}

unsigned int circ_consume(struct circ_ring *r, unsigned int budget)
{
	unsigned int n = 0;

	spin_lock(&r->consumer_lock);
	while (n < budget) {
		/* Read index before reading contents at that index. */
		unsigned long head = smp_load_acquire(&r->head);
		unsigned long tail = r->tail;

		if (CIRC_CNT(head, tail, r->size) < 1)
			break;
		consume_item(&r->buf[tail]);
		/* Finish reading the item before incrementing tail. */
		smp_store_release(&r->tail, (tail + 1) & (r->size - 1));
		n++;
	}
	spin_unlock(&r->consumer_lock);
	return n;
}
