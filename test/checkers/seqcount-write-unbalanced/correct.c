// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// expected-no-diagnostics
/*
 * seqcount-write-unbalanced, kernel style: balanced write sections that a
 * path-insensitive or name-blind tool might flag -- early returns before the
 * begin, goto-based cleanup that ends the section, a switch whose every case
 * ends, sections inside loops, the seqlock_t flavours, split helper pairs that
 * only begin or only end, and two different counters (or two instances of the
 * same field) open at once.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/seqlock.h>

#define EINVAL 22
#define ENOMEM 12

struct dev_state {
	seqcount_t seq;
	int mode;
	int level;
	u64 stamp;
};

static DEFINE_SEQLOCK(cfg_lock);
static struct { int mode, level; } cfg;

/* Validation before the section begins: nothing is open on the early return. */
int dev_set_level(struct dev_state *d, int level)
{
	if (level < 0)
		return -EINVAL;
	write_seqcount_begin(&d->seq);
	d->level = level;
	write_seqcount_end(&d->seq);
	return 0;
}

/* Kernel-style cleanup: every goto after the begin lands on the end. */
int dev_update(struct dev_state *d, int mode, int level)
{
	int err = 0;

	write_seqcount_begin(&d->seq);
	if (mode > 3) {
		err = -EINVAL;
		goto out;
	}
	d->mode = mode;
	if (level < 0) {
		err = -EINVAL;
		goto out;
	}
	d->level = level;
out:
	write_seqcount_end(&d->seq);
	return err;
}

/* Every case (default included) ends the section before returning. */
int dev_apply(struct dev_state *d, int op, int v)
{
	write_seqcount_begin(&d->seq);
	switch (op) {
	case 0:
		d->mode = v;
		write_seqcount_end(&d->seq);
		return 0;
	case 1:
		d->level = v;
		write_seqcount_end(&d->seq);
		return 0;
	default:
		write_seqcount_end(&d->seq);
		return -EINVAL;
	}
}

/* One section per iteration; the early exit is between sections. */
int dev_fill(struct dev_state *d, const int *levels, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (levels[i] < 0)
			break;
		write_seqcount_begin(&d->seq);
		d->level = levels[i];
		write_seqcount_end(&d->seq);
	}
	return i;
}

/* An early return from inside the section that ends it first. */
int dev_stamp(struct dev_state *d, u64 now)
{
	preempt_disable();
	raw_write_seqcount_begin(&d->seq);
	if (now < d->stamp) {
		raw_write_seqcount_end(&d->seq);
		preempt_enable();
		return -EINVAL;
	}
	d->stamp = now;
	raw_write_seqcount_end(&d->seq);
	preempt_enable();
	return 0;
}

/* A while loop with break inside one section. */
void dev_drain(struct dev_state *d)
{
	write_seqcount_begin(&d->seq);
	while (d->level > 0) {
		if (d->level == 1)
			break;
		d->level--;
	}
	write_seqcount_end(&d->seq);
}

/* seqlock_t pairs, all four flavours. */
void cfg_set(int mode, int level)
{
	unsigned long flags;

	write_seqlock(&cfg_lock);
	cfg.mode = mode;
	write_sequnlock(&cfg_lock);

	write_seqlock_irqsave(&cfg_lock, flags);
	cfg.level = level;
	write_sequnlock_irqrestore(&cfg_lock, flags);

	write_seqlock_bh(&cfg_lock);
	cfg.mode = mode;
	write_sequnlock_bh(&cfg_lock);

	write_seqlock_irq(&cfg_lock);
	cfg.level = level;
	write_sequnlock_irq(&cfg_lock);
}

/* irqsave section left early, but through the unlock. */
int cfg_set_checked(int level)
{
	unsigned long flags;
	int err = 0;

	write_seqlock_irqsave(&cfg_lock, flags);
	if (level > 7) {
		err = -EINVAL;
		goto unlock;
	}
	cfg.level = level;
unlock:
	write_sequnlock_irqrestore(&cfg_lock, flags);
	return err;
}

/* Split helpers: one only begins, the other only ends (the caller pairs them,
 * like lock_thing()/unlock_thing()). Neither is unbalanced by itself. */
void dev_lock_state(struct dev_state *d)
{
	preempt_disable();
	write_seqcount_begin(&d->seq);
}

void dev_unlock_state(struct dev_state *d)
{
	write_seqcount_end(&d->seq);
	preempt_enable();
}

void cfg_lock_all(void)
{
	write_seqlock(&cfg_lock);
}

void cfg_unlock_all(void)
{
	write_sequnlock(&cfg_lock);
}

/* The caller of the split helpers. */
void dev_set_mode(struct dev_state *d, int mode)
{
	dev_lock_state(d);
	d->mode = mode;
	dev_unlock_state(d);
}

/* Two different objects' counters open at the same time is not a second
 * begin of one section. */
void dev_move_level(struct dev_state *from, struct dev_state *to)
{
	write_seqcount_begin(&from->seq);
	write_seqcount_begin(&to->seq);
	to->level = from->level;
	from->level = 0;
	write_seqcount_end(&to->seq);
	write_seqcount_end(&from->seq);
}

/* A seqcount nested inside a seqlock_t section: two different counters. */
void dev_publish(struct dev_state *d)
{
	write_seqlock(&cfg_lock);
	write_seqcount_begin(&d->seq);
	cfg.mode = d->mode;
	d->stamp = 0;
	write_seqcount_end(&d->seq);
	write_sequnlock(&cfg_lock);
}

/* Latch writes and the invalidate/barrier helpers are one-shot steps, not
 * sections to balance. */
static seqcount_latch_t tk_latch = SEQCNT_LATCH_ZERO(tk_latch);
static u64 tk_base[2];

void tk_update(struct dev_state *d, u64 base)
{
	raw_write_seqcount_latch(&tk_latch);
	tk_base[0] = base;
	raw_write_seqcount_latch(&tk_latch);
	tk_base[1] = base;
	preempt_disable();
	write_seqcount_invalidate(&d->seq);
	raw_write_seqcount_barrier(&d->seq);
	preempt_enable();
}

/* Begins and never ends: the first half of a section split across
 * functions (the caller ends it). Not flagged: with only this function in
 * view a forgotten end and a split helper look the same. */
void dev_set_mode_begin(struct dev_state *d, int mode)
{
	write_seqcount_begin(&d->seq);
	d->mode = mode;
}
