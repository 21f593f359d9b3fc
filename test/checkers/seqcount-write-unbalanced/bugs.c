// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-write-unbalanced, kernel style: write sections left open on some
 * path (diagnosed on the return, or on the closing brace when the function
 * falls off its end), an end that no begin on any path reaches (diagnosed on
 * the end, only in a function that also begins that counter), and a begin
 * while the section is already open on every path (diagnosed on the second
 * begin). Sections nest by count: after a diagnosed second begin, two ends
 * close the section again.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/seqlock.h>

#define EINVAL 22
#define ENOMEM 12
#define EBUSY  16

struct dev_state {
	seqcount_t seq;
	int mode;
	int level;
	u64 stamp;
};

static DEFINE_SEQLOCK(cfg_lock);
static struct { int mode, level; } cfg;

/* The validation failure returns with the count still odd: readers spin. */
int dev_set_level(struct dev_state *d, int level)
{
	write_seqcount_begin(&d->seq);
	if (level < 0)
		return -EINVAL; // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
	d->level = level;
	write_seqcount_end(&d->seq);
	return 0;
}

/* (A function that begins and never ends is not flagged: it cannot be
 * told apart from the first half of a split begin/end helper pair; see
 * correct.c, dev_set_mode_begin.) */

/* goto out jumps over the end; the shared return is reached open. */
int dev_update(struct dev_state *d, int mode, int level)
{
	int err = 0;

	write_seqcount_begin(&d->seq);
	if (mode > 3) {
		err = -EINVAL;
		goto out;
	}
	d->mode = mode;
	d->level = level;
	write_seqcount_end(&d->seq);
out:
	return err; // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
}

/* One case of the switch returns without ending the section. */
int dev_apply(struct dev_state *d, int op, int v)
{
	write_seqcount_begin(&d->seq);
	switch (op) {
	case 0:
		d->mode = v;
		break;
	case 1:
		d->level = v;
		break;
	default:
		return -EINVAL; // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
	}
	write_seqcount_end(&d->seq);
	return 0;
}

/* break leaves the loop between begin and end. */
int dev_fill(struct dev_state *d, const int *levels, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		write_seqcount_begin(&d->seq);
		if (levels[i] < 0)
			break;
		d->level = levels[i];
		write_seqcount_end(&d->seq);
	}
	return i; // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
}

/* raw_ API, nested error check: preemption and the section both stay open. */
int dev_stamp(struct dev_state *d, u64 now, bool check)
{
	preempt_disable();
	raw_write_seqcount_begin(&d->seq);
	if (check) {
		if (now < d->stamp)
			return -EINVAL; // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
	}
	d->stamp = now;
	raw_write_seqcount_end(&d->seq);
	preempt_enable();
	return 0;
}

/* seqlock_t writer: the error path keeps the lock and the odd count. */
int cfg_set(int mode, int level)
{
	write_seqlock(&cfg_lock);
	if (mode < 0)
		return -EINVAL; // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
	cfg.mode = mode;
	cfg.level = level;
	write_sequnlock(&cfg_lock);
	return 0;
}

/* irqsave flavour, same mistake: interrupts also stay disabled. */
int cfg_set_irq(int level)
{
	unsigned long flags;

	write_seqlock_irqsave(&cfg_lock, flags);
	if (level > 7)
		return -EBUSY; // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
	cfg.level = level;
	write_sequnlock_irqrestore(&cfg_lock, flags);
	return 0;
}

/* The error path "cleans up" a section it never began: the count turns odd. */
int dev_set_checked(struct dev_state *d, int mode)
{
	if (mode < 0) {
		write_seqcount_end(&d->seq); // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
		return -EINVAL;
	}
	write_seqcount_begin(&d->seq);
	d->mode = mode;
	write_seqcount_end(&d->seq);
	return 0;
}

/* Ended twice: the second end makes the count odd again. */
void dev_reset(struct dev_state *d)
{
	write_seqcount_begin(&d->seq);
	d->mode = 0;
	d->level = 0;
	write_seqcount_end(&d->seq);
	write_seqcount_end(&d->seq); // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
}

/* Begun twice (a copy-paste slip): the count is even while data changes. */
void dev_set_both(struct dev_state *d, int mode, int level)
{
	write_seqcount_begin(&d->seq);
	d->mode = mode;
	write_seqcount_begin(&d->seq); // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
	d->level = level;
	write_seqcount_end(&d->seq);
	write_seqcount_end(&d->seq);
}

/* An allocation failure inside the section returns without ending it. */
extern void *dev_alloc_buf(void);

int cfg_swap_buf(int mode, void **bufp)
{
	void *buf;

	write_seqlock_bh(&cfg_lock);
	buf = dev_alloc_buf();
	if (!buf)
		return -ENOMEM; // expected-warning {{[seqlint-seqcount-write-unbalanced]}}
	*bufp = buf;
	cfg.mode = mode;
	write_sequnlock_bh(&cfg_lock);
	return 0;
}
