// Modelled on: QEMU accel/tcg/icount-common.c:icount_warp_rt() with the
//   include/qemu/seqlock.h functions as local static inline helpers (QEMU 9.x).
// The read of vm_clock_warp_start is bracketed by a begin helper whose value is never
// passed to the retry helper: the loop of the original was dropped ("the race here is
// okay"), but vm_clock_warp_start is a 64-bit field written under the same word `w`,
// and the value read here decides whether the warp is applied. The begin whose value
// nobody validates is reported at the begin call.
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
#define qatomic_set_i64(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define MIN(a, b)		((a) < (b) ? (a) : (b))

typedef struct QemuSpin { int value; } QemuSpin;
void qemu_spin_lock(QemuSpin *spin);
void qemu_spin_unlock(QemuSpin *spin);

typedef struct VMClockLock { unsigned w; } VMClockLock;

static inline unsigned vmclock_read_begin(const VMClockLock *l)
{
	unsigned ret = qatomic_read(&l->w);

	smp_rmb();
	return ret & ~1;
}

static inline int vmclock_read_retry(const VMClockLock *l, unsigned start)
{
	smp_rmb();
	return unlikely(qatomic_read(&l->w) != start);
}

static inline void vmclock_write_lock(VMClockLock *l, QemuSpin *spin)
{
	qemu_spin_lock(spin);
	qatomic_set(&l->w, l->w + 1);
	smp_wmb();
}

static inline void vmclock_write_unlock(VMClockLock *l, QemuSpin *spin)
{
	smp_wmb();
	qatomic_set(&l->w, l->w + 1);
	qemu_spin_unlock(spin);
}

typedef struct TimersState {
	VMClockLock vm_clock_lk;
	QemuSpin vm_clock_lock;
	int64_t vm_clock_warp_start;
	int64_t qemu_icount_bias;
} TimersState;

TimersState timers_state;
bool runstate_is_running(void);
int64_t cpu_get_clock_locked(void);
int64_t icount_get_locked(void);
bool icount_adaptive(void);
void qemu_clock_notify_virtual(void);

static void icount_warp_rt(void)
{
	unsigned start;
	int64_t warp_start;

	start = vmclock_read_begin(&timers_state.vm_clock_lk); /* EXPECT: seqlint-seqcount-read-no-retry */
	warp_start = timers_state.vm_clock_warp_start;
	if (warp_start == -1)
		return;

	vmclock_write_lock(&timers_state.vm_clock_lk, &timers_state.vm_clock_lock);
	if (runstate_is_running()) {
		int64_t clock = cpu_get_clock_locked();
		int64_t warp_delta = clock - timers_state.vm_clock_warp_start;

		if (icount_adaptive()) {
			int64_t delta = clock - icount_get_locked();

			warp_delta = MIN(warp_delta, delta < 0 ? 0 : delta);
		}
		qatomic_set_i64(&timers_state.qemu_icount_bias,
				timers_state.qemu_icount_bias + warp_delta);
	}
	timers_state.vm_clock_warp_start = -1;
	vmclock_write_unlock(&timers_state.vm_clock_lk, &timers_state.vm_clock_lock);

	qemu_clock_notify_virtual();
}

void icount_timer_cb(void *opaque)
{
	icount_warp_rt();
}
