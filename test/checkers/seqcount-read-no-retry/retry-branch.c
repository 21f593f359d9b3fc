// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-no-retry: a retry whose result is tested, but whose branch
 * only logs or counts and falls through, so the torn data is used anyway
 * (modelled on a DPDK policer that counts torn reads and goes on to use
 * the tokens it read). Correct: loop back, return, goto the begin.
 */
#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/seqlock.h>

struct bucket { seqcount_t seq; unsigned long rate, tokens; unsigned long torn; };

int conform(struct bucket *b, unsigned long len)
{
	unsigned int seq = read_seqcount_begin(&b->seq);
	unsigned long rate = b->rate, tokens = b->tokens;

	if (unlikely(read_seqcount_retry(&b->seq, seq))) // expected-warning {{result of read_seqcount_retry() on 'b->seq' is tested, but the failed attempt is neither retried nor discarded}}
		b->torn++;
	return rate && tokens >= len;
}

unsigned long rate_get(struct bucket *b)
{
	unsigned int seq = read_seqcount_begin(&b->seq);
	unsigned long rate = b->rate;

	if (read_seqcount_retry(&b->seq, seq)) { // expected-warning {{is tested, but the failed attempt is neither retried nor discarded}}
		pr_warn("rate_get: raced with an update\n");
	}
	return rate;
}

/* ---- correct code ---- */

int conform_discard(struct bucket *b, unsigned long len)
{
	unsigned int seq = read_seqcount_begin(&b->seq);
	unsigned long rate = b->rate, tokens = b->tokens;

	if (read_seqcount_retry(&b->seq, seq))
		return -1;
	return rate && tokens >= len;
}

unsigned long rate_get_goto(struct bucket *b)
{
	unsigned int seq;
	unsigned long rate;

again:
	seq = read_seqcount_begin(&b->seq);
	rate = b->rate;
	if (read_seqcount_retry(&b->seq, seq)) {
		pr_warn("rate_get: retrying\n");
		goto again;
	}
	return rate;
}

/* In a loop, the next iteration is the retry. */
unsigned long rate_get_loop(struct bucket *b)
{
	unsigned int seq;
	unsigned long rate;

	for (;;) {
		seq = read_seqcount_begin(&b->seq);
		rate = b->rate;
		if (!read_seqcount_retry(&b->seq, seq))
			break;
		if (read_seqcount_retry(&b->seq, seq))
			b->torn++;
	}
	return rate;
}

/* The success path is the then-branch: nothing to judge here. */
unsigned long rate_get_else(struct bucket *b, unsigned long dflt)
{
	unsigned int seq = read_seqcount_begin(&b->seq);
	unsigned long rate = b->rate;

	if (!read_seqcount_retry(&b->seq, seq))
		return rate;
	return dflt;
}

/* Try lockless once, else redo the read under the lock (fs/dcache.c
 * is_subdir(), fs/namespace.c path_overmounted()). */
static DEFINE_SEQLOCK(tree_lock);
static unsigned long tree_depth;

unsigned long depth_get(void)
{
	unsigned int seq = read_seqbegin(&tree_lock);
	unsigned long d = tree_depth;

	if (read_seqretry(&tree_lock, seq)) {
		read_seqlock_excl(&tree_lock);
		d = tree_depth;
		read_sequnlock_excl(&tree_lock);
	}
	return d;
}

/* Discard the result by assignment (net/xfrm/xfrm_state.c). */
struct bucket *bucket_find(struct bucket *b, int *err)
{
	unsigned int seq = read_seqcount_begin(&b->seq);
	struct bucket *found = b->rate ? b : NULL;

	if (read_seqcount_retry(&b->seq, seq)) {
		*err = -11;
		found = NULL;
	}
	return found;
}
