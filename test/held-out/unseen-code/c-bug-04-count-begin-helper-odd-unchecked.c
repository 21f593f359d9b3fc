// Modelled on: msullivan/rmc-compiler case_studies/seqlock_c11.hpp: read_lock() is a bare
//   acquire load of count_, and read_unlock() returns "!is_locked(tag) && count_ ==
//   tag" after an acquire fence; here ported to C11 helpers.
// The port dropped the is_locked() test from the validate helper. Nothing on the read
// path waits for, tests or masks the low bit of count_: a reader that begins while the
// writer is inside its section (count_ odd) copies half-written fields, and if the
// writer is still inside at validation time count_ has not changed, so the torn copy is
// accepted. Reported at the begin call.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

struct sensor_block {
	atomic_uintptr_t count_;
	_Atomic int32_t temp_mc;
	_Atomic int32_t volt_mv;
	_Atomic uint32_t fan_rpm;
	_Atomic uint64_t sample_ns;
};

struct sensor_copy {
	int32_t temp_mc, volt_mv;
	uint32_t fan_rpm;
	uint64_t sample_ns;
};

static inline uintptr_t sensor_read_lock(struct sensor_block *s)
{
	return atomic_load_explicit(&s->count_, memory_order_acquire);
}

static inline bool sensor_read_unlock(struct sensor_block *s, uintptr_t tag)
{
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&s->count_, memory_order_relaxed) == tag;
}

void sensor_write(struct sensor_block *s, const struct sensor_copy *v)
{
	uintptr_t tag;

	for (;;) {
		tag = atomic_load_explicit(&s->count_, memory_order_relaxed);
		if (!(tag & 1) && atomic_compare_exchange_weak(&s->count_, &tag, tag + 1))
			break;
	}
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->temp_mc, v->temp_mc, memory_order_relaxed);
	atomic_store_explicit(&s->volt_mv, v->volt_mv, memory_order_relaxed);
	atomic_store_explicit(&s->fan_rpm, v->fan_rpm, memory_order_relaxed);
	atomic_store_explicit(&s->sample_ns, v->sample_ns, memory_order_relaxed);
	atomic_store_explicit(&s->count_, tag + 2, memory_order_release);
}

void sensor_read(struct sensor_block *s, struct sensor_copy *out)
{
	uintptr_t tag;

	do {
		tag = sensor_read_lock(s); /* EXPECT: seqlint-seqcount-read-odd-unchecked */
		out->temp_mc = atomic_load_explicit(&s->temp_mc, memory_order_relaxed);
		out->volt_mv = atomic_load_explicit(&s->volt_mv, memory_order_relaxed);
		out->fan_rpm = atomic_load_explicit(&s->fan_rpm, memory_order_relaxed);
		out->sample_ns = atomic_load_explicit(&s->sample_ns, memory_order_relaxed);
	} while (!sensor_read_unlock(s, tag));
}
