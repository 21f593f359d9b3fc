// Modelled on: drivers/xen/time.c:xen_get_runstate_snapshot_cpu_delta() and get64()
//   (Linux 6.12).
// The hypervisor updates a vCPU's runstate area and marks the update in progress with
// bit 63 of `state_entry_time` (the counter is also bumped on every update). The real
// reader has rmb() after the first load of state_entry_time and rmb() again before the
// recheck. Here the second rmb() is gone: the recheck of state_entry_time may be
// satisfied before the loads of the time[] array, so a torn snapshot with an unchanged
// state_entry_time is accepted.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define RS_UPDATE	(1ULL << 63)
#define NR_CPUS_STUB	64

struct runstate_info {
	int state;
	u64 state_entry_time;
	u64 time[4];
};

extern struct runstate_info xen_runstate_pcpu[NR_CPUS_STUB];
extern u64 old_runstate_time[NR_CPUS_STUB][4];

/* consistent 64-bit load, split on 32-bit kernels */
static u64 get64(const u64 *p)
{
	u64 ret;

	if (BITS_PER_LONG < 64) {
		u32 *p32 = (u32 *)p;
		u32 h, l, h2;

		do {
			h = READ_ONCE(p32[1]);
			l = READ_ONCE(p32[0]);
			h2 = READ_ONCE(p32[1]);
		} while (h2 != h);

		ret = (((u64)h) << 32) | l;
	} else
		ret = READ_ONCE(*p);

	return ret;
}

static void runstate_snapshot_delta(struct runstate_info *res, unsigned int cpu)
{
	struct runstate_info *state = &xen_runstate_pcpu[cpu];
	u64 state_time;
	int i;

	do {
		state_time = get64(&state->state_entry_time);
		rmb();	/* Hypervisor might update data. */
		res->state = READ_ONCE(state->state);
		for (i = 0; i < 4; i++)
			res->time[i] = READ_ONCE(state->time[i]);
	} while (get64(&state->state_entry_time) != state_time || (state_time & RS_UPDATE)); /* EXPECT: seqlint-seqcount-read-missing-barrier */
}

void runstate_snapshot(struct runstate_info *res, unsigned int cpu)
{
	int i;

	runstate_snapshot_delta(res, cpu);

	for (i = 0; i < 4; i++)
		res->time[i] += old_runstate_time[cpu][i];
}
