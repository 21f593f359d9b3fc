// Modelled on: tools/lib/perf/mmap.c:perf_mmap__read_head() (acquire of a producer's
//              position in shared memory), reshaped as a telemetry ring (Linux 6.12)
// Pattern: a shared-memory telemetry ring between a sampling agent (producer,
//   another process) and this collector. The collector has two readers. drain()
//   loads the producer's sequence with __ATOMIC_ACQUIRE. peek_latest(), used by the
//   HTTP status handler, reads the newest sample. Fixed: it also loads the
//   sequence with __ATOMIC_ACQUIRE.
// The other side is the agent process. It writes a sample and then
// __atomic_store_n(&seq, s + 1, __ATOMIC_RELEASE). A reader that wants the sample
// contents for a sequence number must acquire that number. A relaxed load lets the
// slot loads be satisfied early, so the status page can show a torn sample (new
// timestamp, old values). The same location is loaded with acquire in one function
// and relaxed in the other.
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#define RING_SLOTS	1024

struct sample {
	uint64_t ts_ns;
	uint64_t rx_bytes, tx_bytes;
	uint32_t cpu_pct, mem_mb;
};

struct telemetry_ring {
	uint64_t seq;			/* producer: samples written so far */
	uint64_t pad[7];
	struct sample slot[RING_SLOTS];
};

struct collector {
	struct telemetry_ring *ring;	/* mmap()ed, MAP_SHARED */
	uint64_t next;			/* private */
	uint64_t lost;
};

size_t drain(struct collector *c, struct sample *out, size_t max)
{
	uint64_t seq = __atomic_load_n(&c->ring->seq, __ATOMIC_ACQUIRE);
	size_t n = 0;

	if (seq - c->next > RING_SLOTS) {
		c->lost += seq - c->next - RING_SLOTS;
		c->next = seq - RING_SLOTS;
	}
	while (c->next != seq && n < max)
		out[n++] = c->ring->slot[c->next++ % RING_SLOTS];
	return n;
}

bool peek_latest(struct collector *c, struct sample *out)
{
	uint64_t seq = __atomic_load_n(&c->ring->seq, __ATOMIC_ACQUIRE);

	if (!seq)
		return false;
	*out = c->ring->slot[(seq - 1) % RING_SLOTS];
	return true;
}
