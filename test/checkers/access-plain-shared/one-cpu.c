// access-plain-shared: updates made while the function asserts that only
// one CPU is online. The shape is a grace-period machine. Its normal path
// advances the sequence numbers of a node tree with WRITE_ONCE() under the
// node's lock, because readers poll them. Its early-boot path runs before
// the other CPUs are brought up: interrupts are off, and the function says
// "one CPU" with WARN_ON_ONCE(num_online_cpus() > 1). There the sequence
// numbers are set plainly; nothing else can run. The assertion is the
// early-boot counterpart of lockdep_assert_held(): it excludes every other
// CPU from where it stands to the end of the function.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/irqflags.h>
#include <linux/bug.h>
#include <linux/cpumask.h>

struct gp_node {
	spinlock_t lock;
	struct gp_node *parent;
	unsigned long seq;
	unsigned long seq_needed;
	unsigned long seq_done;
	unsigned long seq_early;
	unsigned long seq_snap;
};

struct gp_state {
	spinlock_t lock;
	unsigned long seq;
	int waiters;
};

extern struct gp_state gp;
extern struct gp_node *gp_leaf_of_this_cpu(void);
extern int gp_is_early(void);
extern void gp_wait(void);

/* The normal path: each node's numbers advance under its lock. */
void gp_start(struct gp_node *n, unsigned long seq)
{
	for (; n; n = n->parent) {
		spin_lock(&n->lock);
		WRITE_ONCE(n->seq, seq);
		WRITE_ONCE(n->seq_needed, seq); // expected-note {{'n->seq_needed' is written with WRITE_ONCE() here}}
		WRITE_ONCE(n->seq_done, seq);
		WRITE_ONCE(n->seq_early, seq); // expected-note {{'n->seq_early' is written with WRITE_ONCE() here}}
		WRITE_ONCE(n->seq_snap, seq); // expected-note {{'n->seq_snap' is written with WRITE_ONCE() here}}
		spin_unlock(&n->lock);
	}
}

/* Correct: at early boot, one CPU with interrupts off. */
void gp_sync(void)
{
	struct gp_node *n;
	unsigned long flags;

	if (!gp_is_early()) {
		spin_lock(&gp.lock);
		gp.waiters++;
		spin_unlock(&gp.lock);
		gp_wait();
		return;
	}
	local_irq_save(flags);
	WARN_ON_ONCE(num_online_cpus() > 1);
	gp.seq += 4;
	for (n = gp_leaf_of_this_cpu(); n; n = n->parent)
		n->seq_needed = n->seq = gp.seq;
	local_irq_restore(flags);
}

/* Correct: the same said with != 1, and with BUG_ON(). */
void gp_sync_bug(void)
{
	struct gp_node *n = gp_leaf_of_this_cpu();

	spin_lock(&gp.lock);
	spin_unlock(&gp.lock);
	BUG_ON(num_online_cpus() != 1);
	n->seq_done = gp.seq;
}

/* Bug: the update comes before the assertion. */
void gp_sync_early_store(void)
{
	struct gp_node *n = gp_leaf_of_this_cpu();

	spin_lock(&gp.lock);
	spin_unlock(&gp.lock);
	n->seq_early = gp.seq; // expected-warning {{plain store to 'n->seq_early' outside any lock, but it is written with WRITE_ONCE() in gp_start(), so it is accessed concurrently}}
	WARN_ON_ONCE(num_online_cpus() > 1);
}

/* Bug: the assertion says nothing about other CPUs. */
void gp_sync_wrong_test(void)
{
	struct gp_node *n = gp_leaf_of_this_cpu();

	spin_lock(&gp.lock);
	spin_unlock(&gp.lock);
	WARN_ON_ONCE(num_online_cpus() < 1);
	n->seq_snap = gp.seq; // expected-warning {{plain store to 'n->seq_snap' outside any lock, but it is written with WRITE_ONCE() in gp_start(), so it is accessed concurrently}}
}

/* Correct: the assertion in a helper of its own. BUG() does not return, so
 * every path that comes back to the caller has passed the test. */
static void gp_assert_alone(void)
{
	BUG_ON(num_online_cpus() != 1);
}

void gp_sync_helper(void)
{
	struct gp_node *n = gp_leaf_of_this_cpu();

	spin_lock(&gp.lock);
	spin_unlock(&gp.lock);
	gp_assert_alone();
	n->seq_done = gp.seq;
}

/* Bug: the helper asserts something else; the noreturn branch does not
 * make its test an exclusion. */
static void gp_assert_early(void)
{
	BUG_ON(!gp_is_early());
}

void gp_sync_wrong_helper(void)
{
	struct gp_node *n = gp_leaf_of_this_cpu();

	spin_lock(&gp.lock);
	spin_unlock(&gp.lock);
	gp_assert_early();
	n->seq_needed = gp.seq; // expected-warning {{plain store to 'n->seq_needed' outside any lock, but it is written with WRITE_ONCE() in gp_start(), so it is accessed concurrently}}
}
