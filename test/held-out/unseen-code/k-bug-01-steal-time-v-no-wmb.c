// Modelled on: arch/x86/kvm/x86.c:record_steal_time() (Linux 5.10 shape, before the
//   unsafe_put_user() rewrite; 6.12 keeps the same protocol) and the guest reader
//   arch/x86/kernel/kvm.c:kvm_steal_clock() (Linux 6.12).
// The host publishes per-vCPU steal time in a shared page guarded by an open-coded
// odd/even counter, here called `v`. The writer makes `v` odd and then updates the
// steal fields, but the smp_wmb() after the odd increment is missing: on arm64 the
// store to ->steal can become visible before the odd `v`, so a guest can read the
// old even `v`, the new steal, the old even `v` again and accept a torn update.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define PV_PREEMPTED		(1 << 0)
#define PV_FLUSH_TLB		(1 << 1)

struct pv_steal_page {
	u64 steal;
	u32 v;			/* odd while the host rewrites the page */
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
	int vcpu_id;
};

void vcpu_flush_tlb_guest(struct vcpu_ctx *vcpu);
void mark_steal_page_dirty(struct vcpu_ctx *vcpu);

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
		st->v += 1;	/* first write after enable: random junk */

	st->v += 1;

	st->steal += vcpu->run_delay - vcpu->st.last_steal; /* EXPECT: seqlint-seqcount-write-missing-barrier */
	vcpu->st.last_steal = vcpu->run_delay;
	st->flags = 0;

	smp_wmb();

	st->v += 1;

	mark_steal_page_dirty(vcpu);
}

/* Guest side, correct: kvm_steal_clock(). */
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
