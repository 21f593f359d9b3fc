// Modelled on: kernel/locking/percpu-rwsem.c:percpu_down_write(), __percpu_down_write_trylock(),
//              __percpu_down_read_trylock() and readers_active_check() (Linux 6.12)
// Correct: the writer closes the gate with xchg() -- a value-returning atomic
// RMW, which is fully ordered -- and then loads every CPU's reader count with
// no explicit barrier in between. The reader bumps its per-CPU count and uses
// smp_mb() before loading the gate. The smp_mb() after the scan (loads only,
// then the write-side critical section) is stronger than needed, not wrong.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/irqflags.h>
#include <asm/barrier.h>
#include <asm/processor.h>

extern unsigned long __per_cpu_offset[];
extern unsigned long this_cpu_off;
extern unsigned int nr_cpu_ids;
#define per_cpu_ptr(ptr, cpu) ((typeof(ptr))((unsigned long)(ptr) + __per_cpu_offset[(cpu)]))
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
/* asm-generic/percpu.h this_cpu_generic_to_op(): irq-safe RMW on this cpu's copy */
#define this_cpu_add(pcp, val)						\
do {									\
	unsigned long __flags;						\
	raw_local_irq_save(__flags);					\
	*this_cpu_ptr(&(pcp)) += (val);					\
	raw_local_irq_restore(__flags);					\
} while (0)
#define this_cpu_inc(pcp) this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp) this_cpu_add(pcp, -1)
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)

static __always_inline int atomic_xchg(atomic_t *v, int new)
{
	return xchg(&v->counter, new);
}

struct rcuwait { void *task; };
extern void rcuwait_wake_up(struct rcuwait *w);
extern void gate_wait_for_readers(struct rcuwait *w,
				  bool (*cond)(void *), void *arg);

struct pcpu_gate {
	unsigned int __percpu *readers;
	atomic_t closed;
	struct rcuwait writer;
};

static unsigned int gate_reader_sum(struct pcpu_gate *g)
{
	unsigned int sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(g->readers, cpu));
	return sum;
}

bool gate_read_trylock(struct pcpu_gate *g)
{
	this_cpu_inc(*g->readers);

	/* our count before the gate: pairs with the writer's xchg() */
	smp_mb();

	if (likely(!atomic_read_acquire(&g->closed)))
		return true;

	this_cpu_dec(*g->readers);
	rcuwait_wake_up(&g->writer);
	return false;
}

static bool gate_readers_gone(void *arg)
{
	struct pcpu_gate *g = arg;

	if (gate_reader_sum(g) != 0)
		return false;

	/* seen the last decrement: see its whole critical section too */
	smp_mb();
	return true;
}

bool gate_write_lock(struct pcpu_gate *g)
{
	if (atomic_read(&g->closed))
		return false;
	/* fully ordered: the closed gate is visible before the scan below */
	if (atomic_xchg(&g->closed, 1) != 0)
		return false;

	if (!gate_readers_gone(g))
		gate_wait_for_readers(&g->writer, gate_readers_gone, g);
	return true;
}
