// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, deviant consumer: the other side's ring index is
 * loaded and cached in a field. The main consumer refreshes the cache and
 * then issues smp_rmb() before it reads the slots, and skips both while the
 * cache is ahead of its position. A second function refreshes the same
 * cache with no read barrier: the main consumer then trusts an index whose
 * slots it has not ordered.
 * Modelled on drivers/vhost/vhost.c: vhost_get_vq_desc() and
 * vhost_vq_avail_empty() / vhost_enable_notify() before 22e1992cf7b0
 * ("vhost: Add smp_rmb() in vhost_vq_avail_empty()", Linux 6.9).
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct avring { u16 flags; u16 idx; u16 ring[]; };

struct guestq {
	unsigned int num;
	struct avring *avail;
	u16 avail_cache;	/* last avail->idx seen */
	u16 next;		/* next entry to consume */
};

int guestq_pop(struct guestq *q)
{
	u16 head;

	if (q->avail_cache == q->next) {
		q->avail_cache = READ_ONCE(q->avail->idx);
		if (q->avail_cache == q->next)
			return -1;
		smp_rmb();
	}
	head = READ_ONCE(q->avail->ring[q->next & (q->num - 1)]);
	q->next++;
	return head;
}

/* Re-enabling notifications: is there more work? */
bool guestq_more(struct guestq *q)
{
	q->avail_cache = READ_ONCE(q->avail->idx); // expected-warning {{'q->avail->idx' is loaded here and cached in 'q->avail_cache' with no read barrier after it, but elsewhere in this file the same caching is followed by one}}
	return q->avail_cache != q->next;
}

/* Fixed as upstream: the barrier when new entries are seen. */
bool guestq_more_ok(struct guestq *q)
{
	q->avail_cache = READ_ONCE(q->avail->idx);
	if (q->avail_cache != q->next) {
		smp_rmb();
		return true;
	}
	return false;
}

/* The index read into a local, not the shared cache: nothing is promised
 * to the consumer. */
bool guestq_peek(struct guestq *q)
{
	u16 idx = READ_ONCE(q->avail->idx);

	return idx != q->next;
}

/* A clock stamped into a field is no cached ring index, barrier or not.
 * Modelled on net/ipv4/tcp_input.c: tp->snd_cwnd_stamp = tcp_jiffies32 in
 * tcp_rcv_state_process() (followed by smp_mb()) and in tcp_undo_cwnd_reduction()
 * (Linux 6.12). */
extern volatile unsigned long ticks;

struct flow { u32 stamp; u32 cwnd; u32 state; };

void flow_established(struct flow *f)
{
	f->stamp = READ_ONCE(ticks);
	smp_mb();
	if (READ_ONCE(f->state) == 1)
		f->cwnd = 10;
}

void flow_undo(struct flow *f)
{
	f->cwnd = 4;
	f->stamp = READ_ONCE(ticks);
}
