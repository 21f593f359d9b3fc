// Modelled on: include/vdso/helpers.h:vdso_write_begin()/vdso_write_end() and
//   kernel/time/vsyscall.c:update_vsyscall() (Linux 6.12).
// A clock-data page for a user-space reader, with the protocol wrapped in helpers and a
// counter named `tick`. The begin helper makes both `tick` fields odd but, unlike
// vdso_write_begin(), has no smp_wmb() after them. The helper itself only stores the
// counter; the unordered stores are the caller's: the first one after the begin call
// can become visible before the odd `tick`. The finding belongs at that store.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define CD_HRES		0
#define CD_RAW		1
#define CD_BASES	4

struct cd_stamp {
	u64 sec;
	u64 nsec;
};

struct clock_page {
	u32 tick;
	s32 mode;
	u64 cycle_last;
	u64 mask;
	u32 mult;
	u32 shift;
	struct cd_stamp base[CD_BASES];
};

struct tk_source {
	s32 mode;
	u64 cycle_last;
	u64 mask;
	u32 mult;
	u32 shift;
	u64 xtime_sec;
	u64 xtime_nsec;
	u64 raw_sec;
	u64 raw_nsec;
};

static inline void cd_write_begin(struct clock_page *cd)
{
	WRITE_ONCE(cd[CD_HRES].tick, cd[CD_HRES].tick + 1);
	WRITE_ONCE(cd[CD_RAW].tick, cd[CD_RAW].tick + 1);
}

static inline void cd_write_end(struct clock_page *cd)
{
	smp_wmb();
	WRITE_ONCE(cd[CD_HRES].tick, cd[CD_HRES].tick + 1);
	WRITE_ONCE(cd[CD_RAW].tick, cd[CD_RAW].tick + 1);
}

extern struct clock_page clock_pages[2];

void clock_page_update(const struct tk_source *tk)
{
	struct clock_page *cd = clock_pages;
	struct cd_stamp *ts;

	cd_write_begin(cd);

	cd[CD_HRES].mode = tk->mode; /* EXPECT: seqlint-seqcount-write-missing-barrier */
	cd[CD_RAW].mode = tk->mode;

	ts = &cd[CD_HRES].base[0];
	ts->sec = tk->xtime_sec;
	ts->nsec = tk->xtime_nsec;

	if (tk->mode != 0) {
		cd[CD_HRES].cycle_last = tk->cycle_last;
		cd[CD_HRES].mask = tk->mask;
		cd[CD_HRES].mult = tk->mult;
		cd[CD_HRES].shift = tk->shift;
		ts = &cd[CD_RAW].base[0];
		ts->sec = tk->raw_sec;
		ts->nsec = tk->raw_nsec;
	}

	cd_write_end(cd);
}
