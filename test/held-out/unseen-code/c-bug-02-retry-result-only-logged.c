// Modelled on: msullivan/rmc-compiler case_studies/seqlock_c11.hpp (read_lock()/
//   read_unlock() as C helpers) and the SeqLock users of its test harness, C11.
// A metrics exporter snapshots a set of gauges under an odd/even word `stamp`. The
// begin helper waits for an even value with acquire, the validate helper has the
// acquire fence and the recheck. The exporter calls validate, but when it reports a
// concurrent update it only logs and emits the torn snapshot anyway: no loop, no
// discard. Reported at the validate call whose result does not control the data.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

struct gauges {
	atomic_ulong stamp;
	_Atomic uint64_t rx_bytes;
	_Atomic uint64_t tx_bytes;
	_Atomic uint32_t conns;
	_Atomic uint32_t errors;
};

static unsigned long gauges_read_begin(struct gauges *g)
{
	unsigned long t;

	while ((t = atomic_load_explicit(&g->stamp, memory_order_acquire)) & 1)
		;
	return t;
}

static bool gauges_read_validate(struct gauges *g, unsigned long t)
{
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&g->stamp, memory_order_relaxed) == t;
}

void gauges_write(struct gauges *g, uint64_t rx, uint64_t tx, uint32_t conns, uint32_t err)
{
	unsigned long t = atomic_load_explicit(&g->stamp, memory_order_relaxed);

	atomic_store_explicit(&g->stamp, t + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&g->rx_bytes, rx, memory_order_relaxed);
	atomic_store_explicit(&g->tx_bytes, tx, memory_order_relaxed);
	atomic_store_explicit(&g->conns, conns, memory_order_relaxed);
	atomic_store_explicit(&g->errors, err, memory_order_relaxed);
	atomic_store_explicit(&g->stamp, t + 2, memory_order_release);
}

int gauges_export(struct gauges *g, FILE *out)
{
	uint64_t rx, tx;
	uint32_t conns, err;
	unsigned long t;

	t = gauges_read_begin(g);
	rx = atomic_load_explicit(&g->rx_bytes, memory_order_relaxed);
	tx = atomic_load_explicit(&g->tx_bytes, memory_order_relaxed);
	conns = atomic_load_explicit(&g->conns, memory_order_relaxed);
	err = atomic_load_explicit(&g->errors, memory_order_relaxed);
	if (!gauges_read_validate(g, t)) /* EXPECT: seqlint-seqcount-read-no-retry */
		fprintf(stderr, "gauges: snapshot raced with an update\n");

	return fprintf(out, "rx_bytes %llu\ntx_bytes %llu\nconns %u\nerrors %u\n",
		       (unsigned long long)rx, (unsigned long long)tx, conns, err);
}
