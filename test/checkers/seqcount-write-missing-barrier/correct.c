// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// expected-no-diagnostics
/*
 * seqcount-write-missing-barrier, kernel style: correct writers that a
 * careless tool would flag -- open-coded writers with the barriers in place
 * (smp_wmb, smp_mb, smp_store_mb, smp_store_release for the end), barriers on
 * every path, locals between the increment and the barrier, API writers, and
 * counters that are not seqcounts at all.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/seqlock.h>
#include <asm/barrier.h>

struct pstat {
	unsigned int seq;
	u64 packets;
	u64 bytes;
};

struct ostat {
	unsigned int seq;
	u64 lo;
	u64 hi;
};

/* The fixed writer of LWN's "Lockless patterns" part 2. */
static unsigned int art_seq;
static struct { int x, y; } art_data;

/* smp_wmb() after the odd increment, store-release for the even one. */
void article_fixed_writer(void)
{
	WRITE_ONCE(art_seq, art_seq + 1);
	smp_wmb();
	WRITE_ONCE(art_data.x, 123);
	WRITE_ONCE(art_data.y, 456);
	smp_store_release(&art_seq, art_seq + 1);
}

/* The shape of do_raw_write_seqcount_begin()/_end(): ++, wmb, data, wmb, ++. */
void pstat_add(struct pstat *s, u64 len)
{
	s->seq++;
	smp_wmb();
	s->packets++;
	s->bytes += len;
	smp_wmb();
	s->seq++;
}

/* A full barrier is at least as strong as smp_wmb(). */
void ostat_set_mb(struct ostat *s, u64 lo, u64 hi)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	smp_mb();
	WRITE_ONCE(s->lo, lo);
	WRITE_ONCE(s->hi, hi);
	smp_mb();
	WRITE_ONCE(s->seq, s->seq + 1);
}

/* smp_store_mb() is WRITE_ONCE() followed by smp_mb(): it orders the odd
 * count before the data by itself. */
void ostat_set_store_mb(struct ostat *s, u64 lo, u64 hi)
{
	smp_store_mb(s->seq, s->seq + 1);
	WRITE_ONCE(s->lo, lo);
	WRITE_ONCE(s->hi, hi);
	smp_store_release(&s->seq, s->seq + 1);
}

/* The counter is read once into a local; "seq + 2" is still the next value
 * of the counter after "seq + 1". */
void ostat_set_local_copy(struct ostat *s, u64 lo, u64 hi)
{
	unsigned int seq = s->seq;

	WRITE_ONCE(s->seq, seq + 1);
	smp_wmb();
	WRITE_ONCE(s->lo, lo);
	WRITE_ONCE(s->hi, hi);
	smp_store_release(&s->seq, seq + 2);
}

/* Each branch has its own smp_wmb() before its data store. */
void pstat_add_branches(struct pstat *s, u64 len, bool count_packet)
{
	s->seq++;
	if (count_packet) {
		smp_wmb();
		s->packets++;
	} else {
		smp_wmb();
		s->bytes += len;
	}
	smp_wmb();
	s->seq++;
}

/* Stores to locals before the barrier are not data stores. */
void ostat_set_split(struct ostat *s, u64 v)
{
	u64 lo, hi;

	WRITE_ONCE(s->seq, s->seq + 1);
	lo = v & 0xffffffffULL;
	hi = v >> 32;
	smp_wmb();
	WRITE_ONCE(s->lo, lo);
	WRITE_ONCE(s->hi, hi);
	smp_store_release(&s->seq, s->seq + 1);
}

/* raw_write_seqcount_barrier() open-coded: the two increments bracket no data
 * store; the data stores around them are outside the pair. */
struct flip {
	unsigned int seq;
	bool x;
	bool y;
};

void flip_update(struct flip *f)
{
	WRITE_ONCE(f->x, false);
	f->seq++;
	smp_wmb();
	f->seq++;
	WRITE_ONCE(f->y, true);
}

/* API writers carry their own barriers. */
static seqcount_t clk_seq = SEQCNT_ZERO(clk_seq);
static struct { u64 base, mult; } clk;

void clk_update(u64 base, u64 mult)
{
	preempt_disable();
	write_seqcount_begin(&clk_seq);
	clk.base = base;
	clk.mult = mult;
	write_seqcount_end(&clk_seq);
	preempt_enable();
}

void clk_update_raw(u64 base)
{
	preempt_disable();
	raw_write_seqcount_begin(&clk_seq);
	clk.base = base;
	raw_write_seqcount_end(&clk_seq);
	preempt_enable();
}

static DEFINE_SEQLOCK(cfg_lock);
static struct { int mode, level; } cfg;

void cfg_set(int mode, int level)
{
	write_seqlock(&cfg_lock);
	cfg.mode = mode;
	cfg.level = level;
	write_sequnlock(&cfg_lock);
}

/* The latch writer: each raw_write_seqcount_latch() is a complete step. */
static seqcount_latch_t tk_latch = SEQCNT_LATCH_ZERO(tk_latch);
static u64 tk_base[2];

void tk_latch_update(u64 base)
{
	raw_write_seqcount_latch(&tk_latch);
	tk_base[0] = base;
	raw_write_seqcount_latch(&tk_latch);
	tk_base[1] = base;
}

/* Plain statistics counters, no seqcount involved: nothing to order. */
struct rx_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 rx_dropped;
};

void rx_account(struct rx_stats *st, u64 len, bool dropped)
{
	st->rx_packets++;
	st->rx_bytes += len;
	if (dropped)
		st->rx_dropped++;
}
