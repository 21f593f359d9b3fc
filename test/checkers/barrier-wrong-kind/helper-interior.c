// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,barrier-wrong-kind -fsyntax-only -Xclang -verify %s
/*
 * barrier-wrong-kind: a barrier inside a helper seen through at its call.
 *
 * A transmit helper fills one descriptor through a local pointer into the
 * ring, issues wmb() between the descriptor's fields and the rest, and reads
 * the packet's flags on both sides of it. Seen from the caller, only the
 * accesses through the helper's parameters are visible (the packet's flags:
 * loads on both sides), not the descriptor stores through the helper's own
 * pointer, so the caller's window is not the barrier's: the barrier is
 * judged in the helper, where it orders stores. A wrong barrier inside a
 * helper is reported there, once; a helper that is only a barrier is still
 * judged with its caller's accesses.
 * Modelled on DPDK's drivers/net/axgbe/axgbe_rxtx.c (axgbe_xmit_hw(),
 * called by axgbe_xmit_pkts()); rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define F_CSUM 1u
#define F_VLAN 2u
#define OWN 0x80000000u

struct tx_desc { u64 addr; u32 ctl; u32 status; };
struct pkt { u64 iova; u32 len; u32 flags; };
struct txq { struct tx_desc *ring; struct pkt **sw; u16 cur, mask; };

static int tx_one(struct txq *q, struct pkt *p)
{
	struct tx_desc *d = &q->ring[q->cur & q->mask];

	d->addr = p->iova;
	d->ctl = p->len;
	if (p->flags & F_CSUM)
		d->ctl |= 1u << 20;
	wmb();
	if (p->flags & F_VLAN)
		d->ctl |= 1u << 21;
	wmb();
	d->status = OWN;
	q->sw[q->cur & q->mask] = p;
	q->cur++;
	return 0;
}

int tx_burst(struct txq *q, struct pkt **pkts, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (tx_one(q, pkts[i]))
			break;
	return i;
}

/* Bug, inside the helper: a read barrier between two stores. */
struct stat_blk { u64 bytes; u32 gen; };

static void stat_put(struct stat_blk *s, u64 bytes, u32 gen)
{
	s->bytes = bytes; // expected-note {{the access before the barrier is the store to 's->bytes'}}
	rmb(); // expected-warning {{rmb() does not order stores, and the accesses on both sides are stores}}
	WRITE_ONCE(s->gen, gen); // expected-note {{the access after the barrier is the store to 's->gen'}}
}

void stat_reset(struct stat_blk *s, int n)
{
	for (int i = 0; i < n; i++)
		stat_put(&s[i], 0, 1);
}

/* Bug, at the call: a helper that is only a barrier, between the caller's
 * stores. */
static inline void order_loads(void)
{
	rmb(); // expected-note {{inside 'order_loads': rmb() (called at the place above)}}
}

void stat_set(struct stat_blk *s, u64 bytes)
{
	s->bytes = bytes; // expected-note {{the access before the barrier is the store to 's->bytes'}}
	order_loads(); // expected-warning {{order_loads() does not order stores, and the accesses on both sides are stores}}
	WRITE_ONCE(s->gen, 1); // expected-note {{the access after the barrier is the store to 's->gen'}}
}
