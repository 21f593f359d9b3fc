// access-plain-in-read-section: Linux code is exempt -- the LKMM allows plain
// loads in a read section that is retried (seqcount_t, seqlock_t, u64_stats,
// open-coded READ_ONCE readers).
// RUN: %clang_plugin -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>

struct clock {
	seqcount_t seq;
	seqlock_t lock;
	unsigned long base, mult;
	unsigned oseq;
};

unsigned long clock_read(struct clock *k)
{
	unsigned seq;
	unsigned long v;

	do {
		seq = read_seqcount_begin(&k->seq);
		v = k->base * k->mult;
	} while (read_seqcount_retry(&k->seq, seq));
	return v;
}

unsigned long clock_read_seqlock(struct clock *k)
{
	unsigned seq;
	unsigned long v;

	do {
		seq = read_seqbegin(&k->lock);
		v = k->base;
	} while (read_seqretry(&k->lock, seq));
	return v;
}

unsigned long clock_read_open_coded(struct clock *k)
{
	unsigned seq;
	unsigned long v;

	do {
		seq = READ_ONCE(k->oseq) & ~1u;
		smp_rmb();
		v = k->base;
		smp_rmb();
	} while (READ_ONCE(k->oseq) != seq);
	return v;
}
