// Modelled on: QEMU system/cpu-timers.c:cpu_get_clock() and cpu_enable_ticks(), with
//   the include/qemu/seqlock.h functions as local static inline helpers (QEMU 9.x).
// The reader calls the retry helper and tests its result, but only to print a warning:
// the torn value of cpu_clock_offset/cpu_ticks_enabled is returned anyway. A retry
// whose result does not loop or discard the data validates nothing; the finding is at
// the retry call.
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
void warn_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef struct VMClockLock { unsigned v; } VMClockLock;

static inline unsigned vmclock_read_begin(const VMClockLock *l)
{
	unsigned ret = qatomic_read(&l->v);

	smp_rmb();
	return ret & ~1;
}

static inline int vmclock_read_retry(const VMClockLock *l, unsigned start)
{
	smp_rmb();
	return unlikely(qatomic_read(&l->v) != start);
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

	start = vmclock_read_begin(&timers_state.vm_clock_lk);
	ti = cpu_get_clock_locked();
	if (vmclock_read_retry(&timers_state.vm_clock_lk, start)) /* EXPECT: seqlint-seqcount-read-no-retry */
		warn_report("cpu_get_clock: raced with a clock update (%lld)", (long long)ti);

	return ti;
}

void cpu_enable_ticks(void)
{
	TimersState *ts = &timers_state;

	qemu_spin_lock(&ts->vm_clock_lock);
	qatomic_set(&ts->vm_clock_lk.v, ts->vm_clock_lk.v + 1);
	smp_wmb();
	if (!ts->cpu_ticks_enabled) {
		ts->cpu_ticks_offset -= cpu_get_host_ticks();
		ts->cpu_clock_offset -= get_clock();
		ts->cpu_ticks_enabled = 1;
	}
	smp_wmb();
	qatomic_set(&ts->vm_clock_lk.v, ts->vm_clock_lk.v + 1);
	qemu_spin_unlock(&ts->vm_clock_lock);
}
