// Modelled on: QEMU system/cpu-timers.c:cpu_get_clock(), cpu_enable_ticks(),
//   cpu_disable_ticks() and include/qemu/seqlock.h (QEMU 9.x), with the QemuSeqLock
//   functions as local static inline helpers on a word named `tick`.
// Correct: the write helpers take the spinlock, make `tick` odd, smp_wmb(); and
// smp_wmb(), make it even, unlock. The read helpers mask the low bit (an odd start
// never matches the recheck) and put smp_rmb() after the begin and before the recheck.
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
#define unlikely(x)		__builtin_expect(!!(x), 0)

typedef struct QemuSpin { int value; } QemuSpin;
void qemu_spin_lock(QemuSpin *spin);
void qemu_spin_unlock(QemuSpin *spin);

typedef struct VMClockLock { unsigned tick; } VMClockLock;

static inline void vmclock_write_lock(VMClockLock *l, QemuSpin *spin)
{
	qemu_spin_lock(spin);
	qatomic_set(&l->tick, l->tick + 1);
	smp_wmb();
}

static inline void vmclock_write_unlock(VMClockLock *l, QemuSpin *spin)
{
	smp_wmb();
	qatomic_set(&l->tick, l->tick + 1);
	qemu_spin_unlock(spin);
}

static inline unsigned vmclock_read_begin(const VMClockLock *l)
{
	unsigned ret = qatomic_read(&l->tick);

	smp_rmb();
	return ret & ~1;
}

static inline int vmclock_read_retry(const VMClockLock *l, unsigned start)
{
	smp_rmb();
	return unlikely(qatomic_read(&l->tick) != start);
}

typedef struct TimersState {
	VMClockLock vm_clock_lk;
	QemuSpin vm_clock_lock;
	int64_t cpu_ticks_offset;
	int64_t cpu_clock_offset;
	int32_t cpu_ticks_enabled;
} TimersState;

TimersState timers_state;
int64_t get_clock(void);
int64_t cpu_get_host_ticks(void);

static int64_t cpu_get_clock_locked(void)
{
	int64_t time = timers_state.cpu_clock_offset;

	if (timers_state.cpu_ticks_enabled)
		time += get_clock();
	return time;
}

int64_t cpu_get_clock(void)
{
	int64_t ti;
	unsigned start;

	do {
		start = vmclock_read_begin(&timers_state.vm_clock_lk);
		ti = cpu_get_clock_locked();
	} while (vmclock_read_retry(&timers_state.vm_clock_lk, start));

	return ti;
}

void cpu_enable_ticks(void)
{
	vmclock_write_lock(&timers_state.vm_clock_lk, &timers_state.vm_clock_lock);
	if (!timers_state.cpu_ticks_enabled) {
		timers_state.cpu_ticks_offset -= cpu_get_host_ticks();
		timers_state.cpu_clock_offset -= get_clock();
		timers_state.cpu_ticks_enabled = 1;
	}
	vmclock_write_unlock(&timers_state.vm_clock_lk, &timers_state.vm_clock_lock);
}

void cpu_disable_ticks(void)
{
	vmclock_write_lock(&timers_state.vm_clock_lk, &timers_state.vm_clock_lock);
	if (timers_state.cpu_ticks_enabled) {
		timers_state.cpu_ticks_offset += cpu_get_host_ticks();
		timers_state.cpu_clock_offset = cpu_get_clock_locked();
		timers_state.cpu_ticks_enabled = 0;
	}
	vmclock_write_unlock(&timers_state.vm_clock_lk, &timers_state.vm_clock_lock);
}
