// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
/*
 * mp-missing-barrier, one side only: the other side of these rings is a
 * device, the kernel or another process, and is not in this file. What a
 * side needs is known from the side alone (Documentation/memory-barriers.txt,
 * "circular buffers", dma_wmb()/dma_rmb(), "writel vs writel_relaxed").
 * Each bug has its correct twin below it.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

typedef u32 __le32;
#define cpu_to_le32(x) ((__le32)(x))
#define le32_to_cpu(x) ((u32)(x))

static inline void writel_relaxed(u32 v, volatile u32 *addr) { *addr = v; }
static inline void writel(u32 v, volatile u32 *addr) { wmb(); *addr = v; }

/* --- A producer index read by another CPU with READ_ONCE() ------------- */
struct msg { u64 a, b; };
struct mring {
	unsigned int prod, cons, mask;
	struct msg slot[64];
};

void mring_push(struct mring *r, u64 a, u64 b)
{
	unsigned int p = r->prod;

	r->slot[p & r->mask].a = a;
	r->slot[p & r->mask].b = b;
	WRITE_ONCE(r->prod, p + 1); // expected-warning {{'r->prod' is published here after the store to 'r->slot[].b' with no write barrier in between}}
}
// CHECK: fix-it:"{{.*}}one-sided.c":{[[@LINE-2]]:2-[[@LINE-2]]:2}:"smp_wmb();\n\t"

void mring_push_ok(struct mring *r, u64 a, u64 b)
{
	unsigned int p = r->prod;

	r->slot[p & r->mask].a = a;
	r->slot[p & r->mask].b = b;
	smp_store_release(&r->prod, p + 1);
}

/* Not the same ring: the index does not count the slot stored. */
void mring_note(struct mring *r, unsigned int k, u64 a)
{
	r->slot[k].a = a;
	WRITE_ONCE(r->cons, 0);
}

/* --- The consumer: the producer's index, then the slots -------------- */
u64 mring_pop(struct mring *r)
{
	unsigned int c = r->cons;
	u64 v;

	if (READ_ONCE(r->prod) == c) // expected-warning {{'r->slot[].a' is read after 'r->prod' is loaded and tested, with no read barrier, acquire or address dependency in between}}
		return 0;
	v = r->slot[c & r->mask].a;
	smp_store_release(&r->cons, c + 1);
	return v;
}

u64 mring_pop_ok(struct mring *r)
{
	unsigned int c = r->cons;
	u64 v;

	if (smp_load_acquire(&r->prod) == c)
		return 0;
	v = r->slot[c & r->mask].a;
	smp_store_release(&r->cons, c + 1);
	return v;
}

/* --- The consumer hands the slot back: load -> store ----------------- */
struct qring {
	unsigned int head, tail, mask;
	u64 slot[64];
};

u64 qring_take(struct qring *q)
{
	unsigned int h = q->head;
	u64 v = q->slot[h & q->mask];

	WRITE_ONCE(q->head, h + 1); // expected-warning {{'q->head' hands the slot back to the producer here, after the load of 'q->slot[]', with nothing ordering that load before this store}}
	return v;
}

u64 qring_take_ok(struct qring *q)
{
	unsigned int h = q->head;
	u64 v = q->slot[h & q->mask];

	smp_store_release(&q->head, h + 1);
	return v;
}

/* --- A descriptor ring shared with a device (__le32 fields) ---------- */
struct rx_desc { __le32 addr, len, status; };
struct rx_ring {
	struct rx_desc *desc;
	unsigned int next, count;
	volatile u32 *tail_reg;
};

int rx_poll(struct rx_ring *r, u32 *len)
{
	struct rx_desc *d = &r->desc[r->next];
	u32 st = le32_to_cpu(d->status); // expected-warning {{'d->len' is read after 'd->status' is loaded and tested, with no read barrier, acquire or address dependency in between}}

	if (!(st & 1))
		return 0;
	*len = le32_to_cpu(d->len);
	return 1;
}

int rx_poll_ok(struct rx_ring *r, u32 *len)
{
	struct rx_desc *d = &r->desc[r->next];
	u32 st = le32_to_cpu(d->status);

	if (!(st & 1))
		return 0;
	dma_rmb();
	*len = le32_to_cpu(d->len);
	return 1;
}

/* The device polls the status word (tested above): its owner bit last. */
void rx_refill(struct rx_ring *r, u32 dma)
{
	struct rx_desc *d = &r->desc[r->next];

	d->addr = cpu_to_le32(dma);
	d->len = cpu_to_le32(2048);
	d->status = cpu_to_le32(0x80000000u); // expected-warning {{'d->status' is published here after the store to 'd->len' with no write barrier in between}}
}
// CHECK: fix-it:"{{.*}}one-sided.c":{[[@LINE-2]]:2-[[@LINE-2]]:2}:"dma_wmb();\n\t"

void rx_refill_ok(struct rx_ring *r, u32 dma)
{
	struct rx_desc *d = &r->desc[r->next];

	d->addr = cpu_to_le32(dma);
	d->len = cpu_to_le32(2048);
	dma_wmb();
	d->status = cpu_to_le32(0x80000000u);
}

/* Descriptors set up before the device is started: nobody looks yet. */
void rx_ring_init(struct rx_ring *r, u32 dma)
{
	unsigned int i;

	for (i = 0; i < r->count; i++) {
		r->desc[i].addr = cpu_to_le32(dma + i * 2048);
		r->desc[i].status = cpu_to_le32(0x80000000u);
	}
}

/* --- A doorbell ------------------------------------------------------- */
struct tx_slot { u64 addr; u32 len; };
struct tx_ring {
	struct tx_slot *slots;
	unsigned int next, mask;
	volatile u32 *db;
};

void tx_kick(struct tx_ring *t, u64 addr, u32 len)
{
	unsigned int i = t->next & t->mask;

	t->slots[i].addr = addr;
	t->slots[i].len = len;
	t->next++;
	writel_relaxed(t->next, t->db); // expected-warning {{the doorbell is written here after the store to 't->slots[].len' with no write barrier in between}}
}
// CHECK: fix-it:"{{.*}}one-sided.c":{[[@LINE-2]]:2-[[@LINE-2]]:2}:"wmb();\n\t"

void tx_kick_ok(struct tx_ring *t, u64 addr, u32 len)
{
	unsigned int i = t->next & t->mask;

	t->slots[i].addr = addr;
	t->slots[i].len = len;
	t->next++;
	writel(t->next, t->db);
}

void tx_kick_relaxed_ok(struct tx_ring *t, u64 addr, u32 len)
{
	unsigned int i = t->next & t->mask;

	t->slots[i].addr = addr;
	t->slots[i].len = len;
	t->next++;
	wmb();
	writel_relaxed(t->next, t->db);
}

/* --- Publication of a filled object ----------------------------------- */
/* Readers load the pointer with rcu_dereference() and take no lock. */
struct cfg { int a, b; };
struct holder { struct cfg *cur; };
extern struct cfg *cfg_alloc(void);

int cfg_read(struct holder *h)
{
	struct cfg *c = rcu_dereference(h->cur);

	return c ? c->a + c->b : 0;
}

void cfg_publish(struct holder *h, int a, int b)
{
	struct cfg *c = cfg_alloc();

	c->a = a;
	c->b = b;
	WRITE_ONCE(h->cur, c); // expected-warning {{'h->cur' is published here after the store to 'c->b' with no write barrier in between}}
}

void cfg_publish_ok(struct holder *h, int a, int b)
{
	struct cfg *c = cfg_alloc();

	c->a = a;
	c->b = b;
	smp_store_release(&h->cur, c);
}

/* Not a publication: every reader of 'slot' holds the lock (no lockless
 * load of it in the file). */
struct box { struct cfg *slot; spinlock_t lock; };

void box_put(struct box *b, int a)
{
	struct cfg *c = cfg_alloc();

	c->a = a;
	c->b = 0;
	spin_lock(&b->lock);
	WRITE_ONCE(b->slot, c);
	spin_unlock(&b->lock);
}

int box_get(struct box *b)
{
	int a;

	spin_lock(&b->lock);
	a = b->slot ? b->slot->a : 0;
	spin_unlock(&b->lock);
	return a;
}

/* Not a consumer's flag: the consumer's own head (released by it in
 * cq_advance()), compared with the other side's tail, and a slot read by a
 * helper through its own load of the head (liburing's
 * io_uring_for_each_cqe() followed by io_uring_wait_cqe()). */
struct cqring { unsigned *khead, *ktail, mask; struct msg *cqes; };
struct uring { struct cqring cq; };

static inline void cq_advance(struct uring *r, unsigned n)
{
	smp_store_release(r->cq.khead, *r->cq.khead + n);
}

static inline u64 cq_peek(struct uring *r)
{
	unsigned head = *r->cq.khead;

	if (head == smp_load_acquire(r->cq.ktail))
		return 0;
	return r->cq.cqes[head & r->cq.mask].a;
}

u64 cq_first(struct uring *r)
{
	unsigned head;

	for (head = *r->cq.khead; head != smp_load_acquire(r->cq.ktail); head++)
		return r->cq.cqes[head & r->cq.mask].b;
	return cq_peek(r);
}
