// Modelled on: msullivan/rmc-compiler case_studies/seqlock_c11.hpp (SeqLock after H.
//   Boehm, "Can Seqlocks Get Along with Programming Language Memory Models?"), ported
//   to C11 helpers.
// Correct: count_ is odd while a writer is inside. Writers CAS it from even to odd and
// issue a release fence (later relaxed data stores cannot be seen without the odd
// value); they leave with a release store. Readers take an acquire load, copy the data
// with relaxed loads, issue an acquire fence and accept the copy only if the tag was
// even and count_ is unchanged. The begin may return an odd tag: the validate rejects it.
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

static inline bool is_locked(uintptr_t tag)
{
	return (tag & 1) != 0;
}

static inline uintptr_t sensor_read_lock(struct sensor_block *s)
{
	return atomic_load_explicit(&s->count_, memory_order_acquire);
}

static inline bool sensor_read_unlock(struct sensor_block *s, uintptr_t tag)
{
	/* if we saw any write of a writer's section, we also see its lock acquisition */
	atomic_thread_fence(memory_order_acquire);
	return !is_locked(tag) && atomic_load_explicit(&s->count_, memory_order_relaxed) == tag;
}

static void sensor_write_lock(struct sensor_block *s)
{
	uintptr_t tag;

	for (;;) {
		tag = atomic_load_explicit(&s->count_, memory_order_relaxed);
		if (!is_locked(tag) && atomic_compare_exchange_weak(&s->count_, &tag, tag + 1))
			break;
	}
	atomic_thread_fence(memory_order_release);
}

static void sensor_write_unlock(struct sensor_block *s)
{
	uintptr_t newval = atomic_load_explicit(&s->count_, memory_order_relaxed) + 1;

	atomic_store_explicit(&s->count_, newval, memory_order_release);
}

void sensor_write(struct sensor_block *s, const struct sensor_copy *v)
{
	sensor_write_lock(s);
	atomic_store_explicit(&s->temp_mc, v->temp_mc, memory_order_relaxed);
	atomic_store_explicit(&s->volt_mv, v->volt_mv, memory_order_relaxed);
	atomic_store_explicit(&s->fan_rpm, v->fan_rpm, memory_order_relaxed);
	atomic_store_explicit(&s->sample_ns, v->sample_ns, memory_order_relaxed);
	sensor_write_unlock(s);
}

void sensor_read(struct sensor_block *s, struct sensor_copy *out)
{
	uintptr_t tag;

	do {
		tag = sensor_read_lock(s);
		out->temp_mc = atomic_load_explicit(&s->temp_mc, memory_order_relaxed);
		out->volt_mv = atomic_load_explicit(&s->volt_mv, memory_order_relaxed);
		out->fan_rpm = atomic_load_explicit(&s->fan_rpm, memory_order_relaxed);
		out->sample_ns = atomic_load_explicit(&s->sample_ns, memory_order_relaxed);
	} while (!sensor_read_unlock(s, tag));
}
