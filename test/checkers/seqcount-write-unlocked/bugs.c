// seqcount-write-unlocked: write sections that two writers can run at once.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=seqcount-write-unlocked -fsyntax-only -Xclang -verify %s
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include "Inputs/entry-points.h"

/* 1. Two work handlers write the same plain seqcount_t with no lock. */
struct stats {
	seqcount_t seq;
	u64 packets, bytes;
	struct work_struct rx_work, tx_work;
};

static void rx_work_fn(struct work_struct *w)
{
	struct stats *s = container_of(w, struct stats, rx_work);

	write_seqcount_begin(&s->seq); // expected-warning {{write section of 's->seq' can run concurrently from 'rx_work_fn' and 'tx_work_fn' with no common lock: concurrent writers corrupt the count and readers accept torn data; serialize the writers with a lock (or use a seqlock_t) [seqlint-seqcount-write-unlocked]}} expected-note {{the other write section of 's->seq' is here}}
	s->packets++;
	write_seqcount_end(&s->seq);
}

static void tx_work_fn(struct work_struct *w)
{
	struct stats *s = container_of(w, struct stats, tx_work);

	write_seqcount_begin(&s->seq); // expected-warning {{write section of 's->seq' can run concurrently from 'tx_work_fn' and 'rx_work_fn'}} expected-note {{the other write section of 's->seq' is here}}
	s->bytes += 64;
	write_seqcount_end(&s->seq);
}

void stats_init(struct stats *s)
{
	seqcount_init(&s->seq);
	INIT_WORK(&s->rx_work, rx_work_fn); // expected-note 2 {{'rx_work_fn' runs as a work item, registered here}}
	INIT_WORK(&s->tx_work, tx_work_fn); // expected-note 2 {{'tx_work_fn' runs as a work item, registered here}}
}

/* 2. A timer and an interrupt handler, through a shared static helper. */
struct clk {
	seqcount_t seq;
	u64 cycles, ns;
	struct timer_list timer;
};

static void clk_update(struct clk *c, u64 now)
{
	write_seqcount_begin(&c->seq); // expected-warning {{write section of 'c->seq' can run concurrently from 'clk_timer' and 'clk_irq' with no common lock}}
	c->cycles = now;
	c->ns = now * 3;
	write_seqcount_end(&c->seq);
}

static void clk_timer(struct timer_list *t)
{
	struct clk *c = container_of(t, struct clk, timer);

	clk_update(c, 1);
}

static irqreturn_t clk_irq(int irq, void *data)
{
	clk_update(data, 2);
	return IRQ_HANDLED;
}

int clk_probe(struct clk *c, int irq)
{
	timer_setup(&c->timer, clk_timer, 0); // expected-note {{'clk_timer' runs as a timer callback, registered here}}
	return request_irq(irq, clk_irq, 0, "clk", c); // expected-note {{'clk_irq' runs as an interrupt handler, registered here}}
}

/* 3. seqcount_spinlock_t written without its lock, and with another lock. */
struct cfg {
	spinlock_t lock;
	spinlock_t other_lock;
	seqcount_spinlock_t seq;
	int mode;
	struct work_struct work;
	struct timer_list timer;
};

static void cfg_work(struct work_struct *w)
{
	struct cfg *c = container_of(w, struct cfg, work);

	write_seqcount_begin(&c->seq); // expected-warning {{write section of 'c->seq' (seqcount_spinlock_t) runs from 'cfg_work' without its associated lock 'c->lock' held; concurrent writers corrupt the count: take 'c->lock' around it}}
	c->mode = 1;
	write_seqcount_end(&c->seq);
}

static void cfg_timer(struct timer_list *t)
{
	struct cfg *c = container_of(t, struct cfg, timer);

	spin_lock(&c->other_lock);
	write_seqcount_begin(&c->seq); // expected-warning {{write section of 'c->seq' (seqcount_spinlock_t) runs from 'cfg_timer' without its associated lock 'c->lock' held (holds 'c->other_lock' instead)}}
	c->mode = 2;
	write_seqcount_end(&c->seq);
	spin_unlock(&c->other_lock);
}

void cfg_init(struct cfg *c)
{
	spin_lock_init(&c->lock);
	seqcount_spinlock_init(&c->seq, &c->lock); // expected-note 2 {{'seq' is associated with 'c->lock' here}}
	INIT_WORK(&c->work, cfg_work); // expected-note {{'cfg_work' runs as a work item, registered here}}
	timer_setup(&c->timer, cfg_timer, 0); // expected-note {{'cfg_timer' runs as a timer callback, registered here}}
}

/* 4. A static helper called from two thread functions, one under the lock
 * and one not: the lock is not common to both paths. */
static DEFINE_SPINLOCK(hist_lock);
static seqcount_t hist_seq;
static u64 hist[4];

static void hist_add(int i)
{
	write_seqcount_begin(&hist_seq); // expected-warning {{write section of 'hist_seq' can run concurrently from 'hist_thread_a' and 'hist_thread_b' with no common lock: concurrent writers corrupt the count and readers accept torn data; take 'hist_lock' around it in every writer}}
	hist[i]++;
	write_seqcount_end(&hist_seq);
}

static int hist_thread_a(void *data)
{
	while (!kthread_should_stop()) {
		spin_lock(&hist_lock);
		hist_add(0);
		spin_unlock(&hist_lock);
	}
	return 0;
}

static int hist_thread_b(void *data)
{
	while (!kthread_should_stop())
		hist_add(1);
	return 0;
}

void hist_start(void)
{
	kthread_run(hist_thread_a, NULL, "hist-a"); // expected-note {{'hist_thread_a' runs as a kernel thread, registered here}}
	kthread_run(hist_thread_b, NULL, "hist-b"); // expected-note {{'hist_thread_b' runs as a kernel thread, registered here}}
}

/* 5. An open-coded counter written by a thread function started twice: two
 * instances of the same thread write one global counter. */
typedef struct { int v; } pthread_t;
int pthread_create(pthread_t *t, const void *attr, void *(*fn)(void *), void *arg);
static unsigned gen;
static int val_a, val_b;

static void *updater(void *arg)
{
	WRITE_ONCE(gen, gen + 1); // expected-warning {{write section of 'gen' can run concurrently from 'updater' and 'updater' (two instances) with no common lock}}
	smp_wmb();
	val_a = 1;
	val_b = 2;
	smp_wmb();
	WRITE_ONCE(gen, gen + 1);
	return NULL;
}

void start_updaters(void)
{
	pthread_t t;
	for (int i = 0; i < 2; i++)
		pthread_create(&t, NULL, updater, NULL); // expected-note {{'updater' runs as a thread, registered here}}
}

/* 6. A read lock does not exclude another reader: both writers hold
 * read_lock() on the same rwlock_t. */
struct table {
	rwlock_t rw;
	seqcount_t seq;
	int gen;
	struct work_struct w;
	struct timer_list t;
};

static void table_work(struct work_struct *w)
{
	struct table *t = container_of(w, struct table, w);

	read_lock(&t->rw);
	write_seqcount_begin(&t->seq); // expected-warning {{write section of 't->seq' can run concurrently from 'table_work' and 'table_timer' with no common lock}} expected-note {{the other write section}}
	t->gen++;
	write_seqcount_end(&t->seq);
	read_unlock(&t->rw);
}

static void table_timer(struct timer_list *tl)
{
	struct table *t = container_of(tl, struct table, t);

	read_lock(&t->rw);
	write_seqcount_begin(&t->seq); // expected-warning {{write section of 't->seq' can run concurrently from 'table_timer' and 'table_work' with no common lock}} expected-note {{the other write section}}
	t->gen--;
	write_seqcount_end(&t->seq);
	read_unlock(&t->rw);
}

void table_init(struct table *t)
{
	INIT_WORK(&t->w, table_work); // expected-note 2 {{'table_work' runs as a work item}}
	timer_setup(&t->t, table_timer, 0); // expected-note 2 {{'table_timer' runs as a timer callback}}
}

/* 7. Entry points registered by a static initializer (DECLARE_WORK) and by
 * an hrtimer .function assignment, writing a global seqcount_t. */
static seqcount_t load_seq;
static u64 load_avg;

static void load_work_fn(struct work_struct *w)
{
	write_seqcount_begin(&load_seq); // expected-warning {{write section of 'load_seq' can run concurrently from 'load_work_fn' and 'load_tick'}} expected-note {{the other write section}}
	load_avg /= 2;
	write_seqcount_end(&load_seq);
}
static DECLARE_WORK(load_work, load_work_fn); // expected-note 2 {{'load_work_fn' runs as a work item, registered here}}

static enum hrtimer_restart load_tick(struct hrtimer *t)
{
	write_seqcount_begin(&load_seq); // expected-warning {{write section of 'load_seq' can run concurrently from 'load_tick' and 'load_work_fn'}} expected-note {{the other write section}}
	load_avg++;
	write_seqcount_end(&load_seq);
	return HRTIMER_RESTART;
}

void load_init(struct hrtimer *t)
{
	t->function = load_tick; // expected-note 2 {{'load_tick' runs as an hrtimer callback, registered here}}
}
