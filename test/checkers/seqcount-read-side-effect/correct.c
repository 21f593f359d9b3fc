// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// expected-no-diagnostics
/*
 * seqcount-read-side-effect, kernel style: read sections that only store to
 * locals (scalars, structs, arrays, memcpy into a local buffer) and to the
 * caller's out-parameters (ktime_get_real_ts64() style) -- the last iteration
 * overwrites them -- or that call side-effect-free helpers, RCU read-side
 * primitives and cpu_relax(); side effects before the begin, after the loop,
 * or between a failed retry and the next begin. Only readers live here.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>
#include <asm/processor.h>

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};

struct timekeeper {
	u64 xtime_sec;
	u64 xtime_nsec;
	u32 mult;
	u32 shift;
};

static seqcount_t tk_seq = SEQCNT_ZERO(tk_seq);
static struct timekeeper tk_core;

/* A side-effect-free helper: computes from its arguments only. */
static inline u64 tk_scale(u64 nsec, u32 mult, u32 shift)
{
	return (nsec * mult) >> shift;
}

/* ktime_get_real_ts64() shape: fields of the out-parameter are written on
 * every attempt; the last attempt's values are the ones that survive. */
void tk_get_real_ts64(struct timespec64 *ts)
{
	unsigned int seq;
	u64 nsecs;

	do {
		seq = read_seqcount_begin(&tk_seq);
		ts->tv_sec = tk_core.xtime_sec;
		nsecs = tk_scale(tk_core.xtime_nsec, tk_core.mult, tk_core.shift);
	} while (read_seqcount_retry(&tk_seq, seq));
	ts->tv_sec += nsecs / 1000000000ULL;
	ts->tv_nsec = nsecs % 1000000000ULL;
}

/* *out written in the section. */
void tk_get_sec(u64 *out)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&tk_seq);
		*out = tk_core.xtime_sec;
	} while (read_seqcount_retry(&tk_seq, seq));
}

/* Locals only: scalars, a struct, an array, a loop counter, memcpy into a
 * local buffer. */
u64 tk_checksum(void)
{
	struct timekeeper copy;
	u64 words[2];
	u64 sum;
	unsigned int seq;
	int i;

	do {
		seq = read_seqcount_begin(&tk_seq);
		copy = tk_core;
		__builtin_memcpy(words, &tk_core, sizeof(words));
		sum = 0;
		for (i = 0; i < 2; i++)
			sum += words[i];
		sum += copy.mult;
	} while (read_seqcount_retry(&tk_seq, seq));
	return sum;
}

/* A static helper that fills the caller's buffer: it writes only through its
 * parameter, here a local of the reader. */
static void ts_fill(struct timespec64 *dst, u64 sec, u64 nsec)
{
	dst->tv_sec = sec;
	dst->tv_nsec = (long)nsec;
}

s64 tk_get_sec_via_helper(void)
{
	struct timespec64 ts;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&tk_seq);
		ts_fill(&ts, tk_core.xtime_sec, tk_core.xtime_nsec);
	} while (read_seqcount_retry(&tk_seq, seq));
	return ts.tv_sec;
}

/* RCU read-side critical section inside the seqcount section. */
struct clocksource {
	u64 mask;
};

static struct clocksource __rcu *tk_clock;

u64 tk_get_mask(void)
{
	struct clocksource *cs;
	unsigned int seq;
	u64 mask;

	do {
		seq = read_seqcount_begin(&tk_seq);
		rcu_read_lock();
		cs = rcu_dereference(tk_clock);
		mask = cs ? cs->mask : 0;
		rcu_read_unlock();
	} while (read_seqcount_retry(&tk_seq, seq));
	return mask;
}

/* cpu_relax() in the section: back off while the timekeeper is not set up. */
u64 tk_get_sec_initialized(void)
{
	unsigned int seq;
	u64 sec;

	do {
		seq = read_seqcount_begin(&tk_seq);
		sec = tk_core.xtime_sec;
		if (unlikely(!sec))
			cpu_relax();
	} while (read_seqcount_retry(&tk_seq, seq) || !sec);
	return sec;
}

/* Logging happens once, after the loop, on the validated copy. */
u64 tk_get_sec_logged(void)
{
	unsigned int seq;
	u64 sec;

	do {
		seq = read_seqcount_begin(&tk_seq);
		sec = tk_core.xtime_sec;
	} while (read_seqcount_retry(&tk_seq, seq));
	pr_info("tk: sec %llu\n", sec);
	return sec;
}

/* Side effects before the section and after the loop. */
static DEFINE_SPINLOCK(stats_lock);
static unsigned long tk_reads;

u64 tk_get_nsec_counted(void)
{
	unsigned int seq;
	u64 nsec;

	spin_lock(&stats_lock);
	tk_reads++;
	spin_unlock(&stats_lock);
	do {
		seq = read_seqcount_begin(&tk_seq);
		nsec = tk_core.xtime_nsec;
	} while (read_seqcount_retry(&tk_seq, seq));
	printk(KERN_DEBUG "tk: nsec %llu\n", nsec);
	return nsec;
}

/* Between a failed retry and the next begin there is no open section. */
static unsigned long tk_retries;

u64 tk_get_sec_retries(void)
{
	unsigned int seq;
	u64 sec;

	for (;;) {
		seq = read_seqcount_begin(&tk_seq);
		sec = tk_core.xtime_sec;
		if (!read_seqcount_retry(&tk_seq, seq))
			break;
		tk_retries++;
	}
	return sec;
}

/* READ_ONCE() loads and data_race() reads are loads, not side effects. */
u64 tk_get_mult(void)
{
	unsigned int seq;
	u64 v;

	do {
		seq = read_seqcount_begin(&tk_seq);
		v = READ_ONCE(tk_core.mult);
		v += data_race(tk_core.shift);
	} while (read_seqcount_retry(&tk_seq, seq));
	return v;
}

/* Open-coded section writing a local struct and an out-parameter. */
struct snap {
	unsigned int seq;
	u64 a;
	u64 b;
};

struct pair {
	u64 a, b;
};

void snap_get(struct snap *s, struct pair *out)
{
	unsigned int seq;
	struct pair p;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		smp_rmb();
		p.a = READ_ONCE(s->a);
		p.b = READ_ONCE(s->b);
		out->a = p.a;
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	out->b = p.b;
}

/* seqlock_t section with out-parameters. */
static DEFINE_SEQLOCK(cfg_lock);
static struct { int mode, level; } cfg;

void cfg_get(int *mode, int *level)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&cfg_lock);
		*mode = cfg.mode;
		*level = cfg.level;
	} while (read_seqretry(&cfg_lock, seq));
}

#include <linux/mutex.h>

struct dev {
	seqcount_t seq;
	spinlock_t lock;
	struct mutex mtx;
	u64 rx_bytes;
};

/* A lock taken and released inside the section leaves nothing behind when
 * the section is retried (nfs_path() does this under rename_lock). */
u64 dev_rx_bytes_locked(struct dev *d)
{
	unsigned int seq;
	u64 bytes;

	do {
		seq = read_seqcount_begin(&d->seq);
		spin_lock(&d->lock);
		bytes = d->rx_bytes;
		spin_unlock(&d->lock);
	} while (read_seqcount_retry(&d->seq, seq));
	return bytes;
}

/* The same with a mutex. */
u64 dev_rx_bytes_mutex(struct dev *d)
{
	unsigned int seq;
	u64 bytes;

	do {
		seq = read_seqcount_begin(&d->seq);
		mutex_lock(&d->mtx);
		bytes = d->rx_bytes;
		mutex_unlock(&d->mtx);
	} while (read_seqcount_retry(&d->seq, seq));
	return bytes;
}
