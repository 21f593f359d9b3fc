// Modelled on: DPDK app/test/test_seqlock.c:reader_run()/writer_run() and
//   lib/eal/include/rte_seqlock.h (DPDK 22.11).
// FLAGS: @dpdk@ -DALLOW_EXPERIMENTAL_API
// A metering lcore takes a snapshot of a token-bucket profile (rate, burst, tokens)
// published with the rte_seqlock API. To keep the fast path "wait-free" the loop was
// replaced by a single pass whose retry result only bumps a statistics counter: the
// torn profile is used anyway. A retry that neither loops nor discards the data
// validates nothing; reported at the retry call.
#include <stdint.h>
#include <stdbool.h>
#include <rte_seqlock.h>
#include <rte_branch_prediction.h>

struct tb_profile {
	rte_seqlock_t sl;
	uint64_t rate_bps;
	uint64_t burst;
	uint64_t tokens;
	uint64_t last_tsc;
};

struct meter_stats {
	uint64_t torn_reads;
	uint64_t green;
	uint64_t red;
};

static inline bool
tb_conform(uint64_t tokens, uint64_t burst, uint32_t pkt_len)
{
	return pkt_len <= tokens && tokens <= burst;
}

bool
meter_color(const struct tb_profile *p, struct meter_stats *st, uint32_t pkt_len)
{
	uint64_t rate, burst, tokens;
	uint32_t sn;
	bool green;

	sn = rte_seqlock_read_begin(&p->sl);
	rate = p->rate_bps;
	burst = p->burst;
	tokens = p->tokens;
	if (unlikely(rte_seqlock_read_retry(&p->sl, sn))) /* EXPECT: seqlint-seqcount-read-no-retry */
		st->torn_reads++;

	green = rate != 0 && tb_conform(tokens, burst, pkt_len);
	if (green)
		st->green++;
	else
		st->red++;
	return green;
}

void
meter_refill(struct tb_profile *p, uint64_t now_tsc, uint64_t hz)
{
	uint64_t add;

	rte_seqlock_write_lock(&p->sl);
	add = (now_tsc - p->last_tsc) * p->rate_bps / (hz ? hz : 1);
	p->tokens = p->tokens + add > p->burst ? p->burst : p->tokens + add;
	p->last_tsc = now_tsc;
	rte_seqlock_write_unlock(&p->sl);
}
