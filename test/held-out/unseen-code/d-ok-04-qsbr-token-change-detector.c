// Modelled on: DPDK lib/rcu/rte_rcu_qsbr.h:rte_rcu_qsbr_start(), rte_rcu_qsbr_quiescent(),
//   rte_rcu_qsbr_thread_online() and __rte_rcu_qsbr_check_all() (DPDK 22.11).
// FLAGS: @dpdk@
// Correct: `token` is a grace-period counter, not a seqcount. The writer bumps it with a
// release add after unlinking an element; each reader, between packets, acquires the
// token and, if it changed, release-stores it into its own `cnt`; the writer waits until
// every online reader's cnt has reached its token. Loads of `token` compared with a
// saved copy, and counters incremented with barriers, but no data is read "under" the
// counter and there is no odd state.
#include <stdint.h>
#include <stdbool.h>
#include <rte_atomic.h>
#include <rte_pause.h>
#include <rte_branch_prediction.h>

#define QS_MAX_THREADS		64
#define QS_CNT_THR_OFFLINE	0

struct qs_cnt {
	uint64_t cnt;
	uint32_t lock_cnt;
} __attribute__((aligned(64)));

struct qs_var {
	uint64_t token __attribute__((aligned(64)));
	uint64_t acked_token;
	uint32_t max_threads;
	struct qs_cnt qsbr_cnt[QS_MAX_THREADS];
};

uint64_t
qs_start(struct qs_var *v)
{
	/* release the unlink of the element before the token update */
	return __atomic_add_fetch(&v->token, 1, __ATOMIC_RELEASE);
}

void
qs_thread_online(struct qs_var *v, unsigned int id)
{
	uint64_t t = __atomic_load_n(&v->token, __ATOMIC_RELAXED);

	__atomic_store_n(&v->qsbr_cnt[id].cnt, t, __ATOMIC_RELAXED);
	/* later loads of shared data must not move above the store */
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void
qs_quiescent(struct qs_var *v, unsigned int id)
{
	uint64_t t;

	t = __atomic_load_n(&v->token, __ATOMIC_ACQUIRE);
	if (t != __atomic_load_n(&v->qsbr_cnt[id].cnt, __ATOMIC_RELAXED))
		__atomic_store_n(&v->qsbr_cnt[id].cnt, t, __ATOMIC_RELEASE);
}

int
qs_check_all(struct qs_var *v, uint64_t t, bool wait)
{
	uint64_t acked = UINT64_MAX, c;
	uint32_t i;

	if (likely(t <= v->acked_token))
		return 1;

	for (i = 0; i < v->max_threads; i++) {
		while (1) {
			c = __atomic_load_n(&v->qsbr_cnt[i].cnt, __ATOMIC_ACQUIRE);
			if (likely(c == QS_CNT_THR_OFFLINE || c >= t))
				break;
			if (!wait)
				return 0;
			rte_pause();
		}
		if (c != QS_CNT_THR_OFFLINE && acked > c)
			acked = c;
	}

	if (acked != UINT64_MAX)
		__atomic_store_n(&v->acked_token, acked, __ATOMIC_RELAXED);
	return 1;
}
