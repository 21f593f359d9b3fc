// Modelled on: DPDK lib/ring/rte_ring_c11_pvt.h:__rte_ring_update_tail() (single
//              producer: release store of the tail), as a small C11 library (DPDK 22.11)
// Pattern: a C11 single-producer/single-consumer queue library (a small event or log
//   queue). push() publishes the write index with memory_order_release. Fixed: the
//   bulk variant publishes with memory_order_release too.
// The other side is the consumer thread, usually in the application that links
// this library. It loads the write index with acquire and reads the entries below
// it. Acquire needs a release to pair with: after a relaxed publication the entries
// copied by push_bulk() are not guaranteed to be visible, even though the consumer
// is correct. The same index is stored with release in one place and relaxed in the
// other.
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct evt { uint64_t ts; uint32_t kind; uint32_t arg; };

struct spsc {
	_Alignas(64) _Atomic size_t wr;
	_Alignas(64) _Atomic size_t rd;
	size_t cap;			/* power of two */
	struct evt *buf;
};

static inline size_t spsc_space(struct spsc *q, size_t w)
{
	return q->cap - (w - atomic_load_explicit(&q->rd, memory_order_acquire));
}

bool spsc_push(struct spsc *q, const struct evt *e)
{
	size_t w = atomic_load_explicit(&q->wr, memory_order_relaxed);

	if (!spsc_space(q, w))
		return false;
	q->buf[w & (q->cap - 1)] = *e;
	atomic_store_explicit(&q->wr, w + 1, memory_order_release);
	return true;
}

size_t spsc_push_bulk(struct spsc *q, const struct evt *e, size_t n)
{
	size_t w = atomic_load_explicit(&q->wr, memory_order_relaxed);
	size_t room = spsc_space(q, w), first, idx;

	if (n > room)
		n = room;
	if (!n)
		return 0;
	idx = w & (q->cap - 1);
	first = q->cap - idx < n ? q->cap - idx : n;
	memcpy(&q->buf[idx], e, first * sizeof(*e));
	memcpy(&q->buf[0], e + first, (n - first) * sizeof(*e));
	atomic_store_explicit(&q->wr, w + n, memory_order_release);
	return n;
}

size_t spsc_pop(struct spsc *q, struct evt *out, size_t max)
{
	size_t r = atomic_load_explicit(&q->rd, memory_order_relaxed);
	size_t w = atomic_load_explicit(&q->wr, memory_order_acquire);
	size_t n = 0;

	while (r + n != w && n < max) {
		out[n] = q->buf[(r + n) & (q->cap - 1)];
		n++;
	}
	atomic_store_explicit(&q->rd, r + n, memory_order_release);
	return n;
}
