// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: the transmit function fills descriptors and
 * moves next_to_use with only smp_wmb() (for the clean path on another
 * CPU); the tail doorbell is rung later, from another function, with
 * writel_relaxed() and nothing before it. No barrier orders the descriptor
 * stores before the MMIO write, so the NIC can fetch stale descriptors.
 * Modelled on drivers/net/ethernet/intel/ice/ice_txrx_lib.c:
 * ice_xdp_ring_update_tail() ("wmb(); writel_relaxed(...)") and
 * __ice_xmit_xdp_ring() (Linux 6.12).
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

static inline void writel_relaxed(u32 v, volatile u32 *addr) { *addr = v; }
static inline void writel(u32 v, volatile u32 *addr) { wmb(); *addr = v; }

struct txd { u64 addr; u64 cmd; };
struct txb { struct txd *eop; u32 len; };

struct xring {
	struct txd *desc;
	struct txb *buf;
	u16 count, next_to_use;
	volatile u32 *tail;
};

int xring_xmit(struct xring *r, u64 dma, u32 len)
{
	u16 i = r->next_to_use;
	struct txd *d = &r->desc[i];
	struct txb *b = &r->buf[i];

	d->addr = dma;
	d->cmd = (u64)len << 34 | 3;
	b->len = len;
	smp_wmb();
	b->eop = d;
	if (++i == r->count)
		i = 0;
	r->next_to_use = i;
	return 0;
}

void xring_kick(struct xring *r)
{
	writel_relaxed(r->next_to_use, r->tail); // expected-warning {{the doorbell is written here with the ring index 'r->next_to_use', which this file stores after the slots with no barrier that orders them for the device}}
}

void xring_kick_ok(struct xring *r)
{
	wmb();
	writel_relaxed(r->next_to_use, r->tail);
}

void xring_kick_ordered(struct xring *r)
{
	writel(r->next_to_use, r->tail);
}

/* A second ring whose producer orders the descriptors with wmb() itself:
 * a later relaxed doorbell is fine. */
struct yring {
	struct txd *desc;
	u16 count, next_to_use;
	volatile u32 *tail;
};

int yring_xmit(struct yring *r, u64 dma, u32 len)
{
	u16 i = r->next_to_use;
	struct txd *d = &r->desc[i];

	d->addr = dma;
	d->cmd = (u64)len << 34 | 3;
	wmb();
	if (++i == r->count)
		i = 0;
	r->next_to_use = i;
	return 0;
}

void yring_kick(struct yring *r)
{
	writel_relaxed(r->next_to_use, r->tail);
}
