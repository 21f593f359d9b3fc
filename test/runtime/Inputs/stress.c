/*
 * Torn-read stress test for the seqlint runtime.
 *
 * A writer updates a record of NWORDS words so that every word encodes the
 * same generation (w[i] = gen * NWORDS + i); it pauses between word stores
 * inside the write section to widen the window in which a reader could see a
 * half-written record.  Readers copy the record inside a read section and
 * check, after the section validated, that all words belong to one
 * generation and that generations never go backwards.  Any violation is a
 * torn read.
 *
 *   stress [--mode=seqcount|seqlock|latch|linux] [--reads=N] [--readers=R]
 *          [--writers=W] [--unsynchronized] [--plain-copy]
 *
 * --unsynchronized reads without any seqcount (a broken reader: the test
 * must then report torn reads - it proves the checker can fail).
 * --plain-copy copies with memcpy (a data race: ThreadSanitizer must see it).
 *
 * Readers do at least N reads, and go on until the run has shown real
 * contention (at least MIN_WRITES writes while they were reading and at least
 * one retry; with --unsynchronized, at least one torn read), so that a loaded
 * machine, where the threads may take turns on one core, makes the test
 * slower, not vacuous.
 *
 * Exit status: 0 = no torn read and contention observed; 1 = torn reads;
 * 2 = the run proved nothing within the time limit, or a usage error.
 */
#define _GNU_SOURCE
#include <seqlint/linux.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NWORDS 8
typedef unsigned long word_t;	/* a machine word: 4 bytes on armv7 */
struct rec {
	word_t w[NWORDS];
};

enum mode { M_SEQCOUNT, M_SEQLOCK, M_LATCH, M_LINUX };
static enum mode mode = M_SEQCOUNT;
static long total_reads = 10000000;
static int nreaders = 1, nwriters = 1;
static int unsync, plain_copy;
#define MIN_WRITES 10000
#define TIME_LIMIT_S 60

static seqlint_seqcount_t sc = SEQLINT_SEQCOUNT_INIT;
static seqlint_spinlock_t writer_lock = SEQLINT_SPINLOCK_INIT;
static seqlint_seqlock_t sl = SEQLINT_SEQLOCK_INIT;
static seqlint_latch_t latch = SEQLINT_LATCH_INIT;
static seqcount_t ksc = SEQCNT_ZERO(ksc);
static DEFINE_SEQLOCK(ksl);

static struct rec shared;	/* seqcount, seqlock, linux */
static struct rec copies[2];	/* latch */
static word_t next_gen = 1;	/* protected by the writer lock */

static atomic_int stop, timed_out, torn_seen;
static atomic_long torn, retries, writes, reads_done;

static inline void spin(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		seqlint_cpu_relax();
}

static void write_words(struct rec *r, word_t gen, unsigned delay)
{
	for (int i = 0; i < NWORDS; i++) {
		seqlint_write_once(r->w[i], gen * NWORDS + (word_t)i);
		spin(delay);	/* writer delay inside the section */
	}
}

static void *writer(void *arg)
{
	unsigned long n = 0;
	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		unsigned delay = (unsigned)(n % 4);
		word_t gen;
		switch (mode) {
		case M_SEQCOUNT:
			seqlint_spin_lock(&writer_lock);
			gen = next_gen++;
			seqlint_write_begin(&sc);
			write_words(&shared, gen, delay);
			seqlint_write_end(&sc);
			seqlint_spin_unlock(&writer_lock);
			break;
		case M_SEQLOCK:
			seqlint_seqlock_write_lock(&sl);
			gen = next_gen++;
			write_words(&shared, gen, delay);
			seqlint_seqlock_write_unlock(&sl);
			break;
		case M_LATCH:
			seqlint_spin_lock(&writer_lock);
			gen = next_gen++;
			seqlint_latch_write_begin(&latch);
			write_words(&copies[0], gen, delay);
			seqlint_latch_write_switch(&latch);
			write_words(&copies[1], gen, delay);
			seqlint_latch_write_end(&latch);
			seqlint_spin_unlock(&writer_lock);
			break;
		case M_LINUX:
			write_seqlock(&ksl);
			gen = next_gen++;
			write_seqcount_begin(&ksc);	/* nested: ksc inside ksl */
			for (int i = 0; i < NWORDS; i++) {
				WRITE_ONCE(shared.w[i], gen * NWORDS + (word_t)i);
				spin(delay);
			}
			write_seqcount_end(&ksc);
			write_sequnlock(&ksl);
			break;
		}
		atomic_fetch_add_explicit(&writes, 1, memory_order_relaxed);
		n++;
		if (n % 4096 == 0)
			sched_yield();	/* let readers meet a preempted writer */
		else
			spin(8);	/* a window with no writer */
	}
	return NULL;
}

static void copy_rec(struct rec *dst, const struct rec *src)
{
	if (plain_copy)
		memcpy(dst, src, sizeof(*dst));	/* data race, on purpose */
	else
		seqlint_copy_out(dst, src);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void note_retry(long *my_retries)
{
	if ((*my_retries)++ == 0)
		atomic_fetch_add_explicit(&retries, 1, memory_order_relaxed);
}

/* Has this run shown enough concurrency to prove anything? */
static int contention_seen(long writes_at_start)
{
	return atomic_load_explicit(&writes, memory_order_relaxed) - writes_at_start
		>= MIN_WRITES &&
	       (unsync ? atomic_load_explicit(&torn_seen, memory_order_relaxed) :
			 atomic_load_explicit(&retries, memory_order_relaxed) > 0);
}

static void *reader(void *arg)
{
	long n = (long)(intptr_t)arg, my_torn = 0, my_retries = 0, k;
	long writes_at_start = atomic_load(&writes);
	double deadline = now_s() + TIME_LIMIT_S;
	word_t last_gen = 0;
	struct rec r;

	for (k = 0; k < n || !contention_seen(writes_at_start); k++) {
		unsigned seq, seq2;
		if ((k & 0xffff) == 0 && now_s() > deadline) {
			atomic_store(&timed_out, 1);
			break;
		}
		if (unsync) {
			copy_rec(&r, mode == M_LATCH ? &copies[0] : &shared);
			goto check;
		}
		switch (mode) {
		case M_SEQCOUNT:
			for (;;) {
				seq = seqlint_read_begin(&sc);
				copy_rec(&r, &shared);
				if (!seqlint_read_retry(&sc, seq))
					break;
				note_retry(&my_retries);
			}
			break;
		case M_SEQLOCK:
			for (;;) {
				seq = seqlint_seqlock_read_begin(&sl);
				copy_rec(&r, &shared);
				if (!seqlint_seqlock_read_retry(&sl, seq))
					break;
				note_retry(&my_retries);
			}
			break;
		case M_LATCH:
			for (;;) {
				seq = seqlint_latch_read_begin(&latch);
				copy_rec(&r, &copies[seqlint_latch_index(seq)]);
				if (!seqlint_latch_read_retry(&latch, seq))
					break;
				note_retry(&my_retries);
			}
			break;
		case M_LINUX:
			for (;;) {
				seq = read_seqbegin(&ksl);
				seq2 = read_seqcount_begin(&ksc);
				if (plain_copy)
					memcpy(&r, &shared, sizeof(r));
				else
					for (int i = 0; i < NWORDS; i++)
						r.w[i] = READ_ONCE(shared.w[i]);
				if (!read_seqcount_retry(&ksc, seq2) &&
				    !read_seqretry(&ksl, seq))
					break;
				note_retry(&my_retries);
			}
			break;
		}
check:;
		word_t gen = r.w[0] / NWORDS;
		int bad = r.w[0] % NWORDS != 0 || gen < last_gen;
		for (int i = 1; i < NWORDS; i++)
			bad |= r.w[i] != gen * NWORDS + (word_t)i;
		if (bad) {
			if (my_torn < 3)
				fprintf(stderr, "torn read: gen %llu, w[0..7] = %llx %llx %llx %llx %llx %llx %llx %llx\n",
					(unsigned long long)last_gen,
					(unsigned long long)r.w[0], (unsigned long long)r.w[1],
					(unsigned long long)r.w[2], (unsigned long long)r.w[3],
					(unsigned long long)r.w[4], (unsigned long long)r.w[5],
					(unsigned long long)r.w[6], (unsigned long long)r.w[7]);
			if (my_torn++ == 0)
				atomic_store_explicit(&torn_seen, 1, memory_order_relaxed);
		} else {
			last_gen = gen;
		}
	}
	atomic_fetch_add(&torn, my_torn);
	atomic_fetch_add(&retries, my_retries - (my_retries > 0));
	atomic_fetch_add(&reads_done, k);
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *names[] = { "seqcount", "seqlock", "latch", "linux" };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strncmp(a, "--mode=", 7)) {
			int found = 0;
			for (int m = 0; m < 4; m++)
				if (!strcmp(a + 7, names[m]))
					mode = (enum mode)m, found = 1;
			if (!found)
				goto usage;
		} else if (!strncmp(a, "--reads=", 8)) {
			total_reads = atol(a + 8);
		} else if (!strncmp(a, "--readers=", 10)) {
			nreaders = atoi(a + 10);
		} else if (!strncmp(a, "--writers=", 10)) {
			nwriters = atoi(a + 10);
		} else if (!strcmp(a, "--unsynchronized")) {
			unsync = 1;
		} else if (!strcmp(a, "--plain-copy")) {
			plain_copy = 1;
		} else {
			goto usage;
		}
	}
	if (nreaders < 1 || nreaders > 16 || nwriters < 1 || nwriters > 16 ||
	    total_reads < 1)
		goto usage;

	alarm(TIME_LIMIT_S + 30);	/* never hang the test suite */

	/* Generation 0 is consistent: w[i] = i. */
	for (int i = 0; i < NWORDS; i++)
		shared.w[i] = copies[0].w[i] = copies[1].w[i] = (word_t)i;

	pthread_t w[16], r[16];
	for (int i = 0; i < nwriters; i++)
		pthread_create(&w[i], NULL, writer, NULL);
	for (int i = 0; i < nreaders; i++)
		pthread_create(&r[i], NULL, reader,
			       (void *)(intptr_t)(total_reads / nreaders));
	for (int i = 0; i < nreaders; i++)
		pthread_join(r[i], NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < nwriters; i++)
		pthread_join(w[i], NULL);

	long t = atomic_load(&torn), rt = atomic_load(&retries),
	     wr = atomic_load(&writes), rd = atomic_load(&reads_done);
	printf("stress: arch=%s mode=%s readers=%d writers=%d reads=%ld "
	       "retries=%ld writes=%ld torn=%ld\n", SEQLINT_ARCH, names[mode],
	       nreaders, nwriters, rd, rt, wr, t);
	if (t) {
		printf("FAIL: %ld torn reads\n", t);
		return 1;
	}
	if (atomic_load(&timed_out)) {
		printf("FAIL: no contention observed in %d s (writes=%ld "
		       "retries=%ld): the run proves nothing\n", TIME_LIMIT_S, wr, rt);
		return 2;
	}
	printf("PASS: 0 torn reads in %ld reads\n", rd);
	return 0;
usage:
	fprintf(stderr, "usage: stress [--mode=seqcount|seqlock|latch|linux] "
		"[--reads=N] [--readers=R] [--writers=W] [--unsynchronized] "
		"[--plain-copy]\n");
	return 2;
}
