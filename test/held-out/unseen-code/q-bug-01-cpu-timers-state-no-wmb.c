// Modelled on: QEMU system/cpu-timers.c:cpu_disable_ticks()/cpu_get_clock() with
//   include/qemu/seqlock.h:seqlock_write_begin() open-coded (QEMU 9.x).
// The vm clock offsets are published to vCPU threads with an odd/even word named
// `state`. The writer takes the spinlock that serializes writers and makes `state` odd
// with qatomic_set(), but leaves out the smp_wmb() that seqlock_write_begin() has: the
// stores to cpu_ticks_offset/cpu_clock_offset may become visible before the odd
// `state`, and cpu_get_clock() on another thread can combine old and new offsets.
#include <stdint.h>
#include <stdbool.h>

/* include/qemu/atomic.h */
#define barrier()		({ asm volatile("" ::: "memory"); (void)0; })
#define smp_mb()		({ barrier(); __atomic_thread_fence(__ATOMIC_SEQ_CST); })
#define smp_mb_release()	({ barrier(); __atomic_thread_fence(__ATOMIC_RELEASE); })
#define smp_mb_acquire()	({ barrier(); __atomic_thread_fence(__ATOMIC_ACQUIRE); })
#define smp_wmb()		smp_mb_release()
#define smp_rmb()		smp_mb_acquire()
#define qatomic_read(ptr)	__atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_set(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)
#define qatomic_read_i64(ptr)	__atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_set_i64(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)

typedef struct QemuSpin { int value; } QemuSpin;
void qemu_spin_lock(QemuSpin *spin);
void qemu_spin_unlock(QemuSpin *spin);

typedef struct TimersState {
	unsigned state;		/* odd while the offsets below are rewritten */
	QemuSpin vm_clock_lock;
	int64_t cpu_ticks_prev;
	int64_t cpu_ticks_offset;
	int64_t cpu_clock_offset;
	int32_t cpu_ticks_enabled;
} TimersState;

TimersState timers_state;
int64_t get_clock(void);

/* include/qemu/timer.h, x86 hosts */
static inline int64_t cpu_get_host_ticks(void)
{
	uint32_t low, high;

	asm volatile("rdtsc" : "=a"(low), "=d"(high));
	return low | ((int64_t)high << 32);
}

static int64_t cpu_get_clock_locked(void)
{
	int64_t time = qatomic_read_i64(&timers_state.cpu_clock_offset);

	if (timers_state.cpu_ticks_enabled)
		time += get_clock();
	return time;
}

int64_t cpu_get_clock(void)
{
	int64_t ti;
	unsigned start;

	do {
		start = qatomic_read(&timers_state.state);
		smp_rmb();
		ti = cpu_get_clock_locked();
		smp_rmb();
	} while ((start & 1) || qatomic_read(&timers_state.state) != start);

	return ti;
}

void cpu_disable_ticks(void)
{
	TimersState *ts = &timers_state;

	qemu_spin_lock(&ts->vm_clock_lock);
	qatomic_set(&ts->state, ts->state + 1);
	if (ts->cpu_ticks_enabled) {
		qatomic_set_i64(&ts->cpu_ticks_offset, ts->cpu_ticks_offset + cpu_get_host_ticks()); /* EXPECT: seqlint-seqcount-write-missing-barrier */
		qatomic_set_i64(&ts->cpu_clock_offset, cpu_get_clock_locked());
		ts->cpu_ticks_enabled = 0;
	}
	smp_wmb();
	qatomic_set(&ts->state, ts->state + 1);
	qemu_spin_unlock(&ts->vm_clock_lock);
}
