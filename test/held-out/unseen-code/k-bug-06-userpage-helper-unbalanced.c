// Modelled on: kernel/events/core.c:perf_event_update_userpage() (Linux 6.12), with its
//   `++userpg->lock; barrier();` steps moved into begin/end helpers.
// The self-monitoring page uses an odd/even word called `lock`. In this version a
// bail-out for events that are not mapped to a hardware counter was added after the
// begin helper: that path returns with `lock` odd, and every later reader of the page
// spins (or retries) forever. Reported at the return that leaves the section open.
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
	u64 capabilities;
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
void arch_ev_update_userpage(struct ev *event, struct ev_user_page *pg, u64 now);

static inline void ev_userpage_begin(struct ev_user_page *pg)
{
	++pg->lock;
	barrier();
}

static inline void ev_userpage_end(struct ev_user_page *pg)
{
	barrier();
	++pg->lock;
}

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
	ev_userpage_begin(pg);
	pg->index = event->hw_idx + 1;
	if (!event->hw_idx) {
		preempt_enable();
		rcu_read_unlock();
		return; /* EXPECT: seqlint-seqcount-write-unbalanced */
	}
	pg->offset = ev_count(event) - event->prev_count;

	pg->time_enabled = enabled + atomic64_read(&event->child_time_enabled);
	pg->time_running = running + atomic64_read(&event->child_time_running);

	arch_ev_update_userpage(event, pg, now);

	ev_userpage_end(pg);
	preempt_enable();
unlock:
	rcu_read_unlock();
}
