/*
 * config.c - runtime configuration of a packet scheduler.
 *
 * Administrative updates are rare and serialized by cfg_lock; the data path
 * reads the configuration locklessly on every packet through a seqcount.
 */
#include "../include/compat.h"

#define MAX_QUEUES	64
#define MAX_WEIGHT	1000

struct sched_config {
	seqcount_t seq;
	u32 nqueues;
	u32 quantum;
	u32 weight[MAX_QUEUES];
};

static struct sched_config cfg = { .seq = SEQCNT_ZERO(cfg.seq), .nqueues = 1, .quantum = 1500 };
static DEFINE_SPINLOCK(cfg_lock);

/* Administrative path: replace the weight table. */
int config_set_weights(const u32 *weight, u32 n)
{
	u32 i;

	if (n == 0 || n > MAX_QUEUES)
		return -EINVAL;

	spin_lock(&cfg_lock);
	write_seqcount_begin(&cfg.seq);
	for (i = 0; i < n; i++) {
		if (weight[i] == 0 || weight[i] > MAX_WEIGHT)
			return -EINVAL;
		cfg.weight[i] = weight[i];
	}
	cfg.nqueues = n;
	write_seqcount_end(&cfg.seq);
	spin_unlock(&cfg_lock);
	return 0;
}

/* Administrative path: change the quantum. */
int config_set_quantum(u32 quantum)
{
	if (quantum < 64)
		return -EINVAL;
	spin_lock(&cfg_lock);
	write_seqcount_begin(&cfg.seq);
	cfg.quantum = quantum;
	write_seqcount_end(&cfg.seq);
	spin_unlock(&cfg_lock);
	return 0;
}

/* Data path: how many bytes queue q may send in this round. */
u32 config_budget(u32 q)
{
	unsigned int seq;
	u32 budget;

	do {
		seq = read_seqcount_begin(&cfg.seq);
		if (q < cfg.nqueues)
			budget = cfg.quantum * cfg.weight[q] / MAX_WEIGHT;
		else
			budget = 0;
	} while (read_seqcount_retry(&cfg.seq, seq));
	return budget;
}
