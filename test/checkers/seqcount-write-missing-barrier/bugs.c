// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-write-missing-barrier, kernel style: open-coded seqcount writers
 * (a counter incremented by one before and after the data stores) that miss
 * the write barrier after the odd increment -- diagnosed on the first data
 * store that is not ordered after it -- or before a plain/WRITE_ONCE closing
 * increment -- diagnosed on the closing increment.
 * Only writers live in this file (no readers), so nothing can pair with them.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <asm/barrier.h>

/* Writers of this type use plain accesses for the counter and the data... */
struct pstat {
	unsigned int seq;
	u64 packets;
	u64 bytes;
};

/* ...and writers of this one use WRITE_ONCE for both. */
struct ostat {
	unsigned int seq;
	u64 lo;
	u64 hi;
};

/* The buggy writer of LWN's "Lockless patterns" part 2, verbatim. */
static unsigned int art_seq;
static struct { int x, y; } art_data;

/* The store-release to data.x is ordered after the odd increment, but the
 * WRITE_ONCE to data.y may become visible before it: flagged on data.y. */
void article_buggy_writer(void)
{
	WRITE_ONCE(art_seq, art_seq + 1);
	smp_store_release(&art_data.x, 123);
	WRITE_ONCE(art_data.y, 456); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	smp_store_release(&art_seq, art_seq + 1);
}

/* No smp_wmb() after the odd increment; the release at the end only orders
 * the data before the even count, not after the odd one. */
void ostat_set_no_begin_wmb(struct ostat *s, u64 lo, u64 hi)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	WRITE_ONCE(s->lo, lo); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	WRITE_ONCE(s->hi, hi);
	smp_store_release(&s->seq, s->seq + 1);
}

/* Plain increments, the smp_wmb() after the odd one was forgotten: the first
 * data store is a read-modify-write. */
void pstat_add_no_begin_wmb(struct pstat *s, u64 len)
{
	s->seq++;
	s->packets++; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	s->bytes += len;
	smp_wmb();
	s->seq++;
}

/* The closing plain increment has no smp_wmb() before it: readers can see the
 * even count before the data. */
void pstat_add_no_end_wmb(struct pstat *s, u64 len)
{
	s->seq++;
	smp_wmb();
	s->packets++;
	s->bytes += len;
	s->seq++; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
}

/* WRITE_ONCE is not a release: the closing WRITE_ONCE needs smp_wmb() first. */
void ostat_set_no_end_wmb(struct ostat *s, u64 lo, u64 hi)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	smp_wmb();
	WRITE_ONCE(s->lo, lo);
	WRITE_ONCE(s->hi, hi);
	WRITE_ONCE(s->seq, s->seq + 1); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
}

/* No barrier at all: both halves are reported. */
void ostat_set_no_barriers(struct ostat *s, u64 lo, u64 hi)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	WRITE_ONCE(s->lo, lo); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	WRITE_ONCE(s->hi, hi);
	WRITE_ONCE(s->seq, s->seq + 1); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
}

/* The barrier is only on one path: when !sync the data store is unordered. */
void pstat_add_cond_wmb(struct pstat *s, u64 len, bool sync)
{
	s->seq++;
	if (sync)
		smp_wmb();
	s->packets++; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	s->bytes += len;
	smp_wmb();
	s->seq++;
}

/* barrier() only stops the compiler; the CPU may still reorder the stores
 * (smp_wmb() happens to expand to barrier() on x86, but not elsewhere). */
void pstat_add_compiler_barrier(struct pstat *s, u64 len)
{
	s->seq++;
	barrier();
	s->packets++; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	s->bytes += len;
	smp_wmb();
	s->seq++;
}

/* A local computed between the odd increment and the data is not a data
 * store: the diagnostic lands on the first store to shared memory. */
void ostat_set_local_first(struct ostat *s, u64 v)
{
	u64 hi;

	WRITE_ONCE(s->seq, s->seq + 1);
	hi = v >> 32;
	WRITE_ONCE(s->lo, v & 0xffffffffULL); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	WRITE_ONCE(s->hi, hi);
	smp_store_release(&s->seq, s->seq + 1);
}

/* do_raw_write_seqcount_begin() open-coded on a seqcount_t's own counter,
 * without its smp_wmb(). */
static seqcount_t clk_seq = SEQCNT_ZERO(clk_seq);
static u64 clk_base, clk_mult;

void clk_update_open_coded(u64 base, u64 mult)
{
	clk_seq.sequence++;
	clk_base = base; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	clk_mult = mult;
	smp_wmb();
	clk_seq.sequence++;
}

/* A generation counter: the first data store is inside a loop. */
struct table {
	unsigned long gen;
	u32 slot[8];
};

void table_fill(struct table *t, u32 v)
{
	int i;

	WRITE_ONCE(t->gen, t->gen + 1);
	for (i = 0; i < 8; i++)
		WRITE_ONCE(t->slot[i], v); // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	smp_wmb();
	WRITE_ONCE(t->gen, t->gen + 1);
}

/* "version += 1" is an increment by one too; the closing one is unordered. */
struct cfg {
	unsigned int version;
	int mode;
	int level;
};

void cfg_set(struct cfg *c, int mode, int level)
{
	c->version += 1;
	smp_wmb();
	c->mode = mode;
	c->level = level;
	c->version += 1; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
}

/* The closing barrier is skipped on the fast path. */
void cfg_set_mode(struct cfg *c, int mode, bool fast)
{
	c->version += 1;
	smp_wmb();
	c->mode = mode;
	if (!fast)
		smp_wmb();
	c->version += 1; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
}
