// Modelled on: arch/x86/kvm/x86.c:record_steal_time() (Linux 5.10 shape) and
//   arch/x86/kernel/kvm.c:kvm_steal_clock() (Linux 6.12).
// Correct open-coded seqcount with a counter that does not look like one (`v`): the
// host makes `v` odd, smp_wmb(), updates steal/preempted, smp_wmb(), makes `v` even;
// the guest loads `v`, virt_rmb(), loads the data, virt_rmb(), and retries while `v`
// was odd or changed. The first-enable fixup (`v & 1` -> +1) is the real code's way of
// starting from an even value after random junk.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define PV_FLUSH_TLB	(1 << 1)

struct pv_steal_page {
	u64 steal;
	u32 v;
	u32 flags;
	u8 preempted;
	u8 pad[47];
};

struct vcpu_st_state {
	struct pv_steal_page *page;
	u64 last_steal;
	u64 msr_val;
	u8 preempted;
};

struct vcpu_ctx {
	struct vcpu_st_state st;
	u64 run_delay;
};

void vcpu_flush_tlb_guest(struct vcpu_ctx *vcpu);

static void record_steal(struct vcpu_ctx *vcpu)
{
	struct pv_steal_page *st = vcpu->st.page;
	u8 was_preempted;

	if (!(vcpu->st.msr_val & 1) || !st)
		return;

	was_preempted = xchg(&st->preempted, 0);
	vcpu->st.preempted = 0;
	if (was_preempted & PV_FLUSH_TLB)
		vcpu_flush_tlb_guest(vcpu);

	if (st->v & 1)
		st->v += 1;	/* first time write, random junk */

	st->v += 1;

	smp_wmb();

	st->steal += vcpu->run_delay - vcpu->st.last_steal;
	vcpu->st.last_steal = vcpu->run_delay;

	smp_wmb();

	st->v += 1;
}

u64 guest_steal_clock(struct pv_steal_page *src)
{
	u64 steal;
	u32 v;

	do {
		v = READ_ONCE(src->v);
		virt_rmb();
		steal = READ_ONCE(src->steal);
		virt_rmb();
	} while ((v & 1) || (v != READ_ONCE(src->v)));

	return steal;
}

void vcpu_load_hook(struct vcpu_ctx *vcpu)
{
	record_steal(vcpu);
}
