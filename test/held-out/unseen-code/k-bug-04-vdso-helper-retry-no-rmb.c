// Modelled on: include/vdso/helpers.h:vdso_read_begin()/vdso_read_retry() and
//   lib/vdso/gettimeofday.c:do_coarse() (Linux 6.12).
// Reader helpers around an odd/even counter named `tick`. The begin helper waits for an
// even count and issues smp_rmb(), but the retry helper re-reads `tick` without the
// smp_rmb() that vdso_read_retry() has, so the recheck can be satisfied before the
// caller's loads of sec/nsec and both counter loads may see the same even value around
// torn data. The recheck happens inside the helper; the finding belongs at the call of
// the retry helper in the reading function.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <asm/processor.h>

#define CLK_REALTIME_COARSE	5
#define CLK_MONOTONIC_COARSE	6
#define CLK_BASES		12

struct cd_stamp {
	u64 sec;
	u64 nsec;
};

struct clock_page {
	u32 tick;
	s32 mode;
	u64 cycle_last;
	struct cd_stamp base[CLK_BASES];
};

struct kts {
	long tv_sec;
	long tv_nsec;
};

static __always_inline u32 cd_read_begin(const struct clock_page *cd)
{
	u32 t;

	while (unlikely((t = READ_ONCE(cd->tick)) & 1))
		cpu_relax();

	smp_rmb();
	return t;
}

static __always_inline u32 cd_read_retry(const struct clock_page *cd, u32 start)
{
	u32 t;

	t = READ_ONCE(cd->tick);
	return t != start;
}

int clock_read_coarse(const struct clock_page *cd, int clk, struct kts *ts)
{
	const struct cd_stamp *stamp;
	u32 t;

	if (clk != CLK_REALTIME_COARSE && clk != CLK_MONOTONIC_COARSE)
		return -22;

	stamp = &cd->base[clk];
	do {
		t = cd_read_begin(cd);
		ts->tv_sec = stamp->sec;
		ts->tv_nsec = stamp->nsec;
	} while (unlikely(cd_read_retry(cd, t))); /* EXPECT: seqlint-seqcount-read-missing-barrier */

	return 0;
}
