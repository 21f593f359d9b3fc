// Modelled on: DPDK app/test/test_seqlock.c:writer_run()/reader_run() and
//   lib/eal/include/rte_seqlock.h (rte_seqcount_t + rte_spinlock_t), DPDK 22.11.
// FLAGS: @dpdk@ -DALLOW_EXPERIMENTAL_API
// Correct use of the rte_seqcount API on a field named `sc`, serialized by a separate
// spinlock exactly as rte_seqlock does it. The reader loops on
// rte_seqcount_read_retry(), which also rejects an odd begin value, and only checks the
// snapshot (a == b == c) after the loop.
#include <stdint.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <rte_seqcount.h>
#include <rte_spinlock.h>

struct triple {
	rte_seqcount_t sc;
	rte_spinlock_t wlock;
	uint64_t a;
	uint64_t b;
	uint64_t c;
};

void
triple_write(struct triple *d, uint64_t new_value)
{
	rte_spinlock_lock(&d->wlock);
	rte_seqcount_write_begin(&d->sc);

	d->c = new_value;
	d->b = new_value;
	d->a = new_value;

	rte_seqcount_write_end(&d->sc);
	rte_spinlock_unlock(&d->wlock);
}

int
triple_check(const struct triple *d)
{
	uint64_t a, b, c;
	uint32_t sn;

	do {
		sn = rte_seqcount_read_begin(&d->sc);
		a = d->a;
		c = d->c;
		b = d->b;
	} while (rte_seqcount_read_retry(&d->sc, sn));

	if (a != b || b != c) {
		printf("Reader observed inconsistent data values %" PRIu64 " %" PRIu64
		       " %" PRIu64 "\n", a, b, c);
		return -1;
	}
	return 0;
}
