// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// expected-no-diagnostics
/*
 * seqcount-read-missing-barrier, kernel style: correct readers -- the API in
 * every loop shape (do/while, for(;;) with break, goto retry), the raw_
 * variants, the fs/dcache.c shape (raw_seqcount_begin(), smp_rmb(),
 * __read_seqcount_retry()), open-coded readers with smp_rmb()/smp_mb()/
 * smp_load_acquire() in the right places (the article's fixed reader, the
 * lib/vdso/gettimeofday.c shape), barriers on every path, the latch and
 * seqlock_t/u64_stats readers. Only readers live in this file.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>
#include <asm/barrier.h>
#include <asm/processor.h>

struct point {
	u64 x, y;
};

static seqcount_t pt_seq = SEQCNT_ZERO(pt_seq);
static struct point pt;

/* The canonical API loop: the barriers live in the API. */
struct point pt_get(void)
{
	struct point p;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&pt_seq);
		p = pt;
	} while (read_seqcount_retry(&pt_seq, seq));
	return p;
}

/* for(;;) with break. */
u64 pt_get_x(void)
{
	unsigned int seq;
	u64 x;

	for (;;) {
		seq = raw_read_seqcount_begin(&pt_seq);
		x = pt.x;
		if (!read_seqcount_retry(&pt_seq, seq))
			break;
	}
	return x;
}

/* goto retry. */
u64 pt_get_y(void)
{
	unsigned int seq;
	u64 y;

retry:
	seq = read_seqcount_begin(&pt_seq);
	y = pt.y;
	if (read_seqcount_retry(&pt_seq, seq))
		goto retry;
	return y;
}

/* fs/dcache.c shape: raw_seqcount_begin(), loads, an explicit smp_rmb(), then
 * the barrier-less __read_seqcount_retry(). */
bool pt_same(const struct point *q)
{
	unsigned int seq;
	bool same;

	do {
		seq = raw_seqcount_begin(&pt_seq);
		same = pt.x == q->x && pt.y == q->y;
		smp_rmb();
	} while (__read_seqcount_retry(&pt_seq, seq));
	return same;
}

/* The fixed reader of LWN's "Lockless patterns" part 2. */
static unsigned int art_seq;
static struct { int x, y; } art_data;

void article_fixed_reader(int *x, int *y)
{
	unsigned int old;
	int cx, cy;

	do {
		old = smp_load_acquire(&art_seq) & ~1;
		cy = READ_ONCE(art_data.y);
		cx = READ_ONCE(art_data.x);
		smp_rmb();
	} while (READ_ONCE(art_seq) != old);
	*x = cx;
	*y = cy;
}

/* READ_ONCE + smp_rmb() at both ends. */
struct snap {
	unsigned int seq;
	u64 a;
	u64 b;
};

u64 snap_sum(struct snap *s)
{
	unsigned int seq;
	u64 a, b;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		smp_rmb();
		a = READ_ONCE(s->a);
		b = READ_ONCE(s->b);
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return a + b;
}

/* Full barriers are at least as strong. */
u64 snap_sum_mb(struct snap *s)
{
	unsigned int seq;
	u64 a, b;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		smp_mb();
		a = READ_ONCE(s->a);
		b = READ_ONCE(s->b);
		smp_mb();
	} while (READ_ONCE(s->seq) != seq);
	return a + b;
}

/* An smp_rmb() on each branch before the recheck; computing a local from the
 * counter before the first smp_rmb() is not a data load. */
u64 snap_pick(struct snap *s, bool want_b)
{
	unsigned int seq, gen;
	u64 v;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		gen = seq >> 1;
		smp_rmb();
		if (want_b) {
			v = READ_ONCE(s->b);
			smp_rmb();
		} else {
			v = READ_ONCE(s->a);
			smp_rmb();
		}
	} while (READ_ONCE(s->seq) != seq);
	return v + gen;
}

/* lib/vdso/gettimeofday.c shape: wait for an even count, rmb, loads, rmb,
 * recheck. */
struct vdso_data {
	u32 seq;
	u64 cycle_last;
	u64 mask;
};

u64 vdso_read(const struct vdso_data *vd)
{
	u32 seq;
	u64 last, mask;

	do {
		while (unlikely((seq = READ_ONCE(vd->seq)) & 1))
			cpu_relax();
		smp_rmb();
		last = READ_ONCE(vd->cycle_last);
		mask = READ_ONCE(vd->mask);
		smp_rmb();
	} while (unlikely(READ_ONCE(vd->seq) != seq));
	return last & mask;
}

/* Open-coded goto reader with acquire on the first load. */
u64 snap_a_goto(struct snap *s)
{
	unsigned int seq;
	u64 a;

retry:
	seq = smp_load_acquire(&s->seq);
	if (seq & 1)
		goto retry;
	a = READ_ONCE(s->a);
	smp_rmb();
	if (READ_ONCE(s->seq) != seq)
		goto retry;
	return a;
}

/* Latch reader: the API orders the dependent load and the recheck. */
static seqcount_latch_t tk_latch = SEQCNT_LATCH_ZERO(tk_latch);
static u64 tk_base[2];

u64 tk_get_base(void)
{
	unsigned int seq;
	u64 base;

	do {
		seq = raw_read_seqcount_latch(&tk_latch);
		base = tk_base[seq & 1];
	} while (read_seqcount_latch_retry(&tk_latch, seq));
	return base;
}

/* seqlock_t reader and the locking-reader fallback. */
static DEFINE_SEQLOCK(cfg_lock);
static struct { int mode, level; } cfg;

int cfg_get(int *level)
{
	unsigned int seq;
	int mode, lvl;

	do {
		seq = read_seqbegin(&cfg_lock);
		mode = cfg.mode;
		lvl = cfg.level;
	} while (read_seqretry(&cfg_lock, seq));
	*level = lvl;
	return mode;
}

int cfg_get_mode_or_lock(void)
{
	int seq = 0, mode;

	do {
		read_seqbegin_or_lock(&cfg_lock, &seq);
		mode = cfg.mode;
	} while (need_seqretry(&cfg_lock, seq) && (seq = 1));
	done_seqretry(&cfg_lock, seq);
	return mode;
}

/* u64_stats readers. */
struct netstats {
	struct u64_stats_sync syncp;
	u64_stats_t packets;
};

u64 netstats_packets(const struct netstats *st)
{
	unsigned int start;
	u64 packets;

	do {
		start = u64_stats_fetch_begin(&st->syncp);
		packets = u64_stats_read(&st->packets);
	} while (u64_stats_fetch_retry(&st->syncp, start));
	return packets;
}
