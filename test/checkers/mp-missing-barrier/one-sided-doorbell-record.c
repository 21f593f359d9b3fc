// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A doorbell record: a device-endian word in coherent memory, outside the
 * ring, that gets the producer position after the work-queue entries are
 * written. The NIC reads it (when it polls, or after the MMIO doorbell) to
 * learn how far the ring is filled, so the entries must be visible first:
 * dma_wmb() before the record (the wmb() after it orders the record before
 * the MMIO write only). Modelled on mlx5's mlx5e_notify_hw(), rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __be32;
#define cpu_to_be32(x) ((__be32)__builtin_bswap32(x))

struct wqe { __be32 ctrl; __be32 addr; __be32 len; };
struct wq { struct wqe *wqes; __be32 *db; u16 mask, pc; volatile u32 *uar; };

void wq_post(struct wq *q, u32 addr, u32 len)
{
	struct wqe *w = &q->wqes[q->pc & q->mask];

	w->addr = cpu_to_be32(addr);
	w->len = cpu_to_be32(len);
	w->ctrl = cpu_to_be32(q->pc);
	q->pc++;
	*q->db = cpu_to_be32(q->pc); // expected-warning {{'*(q->db)' is published here after the store to 'w->ctrl' with no write barrier}}
	wmb();
	*q->uar = q->pc;
}

void wq_post_ok(struct wq *q, u32 addr, u32 len)
{
	struct wqe *w = &q->wqes[q->pc & q->mask];

	w->addr = cpu_to_be32(addr);
	w->len = cpu_to_be32(len);
	w->ctrl = cpu_to_be32(q->pc);
	q->pc++;
	dma_wmb();
	*q->db = cpu_to_be32(q->pc);
	wmb();
	*q->uar = q->pc;
}

/* A device-endian word outside the ring that does not get the position:
 * not a doorbell record. */
struct stats { __be32 *last_err; };
void note_error(struct wq *q, struct stats *s, u32 code)
{
	struct wqe *w = &q->wqes[q->pc & q->mask];

	w->ctrl = 0;
	*s->last_err = cpu_to_be32(code);
}
