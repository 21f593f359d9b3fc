// Modelled on: kernel/watchdog.c:is_hardlockup(), watchdog_hardlockup_kick() and
//   watchdog_hardlockup_check() (CONFIG_HARDLOCKUP_DETECTOR_COUNTS_HRTIMER, Linux 6.12).
// Correct change detector: each CPU's hrtimer bumps hrtimer_interrupts; the checker (an
// NMI, or a buddy CPU) loads it and compares it with the copy saved at the previous
// check. Same-value means "the timer has not fired": a heuristic with a period of
// seconds, no data is read under the counter, there is no odd state and no ordering is
// needed, so no barrier, no retry and no low-bit test.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/printk.h>

#define NR_CPUS_STUB	64

struct wd_cpu {
	atomic_t hrtimer_interrupts;
	int hrtimer_interrupts_saved;
	bool hardlockup_warned;
	bool hardlockup_touched;
};

extern struct wd_cpu wd_pcpu[NR_CPUS_STUB];
extern unsigned long hard_lockup_nmi_warn;
int this_cpu_id(void);
int cpumask_next_online(int cpu);
void trigger_single_cpu_backtrace(int cpu);

static bool is_hardlockup(unsigned int cpu)
{
	int hrint = atomic_read(&wd_pcpu[cpu].hrtimer_interrupts);

	if (wd_pcpu[cpu].hrtimer_interrupts_saved == hrint)
		return true;

	/* written/read by a single CPU: no fancy accessors needed */
	wd_pcpu[cpu].hrtimer_interrupts_saved = hrint;
	return false;
}

void watchdog_hardlockup_check(unsigned int cpu)
{
	struct wd_cpu *wd = &wd_pcpu[cpu];

	if (wd->hardlockup_touched) {
		wd->hardlockup_touched = false;
		return;
	}

	if (is_hardlockup(cpu)) {
		if (wd->hardlockup_warned)
			return;
		pr_emerg("Watchdog detected hard LOCKUP on cpu %u\n", cpu);
		if (cpu != (unsigned int)this_cpu_id())
			trigger_single_cpu_backtrace(cpu);
		wd->hardlockup_warned = true;
	} else {
		wd->hardlockup_warned = false;
	}
}

/* hrtimer callback on every CPU */
void watchdog_hardlockup_kick(void)
{
	int cpu = this_cpu_id();
	int new_interrupts;

	new_interrupts = atomic_inc_return(&wd_pcpu[cpu].hrtimer_interrupts);

	/* buddy check: every third interrupt, look at the next online CPU */
	if (new_interrupts % 3 == 0)
		watchdog_hardlockup_check(cpumask_next_online(cpu));
}
