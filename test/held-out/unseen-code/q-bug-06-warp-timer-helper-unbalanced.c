// Modelled on: QEMU accel/tcg/icount-common.c:icount_start_warp_timer() with
//   include/qemu/seqlock.h:seqlock_write_lock()/seqlock_write_unlock() as local static
//   inline helpers (QEMU 9.x).
// The write helpers take the spinlock and bump the odd/even word `epoch`. An early
// return for "warp already armed" was added inside the section: on that path `epoch`
// stays odd (every cpu_get_clock()/icount_get() reader spins from now on) and the
// spinlock stays held. Reported at the return that leaves the section open.
#include <stdint.h>
#include <stdbool.h>

/* include/qemu/atomic.h */
#define barrier()		({ asm volatile("" ::: "memory"); (void)0; })
#define smp_mb_release()	({ barrier(); __atomic_thread_fence(__ATOMIC_RELEASE); })
#define smp_wmb()		smp_mb_release()
#define qatomic_set(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)
#define qatomic_set_i64(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)

typedef struct QemuSpin { int value; } QemuSpin;
void qemu_spin_lock(QemuSpin *spin);
void qemu_spin_unlock(QemuSpin *spin);

typedef struct VMClockLock { unsigned epoch; } VMClockLock;

static inline void vmclock_write_lock(VMClockLock *l, QemuSpin *spin)
{
	qemu_spin_lock(spin);
	qatomic_set(&l->epoch, l->epoch + 1);
	smp_wmb();
}

static inline void vmclock_write_unlock(VMClockLock *l, QemuSpin *spin)
{
	smp_wmb();
	qatomic_set(&l->epoch, l->epoch + 1);
	qemu_spin_unlock(spin);
}

typedef struct TimersState {
	VMClockLock vm_clock_lk;
	QemuSpin vm_clock_lock;
	int64_t vm_clock_warp_start;
	int64_t qemu_icount_bias;
	void *icount_warp_timer;
} TimersState;

TimersState timers_state;
static bool icount_sleep = true;
bool runstate_is_running(void);
bool all_cpu_threads_idle(void);
int64_t qemu_clock_get_ns_virtual_rt(void);
int64_t qemu_clock_deadline_ns_all_virtual(void);
void qemu_clock_notify_virtual(void);
void timer_mod_anticipate(void *timer, int64_t expire);
void warn_report_once(const char *msg);

void icount_start_warp_timer(void)
{
	TimersState *ts = &timers_state;
	int64_t clock, deadline;

	if (!runstate_is_running() || !all_cpu_threads_idle())
		return;

	clock = qemu_clock_get_ns_virtual_rt();
	deadline = qemu_clock_deadline_ns_all_virtual();
	if (deadline < 0) {
		if (!icount_sleep)
			warn_report_once("icount sleep disabled and no active timers");
		return;
	}

	if (deadline > 0) {
		vmclock_write_lock(&ts->vm_clock_lk, &ts->vm_clock_lock);
		if (!icount_sleep) {
			qatomic_set_i64(&ts->qemu_icount_bias, ts->qemu_icount_bias + deadline);
			vmclock_write_unlock(&ts->vm_clock_lk, &ts->vm_clock_lock);
			qemu_clock_notify_virtual();
			return;
		}
		if (ts->vm_clock_warp_start != -1 && ts->vm_clock_warp_start <= clock)
			return; /* EXPECT: seqlint-seqcount-write-unbalanced */
		ts->vm_clock_warp_start = clock;
		vmclock_write_unlock(&ts->vm_clock_lk, &ts->vm_clock_lock);
		timer_mod_anticipate(ts->icount_warp_timer, clock + deadline);
	} else {
		qemu_clock_notify_virtual();
	}
}
