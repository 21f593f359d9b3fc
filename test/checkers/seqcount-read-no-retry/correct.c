// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// expected-no-diagnostics
/*
 * seqcount-read-no-retry, kernel style: begin values that are validated in
 * every loop shape, or that escape to somewhere that validates them --
 * returned to the caller, stored through an out-parameter (fs/dcache.c,
 * fs/namei.c: "*seqp = raw_read_seqcount(...)", "nd->seq = ..."), passed to a
 * helper that retries, kept in a struct that is passed on (scoped_seqlock_read)
 * -- retry results that are used (tested, stored, returned), an explicitly
 * (void)-discarded begin, and the read_seqbegin_or_lock()/need_seqretry()/
 * done_seqretry() protocol. Only readers live in this file.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>
#include <asm/barrier.h>

struct point {
	u64 x, y;
};

static seqcount_t pt_seq = SEQCNT_ZERO(pt_seq);
static struct point pt;
static DEFINE_SEQLOCK(cfg_lock);
static struct { int mode, level; } cfg;

/* The classic loop. */
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

/* Begin value returned: the caller validates it later. */
unsigned int pt_begin(void)
{
	return read_seqcount_begin(&pt_seq);
}

/* Retry result returned: the caller decides whether to go again. */
bool pt_changed(unsigned int seq)
{
	return read_seqcount_retry(&pt_seq, seq);
}

/* fs/dcache.c style: the begin value goes out through a pointer parameter. */
u64 pt_peek_x(unsigned int *seqp)
{
	*seqp = raw_read_seqcount(&pt_seq);
	return pt.x;
}

/* fs/namei.c style: stored into the caller's lookup state. */
struct nameidata {
	unsigned int seq;
	u64 x;
};

void pt_walk_start(struct nameidata *nd)
{
	nd->seq = raw_seqcount_begin(&pt_seq);
	nd->x = pt.x;
}

/* Validated in a helper of this TU. */
static bool pt_unchanged(unsigned int seq)
{
	return !read_seqcount_retry(&pt_seq, seq);
}

u64 pt_get_y(void)
{
	unsigned int seq;
	u64 y;

	do {
		seq = read_seqcount_begin(&pt_seq);
		y = pt.y;
	} while (!pt_unchanged(seq));
	return y;
}

/* Passed to a function of another TU: it escapes, seqlint cannot tell. */
extern bool pt_validate(const seqcount_t *s, unsigned int seq);

u64 pt_get_x(void)
{
	unsigned int seq;
	u64 x;

	do {
		seq = read_seqcount_begin(&pt_seq);
		x = pt.x;
	} while (!pt_validate(&pt_seq, seq));
	return x;
}

/* Retry result kept in a variable and tested. */
u64 pt_sum(void)
{
	unsigned int seq;
	u64 sum;
	bool again;

retry:
	seq = raw_read_seqcount_begin(&pt_seq);
	sum = pt.x + pt.y;
	again = read_seqcount_retry(&pt_seq, seq);
	if (again)
		goto retry;
	return sum;
}

/* for(;;) with break on !retry, and __read_seqcount_retry() after smp_rmb(). */
u64 pt_get_max(void)
{
	unsigned int seq;
	u64 max;

	for (;;) {
		seq = raw_seqcount_begin(&pt_seq);
		max = pt.x > pt.y ? pt.x : pt.y;
		smp_rmb();
		if (!__read_seqcount_retry(&pt_seq, seq))
			break;
	}
	return max;
}

/* An explicitly discarded begin: only waits until no writer is active. */
void pt_wait_for_writer(void)
{
	(void)read_seqcount_begin(&pt_seq);
}

/* seqlock_t, lockless and locking passes. */
int cfg_get_mode(void)
{
	int seq = 0, mode;

	do {
		read_seqbegin_or_lock(&cfg_lock, &seq);
		mode = cfg.mode;
	} while (need_seqretry(&cfg_lock, seq) && (seq = 1));
	done_seqretry(&cfg_lock, seq);
	return mode;
}

int cfg_get_level(void)
{
	unsigned long flags;
	int seq = 0, level;

	do {
		flags = read_seqbegin_or_lock_irqsave(&cfg_lock, &seq);
		level = cfg.level;
	} while (need_seqretry(&cfg_lock, seq) && (seq = 1));
	done_seqretry_irqrestore(&cfg_lock, seq, flags);
	return level;
}

int cfg_get(int *level)
{
	unsigned int seq;
	int mode;

	do {
		seq = read_seqbegin(&cfg_lock);
		mode = cfg.mode;
		*level = cfg.level;
	} while (read_seqretry(&cfg_lock, seq));
	return mode;
}

/* scoped_seqlock_read(): the begin value lives in the loop's state struct and
 * is validated by __scoped_seqlock_next(). */
int cfg_get_scoped(void)
{
	int mode = 0;

	scoped_seqlock_read(&cfg_lock, ss_lock) {
		mode = cfg.mode;
	}
	return mode;
}

/* Latch and u64_stats loops. */
static seqcount_latch_t tk_latch = SEQCNT_LATCH_ZERO(tk_latch);
static u64 tk_base[2];

u64 tk_get_base(void)
{
	unsigned int seq;
	u64 base;

	do {
		seq = read_seqcount_latch(&tk_latch);
		base = tk_base[seq & 1];
	} while (read_seqcount_latch_retry(&tk_latch, seq));
	return base;
}

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
