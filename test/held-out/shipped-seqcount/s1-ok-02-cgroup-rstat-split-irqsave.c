// Modelled on: kernel/cgroup/rstat.c:cgroup_base_stat_cputime_account_begin()/
//   _end() and __cgroup_account_cputime_field() (Linux 6.12)
// Correct: the u64_stats_update_begin_irqsave()/end_irqrestore() pair is split
// across two helpers; the begin helper returns with the section open and the
// flags in an out-parameter, and every caller (including the switch with its
// fallthrough and default cases) calls the end helper exactly once. Neither
// helper is unbalanced on its own terms -- the pairing is the caller's.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/u64_stats_sync.h>

#define NR_CPUS 8
#define fallthrough __attribute__((__fallthrough__))

enum cpu_usage_stat {
	CPUTIME_USER,
	CPUTIME_NICE,
	CPUTIME_SYSTEM,
	CPUTIME_SOFTIRQ,
	CPUTIME_IRQ,
	CPUTIME_IDLE,
	CPUTIME_FORCEIDLE,
};

struct task_cputime {
	u64 stime;
	u64 utime;
	unsigned long long sum_exec_runtime;
};

struct cgroup_base_stat {
	struct task_cputime cputime;
	u64 ntime;
	u64 forceidle_sum;
};

struct cgroup_rstat_cpu {
	struct u64_stats_sync bsync;
	struct cgroup_base_stat bstat;
	struct cgroup_base_stat last_bstat;
	struct cgroup_base_stat subtree_bstat;
};

struct cgroup {
	struct cgroup_rstat_cpu *rstat_cpu;	/* [NR_CPUS] */
	int level;
};

int smp_processor_id(void);
void __cgroup_rstat_updated(struct cgroup *cgrp, int cpu);

#define get_cpu_ptr(p) ({ preempt_disable(); &(p)[smp_processor_id()]; })
#define put_cpu_ptr(p) do { (void)(p); preempt_enable(); } while (0)

static struct cgroup_rstat_cpu *
cgroup_base_stat_cputime_account_begin(struct cgroup *cgrp, unsigned long *flags)
{
	struct cgroup_rstat_cpu *rstatc;

	rstatc = get_cpu_ptr(cgrp->rstat_cpu);
	*flags = u64_stats_update_begin_irqsave(&rstatc->bsync);
	return rstatc;
}

static void cgroup_base_stat_cputime_account_end(struct cgroup *cgrp,
						 struct cgroup_rstat_cpu *rstatc,
						 unsigned long flags)
{
	u64_stats_update_end_irqrestore(&rstatc->bsync, flags);
	__cgroup_rstat_updated(cgrp, smp_processor_id());
	put_cpu_ptr(rstatc);
}

void __cgroup_account_cputime(struct cgroup *cgrp, u64 delta_exec)
{
	struct cgroup_rstat_cpu *rstatc;
	unsigned long flags;

	rstatc = cgroup_base_stat_cputime_account_begin(cgrp, &flags);
	rstatc->bstat.cputime.sum_exec_runtime += delta_exec;
	cgroup_base_stat_cputime_account_end(cgrp, rstatc, flags);
}

void __cgroup_account_cputime_field(struct cgroup *cgrp,
				    enum cpu_usage_stat index, u64 delta_exec)
{
	struct cgroup_rstat_cpu *rstatc;
	unsigned long flags;

	rstatc = cgroup_base_stat_cputime_account_begin(cgrp, &flags);

	switch (index) {
	case CPUTIME_NICE:
		rstatc->bstat.ntime += delta_exec;
		fallthrough;
	case CPUTIME_USER:
		rstatc->bstat.cputime.utime += delta_exec;
		break;
	case CPUTIME_SYSTEM:
	case CPUTIME_IRQ:
	case CPUTIME_SOFTIRQ:
		rstatc->bstat.cputime.stime += delta_exec;
		break;
	case CPUTIME_FORCEIDLE:
		rstatc->bstat.forceidle_sum += delta_exec;
		break;
	default:
		break;
	}

	cgroup_base_stat_cputime_account_end(cgrp, rstatc, flags);
}
