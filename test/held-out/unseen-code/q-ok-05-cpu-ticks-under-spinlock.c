// Modelled on: QEMU system/cpu-timers.c:cpu_get_ticks(), cpu_get_ticks_locked(),
//   cpu_enable_ticks() and cpu_get_clock() (QEMU 9.x), with the seqlock on a word
//   named `gate` open-coded in local helpers.
// Correct: TimersState mixes two disciplines. cpu_clock_offset/cpu_ticks_enabled are
// read locklessly and are written only inside the odd/even `gate` section. The tick
// fields cpu_ticks_prev/cpu_ticks_offset are read and written only with vm_clock_lock
// held (cpu_get_ticks() takes it; the gate writers hold it too), so
// cpu_get_ticks_locked() may update them with plain stores, no barrier and no gate
// bump: every reader of those fields takes the same lock.
#include <stdint.h>
#include <stdbool.h>

/* include/qemu/atomic.h */
#define barrier()		({ asm volatile("" ::: "memory"); (void)0; })
#define smp_mb_release()	({ barrier(); __atomic_thread_fence(__ATOMIC_RELEASE); })
#define smp_mb_acquire()	({ barrier(); __atomic_thread_fence(__ATOMIC_ACQUIRE); })
#define smp_wmb()		smp_mb_release()
#define smp_rmb()		smp_mb_acquire()
#define qatomic_read(ptr)	__atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_set(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)

typedef struct QemuSpin { int value; } QemuSpin;
void qemu_spin_lock(QemuSpin *spin);
void qemu_spin_unlock(QemuSpin *spin);

typedef struct TimersState {
	unsigned gate;
	QemuSpin vm_clock_lock;
	int64_t cpu_ticks_prev;
	int64_t cpu_ticks_offset;
	int64_t cpu_clock_offset;
	int32_t cpu_ticks_enabled;
} TimersState;

TimersState timers_state;
int64_t get_clock(void);
int64_t cpu_get_host_ticks(void);

static inline void gate_write_lock(TimersState *ts)
{
	qemu_spin_lock(&ts->vm_clock_lock);
	qatomic_set(&ts->gate, ts->gate + 1);
	smp_wmb();
}

static inline void gate_write_unlock(TimersState *ts)
{
	smp_wmb();
	qatomic_set(&ts->gate, ts->gate + 1);
	qemu_spin_unlock(&ts->vm_clock_lock);
}

/* call with vm_clock_lock held */
static int64_t cpu_get_ticks_locked(void)
{
	int64_t ticks = timers_state.cpu_ticks_offset;

	if (timers_state.cpu_ticks_enabled)
		ticks += cpu_get_host_ticks();

	if (timers_state.cpu_ticks_prev > ticks) {
		/* Non increasing ticks may happen if the host uses software suspend. */
		timers_state.cpu_ticks_offset += timers_state.cpu_ticks_prev - ticks;
		ticks = timers_state.cpu_ticks_prev;
	}

	timers_state.cpu_ticks_prev = ticks;
	return ticks;
}

int64_t cpu_get_ticks(void)
{
	int64_t ticks;

	qemu_spin_lock(&timers_state.vm_clock_lock);
	ticks = cpu_get_ticks_locked();
	qemu_spin_unlock(&timers_state.vm_clock_lock);
	return ticks;
}

int64_t cpu_get_clock(void)
{
	int64_t ti;
	unsigned start;

	do {
		start = qatomic_read(&timers_state.gate) & ~1;
		smp_rmb();
		ti = timers_state.cpu_clock_offset;
		if (timers_state.cpu_ticks_enabled)
			ti += get_clock();
		smp_rmb();
	} while (qatomic_read(&timers_state.gate) != start);

	return ti;
}

void cpu_enable_ticks(void)
{
	gate_write_lock(&timers_state);
	if (!timers_state.cpu_ticks_enabled) {
		timers_state.cpu_ticks_offset -= cpu_get_host_ticks();
		timers_state.cpu_clock_offset -= get_clock();
		timers_state.cpu_ticks_enabled = 1;
	}
	gate_write_unlock(&timers_state);
}
