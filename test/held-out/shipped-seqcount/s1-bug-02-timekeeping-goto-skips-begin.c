// Modelled on: kernel/time/timekeeping.c:timekeeping_inject_offset() (Linux 6.12)
// In the real function write_seqcount_begin(&tk_core.seq) comes right after the
// lock and the validation "goto error" jumps to a label that is still inside
// the section. Here the validation was hoisted above the begin (to avoid
// forwarding the clock for a bad offset), so the error path reaches
// write_seqcount_end() without a begin: tk_core.seq is left odd and every
// ktime_get() spins until the next tick updates the timekeeper.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

#define EINVAL 22
#define NSEC_PER_SEC 1000000000L
#define TK_CLEAR_NTP (1 << 0)
#define TK_MIRROR (1 << 1)
#define TK_CLOCK_WAS_SET (1 << 2)
#define CLOCK_SET_WALL 1

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};

struct tk_read_base {
	u64 cycle_last;
	u32 mult;
	u32 shift;
	u64 xtime_nsec;
};

struct timekeeper {
	struct tk_read_base tkr_mono;
	u64 xtime_sec;
	struct timespec64 wall_to_monotonic;
	ktime_t offs_real;
	s32 tai_offset;
};

static DEFINE_RAW_SPINLOCK(timekeeper_lock);

static struct {
	seqcount_raw_spinlock_t seq;
	struct timekeeper timekeeper;
} tk_core;

struct timespec64 tk_xtime(const struct timekeeper *tk);
struct timespec64 timespec64_add(struct timespec64 a, struct timespec64 b);
struct timespec64 timespec64_sub(struct timespec64 a, struct timespec64 b);
int timespec64_compare(const struct timespec64 *a, const struct timespec64 *b);
bool timespec64_valid_settod(const struct timespec64 *ts);
void timekeeping_forward_now(struct timekeeper *tk);
void tk_xtime_add(struct timekeeper *tk, const struct timespec64 *ts);
void tk_set_wall_to_mono(struct timekeeper *tk, struct timespec64 wtm);
void timekeeping_update(struct timekeeper *tk, unsigned int action);
void clock_was_set(unsigned int bases);

int timekeeping_inject_offset(const struct timespec64 *ts)
{
	struct timekeeper *tk = &tk_core.timekeeper;
	unsigned long flags;
	struct timespec64 tmp;
	int ret = 0;

	if (ts->tv_nsec < 0 || ts->tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;

	raw_spin_lock_irqsave(&timekeeper_lock, flags);

	/* Make sure the proposed value is valid before touching the clock */
	tmp = timespec64_add(tk_xtime(tk), *ts);
	if (timespec64_compare(&tk->wall_to_monotonic, ts) > 0 ||
	    !timespec64_valid_settod(&tmp)) {
		ret = -EINVAL;
		goto error;
	}

	write_seqcount_begin(&tk_core.seq);
	timekeeping_forward_now(tk);
	tk_xtime_add(tk, ts);
	tk_set_wall_to_mono(tk, timespec64_sub(tk->wall_to_monotonic, *ts));

error:
	timekeeping_update(tk, TK_CLEAR_NTP | TK_MIRROR | TK_CLOCK_WAS_SET);
	write_seqcount_end(&tk_core.seq); /* EXPECT: seqlint-seqcount-write-unbalanced */
	raw_spin_unlock_irqrestore(&timekeeper_lock, flags);

	/* Signal hrtimers about time change */
	clock_was_set(CLOCK_SET_WALL);

	return ret;
}
