// Modelled on: PortAudio src/common/pa_ringbuffer.c (index ownership: each side writes
//              only its own index), in GCC __atomic form (PortAudio v19)
// Pattern: a GCC __atomic SPSC ring between two threads (an audio callback producer
//   and a disk-writer consumer, as in JACK/PortAudio-style ring buffers).
// Correct: each side loads its OWN index with __ATOMIC_RELAXED. Only that thread ever
// stores it, so a relaxed (even plain) load always returns its own last store and
// orders nothing that matters. Each side loads the OTHER side's index with
// __ATOMIC_ACQUIRE and stores its own with __ATOMIC_RELEASE. A checker that sees
// "relaxed load of the write index, then slot stores" and reports a missing acquire
// is wrong: the acquire that matters is on the read index, the one the consumer
// stores.
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

struct frame { float l, r; };

struct audio_ring {
	uint32_t w __attribute__((aligned(64)));	/* producer-owned */
	uint32_t r __attribute__((aligned(64)));	/* consumer-owned */
	uint32_t mask;
	struct frame *buf;
};

size_t ring_write(struct audio_ring *q, const struct frame *in, size_t n)
{
	uint32_t w = __atomic_load_n(&q->w, __ATOMIC_RELAXED);	/* ours */
	uint32_t r = __atomic_load_n(&q->r, __ATOMIC_ACQUIRE);	/* theirs */
	uint32_t space = q->mask + 1 - (w - r);
	size_t i;

	if (n > space)
		n = space;
	for (i = 0; i < n; i++)
		q->buf[(w + i) & q->mask] = in[i];
	__atomic_store_n(&q->w, w + (uint32_t)n, __ATOMIC_RELEASE);
	return n;
}

size_t ring_read(struct audio_ring *q, struct frame *out, size_t n)
{
	uint32_t r = __atomic_load_n(&q->r, __ATOMIC_RELAXED);	/* ours */
	uint32_t w = __atomic_load_n(&q->w, __ATOMIC_ACQUIRE);	/* theirs */
	size_t i, avail = w - r;

	if (n > avail)
		n = avail;
	for (i = 0; i < n; i++)
		out[i] = q->buf[(r + i) & q->mask];
	__atomic_store_n(&q->r, r + (uint32_t)n, __ATOMIC_RELEASE);
	return n;
}

bool ring_write_one(struct audio_ring *q, struct frame f)
{
	uint32_t w = __atomic_load_n(&q->w, __ATOMIC_RELAXED);

	if (w - __atomic_load_n(&q->r, __ATOMIC_ACQUIRE) > q->mask)
		return false;
	q->buf[w & q->mask] = f;
	__atomic_store_n(&q->w, w + 1, __ATOMIC_RELEASE);
	return true;
}
