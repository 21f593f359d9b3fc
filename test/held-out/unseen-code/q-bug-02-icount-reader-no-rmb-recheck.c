// Modelled on: QEMU accel/tcg/icount-common.c:icount_get()/icount_adjust() with
//   include/qemu/seqlock.h:seqlock_read_begin()/seqlock_read_retry() open-coded
//   (QEMU 9.x).
// The virtual clock is computed from qemu_icount, qemu_icount_bias and
// icount_time_shift, published under an odd/even word named `tick`. The reader masks
// the low bit and orders the begin with smp_rmb(), but re-reads `tick` without the
// smp_rmb() that seqlock_read_retry() issues: on a weakly ordered host the recheck can
// be satisfied before the loads of bias/icount/shift, and a mix from two different
// icount_adjust() calls is returned (virtual time jumps backwards).
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
#define qatomic_read_i64(ptr)	__atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_set_i64(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)

#define ICOUNT_WOBBLE		(1000000000LL / 10)
#define MAX_ICOUNT_SHIFT	10

typedef struct QemuSpin { int value; } QemuSpin;
void qemu_spin_lock(QemuSpin *spin);
void qemu_spin_unlock(QemuSpin *spin);

typedef struct TimersState {
	unsigned tick;
	QemuSpin vm_clock_lock;
	int64_t qemu_icount_bias;
	int64_t qemu_icount;
	int16_t icount_time_shift;
	int64_t last_delta;
} TimersState;

TimersState timers_state;
int64_t cpu_get_clock_locked(void);

int64_t icount_get(void)
{
	int64_t icount;
	unsigned start;

	do {
		start = qatomic_read(&timers_state.tick) & ~1;
		smp_rmb();
		icount = qatomic_read_i64(&timers_state.qemu_icount_bias) +
			 (qatomic_read_i64(&timers_state.qemu_icount)
			  << qatomic_read(&timers_state.icount_time_shift));
	} while (qatomic_read(&timers_state.tick) != start); /* EXPECT: seqlint-seqcount-read-missing-barrier */

	return icount;
}

void icount_adjust(void)
{
	TimersState *ts = &timers_state;
	int64_t cur_time, cur_icount, delta;

	qemu_spin_lock(&ts->vm_clock_lock);
	qatomic_set(&ts->tick, ts->tick + 1);
	smp_wmb();

	cur_time = cpu_get_clock_locked();
	cur_icount = ts->qemu_icount_bias + (ts->qemu_icount << ts->icount_time_shift);
	delta = cur_icount - cur_time;
	if (delta > 0 && ts->last_delta + ICOUNT_WOBBLE < delta * 2 &&
	    ts->icount_time_shift > 0)
		qatomic_set(&ts->icount_time_shift, ts->icount_time_shift - 1);
	if (delta < 0 && ts->last_delta - ICOUNT_WOBBLE > delta * 2 &&
	    ts->icount_time_shift < MAX_ICOUNT_SHIFT)
		qatomic_set(&ts->icount_time_shift, ts->icount_time_shift + 1);
	ts->last_delta = delta;
	qatomic_set_i64(&ts->qemu_icount_bias,
			cur_icount - (ts->qemu_icount << ts->icount_time_shift));

	smp_wmb();
	qatomic_set(&ts->tick, ts->tick + 1);
	qemu_spin_unlock(&ts->vm_clock_lock);
}
