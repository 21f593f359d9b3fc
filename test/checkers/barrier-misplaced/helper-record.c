// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-misplaced' -fsyntax-only -Xclang -verify %s
/*
 * barrier-misplaced: a helper that publishes a record of its own and ends
 * with a write barrier.
 *
 * A clock-queue poller advances its private consumer indices, then calls
 * a helper that caches the new timestamp: the helper stores the timestamp
 * and the word that packs the index with it (readers compare the two to
 * detect a torn pair), both with relaxed atomic stores, and ends with a
 * write barrier that orders the cached pair before whatever follows. The
 * helper publishes its own record; the caller's index stores before the
 * call are not data behind it, and the barrier at the end of the helper is
 * not misplaced. A helper that only sets a flag and then fences is still
 * judged with its caller's data stores: there the caller's data is what
 * the flag publishes, and the barrier belongs before the flag.
 * Modelled on DPDK's drivers/net/mlx5/mlx5_txpp.c
 * (mlx5_txpp_cache_timestamp() called by mlx5_txpp_update_timestamp());
 * rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define CQ_INDEX_WIDTH 24

struct ts_cache { u64 ts; u64 ci_ts; };
struct clock_wq { volatile u64 *cqe; u16 sq_ci; u32 cq_ci; };
struct clock { struct ts_cache cache; struct clock_wq wq; unsigned long err; };

static inline void cache_timestamp(struct clock *c, u64 ts, u64 ci)
{
	ci = ci << (64 - CQ_INDEX_WIDTH);
	ci |= (ts << CQ_INDEX_WIDTH) >> CQ_INDEX_WIDTH;
	__atomic_store_n(&c->cache.ts, ts, __ATOMIC_RELAXED);
	__atomic_store_n(&c->cache.ci_ts, ci, __ATOMIC_RELAXED);
	wmb();
}

void update_timestamp(struct clock *c)
{
	struct clock_wq *wq = &c->wq;
	u64 raw = *wq->cqe;
	u16 ci = raw >> 48;
	u64 ts = raw & 0xffffffffffffull;

	wq->cq_ci += (u16)(ci - wq->sq_ci);
	wq->sq_ci = ci;
	cache_timestamp(c, ts, wq->cq_ci);
}

/* A flag-only helper with a trailing barrier: the caller's data is what it
 * publishes, unordered. */
struct msg { int payload; int len; int ready; };

static inline void mark_ready(struct msg *m)
{
	__atomic_store_n(&m->ready, 1, __ATOMIC_RELAXED);
	wmb();
}

void post_msg(struct msg *m, int v)
{
	m->payload = v;
	m->len = 4; // expected-note {{data store to 'm->len'}}
	mark_ready(m); // expected-note {{the publishing store to 'm->ready'; the barrier belongs before it}} expected-warning {{mark_ready() comes after the store to 'm->ready' that publishes the data, and no store follows it in this function: it does not order the store to 'm->len' before the publication; move it before the store to 'm->ready'}}
}
