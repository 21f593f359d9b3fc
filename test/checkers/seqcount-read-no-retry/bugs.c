// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-no-retry, kernel style: a begin value that no retry ever
 * validates and that does not escape the function (diagnosed on the begin),
 * a begin whose result is discarded without a (void) cast (diagnosed on the
 * begin), and a retry whose result is ignored (diagnosed on the retry).
 * Only readers live in this file.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>
#include <asm/barrier.h>

#define EBUSY 16

struct point {
	u64 x, y;
};

static seqcount_t pt_seq = SEQCNT_ZERO(pt_seq);
static struct point pt;
static DEFINE_SEQLOCK(cfg_lock);
static struct { int mode, level; } cfg;

/* "No writer active at the start" is not enough: a writer can start during
 * the copy, and nothing rechecks the count. */
int pt_get_if_idle(struct point *p)
{
	unsigned int seq;

	seq = raw_read_seqcount(&pt_seq); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
	if (seq & 1)
		return -EBUSY;
	*p = pt;
	return 0;
}

/* The begin value is thrown away: the section can never be validated. */
u64 pt_get_x(void)
{
	u64 x;

	read_seqcount_begin(&pt_seq); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
	x = pt.x;
	return x;
}

/* Same for a seqlock_t. */
int cfg_get_level(void)
{
	int level;

	read_seqbegin(&cfg_lock); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
	level = cfg.level;
	return level;
}

/* The retry is called but its answer ignored: torn data is returned. */
struct point pt_get(void)
{
	struct point p;
	unsigned int seq;

	seq = read_seqcount_begin(&pt_seq);
	p = pt;
	read_seqcount_retry(&pt_seq, seq); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
	return p;
}

/* A loop that does not loop on the retry. */
u64 pt_get_y(void)
{
	unsigned int seq;
	u64 y;

	do {
		seq = raw_read_seqcount_begin(&pt_seq);
		y = pt.y;
		read_seqcount_retry(&pt_seq, seq); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
	} while (0);
	return y;
}

/* __read_seqcount_retry() after an explicit smp_rmb(), result ignored. */
u64 pt_sum(void)
{
	unsigned int seq;
	u64 sum;

	seq = raw_seqcount_begin(&pt_seq);
	sum = pt.x + pt.y;
	smp_rmb();
	__read_seqcount_retry(&pt_seq, seq); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
	return sum;
}

/* seqlock_t: read_seqretry() result ignored. */
int cfg_get(int *level)
{
	unsigned int seq;
	int mode;

	seq = read_seqbegin(&cfg_lock);
	mode = cfg.mode;
	*level = cfg.level;
	read_seqretry(&cfg_lock, seq); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
	return mode;
}

/* Two counters; a copy-paste slip validates the second begin value against
 * the first counter, so lim_seq's section is never validated. */
static seqcount_t lim_seq = SEQCNT_ZERO(lim_seq);
static u64 lim_max;

bool pt_in_limits(void)
{
	unsigned int seq, lseq;
	u64 x, max;

	do {
		seq = read_seqcount_begin(&pt_seq);
		lseq = read_seqcount_begin(&lim_seq); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
		x = pt.x;
		max = lim_max;
	} while (read_seqcount_retry(&pt_seq, seq) || read_seqcount_retry(&pt_seq, lseq));
	return x <= max;
}

/* u64_stats: the fetch_begin result is dropped. */
struct netstats {
	struct u64_stats_sync syncp;
	u64_stats_t packets;
};

u64 netstats_packets(const struct netstats *st)
{
	u64_stats_fetch_begin(&st->syncp); // expected-warning {{[seqlint-seqcount-read-no-retry]}}
	return u64_stats_read(&st->packets);
}
