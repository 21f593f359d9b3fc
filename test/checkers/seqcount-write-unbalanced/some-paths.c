// RUN: %clang_plugin -fsyntax-only -Xclang -verify %s
// RUN: %clang_plugin -DBITS_PER_LONG=32 -fsyntax-only -Xclang -verify %s
/*
 * seqcount-write-unbalanced: a write section open on some paths only, where
 * the end (or the next begin) runs whichever way the begin's condition went
 * -- the shape of Clang's "acquired along some paths but not others". The
 * correlated form (begin and end under the same condition, mm/memory.c's
 * is_cow) stays silent. Also seqcount-read-no-retry: a retry that runs on
 * every path while its begin runs on some.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>

struct rxq {
	u64 packets, bytes;
	struct u64_stats_sync syncp;
};

struct clock_data {
	seqcount_t seq;
	u64 base, mult;
	int shift;
};

static DEFINE_SEQLOCK(meta_lock);
static u64 meta_block[16];

/* The end is outside the if: on !done the count is bumped to odd. */
void rxq_account(struct rxq *q, int done, u64 bytes)
{
	if (done) { // expected-note {{the begin is skipped when this condition is false}}
		u64_stats_update_begin(&q->syncp); // expected-note {{the write section begins here, on some paths only}}
		q->packets += done;
		q->bytes += bytes;
	}
	u64_stats_update_end(&q->syncp); // expected-warning {{u64_stats_update_end() on 'q->syncp' runs on every path, but the write section is open on some paths only}}
}

/* An else branch that skips the begin. */
int clock_update(struct clock_data *cd, u64 base, int shift)
{
	if (shift > 32) { // expected-note {{the begin is skipped when this condition is true}}
		base = 0;
	} else {
		write_seqcount_begin(&cd->seq); // expected-note {{the write section begins here, on some paths only}}
		cd->shift = shift;
	}
	cd->base = base;
	write_seqcount_end(&cd->seq); // expected-warning {{runs on every path, but the write section is open on some paths only}}
	return 0;
}

/* A continue skips the unlock: the next iteration begins while open. */
void free_tail(u64 *slots, int n)
{
	for (int i = 0; i < n; i++) {
		write_seqlock(&meta_lock); // expected-warning {{write_seqlock() on 'meta_lock' is reached on a path where its write section is still open}} expected-note {{the section begun here in the previous iteration is not ended on every path}}
		if (!slots[i])
			continue;
		meta_block[i] = slots[i];
		write_sequnlock(&meta_lock);
	}
}

/* Two begins in a row on one path, the first under a condition. */
void clock_two_steps(struct clock_data *cd, int fast)
{
	if (fast) {
		write_seqcount_begin(&cd->seq); // expected-note {{the section begun here is not ended on every path}}
		cd->mult = 1;
	}
	write_seqcount_begin(&cd->seq); // expected-warning {{is reached on a path where its write section is still open}}
	cd->base = 2;
	write_seqcount_end(&cd->seq);
}

/* The retry runs on a cache miss too, validating a seq no begin produced. */
struct fo_cache { u16 mss; int valid; };
void fastopen_get(struct fo_cache *tm, u16 *mss)
{
	unsigned int seq = 0;

	do {
		if (tm) {
			seq = read_seqbegin(&meta_lock); // expected-note {{the read section begins here, on some paths only}}
			*mss = tm->mss;
		}
	} while (read_seqretry(&meta_lock, seq)); // expected-warning {{read_seqretry() on 'meta_lock' runs on every path, but its read section begins on some paths only}}
}

/* ---- correct code ---- */

/* Begin and end under the same condition (mm/memory.c copy_page_range). */
void copy_range(struct clock_data *cd, int is_cow)
{
	if (is_cow)
		write_seqcount_begin(&cd->seq);
	cd->base++;
	if (is_cow)
		write_seqcount_end(&cd->seq);
}

/* The same condition inside a loop. */
void copy_ranges(struct clock_data *cd, const int *cow, int n)
{
	for (int i = 0; i < n; i++) {
		if (cow[i])
			write_seqcount_begin(&cd->seq);
		cd->mult += i;
		if (cow[i])
			write_seqcount_end(&cd->seq);
	}
}

/* Every iteration begins and ends; the continue comes after the end. */
void rxq_poll(struct rxq *q, const int *len, int n)
{
	for (int i = 0; i < n; i++) {
		if (len[i] < 0)
			continue;
		u64_stats_update_begin(&q->syncp);
		q->packets++;
		q->bytes += len[i];
		u64_stats_update_end(&q->syncp);
		if (len[i] == 0)
			continue;
	}
}

/* An error path that ends before it returns; a goto to the end. */
int clock_set(struct clock_data *cd, u64 base, int shift)
{
	int ret = 0;

	write_seqcount_begin(&cd->seq);
	if (shift < 0) {
		ret = -1;
		goto out;
	}
	cd->base = base;
	cd->shift = shift;
out:
	write_seqcount_end(&cd->seq);
	return ret;
}

/* Split helpers: each alone is one half, the caller pairs them. */
static unsigned long stats_begin(struct rxq *q)
{
	return u64_stats_update_begin_irqsave(&q->syncp);
}
static void stats_end(struct rxq *q, unsigned long flags)
{
	u64_stats_update_end_irqrestore(&q->syncp, flags);
}
void rxq_reset(struct rxq *q)
{
	unsigned long flags = stats_begin(q);
	q->packets = 0;
	q->bytes = 0;
	stats_end(q, flags);
}

/* A reader whose begin and retry are both under the condition. */
void fastopen_get_ok(struct fo_cache *tm, u16 *mss)
{
	unsigned int seq;

	if (!tm)
		return;
	do {
		seq = read_seqbegin(&meta_lock);
		*mss = tm->mss;
	} while (read_seqretry(&meta_lock, seq));
}
