/*
 * The seqlint runtime's C API in plain C11: a configuration object read by
 * many threads and replaced by one (seqcount + copy helpers), a seqlock with
 * several writers, and a latch whose readers never wait for the writer.
 *
 *   cc -std=c11 -O2 -pthread $(pkg-config --cflags seqlint-runtime) c_api.c
 *
 * Every access to protected data goes through seqlint_copy_in/copy_out
 * (relaxed atomic words), so the program has no data race in the C11 sense
 * and ThreadSanitizer stays quiet.
 */
#include <seqlint/seqcount.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* A protected object: size a multiple of 4, alignment >= 4 (checked). */
struct config {
	uint64_t version;
	uint32_t timeout_ms;
	uint32_t retries;
	uint64_t checksum;	/* version ^ timeout_ms ^ retries */
};

static seqlint_seqcount_t config_seq = SEQLINT_SEQCOUNT_INIT;
static struct config config_shared;

/* One writer thread: a plain seqcount is enough. */
static void config_store(uint64_t version, uint32_t timeout_ms, uint32_t retries)
{
	struct config c = {
		.version = version, .timeout_ms = timeout_ms, .retries = retries,
		.checksum = version ^ timeout_ms ^ retries,
	};
	seqlint_write_object(&config_seq, &config_shared, &c);
}

static struct config config_load(void)
{
	struct config c;
	seqlint_read_object(&config_seq, &config_shared, &c);
	return c;
}

/* Counters updated by several threads: a seqlock (seqcount + spinlock). */
struct counters {
	uint64_t events;
	uint64_t sum;
};
static seqlint_seqlock_t counters_lock = SEQLINT_SEQLOCK_INIT;
static struct counters counters_shared;

static void counters_add(uint64_t value)
{
	struct counters c;

	seqlint_seqlock_write_lock(&counters_lock);
	/* The writer holds the lock: its own reads cannot race a writer. */
	seqlint_copy_out(&c, &counters_shared);
	c.events++;
	c.sum += value;
	seqlint_copy_in(&counters_shared, &c);
	seqlint_seqlock_write_unlock(&counters_lock);
}

static struct counters counters_load(void)
{
	struct counters c;
	unsigned seq;

	do {
		seq = seqlint_seqlock_read_begin(&counters_lock);
		seqlint_copy_out(&c, &counters_shared);
	} while (seqlint_seqlock_read_retry(&counters_lock, seq));
	return c;
}

/* A latch: two copies, readers use the stable one and never spin. */
struct range {
	uint64_t lo, hi;	/* invariant: hi == lo + 100 */
};
static seqlint_latch_t range_latch = SEQLINT_LATCH_INIT;
static struct range range_copies[2];

static void range_store(uint64_t lo)
{
	struct range r = { lo, lo + 100 };
	seqlint_latch_write_object(&range_latch, range_copies, &r);
}

static struct range range_load(void)
{
	struct range r;
	seqlint_latch_read_object(&range_latch, range_copies, &r);
	return r;
}

#define UPDATES 100000
#define READS 200000
static atomic_int writers_done, stop_config;
static uint32_t config_updates;
static atomic_uint config_started;

static void *config_writer(void *arg)
{
	uint32_t i;

	(void)arg;
	for (i = 1; !atomic_load_explicit(&stop_config, memory_order_relaxed); i++) {
		config_store(i, 1000 + i, i % 7);
		range_store(i);
		atomic_store_explicit(&config_started, i, memory_order_relaxed);
	}
	config_updates = i - 1;
	return NULL;
}

static void *counter_writer(void *arg)
{
	(void)arg;
	for (int i = 0; i < UPDATES; i++)
		counters_add(3);
	atomic_fetch_add(&writers_done, 1);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	long reads = 0, bad = 0;

	range_store(0);
	pthread_create(&t[0], NULL, config_writer, NULL);
	pthread_create(&t[1], NULL, counter_writer, NULL);
	pthread_create(&t[2], NULL, counter_writer, NULL);
	/* Also wait for a few config updates: on a loaded machine the config
	 * writer may not have run at all after READS reads. */
	while (reads < READS || atomic_load(&writers_done) < 2 ||
	       atomic_load_explicit(&config_started, memory_order_relaxed) < 3) {
		struct config c = config_load();
		struct counters n = counters_load();
		struct range r = range_load();

		bad += c.checksum != (c.version ^ c.timeout_ms ^ c.retries);
		bad += n.sum != 3 * n.events;
		bad += r.hi != r.lo + 100;
		reads++;
	}
	atomic_store(&stop_config, 1);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	struct counters n = counters_load();
	bad += n.events != 2 * UPDATES;
	bad += config_load().version != config_updates;

	printf("c_api: %ld reads, %u config updates, %ld inconsistent (barriers: %s)\n",
	       reads, config_updates, bad, SEQLINT_ARCH);
	return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
