// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-missing-barrier, kernel style: open-coded readers
 *   seq = READ_ONCE(s->seq) & ~1; <data loads>; if (READ_ONCE(s->seq) != seq) retry
 * with no smp_rmb() (or acquire) between the first counter load and the data
 * loads -- diagnosed on the first data load -- or no smp_rmb() between the
 * data loads and the recheck -- diagnosed on the recheck load; and API readers
 * that recheck with __read_seqcount_retry() (which has no barrier) without an
 * smp_rmb() -- diagnosed on the __read_seqcount_retry() call.
 * Every reader handles the odd count; only readers live in this file.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <asm/barrier.h>

struct snap {
	unsigned int seq;
	u64 a;
	u64 b;
};

/* No smp_rmb() after the first counter load: the data loads may be satisfied
 * before it, from an older generation than the one recorded. */
u64 snap_sum_no_begin_rmb(struct snap *s)
{
	unsigned int seq;
	u64 a, b;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		a = READ_ONCE(s->a); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
		b = READ_ONCE(s->b);
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return a + b;
}

/* No smp_rmb() before the recheck: the recheck may be satisfied before the
 * data loads and miss a writer that ran in between. */
u64 snap_sum_no_retry_rmb(struct snap *s)
{
	unsigned int seq;
	u64 a, b;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		smp_rmb();
		a = READ_ONCE(s->a);
		b = READ_ONCE(s->b);
	} while (READ_ONCE(s->seq) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return a + b;
}

/* Neither barrier: both places are reported. */
u64 snap_sum_no_rmb(struct snap *s)
{
	unsigned int seq;
	u64 a, b;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		a = READ_ONCE(s->a); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
		b = READ_ONCE(s->b);
	} while (READ_ONCE(s->seq) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return a + b;
}

/* The reader of LWN's "Lockless patterns" part 2: the acquire of data.x
 * orders the recheck after data.x, but nothing orders the earlier data.y
 * load before the recheck. */
static unsigned int art_seq;
static struct { int x, y; } art_data;

void article_buggy_reader(int *x, int *y)
{
	unsigned int old;
	int cx, cy;

	do {
		old = smp_load_acquire(&art_seq) & ~1;
		cy = READ_ONCE(art_data.y);
		cx = smp_load_acquire(&art_data.x);
	} while (READ_ONCE(art_seq) != old); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	*x = cx;
	*y = cy;
}

/* read_seqcount_begin() is fine, but __read_seqcount_retry() has no smp_rmb(). */
struct point {
	u64 x, y;
};

static seqcount_t pt_seq = SEQCNT_ZERO(pt_seq);
static struct point pt;

struct point pt_get(void)
{
	struct point p;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&pt_seq);
		p = pt;
	} while (__read_seqcount_retry(&pt_seq, seq)); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return p;
}

/* Same with raw_seqcount_begin() and an if/goto recheck. */
u64 pt_get_x(void)
{
	unsigned int seq;
	u64 x;

retry:
	seq = raw_seqcount_begin(&pt_seq);
	x = pt.x;
	if (__read_seqcount_retry(&pt_seq, seq)) // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
		goto retry;
	return x;
}

/* goto-based open-coded reader: the odd test is there, the rmb after the
 * first load is not. */
u64 snap_a_goto(struct snap *s)
{
	unsigned int seq;
	u64 a;

retry:
	seq = READ_ONCE(s->seq);
	if (seq & 1)
		goto retry;
	a = READ_ONCE(s->a); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	smp_rmb();
	if (READ_ONCE(s->seq) != seq)
		goto retry;
	return a;
}

/* The smp_rmb() before the recheck is only on one path. */
u64 snap_maybe_b(struct snap *s, bool want_b)
{
	unsigned int seq;
	u64 a, b = 0;

	do {
		seq = smp_load_acquire(&s->seq) & ~1U;
		a = READ_ONCE(s->a);
		if (want_b) {
			b = READ_ONCE(s->b);
			smp_rmb();
		}
	} while (READ_ONCE(s->seq) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return a + b;
}

/* barrier() constrains only the compiler, not the CPU. */
u64 snap_a_compiler_barrier(struct snap *s)
{
	unsigned int seq;
	u64 a;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		barrier();
		a = READ_ONCE(s->a); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return a;
}

/* for(;;) with break on a global generation counter, no rmb before the
 * recheck in the if. */
static unsigned long cfg_gen;
static int cfg_mode;

int cfg_get_mode(void)
{
	unsigned long gen;
	int mode;

	for (;;) {
		gen = smp_load_acquire(&cfg_gen) & ~1UL;
		mode = READ_ONCE(cfg_mode);
		if (READ_ONCE(cfg_gen) == gen) // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
			break;
	}
	return mode;
}

/* A seqcount_t's counter read open-coded, without the rmb before the recheck
 * that read_seqcount_retry() would have issued. */
static seqcount_t clk_seq = SEQCNT_ZERO(clk_seq);
static u64 clk_base;

u64 clk_get_base(void)
{
	unsigned int seq;
	u64 base;

	do {
		seq = READ_ONCE(clk_seq.sequence) & ~1U;
		smp_rmb();
		base = READ_ONCE(clk_base);
	} while (READ_ONCE(clk_seq.sequence) != seq); // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
	return base;
}
