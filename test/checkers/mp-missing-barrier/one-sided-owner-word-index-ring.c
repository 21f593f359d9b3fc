// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: the words of a slot in a ring that hands
 * its slots over by position, in memory another process maps.
 *
 * Two processes share a region (mmap(MAP_SHARED)): a ring header with a
 * cookie, a flags word and two positions, head and tail, and an array of
 * descriptors (flags, length, offset). The sender fills descriptors and
 * publishes them by storing tail with a release; the receiver loads tail
 * with an acquire, reads the descriptors up to it (following the NEXT flag
 * of a chained packet), refills free descriptors and gives them back by
 * storing head with a release. A descriptor's flags and length are tested
 * and stored plainly on both sides, but they are data: the positions,
 * acquired and released, order them. Taking them for ownership words
 * reported every descriptor access. A reconnect checks the ring's cookie,
 * a constant the file only ever sets to one value, and resets the
 * positions: no read of contents a producer reuses.
 * Still reported: a ring word stored back after a load of a header word
 * the file changes (a generation), with nothing between.
 * Modelled on DPDK's drivers/net/memif/rte_eth_memif.c (eth_memif_rx(),
 * eth_memif_tx(), memif_connect()); rewritten.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#define RING_COOKIE 0x3E31F20u
#define DESC_NEXT 1u
#define RING_MASK_INT 1u

struct desc {
	uint16_t flags;
	uint16_t region;
	uint32_t length;
	uint32_t offset;
};

struct ring {
	uint32_t cookie;
	uint16_t flags;
	uint16_t head;
	uint16_t tail;
	uint16_t gen;
	struct desc desc[];
};

struct queue {
	struct ring *ring;
	char *base;
	uint16_t last_tail;
	uint16_t mask;
	uint32_t buf_size;
	unsigned long kicks;
};

int region_init(struct queue *q, int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -1;
	q->ring = p;
	q->base = p;
	q->ring->cookie = RING_COOKIE;
	q->ring->head = 0;
	q->ring->tail = 0;
	q->ring->gen = 0;
	return 0;
}

int rx_burst(struct queue *q, char **pkts, uint32_t *lens, int max)
{
	struct ring *r = q->ring;
	uint16_t cur = q->last_tail;
	uint16_t last = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	uint16_t head, free_slots;
	int n = 0;

	/* The peer asked for an interrupt: consume it. */
	if ((r->flags & RING_MASK_INT) == 0)
		q->kicks++;
	while (cur != last && n < max) {
		struct desc *d = &r->desc[cur & q->mask];

		if (d->length == 0) { /* an empty slot: skip it */
			cur++;
			continue;
		}
		lens[n] = d->length;
		pkts[n] = q->base + d->offset;
		cur++;
		if (d->flags & DESC_NEXT)
			continue;
		n++;
	}
	q->last_tail = cur;

	/* Give the consumed slots back, refilled. */
	head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
	free_slots = (uint16_t)(q->mask + 1 - (uint16_t)(head - cur));
	while (free_slots--) {
		struct desc *d = &r->desc[head++ & q->mask];

		d->length = q->buf_size;
		d->region = 1;
		d->offset = (uint32_t)(head * q->buf_size);
	}
	__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return n;
}

int tx_burst(struct queue *q, const uint32_t *lens, int nb)
{
	struct ring *r = q->ring;
	uint16_t slot = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
	uint16_t n_free = (uint16_t)(__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) - slot);
	int i = 0;

	while (i < nb && n_free) {
		struct desc *d = &r->desc[slot & q->mask];
		uint32_t room = d->length;

		d->flags = 0;
		if (lens[i] > room) {
			d->flags |= DESC_NEXT;
			d->length = room;
			slot++;
			n_free--;
			continue;
		}
		d->length = lens[i];
		slot++;
		n_free--;
		i++;
	}
	__atomic_store_n(&r->tail, slot, __ATOMIC_RELEASE);
	return i;
}

int reconnect(struct queue *q)
{
	struct ring *r = q->ring;

	if (r->cookie != RING_COOKIE)
		return -1;
	__atomic_store_n(&r->head, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&r->tail, 0, __ATOMIC_RELAXED);
	q->last_tail = 0;
	r->flags = RING_MASK_INT;
	return 0;
}

void bump_gen(struct queue *q)
{
	q->ring->gen++;
}

int rewind_ring(struct queue *q)
{
	struct ring *r = q->ring;

	if (r->gen == 0)
		return -1;
	r->flags = RING_MASK_INT; // expected-warning {{'r->flags' hands the slot back to the producer here, after the load of 'r->gen'}}
	return 0;
}
