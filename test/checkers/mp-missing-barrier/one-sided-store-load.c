// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
/*
 * Store buffering with one side in view. This side stores its own word (a
 * shadow doorbell, a ring tail) and then loads the other side's word (an
 * event index, a "sleeping" flag) to decide whether to wake it. The other
 * side -- a device, the kernel, another process -- does the mirror image,
 * so both need a full barrier between their store and their load, or each
 * can read the other's old value and the queue stalls. Modelled on the
 * NVMe shadow doorbell (host writes the shadow tail, then reads the
 * controller's event index) and on a futex-woken shared-memory queue;
 * rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __le32;
#define le32_to_cpu(x) ((u32)(x))
#define cpu_to_le32(x) ((__le32)(x))

static inline void writel(u32 val, volatile u32 *addr)
{
	wmb();
	*addr = val;
}

struct sq {
	u16 tail;
	__le32 *shadow_db;	/* host memory the controller polls */
	__le32 *event_idx;	/* written by the controller */
	volatile u32 *db;	/* MMIO */
};

static inline int need_event(u16 ev, u16 new_idx, u16 old)
{
	return (u16)(new_idx - ev - 1) < (u16)(new_idx - old);
}

void sq_ring(struct sq *q, u16 old)
{
	*q->shadow_db = cpu_to_le32(q->tail);
	u16 ev = (u16)le32_to_cpu(READ_ONCE(*q->event_idx)); // expected-warning {{'*(q->event_idx)' is loaded here, after the store to '*(q->shadow_db)', to decide whether to wake the other side, with no full barrier in between}}
	// CHECK: fix-it:"{{.*}}one-sided-store-load.c":{[[@LINE-1]]:2-[[@LINE-1]]:2}:"mb();\n\t"
	if (need_event(ev, q->tail, old))
		writel(q->tail, q->db);
}

/* The fix: a full barrier between the store and the load. */
void sq_ring_ok(struct sq *q, u16 old)
{
	*q->shadow_db = cpu_to_le32(q->tail);
	mb();
	u16 ev = (u16)le32_to_cpu(READ_ONCE(*q->event_idx));
	if (need_event(ev, q->tail, old))
		writel(q->tail, q->db);
}

/* The value read is a count handed to the device, not a decision. */
void sq_ring_count(struct sq *q)
{
	*q->shadow_db = cpu_to_le32(q->tail);
	writel(q->tail - (u16)le32_to_cpu(READ_ONCE(*q->event_idx)), q->db);
}

/* Its own word read back: no other side's word. */
void sq_ring_self(struct sq *q)
{
	*q->shadow_db = cpu_to_le32(q->tail);
	if (le32_to_cpu(READ_ONCE(*q->shadow_db)) != q->tail)
		writel(q->tail, q->db);
}

/* A decision with no wake-up after it. */
int sq_more(struct sq *q)
{
	*q->shadow_db = cpu_to_le32(q->tail);
	if (le32_to_cpu(READ_ONCE(*q->event_idx)) == q->tail)
		return 0;
	return 1;
}

/* A queue in shared memory whose consumer sleeps on a futex (volatile:
 * the words another process writes). */
struct shq {
	volatile unsigned int tail;
	volatile unsigned int sleeping;	/* set by the consumer before it sleeps */
};

/* Plain data marked for lockless readers (WRITE_ONCE/READ_ONCE, as TCP's
 * state under the socket lock) is no side that sleeps. */
struct conn { unsigned int snd_nxt, window; };
extern void conn_send(struct conn *c);

void conn_update(struct conn *c, unsigned int w)
{
	WRITE_ONCE(c->window, w);
	if (READ_ONCE(c->snd_nxt) > w)
		conn_send(c);
}
extern long futex_wake(volatile unsigned int *uaddr, int n);

void shq_push(struct shq *q, unsigned int t)
{
	WRITE_ONCE(q->tail, t);
	if (READ_ONCE(q->sleeping)) // expected-warning {{'q->sleeping' is loaded here, after the store to 'q->tail', to decide whether to wake the other side}}
		futex_wake(&q->tail, 1);
}

void shq_push_ok(struct shq *q, unsigned int t)
{
	WRITE_ONCE(q->tail, t);
	smp_mb();
	if (READ_ONCE(q->sleeping))
		futex_wake(&q->tail, 1);
}

/* Under the consumer's lock: the lock orders both sides. */
struct lq { unsigned int tail, sleeping; int lock; };
extern void spin_lock(int *l);
extern void spin_unlock(int *l);

void lq_push(struct lq *q, unsigned int t)
{
	spin_lock(&q->lock);
	WRITE_ONCE(q->tail, t);
	if (READ_ONCE(q->sleeping))
		futex_wake(&q->tail, 1);
	spin_unlock(&q->lock);
}
