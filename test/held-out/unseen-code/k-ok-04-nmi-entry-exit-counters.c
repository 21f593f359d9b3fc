// Modelled on: arch/x86/kernel/nmi.c:exc_nmi(), nmi_backtrace_stall_snap() and
//   nmi_backtrace_stall_check() (CONFIG_NMI_CHECK_CPU, Linux 6.12).
// Correct: idt_seq / idt_nmi_seq are diagnostic statistics, odd while this CPU is inside
// the NMI handler; the handler bumps them on entry and exit and asserts the low bit,
// with no barriers. Nothing is protected by them: the stall checker compares a snapshot
// with the current value and reports what it sees, tolerating any interleaving (the
// recv_jiffies it prints is informational). It looks like a barrier-less seqcount
// writer with a low-bit test, but there is no reader that needs a consistent copy.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/printk.h>

#define NR_CPUS_STUB	64
#define WARN_ON_ONCE(c)	((void)(c))

struct nmi_stats {
	unsigned int nmi_count;
	unsigned long recv_jiffies;
	unsigned long idt_seq;
	unsigned long idt_nmi_seq;
	atomic_long_t idt_calls;
	unsigned long idt_seq_snap;
	unsigned long idt_nmi_seq_snap;
	long idt_calls_snap;
};

extern struct nmi_stats nmi_stats_pcpu[NR_CPUS_STUB];
extern volatile unsigned long jiffies;
extern bool ignore_nmis;
int this_cpu_id(void);
void default_do_nmi(void *regs);

void exc_nmi_like(void *regs)
{
	struct nmi_stats *nsp = &nmi_stats_pcpu[this_cpu_id()];

	atomic_long_inc(&nsp->idt_calls);

	WRITE_ONCE(nsp->idt_seq, nsp->idt_seq + 1);
	WARN_ON_ONCE(!(nsp->idt_seq & 0x1));
	WRITE_ONCE(nsp->recv_jiffies, jiffies);

	nsp->nmi_count++;

	if (!ignore_nmis) {
		WRITE_ONCE(nsp->idt_nmi_seq, nsp->idt_nmi_seq + 1);
		WARN_ON_ONCE(!(nsp->idt_nmi_seq & 0x1));
		default_do_nmi(regs);
		WRITE_ONCE(nsp->idt_nmi_seq, nsp->idt_nmi_seq + 1);
		WARN_ON_ONCE(nsp->idt_nmi_seq & 0x1);
	}

	WRITE_ONCE(nsp->idt_seq, nsp->idt_seq + 1);
	WARN_ON_ONCE(nsp->idt_seq & 0x1);
	WRITE_ONCE(nsp->recv_jiffies, jiffies);
}

void nmi_stall_snap(unsigned long cpus)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS_STUB; cpu++) {
		struct nmi_stats *nsp = &nmi_stats_pcpu[cpu];

		if (!(cpus & (1UL << cpu)))
			continue;
		nsp->idt_seq_snap = READ_ONCE(nsp->idt_seq);
		nsp->idt_nmi_seq_snap = READ_ONCE(nsp->idt_nmi_seq);
		nsp->idt_calls_snap = atomic_long_read(&nsp->idt_calls);
	}
}

void nmi_stall_check(unsigned long cpus)
{
	unsigned long j = jiffies, nmi_seq;
	int cpu;

	for (cpu = 0; cpu < NR_CPUS_STUB; cpu++) {
		struct nmi_stats *nsp = &nmi_stats_pcpu[cpu];
		const char *msg;

		if (!(cpus & (1UL << cpu)))
			continue;
		nmi_seq = READ_ONCE(nsp->idt_nmi_seq);
		if (nsp->idt_nmi_seq_snap + 1 == nmi_seq && (nmi_seq & 0x1))
			msg = "entered NMI handler function, but has not exited";
		else if (nsp->idt_nmi_seq_snap == nmi_seq)
			msg = nsp->idt_calls_snap != atomic_long_read(&nsp->idt_calls) ?
			      "NMI handler is ignoring NMIs" : "NMIs are not reaching the handler";
		else
			msg = "is handling NMIs";
		pr_warn("CPU %d: %s, last activity %lu jiffies ago\n", cpu, msg,
			 j - READ_ONCE(nsp->recv_jiffies));
	}
}
