// seqcount-write-unlocked: writers that are serialized, or that the TU cannot
// show to be concurrent -- all silent.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=seqcount-write-unlocked -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include "Inputs/entry-points.h"

struct dev {
	spinlock_t lock;
	struct mutex mlock;
	seqcount_t seq;
	seqlock_t sl;
	u64 a, b;
	struct work_struct w1, w2, w3, w4;
	struct timer_list t1, t2;
};

/* 1. Both writers inside the same spinlock (irqsave in one of them). */
static void lk_work(struct work_struct *w)
{
	struct dev *d = container_of(w, struct dev, w1);
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	write_seqcount_begin(&d->seq);
	d->a++;
	write_seqcount_end(&d->seq);
	spin_unlock_irqrestore(&d->lock, flags);
}

static void lk_timer(struct timer_list *t)
{
	struct dev *d = container_of(t, struct dev, t1);

	spin_lock(&d->lock);
	write_seqcount_begin(&d->seq);
	d->b++;
	write_seqcount_end(&d->seq);
	spin_unlock(&d->lock);
}

/* 2. seqlock_t: write_seqlock() takes the lock itself. */
static void sl_work(struct work_struct *w)
{
	struct dev *d = container_of(w, struct dev, w2);

	write_seqlock(&d->sl);
	d->a = 0;
	write_sequnlock(&d->sl);
}

static void sl_timer(struct timer_list *t)
{
	struct dev *d = container_of(t, struct dev, t2);
	unsigned long flags;

	write_seqlock_irqsave(&d->sl, flags);
	d->b = 0;
	write_sequnlock_irqrestore(&d->sl, flags);
}

void dev_init(struct dev *d)
{
	INIT_WORK(&d->w1, lk_work);
	timer_setup(&d->t1, lk_timer, 0);
	INIT_WORK(&d->w2, sl_work);
	timer_setup(&d->t2, sl_timer, 0);
}

/* 3. A static writer whose every caller holds the lock. */
struct ring {
	struct mutex lock;
	seqcount_t seq;
	int head, tail;
	struct work_struct fill, drain;
};

static void ring_set(struct ring *r, int head, int tail)
{
	write_seqcount_begin(&r->seq);
	r->head = head;
	r->tail = tail;
	write_seqcount_end(&r->seq);
}

static void ring_fill(struct work_struct *w)
{
	struct ring *r = container_of(w, struct ring, fill);

	mutex_lock(&r->lock);
	ring_set(r, 1, 0);
	mutex_unlock(&r->lock);
}

static void ring_drain(struct work_struct *w)
{
	struct ring *r = container_of(w, struct ring, drain);

	mutex_lock(&r->lock);
	if (r->head)
		ring_set(r, 0, 0);
	mutex_unlock(&r->lock);
}

/* 4. A writer that asserts the lock: its callers are responsible. */
struct acct {
	spinlock_t lock;
	seqcount_t seq;
	u64 total;
	struct work_struct w;
	struct timer_list t;
};

static void acct_add(struct acct *a, u64 v)
{
	lockdep_assert_held(&a->lock);
	write_seqcount_begin(&a->seq);
	a->total += v;
	write_seqcount_end(&a->seq);
}

static void acct_work(struct work_struct *w)
{
	acct_add(container_of(w, struct acct, w), 1);
}

static void acct_timer(struct timer_list *t)
{
	acct_add(container_of(t, struct acct, t), 2);
}

/* 5. One work handler is the only writer the TU can show; the exported
 * writer's callers are unknown. */
struct gauge {
	seqcount_t seq;
	u64 val;
	struct work_struct w;
};

static void gauge_work(struct work_struct *w)
{
	struct gauge *g = container_of(w, struct gauge, w);

	write_seqcount_begin(&g->seq);
	g->val++;
	write_seqcount_end(&g->seq);
}

void gauge_set(struct gauge *g, u64 v)
{
	write_seqcount_begin(&g->seq);
	g->val = v;
	write_seqcount_end(&g->seq);
}

/* 6. seqcount_spinlock_t written under its associated lock (plain and
 * irqsave), and seqcount_mutex_t whose association is elsewhere: some
 * mutex is held. */
struct stamp {
	spinlock_t lock;
	seqcount_spinlock_t seq;
	struct mutex m;
	seqcount_mutex_t mseq;
	u64 ns;
	struct work_struct w;
	struct timer_list t;
};

static void stamp_work(struct work_struct *w)
{
	struct stamp *s = container_of(w, struct stamp, w);
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	write_seqcount_begin(&s->seq);
	s->ns = 1;
	write_seqcount_end(&s->seq);
	spin_unlock_irqrestore(&s->lock, flags);
	mutex_lock(&s->m);
	write_seqcount_begin(&s->mseq);
	s->ns = 3;
	write_seqcount_end(&s->mseq);
	mutex_unlock(&s->m);
}

static void stamp_timer(struct timer_list *t)
{
	struct stamp *s = container_of(t, struct stamp, t);

	spin_lock(&s->lock);
	write_seqcount_begin(&s->seq);
	s->ns = 2;
	write_seqcount_end(&s->seq);
	spin_unlock(&s->lock);
}

/* 7. A threaded interrupt: the hard handler and its thread come from one
 * request_threaded_irq() and are serialized by the irq core. */
struct sensor {
	seqcount_t seq;
	int raw, cooked;
};

static irqreturn_t sensor_hardirq(int irq, void *data)
{
	struct sensor *s = data;

	write_seqcount_begin(&s->seq);
	s->raw = 1;
	write_seqcount_end(&s->seq);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t sensor_thread(int irq, void *data)
{
	struct sensor *s = data;

	write_seqcount_begin(&s->seq);
	s->cooked = s->raw * 2;
	write_seqcount_end(&s->seq);
	return IRQ_HANDLED;
}

/* 8. A kernel thread started per CPU in a loop, each writing the object it
 * was given: instances never share a counter. */
struct percpu_state {
	seqcount_t seq;
	u64 v;
};

static int state_thread(void *data)
{
	struct percpu_state *st = data;

	while (!kthread_should_stop()) {
		write_seqcount_begin(&st->seq);
		st->v++;
		write_seqcount_end(&st->seq);
	}
	return 0;
}

/* 9. Trylock: the write runs only when the lock was taken. */
struct poll {
	spinlock_t lock;
	seqcount_t seq;
	int n;
	struct work_struct w;
	struct timer_list t;
};

static void poll_work(struct work_struct *w)
{
	struct poll *p = container_of(w, struct poll, w);

	if (!spin_trylock(&p->lock))
		return;
	write_seqcount_begin(&p->seq);
	p->n++;
	write_seqcount_end(&p->seq);
	spin_unlock(&p->lock);
}

static void poll_timer(struct timer_list *t)
{
	struct poll *p = container_of(t, struct poll, t);

	if (spin_trylock(&p->lock)) {
		write_seqcount_begin(&p->seq);
		p->n--;
		write_seqcount_end(&p->seq);
		spin_unlock(&p->lock);
	}
}

/* 10. A writer called through an ops table (unknown caller and context)
 * and from one work handler: only one context is known. */
struct knob {
	seqcount_t seq;
	int level;
	struct work_struct w;
};
struct knob_ops {
	void (*set)(struct knob *k, int level);
};

static void knob_set(struct knob *k, int level)
{
	write_seqcount_begin(&k->seq);
	k->level = level;
	write_seqcount_end(&k->seq);
}

static void knob_work(struct work_struct *w)
{
	knob_set(container_of(w, struct knob, w), 0);
}

const struct knob_ops knob_ops = { .set = knob_set };

void knob_init(struct knob *k)
{
	INIT_WORK(&k->w, knob_work);
}

int setup_all(struct ring *r, struct acct *a, struct gauge *g, struct stamp *s,
	      struct sensor *sn, struct percpu_state *st, struct poll *p, int irq)
{
	INIT_WORK(&r->fill, ring_fill);
	INIT_WORK(&r->drain, ring_drain);
	INIT_WORK(&a->w, acct_work);
	timer_setup(&a->t, acct_timer, 0);
	INIT_WORK(&g->w, gauge_work);
	seqcount_spinlock_init(&s->seq, &s->lock);
	INIT_WORK(&s->w, stamp_work);
	timer_setup(&s->t, stamp_timer, 0);
	for (int cpu = 0; cpu < 4; cpu++)
		kthread_run(state_thread, &st[cpu], "state/%d", cpu);
	INIT_WORK(&p->w, poll_work);
	timer_setup(&p->t, poll_timer, 0);
	return request_threaded_irq(irq, sensor_hardirq, sensor_thread,
				    IRQF_ONESHOT, "sensor", sn);
}
