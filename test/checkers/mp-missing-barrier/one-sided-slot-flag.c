// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A flag word inside each slot of a ring (a packed virtqueue's AVAIL/USED
 * bits), seen from a device emulated in userspace: the guest is the other
 * side. The emulator loads the slot's flags, tests them, and reads the
 * slot's other fields through the pointer its helper returns; when done
 * it writes the length and flips the USED bit. The file itself shows that
 * the flags word synchronises: it is loaded with an acquire, or stored with
 * a release, somewhere else. Modelled on a small VMM's virtio-net
 * (kvm-host, fixed upstream by making both accesses atomic), rewritten.
 */
#include <stdint.h>
#include <stdbool.h>

#define F_AVAIL 7
#define F_USED 15

struct pdesc { uint64_t addr; uint32_t len; uint16_t id; uint16_t flags; };
struct pvq { struct pdesc *ring; uint16_t size, next; bool wrap; };

/* A plain load of the flags, tested; the caller then reads the slot. */
static struct pdesc *take_plain(struct pvq *q)
{
	struct pdesc *d = &q->ring[q->next];
	uint16_t flags = d->flags;
	bool avail = flags & (1u << F_AVAIL);
	bool used = flags & (1u << F_USED);

	if (avail != q->wrap || used == q->wrap)
		return 0;
	if (++q->next >= q->size) {
		q->next = 0;
		q->wrap ^= 1;
	}
	return d;
}

uint32_t consume_plain(struct pvq *q)
{
	struct pdesc *d = take_plain(q); // expected-warning {{'d->len' is read after 'd->flags' is loaded and tested, with no read barrier}}
	uint32_t len;

	if (!d)
		return 0;
	len = d->len;
	__atomic_store_n(&d->flags, d->flags ^ (uint16_t)(1u << F_USED), __ATOMIC_RELEASE);
	return len;
}

/* The fixed reader: an acquire load of the flags. */
static struct pdesc *take_acquire(struct pvq *q)
{
	struct pdesc *d = &q->ring[q->next];
	uint16_t flags = __atomic_load_n(&d->flags, __ATOMIC_ACQUIRE);
	bool avail = flags & (1u << F_AVAIL);
	bool used = flags & (1u << F_USED);

	if (avail != q->wrap || used == q->wrap)
		return 0;
	if (++q->next >= q->size) {
		q->next = 0;
		q->wrap ^= 1;
	}
	return d;
}

/* The length written, then the USED bit flipped in place: no barrier. */
void complete_plain(struct pvq *q, uint32_t n)
{
	struct pdesc *d = take_acquire(q);

	if (!d)
		return;
	d->len = n;
	d->flags ^= (uint16_t)(1u << F_USED); // expected-warning {{'d->flags' is published here after the store to 'd->len' with no write barrier}}
}

void complete_release(struct pvq *q, uint32_t n)
{
	struct pdesc *d = take_acquire(q);

	if (!d)
		return;
	d->len = n;
	__atomic_store_n(&d->flags, d->flags ^ (uint16_t)(1u << F_USED), __ATOMIC_RELEASE);
}

/* A per-CPU array is no ring: the slot is not addressed by a position that
 * moves, so a word tested in it is not a slot's flag. */
struct pcpu { uint32_t hits; uint32_t saved; };
struct pcpu stats[64];

int pcpu_changed(int cpu)
{
	uint32_t h = stats[cpu].hits;

	if (h == stats[cpu].saved)
		return 0;
	stats[cpu].saved = h;
	return 1;
}

void pcpu_hit(int cpu)
{
	__atomic_store_n(&stats[cpu].hits, stats[cpu].hits + 1, __ATOMIC_RELEASE);
}

/* A ring whose slots are published by an index the file acquires (the
 * shape of io_uring's provided-buffer ring): a slot's length tested with
 * READ_ONCE()-style loads and written back is no flag of its own. */
struct buf { uint64_t addr; uint32_t len; uint16_t bid; uint16_t resv; };
struct buf_ring { uint16_t tail; struct buf bufs[64]; };
struct buf_list { struct buf_ring *br; uint16_t head, mask; };

uint64_t buf_select(struct buf_list *bl)
{
	uint16_t tail = __atomic_load_n(&bl->br->tail, __ATOMIC_ACQUIRE);
	struct buf *b;

	if (tail == bl->head)
		return 0;
	b = &bl->br->bufs[bl->head & bl->mask];
	return __atomic_load_n(&b->addr, __ATOMIC_RELAXED);
}

int buf_commit(struct buf_list *bl, uint32_t len)
{
	while (len) {
		struct buf *b = &bl->br->bufs[bl->head & bl->mask];
		uint32_t blen = __atomic_load_n(&b->len, __ATOMIC_RELAXED);

		if (blen > len) {
			__atomic_store_n(&b->addr, __atomic_load_n(&b->addr, __ATOMIC_RELAXED) + len,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&b->len, blen - len, __ATOMIC_RELEASE);
			return 0;
		}
		bl->head++;
		len -= blen;
	}
	return 1;
}
