// Modelled on: kernel/sched/cputime.c:thread_group_cputime() with
//   include/linux/seqlock.h:read_seqbegin_or_lock()/need_seqretry()/done_seqretry()
//   open-coded on a private counter (Linux 6.12).
// "Lockless first, locked on the second pass", hand-rolled. The counter `state` is odd
// while a writer (holding sig->lock) updates the totals. The second pass takes the
// lock inside the read loop, but its begin value was loaded before the lock: if a
// writer was still inside (odd, masked) or finished in between, the recheck fails
// although the lock is held, the loop runs again and spin_lock() is called on a lock
// this CPU already holds. The lock belongs outside the retried section.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>
#include <asm/barrier.h>

struct task_times {
	u64 utime;
	u64 stime;
	u64 sum_exec_runtime;
	struct task_times *next_thread;
};

struct sig_stats {
	spinlock_t lock;
	unsigned int state;	/* odd while a writer updates, writers hold ->lock */
	u64 utime;
	u64 stime;
	u64 sum_sched_runtime;
	struct task_times *threads;
};

struct cputime_sum {
	u64 utime;
	u64 stime;
	u64 sum_exec_runtime;
};

void group_cputime(struct sig_stats *sig, struct cputime_sum *times)
{
	struct task_times *t;
	unsigned int s;
	bool locked = false;
	int pass = 0;

	rcu_read_lock();
	do {
		s = READ_ONCE(sig->state) & ~1U;
		if (pass) {
			/* lockless pass raced with a writer: exclude writers */
			spin_lock(&sig->lock); /* EXPECT: seqlint-seqcount-read-side-effect */
			locked = true;
		}
		smp_rmb();
		times->utime = sig->utime;
		times->stime = sig->stime;
		times->sum_exec_runtime = sig->sum_sched_runtime;

		for (t = rcu_dereference(sig->threads); t; t = t->next_thread) {
			times->utime += READ_ONCE(t->utime);
			times->stime += READ_ONCE(t->stime);
			times->sum_exec_runtime += READ_ONCE(t->sum_exec_runtime);
		}
		smp_rmb();
		pass = 1;
	} while (READ_ONCE(sig->state) != s);
	if (locked)
		spin_unlock(&sig->lock);
	rcu_read_unlock();
}

void group_account(struct sig_stats *sig, u64 ut, u64 st, u64 rt)
{
	spin_lock(&sig->lock);
	WRITE_ONCE(sig->state, sig->state + 1);
	smp_wmb();
	sig->utime += ut;
	sig->stime += st;
	sig->sum_sched_runtime += rt;
	smp_wmb();
	WRITE_ONCE(sig->state, sig->state + 1);
	spin_unlock(&sig->lock);
}
