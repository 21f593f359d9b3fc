// Modelled on: HdrHistogram/HdrHistogram_c src/hdr_writer_reader_phaser.c
//   (hdr_phaser_writer_enter/_exit, hdr_phaser_flip_phase) and
//   src/hdr_interval_recorder.c (hdr_interval_recorder_update/_sample), in C11.
// Correct, and not a seqcount: a writer bumps start_epoch on entry and one of the two
// end epochs on exit (seq_cst RMWs); the sampler swaps the active/inactive buffers,
// resets start_epoch to flip the phase, and waits until the end epoch of the old phase
// catches up with the start value it swapped out. Counters incremented around a write,
// loaded and compared later, but the comparison is a wait for quiescence, not a
// validation of data read in between.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>
#include <pthread.h>
#include <sched.h>

struct wr_phaser {
	_Atomic int64_t start_epoch;
	_Atomic int64_t even_end_epoch;
	_Atomic int64_t odd_end_epoch;
	pthread_mutex_t reader_mutex;
};

struct interval_recorder {
	struct wr_phaser phaser;
	_Atomic(void *) active;
	void *inactive;
};

int64_t phaser_writer_enter(struct wr_phaser *p)
{
	return atomic_fetch_add(&p->start_epoch, 1) + 1;
}

void phaser_writer_exit(struct wr_phaser *p, int64_t value_at_enter)
{
	_Atomic int64_t *end_epoch = value_at_enter < 0 ? &p->odd_end_epoch : &p->even_end_epoch;

	atomic_fetch_add(end_epoch, 1);
}

void phaser_flip_phase(struct wr_phaser *p)
{
	int64_t start_epoch = atomic_load(&p->start_epoch);
	bool next_phase_is_even = start_epoch < 0;
	int64_t initial_start_value, start_value_at_flip;
	bool caught_up;

	/* clear the end epoch of the phase we are about to start */
	initial_start_value = next_phase_is_even ? 0 : INT64_MIN;
	atomic_store(next_phase_is_even ? &p->even_end_epoch : &p->odd_end_epoch,
		     initial_start_value);

	start_value_at_flip = atomic_exchange(&p->start_epoch, initial_start_value);

	do {
		_Atomic int64_t *end_epoch = next_phase_is_even ? &p->odd_end_epoch
								: &p->even_end_epoch;

		caught_up = atomic_load(end_epoch) == start_value_at_flip;
		if (!caught_up)
			sched_yield();
	} while (!caught_up);
}

void recorder_update(struct interval_recorder *r, void (*action)(void *, void *), void *arg)
{
	int64_t val = phaser_writer_enter(&r->phaser);
	void *active = atomic_load(&r->active);

	action(active, arg);

	phaser_writer_exit(&r->phaser, val);
}

void *recorder_sample(struct interval_recorder *r)
{
	void *temp;

	pthread_mutex_lock(&r->phaser.reader_mutex);
	temp = r->inactive;
	r->inactive = atomic_load(&r->active);
	atomic_store(&r->active, temp);
	phaser_flip_phase(&r->phaser);
	pthread_mutex_unlock(&r->phaser.reader_mutex);

	return r->inactive;
}
