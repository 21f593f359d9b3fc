// Modelled on: arch/x86/kvm/x86.c:kvm_setup_guest_pvclock() (Linux 6.12; field-wise
//   copy as in the pre-gpc versions instead of memcpy()).
// The host rewrites a guest-visible clock page; readers (pvclock_read_begin/retry shape)
// spin while `epoch_cnt` is odd. After making the count odd the writer issues smp_rmb()
// where kvm_setup_guest_pvclock() has smp_wmb(): a load-load barrier does not order the
// odd counter store before the following data stores, so a guest on a weakly ordered
// host can see new tsc_timestamp/system_time under the old even count.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

#define GCLK_TSC_STABLE		(1 << 0)
#define GCLK_GUEST_STOPPED	(1 << 1)

struct guest_clock {
	u32 epoch_cnt;
	u32 pad0;
	u64 tsc_timestamp;
	u64 system_time;
	u32 tsc_to_system_mul;
	s8 tsc_shift;
	u8 flags;
	u8 pad[2];
};

struct vcpu_clock {
	struct guest_clock hv_clock;
	bool stopped_request;
	rwlock_t gpc_lock;
	struct guest_clock *guest_page;
};

void setup_guest_clock(struct vcpu_clock *vc, bool force_tsc_unstable)
{
	struct guest_clock *g;
	unsigned long flags;

	read_lock_irqsave(&vc->gpc_lock, flags);
	g = vc->guest_page;
	if (!g) {
		read_unlock_irqrestore(&vc->gpc_lock, flags);
		return;
	}

	g->epoch_cnt = vc->hv_clock.epoch_cnt = (g->epoch_cnt + 1) | 1;
	smp_rmb(); /* EXPECT: seqlint-barrier-wrong-kind */

	/* retain GUEST_STOPPED if set in the guest copy */
	vc->hv_clock.flags |= (g->flags & GCLK_GUEST_STOPPED);
	if (vc->stopped_request) {
		vc->hv_clock.flags |= GCLK_GUEST_STOPPED;
		vc->stopped_request = false;
	}

	g->tsc_timestamp = vc->hv_clock.tsc_timestamp;
	g->system_time = vc->hv_clock.system_time;
	g->tsc_to_system_mul = vc->hv_clock.tsc_to_system_mul;
	g->tsc_shift = vc->hv_clock.tsc_shift;
	g->flags = vc->hv_clock.flags;
	if (force_tsc_unstable)
		g->flags &= ~GCLK_TSC_STABLE;

	smp_wmb();

	g->epoch_cnt = ++vc->hv_clock.epoch_cnt;

	read_unlock_irqrestore(&vc->gpc_lock, flags);
}
