/*
 * sensor.c - latest sample of an environmental sensor.
 *
 * The acquisition thread publishes each new sample with an open-coded
 * generation count (odd while it is being written); consumers copy the
 * latest sample without locking and retry if the generation changed.
 */
#include "../include/compat.h"

struct sensor_sample {
	unsigned int gen;	/* odd while a sample is being written */
	s32 temp_mC;		/* milli-degrees Celsius */
	u32 humidity_ppm;
	u64 timestamp_ns;
};

struct sensor_reading {
	s32 temp_mC;
	u32 humidity_ppm;
	u64 timestamp_ns;
};

static struct sensor_sample latest;

/* Acquisition thread: the only writer. */
void sensor_publish(s32 temp_mC, u32 humidity_ppm, u64 now_ns)
{
	WRITE_ONCE(latest.gen, latest.gen + 1);
	smp_wmb();
	WRITE_ONCE(latest.temp_mC, temp_mC);
	WRITE_ONCE(latest.humidity_ppm, humidity_ppm);
	WRITE_ONCE(latest.timestamp_ns, now_ns);
	smp_store_release(&latest.gen, latest.gen + 1);
}

/* Any thread: a consistent copy of the latest sample. */
void sensor_read(struct sensor_reading *r)
{
	unsigned int gen;

	do {
		gen = smp_load_acquire(&latest.gen);
		r->temp_mC = READ_ONCE(latest.temp_mC);
		r->humidity_ppm = READ_ONCE(latest.humidity_ppm);
		r->timestamp_ns = READ_ONCE(latest.timestamp_ns);
		smp_rmb();
	} while (READ_ONCE(latest.gen) != gen);
}

/* Any thread: is the latest sample older than max_age_ns? */
bool sensor_stale(u64 now_ns, u64 max_age_ns)
{
	struct sensor_reading r;

	sensor_read(&r);
	return now_ns - r.timestamp_ns > max_age_ns;
}
