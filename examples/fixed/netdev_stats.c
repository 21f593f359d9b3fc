/*
 * netdev_stats.c - per-queue receive statistics of a network driver.
 *
 * The receive path of each queue runs in one thread at a time (the queue's
 * poll loop), so it updates its counters without a lock, bracketed by an
 * open-coded sequence count. ethtool-style readers take a consistent
 * snapshot from any thread without slowing the receive path down.
 */
#include "../include/compat.h"

#define NQUEUES 4

struct rxq_stats {
	unsigned int seq;	/* odd while the poll loop updates the counters */
	u64 packets;
	u64 bytes;
	u64 errors;
	u64 last_len;
};

struct rxq_snapshot {
	u64 packets;
	u64 bytes;
	u64 errors;
};

static struct rxq_stats rxq_stats[NQUEUES];

/* Poll loop of queue q: the only writer of rxq_stats[q]. */
void rxq_account(unsigned int q, unsigned int len, bool error)
{
	struct rxq_stats *st = &rxq_stats[q % NQUEUES];

	WRITE_ONCE(st->seq, st->seq + 1);
	smp_wmb();
	WRITE_ONCE(st->packets, st->packets + 1);
	WRITE_ONCE(st->bytes, st->bytes + len);
	if (error)
		WRITE_ONCE(st->errors, st->errors + 1);
	WRITE_ONCE(st->last_len, len);
	smp_store_release(&st->seq, st->seq + 1);
}

/* Any thread: a consistent snapshot of one queue. */
void rxq_snapshot(unsigned int q, struct rxq_snapshot *snap)
{
	const struct rxq_stats *st = &rxq_stats[q % NQUEUES];
	unsigned int seq;

	do {
		seq = smp_load_acquire(&st->seq) & ~1U;
		snap->packets = READ_ONCE(st->packets);
		snap->bytes = READ_ONCE(st->bytes);
		snap->errors = READ_ONCE(st->errors);
		smp_rmb();
	} while (READ_ONCE(st->seq) != seq);
}

/* Totals over all queues, e.g. for a /proc-style report. */
void rxq_totals(struct rxq_snapshot *total)
{
	struct rxq_snapshot snap;
	unsigned int q;

	total->packets = 0;
	total->bytes = 0;
	total->errors = 0;
	for (q = 0; q < NQUEUES; q++) {
		rxq_snapshot(q, &snap);
		total->packets += snap.packets;
		total->bytes += snap.bytes;
		total->errors += snap.errors;
	}
}
