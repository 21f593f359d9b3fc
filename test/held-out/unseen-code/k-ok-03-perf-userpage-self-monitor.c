// Modelled on: kernel/events/core.c:perf_event_update_userpage() and the reader
//   documented in include/uapi/linux/perf_event.h / tools/lib/perf/mmap.c:
//   perf_mmap__read_self() (Linux 6.12).
// Correct by design: the page word is called `lock`; the writer does `++lock; barrier()`
// and `barrier(); ++lock` with compiler barriers only, the reader uses barrier() and
// never tests for an odd value. The protocol is for self-monitoring: writer (IRQ/NMI on
// the monitored task's CPU) and reader (the task itself) run on the same CPU, so the
// writer's section is atomic with respect to the reader and only compiler ordering is
// needed; an interrupted read sees `lock` change by 2 and retries.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/atomic.h>

struct ev_user_page {
	u32 version;
	u32 compat_version;
	u32 lock;
	u32 index;
	s64 offset;
	u64 time_enabled;
	u64 time_running;
	u64 cap_user_rdpmc;
	u16 pmc_width;
};

struct ev_buffer {
	struct ev_user_page *user_page;
};

struct ev {
	struct ev_buffer __rcu *rb;
	atomic64_t child_time_enabled;
	atomic64_t child_time_running;
	s64 prev_count;
	int hw_idx;
};

void ev_calc_timer_values(struct ev *event, u64 *now, u64 *enabled, u64 *running);
s64 ev_count(struct ev *event);
u64 read_pmc(int idx);

void ev_update_userpage(struct ev *event)
{
	struct ev_user_page *pg;
	struct ev_buffer *rb;
	u64 enabled, running, now;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (!rb)
		goto unlock;

	ev_calc_timer_values(event, &now, &enabled, &running);

	pg = rb->user_page;
	preempt_disable();
	++pg->lock;
	barrier();
	pg->index = event->hw_idx;
	pg->offset = ev_count(event);
	if (pg->index)
		pg->offset -= event->prev_count;
	pg->time_enabled = enabled + atomic64_read(&event->child_time_enabled);
	pg->time_running = running + atomic64_read(&event->child_time_running);
	barrier();
	++pg->lock;
	preempt_enable();
unlock:
	rcu_read_unlock();
}

/* user space, same task, same CPU */
int ev_read_self(const struct ev_user_page *pc, u64 *val, u64 *ena, u64 *run)
{
	u32 l, idx;
	u64 cnt;

	do {
		l = READ_ONCE(pc->lock);
		barrier();
		*ena = READ_ONCE(pc->time_enabled);
		*run = READ_ONCE(pc->time_running);
		idx = READ_ONCE(pc->index);
		cnt = READ_ONCE(pc->offset);
		if (pc->cap_user_rdpmc && idx)
			cnt += read_pmc(idx - 1);
		else
			return -1;
		barrier();
	} while (READ_ONCE(pc->lock) != l);

	*val = cnt;
	return 0;
}
