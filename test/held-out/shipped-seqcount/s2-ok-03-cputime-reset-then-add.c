// Modelled on: kernel/sched/cputime.c:task_gtime() and task_cputime() (Linux 6.12)
// Correct: inside the vtime read_seqcount section the result (a local in
// task_gtime, the out-parameters *utime/*stime in task_cputime) is first
// re-initialized from the task's committed totals and only then has the
// pending nohz delta added with "+=". A retry starts over from the plain
// store, so nothing accumulates across attempts. "ret" is reset at the top
// of each attempt too, and the "continue" jumps to the retry check.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>

enum vtime_state {
	VTIME_INACTIVE = 0,	/* sleeping, or CPU with VTIME inactive */
	VTIME_IDLE,
	VTIME_SYS,
	VTIME_USER,
	VTIME_GUEST,
};

struct vtime {
	seqcount_t seqcount;
	unsigned long long starttime;
	enum vtime_state state;
	unsigned int cpu;
	u64 utime;
	u64 stime;
	u64 gtime;
};

struct task_struct {
	u64 utime;
	u64 stime;
	u64 gtime;
	struct vtime vtime;
};

unsigned long long sched_clock(void);
bool vtime_accounting_enabled(void);

static u64 vtime_delta(struct vtime *vtime)
{
	unsigned long long clock;

	clock = sched_clock();
	if (clock < vtime->starttime)
		return 0;

	return clock - vtime->starttime;
}

u64 task_gtime(struct task_struct *t)
{
	struct vtime *vtime = &t->vtime;
	unsigned int seq;
	u64 gtime;

	if (!vtime_accounting_enabled())
		return t->gtime;

	do {
		seq = read_seqcount_begin(&vtime->seqcount);

		gtime = t->gtime;
		if (vtime->state == VTIME_GUEST)
			gtime += vtime->gtime + vtime_delta(vtime);

	} while (read_seqcount_retry(&vtime->seqcount, seq));

	return gtime;
}

bool task_cputime(struct task_struct *t, u64 *utime, u64 *stime)
{
	struct vtime *vtime = &t->vtime;
	unsigned int seq;
	u64 delta;
	bool ret;

	if (!vtime_accounting_enabled()) {
		*utime = t->utime;
		*stime = t->stime;
		return false;
	}

	do {
		ret = false;
		seq = read_seqcount_begin(&vtime->seqcount);

		*utime = t->utime;
		*stime = t->stime;

		/* Task is sleeping or idle, nothing to add */
		if (vtime->state < VTIME_SYS)
			continue;

		ret = true;
		delta = vtime_delta(vtime);

		/* Add pending nohz time to the side the task is running on. */
		if (vtime->state == VTIME_SYS)
			*stime += vtime->stime + delta;
		else
			*utime += vtime->utime + delta;
	} while (read_seqcount_retry(&vtime->seqcount, seq));

	return ret;
}
