// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,barrier-wrong-kind -fsyntax-only -Xclang -verify %s
/*
 * barrier-wrong-kind: a write barrier right after a doorbell write.
 *
 * A transmit routine fills descriptors, orders them with wmb() before the
 * doorbell, writes the doorbell with a relaxed register write, and puts a
 * second wmb() after it: the doorbell sits in a write-combining mapping,
 * and the barrier flushes it before anything else this CPU (or the next
 * CPU to ring the same doorbell) writes. Then the routine polls the
 * device's completion index. The second barrier orders a register write
 * against later writes; it was never meant to order the doorbell against
 * the completion load, so it is not a store->load barrier of the wrong
 * kind. A write barrier between a memory store and a later load of a word
 * another CPU writes is still reported.
 * Modelled on DPDK's drivers/net/qede/qede_rxtx.c (qede_xmit_pkts() and
 * qede_process_tx_compl()); rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

static inline void writel_relaxed(u32 v, volatile u32 *addr) { *addr = v; }

struct tx_bd { u64 addr; u16 nbytes; u16 flags; };
union tx_db { struct { u16 bd_prod; u16 pad; } data; u32 raw; };
struct txq {
	struct tx_bd *ring;
	volatile u32 *doorbell;
	volatile u16 *hw_cons_ptr;
	union tx_db db;
	u16 sw_prod, sw_cons, mask;
	unsigned long completed;
};

static inline void tx_complete(struct txq *q)
{
	u16 hw = *q->hw_cons_ptr;

	rmb();
	while (q->sw_cons != hw) {
		q->ring[q->sw_cons & q->mask].flags = 0;
		q->sw_cons++;
		q->completed++;
	}
}

/* Doorbell, then a flush of the write-combined doorbell: correct. */
int xmit(struct txq *q, const u64 *addr, const u16 *len, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct tx_bd *bd = &q->ring[q->sw_prod & q->mask];

		bd->addr = addr[i];
		bd->nbytes = len[i];
		q->sw_prod++;
	}
	q->db.data.bd_prod = q->sw_prod;
	wmb();
	writel_relaxed(q->db.raw, q->doorbell);
	wmb();
	tx_complete(q);
	return n;
}

/* The same with the doorbell polled right away: still correct. */
u16 kick_and_peek(struct txq *q)
{
	writel_relaxed(q->db.raw, q->doorbell);
	wmb();
	return READ_ONCE(*q->hw_cons_ptr);
}

struct waiter { int queued; int sleeping; };

/* A memory store, a write barrier, then the other side's word: wrong. */
int publish_then_check(struct waiter *w)
{
	WRITE_ONCE(w->queued, 1); // expected-note {{the access before the barrier is the store to 'w->queued'}}
	wmb(); // expected-warning {{wmb() does not order the store to 'w->queued' before it against the load of 'w->sleeping' after it: only a full barrier orders a store against a later load; use smp_mb()}}
	return READ_ONCE(w->sleeping); // expected-note {{the access after the barrier is the load of 'w->sleeping'}}
}
