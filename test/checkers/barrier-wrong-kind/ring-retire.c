// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-wrong-kind' -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * barrier-wrong-kind, a ring's consumer: it reads a slot and then stores its
 * index to hand the slot back to the producer. The slot loads must complete
 * before the index store is visible (load -> store): smp_wmb() orders stores
 * only (Documentation/circular-buffers.txt uses smp_store_release() there).
 * The producer is another CPU, the kernel or a device, not in this file.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct ev { u64 a, b; };
struct evring {
	unsigned int head, tail, mask;
	struct ev slot[128];
};

extern void handle(u64 a, u64 b);
extern void note_done(unsigned int n);

int ev_consume(struct evring *r)
{
	unsigned int h = r->head;
	u64 a, b;

	if (h == smp_load_acquire(&r->tail))
		return 0;
	a = r->slot[h & r->mask].a;
	b = r->slot[h & r->mask].b;
	smp_wmb(); // expected-warning {{smp_wmb() orders stores only: the load of 'r->slot[].b' before it is not ordered against the store to 'r->head' after it}}
	WRITE_ONCE(r->head, h + 1);
	handle(a, b);
	return 1;
}

/* Correct: the release store orders the slot loads before it. */
int ev_consume_release(struct evring *r)
{
	unsigned int h = r->head;
	u64 a, b;

	if (h == smp_load_acquire(&r->tail))
		return 0;
	a = r->slot[h & r->mask].a;
	b = r->slot[h & r->mask].b;
	smp_store_release(&r->head, h + 1);
	handle(a, b);
	return 1;
}

/* Correct: a full barrier. */
int ev_consume_mb(struct evring *r)
{
	unsigned int h = r->head;
	u64 a;

	if (h == smp_load_acquire(&r->tail))
		return 0;
	a = r->slot[h & r->mask].a;
	smp_mb();
	WRITE_ONCE(r->head, h + 1);
	handle(a, 0);
	return 1;
}

/* Correct: smp_wmb() between two stores of the producer. */
void ev_produce(struct evring *r, u64 a)
{
	unsigned int t = r->tail;

	r->slot[t & r->mask].a = a;
	smp_wmb();
	WRITE_ONCE(r->tail, t + 1);
}

/* Correct: wmb() before a device register write orders the descriptor
 * stores (done by a helper earlier) before the device looks, though the
 * nearest accesses around it are loads (drivers/usb/host/ohci-q.c). */
static inline void writel(u32 v, volatile u32 *addr) { *addr = v; }
struct hc_regs { u32 cmdstatus; };
struct hc { struct hc_regs *regs; int type; u32 td[4]; };
static inline void hc_writel(struct hc *h, u32 v, volatile u32 *reg) { writel(v, reg); }
static inline void hc_td_fill(struct hc *h, int i, u32 v)
{
	h->td[i] = v;
	mb();
}

void hc_kick_bulk(struct hc *h, u32 v)
{
	hc_td_fill(h, 0, v);
	if (h->type == 2) {
		wmb();
		hc_writel(h, 4, &h->regs->cmdstatus);
	}
}
