// Modelled on: DPDK lib/eal/include/rte_seqcount.h (rte_seqcount_read_begin() is a bare
//   acquire load; the odd test lives in rte_seqcount_read_retry(): "if (begin_sn & 1)
//   return true") and app/test/test_seqlock.c:reader_run() (DPDK 22.11).
// FLAGS: @dpdk@
// A hand-rolled copy of the pair on a word named `epoch_cnt` kept the acquire begin and
// the fenced recheck but lost the odd test of the retry. A reader that starts while the
// writer is between its two increments reads half-updated next-hop entries; if the
// writer is still inside at the recheck, epoch_cnt is unchanged and the torn entry is
// accepted. Nothing on the read path waits for, tests or masks the low bit: reported
// at the begin call.
#include <stdint.h>
#include <stdbool.h>
#include <rte_atomic.h>
#include <rte_spinlock.h>
#include <rte_branch_prediction.h>

#define NH_MAX	1024

struct nh_entry {
	uint32_t gw_ip;
	uint16_t port_id;
	uint16_t mtu;
	uint8_t mac[6];
};

struct nh_table {
	uint32_t epoch_cnt;
	rte_spinlock_t lock;
	struct nh_entry e[NH_MAX];
};

static inline uint32_t
nh_read_begin(const struct nh_table *t)
{
	return __atomic_load_n(&t->epoch_cnt, __ATOMIC_ACQUIRE);
}

static inline bool
nh_read_retry(const struct nh_table *t, uint32_t begin)
{
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&t->epoch_cnt, __ATOMIC_RELAXED) != begin;
}

int
nh_lookup(const struct nh_table *t, uint32_t idx, struct nh_entry *out)
{
	uint32_t begin;

	if (unlikely(idx >= NH_MAX))
		return -1;

	do {
		begin = nh_read_begin(t); /* EXPECT: seqlint-seqcount-read-odd-unchecked */
		out->gw_ip = t->e[idx].gw_ip;
		out->port_id = t->e[idx].port_id;
		out->mtu = t->e[idx].mtu;
		__builtin_memcpy(out->mac, t->e[idx].mac, 6);
	} while (nh_read_retry(t, begin));

	return out->port_id == UINT16_MAX ? -1 : 0;
}

void
nh_update(struct nh_table *t, uint32_t idx, const struct nh_entry *ne)
{
	uint32_t c;

	rte_spinlock_lock(&t->lock);
	c = t->epoch_cnt;
	__atomic_store_n(&t->epoch_cnt, c + 1, __ATOMIC_RELAXED);
	rte_atomic_thread_fence(__ATOMIC_RELEASE);
	t->e[idx] = *ne;
	__atomic_store_n(&t->epoch_cnt, c + 2, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&t->lock);
}
