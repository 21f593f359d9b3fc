// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify=chain -DCHAIN %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify=chain -DFIRST=0 %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify=chain -DEXTERN %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify=chain -DSELFONLY %s
/*
 * mp-missing-barrier: a relay between instances of one ring type.
 *
 * Each rx queue refills its own producer ring and publishes the ring's
 * producer index with smp_wmb() before it: another CPU's relay reads that
 * index, issues smp_rmb(), and moves the buffers into ring 0, the only
 * ring the device is told about. The relay advances ring 0's producer
 * index with no barrier: nothing but the relay's own caller reads ring 0's
 * index, and it rings the doorbell after wmb(). The deviant evidence (the
 * same field is stored after smp_wmb() elsewhere) is about the queues'
 * rings, which the relay reads with its barrier; ring 0 is never among
 * them: it is passed as the destination only, and the sources are
 * napi[i] for i counting up from 1. The relay's own loads of ring 0's
 * index (followed by a read barrier for the slots it checks), and its
 * caller's load before the relay runs, are the writer's own.
 * Another function drains queue 2 into a spare ring with the same relay:
 * the spare ring is another member of the device, apart from the queues.
 * Still reported: with -DCHAIN, that function drains ring 0 instead
 * (ring 0's index is then read by the relay, and the unordered store
 * publishes it to that reader); with
 * -DFIRST=0, the sources count from ring 0 itself; with -DEXTERN, the
 * relay can be called from other files with any rings; with -DSELFONLY,
 * the relay reads the sources' index with no barrier and ring 0's with
 * READ_ONCE(), so the file's only ordered load of the index is the
 * relay's own, of ring 0: its readers are elsewhere.
 * Modelled on Linux drivers/net/ethernet/broadcom/tg3.c
 * (tg3_rx_prodring_xfer(), tg3_rx(), tg3_poll_work()); rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

static inline void writel(u32 v, volatile u32 *addr) { wmb(); *addr = v; }

/* The variants change constants and macros only (the metamorphic guard
 * renames identifiers in the code it compiles). */
#ifndef FIRST
#define FIRST 1
#endif
#ifdef EXTERN
#define RELAY
#else
#define RELAY static
#endif
#ifdef CHAIN
#define SPARE_FROM 0
#else
#define SPARE_FROM 2
#endif
#ifdef SELFONLY
#define OWN_INDEX(x) READ_ONCE(x)
#define SRC_RMB() barrier()
#define SLOT_RMB() barrier()
#else
#define OWN_INDEX(x) (x)
#define SRC_RMB() smp_rmb()
#define SLOT_RMB() smp_rmb()
#endif

struct ring_info { void *data; u64 mapping; };
struct rx_bd { u32 addr_hi, addr_lo, len_flags, opaque; };
struct prodring {
	u32 prod_idx, cons_idx;
	struct ring_info *buffers;
	struct rx_bd *ring;
};
struct napi { struct prodring prodring; void *(*alloc)(u64 *); };
struct nic {
	struct napi napi[5];
	struct prodring spare;
	u32 rxq_cnt, mask;
	int rss;
	volatile u32 *mbox;
};

/* A queue refills its own ring and publishes the index. */
static void rx_refill(struct nic *tp, struct napi *tnapi, int n)
{
	struct prodring *tpr = &tnapi->prodring;
	u32 prod = tpr->prod_idx;

	while (n--) {
		u64 dma;
		void *buf = tnapi->alloc(&dma);

		tpr->buffers[prod].data = buf;
		tpr->ring[prod].addr_hi = dma >> 32;
		tpr->ring[prod].addr_lo = (u32)dma;
		prod = (prod + 1) & tp->mask;
	}
	if (!tp->rss) {
		wmb();
		tpr->prod_idx = prod;
		writel(prod, tp->mbox);
	} else {
		smp_wmb();
		tpr->prod_idx = prod; // chain-note {{'dpr->prod_idx' is accessed with a store after a write barrier here, in 'rx_refill()': it is shared, and ordered there}}
	}
}

/* Moves what a queue produced into another ring. */
RELAY int ring_xfer(struct nic *tp, struct prodring *dpr, struct prodring *spr)
{
	u32 si, di, n, i;

	while (1) {
		u32 src_prod = spr->prod_idx;

		SRC_RMB();
		if (spr->cons_idx == src_prod)
			break;
		n = (src_prod - spr->cons_idx) & tp->mask;
		si = spr->cons_idx;
		di = OWN_INDEX(dpr->prod_idx);
		/* Stop at a destination slot still in use. */
		for (i = di; i < di + n; i++)
			if (dpr->buffers[i & tp->mask].data) {
				n = i - di;
				break;
			}
		if (!n)
			break;
		/* Order the slot checks before the copies. */
		SLOT_RMB();
		for (i = 0; i < n; i++, di = (di + 1) & tp->mask, si = (si + 1) & tp->mask) {
			struct rx_bd *sbd = &spr->ring[si], *dbd = &dpr->ring[di];

			dpr->buffers[di] = spr->buffers[si];
			dbd->addr_hi = sbd->addr_hi;
			dbd->addr_lo = sbd->addr_lo; // chain-note {{the store to 'dbd->addr_lo' is here}}
		}
		spr->cons_idx = (spr->cons_idx + n) & tp->mask;
		dpr->prod_idx = (dpr->prod_idx + n) & tp->mask; // chain-warning {{'dpr->prod_idx' is published here after the store to 'dbd->addr_lo' with no write barrier in between}}
	}
	return 0;
}

void poll_work(struct nic *tp, struct napi *tnapi, int n)
{
	rx_refill(tp, tnapi, n);
	if (tp->rss && tnapi == &tp->napi[1]) {
		struct prodring *dpr = &tp->napi[0].prodring;
		u32 std_prod = dpr->prod_idx;
		u32 i;

		for (i = FIRST; i <= tp->rxq_cnt; i++)
			ring_xfer(tp, dpr, &tp->napi[i].prodring);
		wmb();
		if (std_prod != dpr->prod_idx)
			writel(dpr->prod_idx, tp->mbox);
	}
}

/* Drains a queue into the spare ring (with -DCHAIN: ring 0 itself). */
void drain_to_spare(struct nic *tp)
{
	ring_xfer(tp, &tp->spare, &tp->napi[SPARE_FROM].prodring);
}

// expected-no-diagnostics
