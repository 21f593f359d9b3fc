// Modelled on: include/clocksource/hyperv_timer.h:hv_read_tsc_page_tsc() and
//   arch/x86/kvm/hyperv.c:kvm_hv_setup_tsc_page() (Linux 6.12).
// Correct, although the reader never waits for or masks an odd value: the Hyper-V
// reference TSC page does not use odd/even. The writer stores tsc_sequence = 0
// ("invalid, use the MSR") first, smp_wmb(), rewrites scale/offset, smp_wmb(), and then
// stores a new non-zero value (skipping 0 and 0xFFFFFFFF). The reader bails out on 0
// and retries if the value changed, with smp_rmb() on both sides of the data loads.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/mutex.h>
#include <asm/barrier.h>

struct ms_tsc_page {
	volatile u32 tsc_sequence;
	u32 reserved1;
	volatile u64 tsc_scale;
	volatile s64 tsc_offset;
};

struct hv_state {
	struct mutex hv_lock;
	struct ms_tsc_page tsc_ref;
	struct ms_tsc_page *guest_page;
	int status;
};

u64 hv_get_raw_timer(void);
bool compute_tsc_page_parameters(u64 khz, struct ms_tsc_page *p);

static inline u64 mul_u64_u64_shr64(u64 a, u64 b)
{
	return (u64)(((unsigned __int128)a * b) >> 64);
}

bool hv_read_tsc_page_tsc(const struct ms_tsc_page *tsc_pg, u64 *cur_tsc, u64 *time)
{
	u64 scale, offset;
	u32 sequence;

	do {
		sequence = READ_ONCE(tsc_pg->tsc_sequence);
		if (!sequence)
			return false;
		smp_rmb();

		scale = READ_ONCE(tsc_pg->tsc_scale);
		offset = READ_ONCE(tsc_pg->tsc_offset);
		*cur_tsc = hv_get_raw_timer();

		smp_rmb();
	} while (READ_ONCE(tsc_pg->tsc_sequence) != sequence);

	*time = mul_u64_u64_shr64(*cur_tsc, scale) + offset;
	return true;
}

void hv_setup_tsc_page(struct hv_state *hv, u64 khz)
{
	struct ms_tsc_page *g = hv->guest_page;
	u32 tsc_seq;

	mutex_lock(&hv->hv_lock);
	tsc_seq = g->tsc_sequence;

	hv->tsc_ref.tsc_sequence = 0;
	WRITE_ONCE(g->tsc_sequence, 0);
	if (!compute_tsc_page_parameters(khz, &hv->tsc_ref)) {
		hv->status = -1;
		goto out_unlock;
	}

	/* Ensure sequence is zero before writing the rest of the struct. */
	smp_wmb();
	g->tsc_scale = hv->tsc_ref.tsc_scale;
	g->tsc_offset = hv->tsc_ref.tsc_offset;

	tsc_seq++;
	if (tsc_seq == 0xFFFFFFFF || tsc_seq == 0)
		tsc_seq = 1;

	/* Write the struct entirely before the non-zero sequence. */
	smp_wmb();
	hv->tsc_ref.tsc_sequence = tsc_seq;
	WRITE_ONCE(g->tsc_sequence, tsc_seq);
	hv->status = 1;
out_unlock:
	mutex_unlock(&hv->hv_lock);
}
