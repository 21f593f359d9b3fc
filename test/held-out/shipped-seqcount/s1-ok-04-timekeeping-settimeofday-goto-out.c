// Modelled on: kernel/time/timekeeping.c:do_settimeofday64() (Linux 6.12)
// Correct: the validation failure inside the tk_core.seq write section does
// "goto out", and the out: label sits before write_seqcount_end(), so the
// error path forwards the clock, publishes the update and closes the section
// exactly like the success path. The early "return -EINVAL" happens before the
// lock and the begin.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

#define EINVAL 22
#define TK_CLEAR_NTP (1 << 0)
#define TK_MIRROR (1 << 1)
#define TK_CLOCK_WAS_SET (1 << 2)
#define CLOCK_SET_WALL 1

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};

struct timekeeper {
	u64 xtime_sec;
	u64 xtime_nsec;
	struct timespec64 wall_to_monotonic;
	ktime_t offs_real;
	ktime_t offs_boot;
};

static DEFINE_RAW_SPINLOCK(timekeeper_lock);

static struct {
	seqcount_raw_spinlock_t seq;
	struct timekeeper timekeeper;
} tk_core;

bool timespec64_valid_settod(const struct timespec64 *ts);
struct timespec64 tk_xtime(const struct timekeeper *tk);
struct timespec64 timespec64_sub(struct timespec64 a, struct timespec64 b);
int timespec64_compare(const struct timespec64 *a, const struct timespec64 *b);
void timekeeping_forward_now(struct timekeeper *tk);
void tk_set_wall_to_mono(struct timekeeper *tk, struct timespec64 wtm);
void tk_set_xtime(struct timekeeper *tk, const struct timespec64 *ts);
void timekeeping_update(struct timekeeper *tk, unsigned int action);
void clock_was_set(unsigned int bases);
void audit_tk_injoffset(struct timespec64 offset);
void add_device_randomness(const void *buf, size_t len);

int do_settimeofday64(const struct timespec64 *ts)
{
	struct timekeeper *tk = &tk_core.timekeeper;
	struct timespec64 ts_delta, xt;
	unsigned long flags;
	int ret = 0;

	if (!timespec64_valid_settod(ts))
		return -EINVAL;

	raw_spin_lock_irqsave(&timekeeper_lock, flags);
	write_seqcount_begin(&tk_core.seq);

	timekeeping_forward_now(tk);

	xt = tk_xtime(tk);
	ts_delta = timespec64_sub(*ts, xt);

	if (timespec64_compare(&tk->wall_to_monotonic, &ts_delta) > 0) {
		ret = -EINVAL;
		goto out;
	}

	tk_set_wall_to_mono(tk, timespec64_sub(tk->wall_to_monotonic, ts_delta));
	tk_set_xtime(tk, ts);
out:
	timekeeping_update(tk, TK_CLEAR_NTP | TK_MIRROR | TK_CLOCK_WAS_SET);

	write_seqcount_end(&tk_core.seq);
	raw_spin_unlock_irqrestore(&timekeeper_lock, flags);

	/* Signal hrtimers about time change */
	clock_was_set(CLOCK_SET_WALL);

	if (!ret) {
		audit_tk_injoffset(ts_delta);
		add_device_randomness(ts, sizeof(*ts));
	}

	return ret;
}
