// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-odd-unchecked, kernel style: open-coded readers (load the
 * counter, load data, reload and compare) that never mask the low bit, test
 * it or wait for an even count. A reader that starts while a writer is in
 * its section records the odd count; if the writer is still in the section
 * at the recheck, the counts match and torn data is accepted. Diagnosed on
 * the first counter load. Barriers are all in place; only readers live here.
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

/* READ_ONCE + smp_rmb() at both ends, but an odd seq is accepted. */
u64 snap_sum(struct snap *s)
{
	unsigned int seq;
	u64 a, b;

	do {
		seq = READ_ONCE(s->seq); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		smp_rmb();
		a = READ_ONCE(s->a);
		b = READ_ONCE(s->b);
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return a + b;
}

/* The article's reader without its "& ~1". */
static unsigned int art_seq;
static struct { int x, y; } art_data;

void article_reader_no_mask(int *x, int *y)
{
	unsigned int old;
	int cx, cy;

	do {
		old = smp_load_acquire(&art_seq); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		cy = READ_ONCE(art_data.y);
		cx = READ_ONCE(art_data.x);
		smp_rmb();
	} while (READ_ONCE(art_seq) != old);
	*x = cx;
	*y = cy;
}

/* goto-based reader. */
u64 snap_a(struct snap *s)
{
	unsigned int seq;
	u64 a;

retry:
	seq = smp_load_acquire(&s->seq); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
	a = READ_ONCE(s->a);
	smp_rmb();
	if (READ_ONCE(s->seq) != seq)
		goto retry;
	return a;
}

/* for(;;) with break on a global generation counter. */
static unsigned long cfg_gen;
static int cfg_mode;

int cfg_get_mode(void)
{
	unsigned long gen;
	int mode;

	for (;;) {
		gen = smp_load_acquire(&cfg_gen); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		mode = READ_ONCE(cfg_mode);
		smp_rmb();
		if (READ_ONCE(cfg_gen) == gen)
			break;
	}
	return mode;
}

/* A seqcount_t's counter read open-coded: read_seqcount_begin() would have
 * waited for an even count, this does not. */
static seqcount_t clk_seq = SEQCNT_ZERO(clk_seq);
static u64 clk_base;

u64 clk_get_base(void)
{
	unsigned int seq;
	u64 base;

	do {
		seq = smp_load_acquire(&clk_seq.sequence); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		base = READ_ONCE(clk_base);
		smp_rmb();
	} while (READ_ONCE(clk_seq.sequence) != seq);
	return base;
}

/* Shifting the low bit away is not checking it: counts 2k and 2k+1 give the
 * same "generation", so a read during the write that began at 2k passes. */
u64 snap_sum_shifted(struct snap *s)
{
	unsigned int gen;
	u64 a, b;

	do {
		gen = READ_ONCE(s->seq) >> 1; // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		smp_rmb();
		a = READ_ONCE(s->a);
		b = READ_ONCE(s->b);
		smp_rmb();
	} while ((READ_ONCE(s->seq) >> 1) != gen);
	return a + b;
}

/* raw_read_seqcount() does not wait for an even count ("the caller must
 * handle the low bit"); nothing here does. */
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
		seq = raw_read_seqcount(&pt_seq); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		p = pt;
	} while (read_seqcount_retry(&pt_seq, seq));
	return p;
}

/* The low-bit test is on a different variable than the recorded count. */
u64 snap_b(struct snap *s, unsigned int hint)
{
	unsigned int seq;
	u64 b;

	do {
		if (hint & 1)
			hint++;
		seq = READ_ONCE(s->seq); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
		smp_rmb();
		b = READ_ONCE(s->b);
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return b + hint;
}

/* One count per bucket, in an array reached through a pointer (the layout of
 * Concurrency Kit's ck_rhs.c, map->generation[h & mask], used here as an
 * odd/even count by a writer in another file). The begin is ordered before
 * the data by smp_rmb() but never masked, so a reader that starts inside a
 * write section validates a torn value when the count has not moved. */
struct bucket_counts {
	unsigned int *cnt;
	long *val;
};
long bucket_counts_read(struct bucket_counts *t, int b)
{
	unsigned int c;
	long v;

	do {
		c = READ_ONCE(t->cnt[b]); // expected-warning {{read section begins with a load of seqcount 't->cnt[]' that may be odd}}
		smp_rmb();
		v = READ_ONCE(t->val[b]);
		smp_rmb();
	} while (READ_ONCE(t->cnt[b]) != c);
	return v;
}

/* Begin and end helpers in the shape of PostgreSQL's
 * pgstat_begin_read_activity()/pgstat_end_read_activity(), with the end
 * helper's odd test forgotten: read barriers on both sides of the data make
 * it a section, and nothing refuses an odd begin value. */
struct act_slot {
	u32 changes;
	long state;
};
static inline u32 act_read_begin(struct act_slot *a)
{
	u32 b = a->changes;

	smp_rmb();
	return b;
}
static inline bool act_read_end(struct act_slot *a, u32 before)
{
	smp_rmb();
	return READ_ONCE(a->changes) == before;
}
long act_read(struct act_slot *a)
{
	u32 b;
	long st;

	do {
		b = act_read_begin(a); // expected-warning {{read section begins with a load of seqcount 'a->changes' that may be odd}}
		st = READ_ONCE(a->state);
	} while (!act_read_end(a, b));
	return st;
}
