// RUN: %clang_plugin -fplugin-arg-seqlint-checks=mp-missing-barrier,barrier-unpaired -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
/*
 * mp-missing-barrier and barrier-unpaired: correct message passing, and code
 * that looks like it but is not message passing.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

/* The article's example as written: smp_wmb() and smp_rmb(). */
struct msg {
	int x;
};
static struct msg a;
static struct msg *message;

void article_writer(void)
{
	a.x = 1;
	smp_wmb();
	WRITE_ONCE(message, &a);
}

int article_reader(void)
{
	struct msg *datum = READ_ONCE(message);

	smp_rmb();
	if (datum != NULL)
		return datum->x;
	return 0;
}

/* RCU: rcu_assign_pointer() publishes, the consumer dereferences what
 * rcu_dereference() returned (address dependency). */
struct cfg {
	int mode;
	int limit;
};
static struct cfg *cur_cfg;

void cfg_publish(struct cfg *c, int mode, int limit)
{
	c->mode = mode;
	c->limit = limit;
	rcu_assign_pointer(cur_cfg, c);
}

int cfg_limit(void)
{
	struct cfg *c;
	int limit = 0;

	rcu_read_lock();
	c = rcu_dereference(cur_cfg);
	if (c)
		limit = c->limit + c->mode;
	rcu_read_unlock();
	return limit;
}

/* READ_ONCE() of a pointer, then a dereference: dependency ordered. The
 * writer publishes with smp_store_release(). */
struct node {
	int key;
	int val;
};
static struct node *head;

void node_publish(struct node *n, int k, int v)
{
	n->key = k;
	n->val = v;
	smp_store_release(&head, n);
}

int node_lookup(int k)
{
	struct node *n = READ_ONCE(head);

	if (n && n->key == k)
		return n->val;
	return -1;
}

/* Acquire load of the flag; the writer uses smp_wmb(). */
struct req {
	int status;
	long result;
	int done;
};

void req_complete(struct req *r, int status, long result)
{
	r->status = status;
	r->result = result;
	smp_wmb();
	WRITE_ONCE(r->done, 1);
}

long req_poll(struct req *r)
{
	if (!smp_load_acquire(&r->done))
		return -1;
	return r->status ? r->status : r->result;
}

/* Release store of the flag; the reader uses smp_rmb(). */
struct slot {
	int val;
	int full;
};

void slot_put(struct slot *s, int v)
{
	s->val = v;
	smp_store_release(&s->full, 1);
}

int slot_get(struct slot *s)
{
	if (!READ_ONCE(s->full))
		return -1;
	smp_rmb();
	return s->val;
}

/* WRITE_ONCE() under a lock, READ_ONCE() of that one field without it:
 * a single value, no data published through it. */
struct dev {
	spinlock_t lock;
	int state;
	int users;
};

void dev_set_state(struct dev *d, int st)
{
	spin_lock(&d->lock);
	d->users = 0;
	WRITE_ONCE(d->state, st);
	spin_unlock(&d->lock);
}

int dev_state(struct dev *d)
{
	return READ_ONCE(d->state);
}

int dev_is_up(struct dev *d)
{
	if (READ_ONCE(d->state) == 1)
		return 1;
	return 0;
}

/* Both sides under the lock: the lock orders everything. */
struct box {
	spinlock_t lock;
	int item;
	int has_item;
};

void box_put(struct box *b, int v)
{
	spin_lock(&b->lock);
	b->item = v;
	WRITE_ONCE(b->has_item, 1);
	spin_unlock(&b->lock);
}

int box_take(struct box *b)
{
	int v = -1;

	if (!READ_ONCE(b->has_item))
		return v;
	spin_lock(&b->lock);
	v = b->item;
	b->has_item = 0;
	spin_unlock(&b->lock);
	return v;
}

/* The data is stored under a lock and the flag after the unlock: the
 * unlock is a release. */
struct log {
	spinlock_t lock;
	int len;
	int dirty;
};

void log_append(struct log *l, int n)
{
	spin_lock(&l->lock);
	l->len += n;
	l->len = n;
	spin_unlock(&l->lock);
	WRITE_ONCE(l->dirty, 1);
}

int log_len(struct log *l)
{
	if (READ_ONCE(l->dirty))
		return smp_load_acquire(&l->len);
	return 0;
}

/* The flag is an atomic read-modify-write target: not a plain flag. */
struct stats {
	atomic_t events;
	int last;
};

void stats_note(struct stats *s, int v)
{
	s->last = v;
	atomic_inc(&s->events);
}

int stats_last(struct stats *s)
{
	if (atomic_read(&s->events))
		return s->last;
	return 0;
}

/* Seqcount writer and reader: not message passing. */
struct pos {
	seqcount_t seq;
	int x, y;
};

void pos_set(struct pos *p, int x, int y)
{
	write_seqcount_begin(&p->seq);
	p->x = x;
	p->y = y;
	write_seqcount_end(&p->seq);
}

int pos_sum(struct pos *p)
{
	unsigned int s;
	int r;

	do {
		s = read_seqcount_begin(&p->seq);
		r = p->x + p->y;
	} while (read_seqcount_retry(&p->seq, s));
	return r;
}

/* Open-coded seqcount with WRITE_ONCE() of the counter. */
struct ostat {
	unsigned int seq;
	int lo, hi;
};

void ostat_set(struct ostat *s, int lo, int hi)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	smp_wmb();
	WRITE_ONCE(s->lo, lo);
	WRITE_ONCE(s->hi, hi);
	smp_wmb();
	WRITE_ONCE(s->seq, s->seq + 1);
}

int ostat_get(struct ostat *s)
{
	unsigned int seq;
	int lo, hi;

	do {
		seq = READ_ONCE(s->seq);
		smp_rmb();
		lo = READ_ONCE(s->lo);
		hi = READ_ONCE(s->hi);
		smp_rmb();
	} while ((seq & 1) || READ_ONCE(s->seq) != seq);
	return lo + hi;
}

/* The writer's data is not what the reader reads after the flag. */
struct pair {
	int a;
	int b;
	int ready;
};

void pair_set_a(struct pair *p, int v)
{
	p->a = v;
	WRITE_ONCE(p->ready, 1);
}

int pair_get_b(struct pair *p)
{
	if (READ_ONCE(p->ready))
		return p->b;
	return 0;
}

/* A call between the flag test and the data may order (we cannot see into
 * it): silent. */
void wait_for_it(void);

struct job {
	int out;
	int finished;
};

void job_finish(struct job *j, int out)
{
	j->out = out;
	smp_wmb();
	WRITE_ONCE(j->finished, 1);
}

int job_result(struct job *j)
{
	if (!READ_ONCE(j->finished))
		return -1;
	wait_for_it();
	return j->out;
}

/* From the Linux 6.12 run. Clearing a flag publishes nothing
 * (kernel/workqueue.c: WRITE_ONCE(worker->sleeping, 0)). */
struct worker {
	unsigned long current_at;
	int sleeping;
};

void worker_running(struct worker *w, unsigned long now)
{
	w->current_at = now;
	WRITE_ONCE(w->sleeping, 0);
}

int worker_tick(struct worker *w, unsigned long now)
{
	if (READ_ONCE(w->sleeping) || now - w->current_at < 10)
		return 0;
	return 1;
}

/* Independent lockless fields, each marked on both sides, no barrier
 * anywhere (mm/vmscan.c kswapd_order/kswapd_highest_zoneidx,
 * net/netlink dst_portid/dst_group). */
struct hint {
	int order;
	int zoneidx;
};

void hint_reset(struct hint *h)
{
	WRITE_ONCE(h->order, 3);
	WRITE_ONCE(h->zoneidx, 4);
}

int hint_get(struct hint *h)
{
	int z = READ_ONCE(h->zoneidx);

	if (z == 4)
		return READ_ONCE(h->order);
	return z;
}

/* A datum stored again after the publication is not published by it
 * (kernel/sched/topology.c sched_domains_numa_levels). */
static int nr_levels_g;
static int *distances_g;

void numa_init(int *d, int n)
{
	nr_levels_g = 0;
	rcu_assign_pointer(distances_g, d);
	nr_levels_g = n;
}

/* Unpublishing with rcu_assign_pointer(p, NULL) publishes nothing. */
void numa_reset(void)
{
	nr_levels_g = 0;
	rcu_assign_pointer(distances_g, NULL);
}

int numa_find(int dist)
{
	int i, *d;

	rcu_read_lock();
	d = rcu_dereference(distances_g);
	if (d)
		for (i = 0; i < nr_levels_g; i++)
			if (d[i] == dist)
				break;
	rcu_read_unlock();
	return 0;
}

/* rcu_dereference_protected(): the updater under its lock, not a reader
 * (net/netlink/af_netlink.c netlink_update_listeners()). */
struct table {
	unsigned int groups;
	int *listeners;
};

void table_create(struct table *t, int *l, unsigned int g)
{
	t->groups = g;
	rcu_assign_pointer(t->listeners, l);
}

unsigned int table_update(struct table *t)
{
	int *l = rcu_dereference_protected(t->listeners, 1);

	if (!l)
		return 0;
	return t->groups;
}
