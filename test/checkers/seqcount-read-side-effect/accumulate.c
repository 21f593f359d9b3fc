// RUN: %clang_plugin -fsyntax-only -Xclang -verify %s
// RUN: %clang_plugin -DBITS_PER_LONG=32 -fsyntax-only -Xclang -verify %s
/*
 * seqcount-read-side-effect: accumulations whose target outlives a failed
 * attempt (the caller's array or struct, a local declared before the retry
 * loop) add the torn values of every retried attempt again. Plain stores
 * there are fine (the attempt that succeeds overwrites them), and so is an
 * accumulation into a target re-initialized in each attempt, into a local
 * declared inside the loop, or after the loop.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>

struct ring_stats {
	u64 packets, bytes, drops;
	struct u64_stats_sync syncp;
};

struct link_stats64 {
	u64 rx_packets, rx_bytes, rx_dropped;
};

struct vtime {
	seqcount_t seqcount;
	u64 utime, stime, delta;
};

/* ethtool: data[] is the caller's buffer. */
void ring_get_ethtool_stats(struct ring_stats *rs, u64 *data)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&rs->syncp); // expected-note 2 {{the read section begins here}}
		data[0] += rs->packets; // expected-warning {{accumulation into the caller's 'data[0]' inside the read section of 'rs->syncp': a retried attempt adds its values again; read into locals inside the loop and accumulate after it}}
		data[1] += rs->bytes; // expected-warning {{accumulation into the caller's 'data[1]'}}
	} while (u64_stats_fetch_retry(&rs->syncp, start));
}

/* ndo_get_stats64: the caller's struct. */
void ring_fetch_stats(struct ring_stats *rs, struct link_stats64 *stats)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&rs->syncp); // expected-note {{the read section begins here}}
		stats->rx_packets += rs->packets; // expected-warning {{accumulation into the caller's 'stats->rx_packets'}}
		stats->rx_bytes = rs->bytes;
	} while (u64_stats_fetch_retry(&rs->syncp, start));
}

/* A local declared before the loop: total keeps the failed attempt's sum. */
u64 ring_total(struct ring_stats *rings, int n)
{
	u64 total = 0;
	unsigned int start;

	for (int i = 0; i < n; i++) {
		do {
			start = u64_stats_fetch_begin(&rings[i].syncp); // expected-note {{the read section begins here}}
			total += rings[i].bytes; // expected-warning {{accumulation into 'total', which keeps its value across the retry, inside the read section of 'rings[].syncp'}}
		} while (u64_stats_fetch_retry(&rings[i].syncp, start));
	}
	return total;
}

/* The plain seqcount API, a sum of data in the section. */
int vtime_sum(struct vtime *vt, u64 *out)
{
	unsigned int seq;
	u64 sum = 0, d;

	do {
		seq = read_seqcount_begin(&vt->seqcount); // expected-note {{the read section begins here}}
		d = vt->delta;
		sum += d; // expected-warning {{accumulation into 'sum'}}
	} while (read_seqcount_retry(&vt->seqcount, seq));
	*out = sum;
	return 0;
}

/* ---- correct code ---- */

/* Read into locals, accumulate after the loop (the fixed drivers). */
void ring_get_ethtool_stats_fixed(struct ring_stats *rs, u64 *data)
{
	unsigned int start;
	u64 packets, bytes;

	do {
		start = u64_stats_fetch_begin(&rs->syncp);
		packets = rs->packets;
		bytes = rs->bytes;
	} while (u64_stats_fetch_retry(&rs->syncp, start));
	data[0] += packets;
	data[1] += bytes;
}

/* Re-initialized at the top of each attempt (sched/cputime.c). */
bool vtime_fetch(struct vtime *vt, u64 *utime, u64 *stime)
{
	unsigned int seq;
	u64 sum;

	do {
		seq = read_seqcount_begin(&vt->seqcount);
		*utime = vt->utime;
		*stime = vt->stime;
		sum = 0;
		if (vt->delta) {
			*stime += vt->delta;
			sum += vt->delta;
		}
	} while (read_seqcount_retry(&vt->seqcount, seq));
	return sum != 0;
}

/* A local declared inside the loop is a new object in every attempt. */
u64 ring_sum_inner(struct ring_stats *rs)
{
	unsigned int start;
	u64 out;

	do {
		u64 t = 0;

		start = u64_stats_fetch_begin(&rs->syncp);
		t += rs->packets;
		t += rs->drops;
		out = t;
	} while (u64_stats_fetch_retry(&rs->syncp, start));
	return out;
}

/* No retry loop: a failed check discards the result, so nothing repeats. */
int ring_try_sum(struct ring_stats *rs, u64 *sum)
{
	unsigned int start = u64_stats_fetch_begin(&rs->syncp);
	u64 t = 0;

	t += rs->packets;
	t += rs->bytes;
	if (u64_stats_fetch_retry(&rs->syncp, start))
		return -1;
	*sum = t;
	return 0;
}

/* A count of attempts is meant to survive the retry. */
int ring_read_bounded(struct ring_stats *rs, u64 *out)
{
	unsigned int start;
	int tries = 0;

	do {
		if (++tries > 3)
			return -1;
		start = u64_stats_fetch_begin(&rs->syncp);
		*out = rs->packets;
		tries += 1;
	} while (u64_stats_fetch_retry(&rs->syncp, start));
	return tries;
}

/* Two read loops accumulate into per-ring locals, then into the total. */
u64 rings_total_fixed(struct ring_stats *rings, int n)
{
	u64 total = 0;

	for (int i = 0; i < n; i++) {
		unsigned int start;
		u64 b;

		do {
			start = u64_stats_fetch_begin(&rings[i].syncp);
			b = rings[i].bytes;
		} while (u64_stats_fetch_retry(&rings[i].syncp, start));
		total += b;
	}
	return total;
}
