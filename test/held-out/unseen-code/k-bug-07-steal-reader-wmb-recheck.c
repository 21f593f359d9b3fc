// Modelled on: arch/x86/kernel/kvm.c:kvm_steal_clock() and
//   arch/x86/kernel/pvclock.c:pvclock_read_wallclock() (Linux 6.12).
// A guest reads the host-published steal time of another CPU. The counter is `v`
// (odd while the host writes). Between the data load and the recheck of `v` the code
// issues smp_wmb(): a store-store barrier between two loads orders nothing, so the
// recheck load may still be satisfied before the steal load (arm64, POWER). It has to
// be smp_rmb()/virt_rmb() as kvm_steal_clock() does.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define NR_CPUS_STUB	64

struct pv_steal_page {
	u64 steal;
	u32 v;
	u32 flags;
	u8 preempted;
	u8 pad[47];
};

extern struct pv_steal_page steal_pages[NR_CPUS_STUB];
extern unsigned long cpu_online_mask_bits;

static u64 steal_clock_cpu(int cpu)
{
	struct pv_steal_page *src = &steal_pages[cpu];
	u64 steal;
	u32 v;

	do {
		v = READ_ONCE(src->v);
		virt_rmb();
		steal = READ_ONCE(src->steal);
		smp_wmb(); /* EXPECT: seqlint-barrier-wrong-kind */
	} while ((v & 1) || (v != READ_ONCE(src->v)));

	return steal;
}

u64 steal_clock_total(void)
{
	u64 total = 0;
	int cpu;

	for (cpu = 0; cpu < NR_CPUS_STUB; cpu++) {
		if (!(cpu_online_mask_bits & (1UL << cpu)))
			continue;
		total += steal_clock_cpu(cpu);
	}
	return total;
}

bool vcpu_is_preempted_pv(int cpu)
{
	return !!(READ_ONCE(steal_pages[cpu].preempted) & 1);
}
