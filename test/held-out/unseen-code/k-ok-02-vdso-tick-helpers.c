// Modelled on: include/vdso/helpers.h (vdso_read_begin/_retry, vdso_write_begin/_end),
//   kernel/time/vsyscall.c:update_vsyscall() and lib/vdso/gettimeofday.c:do_hres()
//   (Linux 6.12).
// Correct: the whole protocol lives in helpers on a counter named `tick`. The begin
// helper spins while odd and issues smp_rmb(); the retry helper issues smp_rmb() before
// re-reading; the write helpers put smp_wmb() after the odd and before the even
// increment. do_hres_like() open-codes the begin (as do_hres() does, to bail out on a
// special mode) and still waits for an even count and orders it with smp_rmb().
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <asm/processor.h>

#define CD_MODE_NONE	0
#define CD_MODE_NS	0x7fffffff

struct clock_page {
	u32 tick;
	s32 mode;
	u64 cycle_last;
	u64 mask;
	u32 mult;
	u32 shift;
	u64 sec;
	u64 nsec;
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
	smp_rmb();
	return READ_ONCE(cd->tick) != start;
}

static __always_inline void cd_write_begin(struct clock_page *cd)
{
	WRITE_ONCE(cd->tick, cd->tick + 1);
	smp_wmb();
}

static __always_inline void cd_write_end(struct clock_page *cd)
{
	smp_wmb();
	WRITE_ONCE(cd->tick, cd->tick + 1);
}

void cd_update(struct clock_page *cd, s32 mode, u64 cycle_last, u64 sec, u64 nsec)
{
	cd_write_begin(cd);
	cd->mode = mode;
	if (mode != CD_MODE_NONE) {
		cd->cycle_last = cycle_last;
		cd->sec = sec;
		cd->nsec = nsec;
	}
	cd_write_end(cd);
}

int cd_read_coarse(const struct clock_page *cd, u64 *sec, u64 *nsec)
{
	u32 t;

	do {
		t = cd_read_begin(cd);
		*sec = cd->sec;
		*nsec = cd->nsec;
	} while (unlikely(cd_read_retry(cd, t)));
	return 0;
}

int do_hres_like(const struct clock_page *cd, u64 cycles, u64 *ns)
{
	u64 base;
	u32 t, mult, shift;

	do {
		while (unlikely((t = READ_ONCE(cd->tick)) & 1)) {
			if (cd->mode == CD_MODE_NS)
				return -1;
			cpu_relax();
		}
		smp_rmb();

		if (unlikely(cd->mode == CD_MODE_NONE))
			return -1;
		base = cd->nsec;
		mult = cd->mult;
		shift = cd->shift;
		base += ((cycles - cd->cycle_last) & cd->mask) * mult;
	} while (unlikely(cd_read_retry(cd, t)));

	*ns = base >> shift;
	return 0;
}
