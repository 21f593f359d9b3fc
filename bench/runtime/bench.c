/*
 * Read-side throughput of seqlint's seqcount against its peers, side by side
 * in one run: Concurrency Kit's ck_sequence, DPDK's rte_seqcount and
 * rte_seqlock, pthread_rwlock, a naive all-seq_cst C11 seqcount, and an
 * unsynchronized read of the same data (the physical limit).
 *
 * Every variant protects the same 16-byte record {a, b} (invariant b == ~a)
 * in its own 64-byte-aligned block, and copies it with the same two relaxed
 * 64-bit loads (plain movs), so what differs is only the synchronization
 * protocol.  One reader thread (CPU 0) runs for a fixed time, in three modes:
 *   no writer;
 *   hammer  - one writer thread (CPU 1) updates the record back to back;
 *   paced   - the writer pauses --gap cpu_relax() between updates (default 8,
 *             a few million updates per second).
 * Trials are interleaved (the order of the variants rotates every trial); we
 * report medians, and medians of per-trial (paired) ratios to seqlint.
 *
 *   bench [--trials=N] [--ms=MS] [--gap=N] [--only=NAME,...]
 *         [--modes=none,hammer,paced] [--raw]
 */
#define _GNU_SOURCE
#include <seqlint/seqcount.h>

#include <ck_sequence.h>
#include <rte_seqcount.h>
#include <rte_seqlock.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct rec {
	uint64_t a, b;
};

#define RELAXED_LOAD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define RELAXED_STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static inline void copy_rec(struct rec *out, const struct rec *in)
{
	out->a = RELAXED_LOAD(in->a);
	out->b = RELAXED_LOAD(in->b);
}

static inline void store_rec(struct rec *dst, uint64_t k)
{
	RELAXED_STORE(dst->a, k);
	RELAXED_STORE(dst->b, ~k);
}

/* ---- the variants ------------------------------------------------------- */

static struct { seqlint_seqcount_t sc; struct rec d; } __attribute__((aligned(64))) v_seqlint;
static struct { ck_sequence_t sq; struct rec d; } __attribute__((aligned(64))) v_ck;
static struct { rte_seqcount_t sc; struct rec d; } __attribute__((aligned(64))) v_rtesc;
static struct { rte_seqlock_t sl; struct rec d; } __attribute__((aligned(64))) v_rtesl;
static struct { pthread_rwlock_t l; struct rec d; } __attribute__((aligned(64))) v_rw;
static struct { _Atomic unsigned seq; _Atomic uint64_t a, b; } __attribute__((aligned(64))) v_naive;
static struct { struct rec d; } __attribute__((aligned(64))) v_plain;

static inline void read_seqlint(struct rec *r)
{
	unsigned s;
	do {
		s = seqlint_read_begin(&v_seqlint.sc);
		copy_rec(r, &v_seqlint.d);
	} while (seqlint_read_retry(&v_seqlint.sc, s));
}
static inline void write_seqlint(uint64_t k)
{
	seqlint_write_begin(&v_seqlint.sc);
	store_rec(&v_seqlint.d, k);
	seqlint_write_end(&v_seqlint.sc);
}

static inline void read_ck(struct rec *r)
{
	unsigned s;
	do {
		s = ck_sequence_read_begin(&v_ck.sq);
		copy_rec(r, &v_ck.d);
	} while (ck_sequence_read_retry(&v_ck.sq, s));
}
static inline void write_ck(uint64_t k)
{
	ck_sequence_write_begin(&v_ck.sq);
	store_rec(&v_ck.d, k);
	ck_sequence_write_end(&v_ck.sq);
}

static inline void read_rtesc(struct rec *r)
{
	uint32_t s;
	do {
		s = rte_seqcount_read_begin(&v_rtesc.sc);
		copy_rec(r, &v_rtesc.d);
	} while (rte_seqcount_read_retry(&v_rtesc.sc, s));
}
static inline void write_rtesc(uint64_t k)
{
	rte_seqcount_write_begin(&v_rtesc.sc);
	store_rec(&v_rtesc.d, k);
	rte_seqcount_write_end(&v_rtesc.sc);
}

static inline void read_rtesl(struct rec *r)
{
	uint32_t s;
	do {
		s = rte_seqlock_read_begin(&v_rtesl.sl);
		copy_rec(r, &v_rtesl.d);
	} while (rte_seqlock_read_retry(&v_rtesl.sl, s));
}
static inline void write_rtesl(uint64_t k)
{
	rte_seqlock_write_lock(&v_rtesl.sl);
	store_rec(&v_rtesl.d, k);
	rte_seqlock_write_unlock(&v_rtesl.sl);
}

static inline void read_rw(struct rec *r)
{
	pthread_rwlock_rdlock(&v_rw.l);
	copy_rec(r, &v_rw.d);
	pthread_rwlock_unlock(&v_rw.l);
}
static inline void write_rw(uint64_t k)
{
	pthread_rwlock_wrlock(&v_rw.l);
	store_rec(&v_rw.d, k);
	pthread_rwlock_unlock(&v_rw.l);
}

/* Everything seq_cst, no explicit fence: what a C11 programmer writes first. */
static inline void read_naive(struct rec *r)
{
	unsigned s;
	do {
		while ((s = atomic_load(&v_naive.seq)) & 1)
			;
		r->a = atomic_load(&v_naive.a);
		r->b = atomic_load(&v_naive.b);
	} while (atomic_load(&v_naive.seq) != s);
}
static inline void write_naive(uint64_t k)
{
	unsigned s = atomic_load(&v_naive.seq);
	atomic_store(&v_naive.seq, s + 1);
	atomic_store(&v_naive.a, k);
	atomic_store(&v_naive.b, ~k);
	atomic_store(&v_naive.seq, s + 2);
}

static inline void read_plain(struct rec *r) { copy_rec(r, &v_plain.d); }
static inline void write_plain(uint64_t k) { store_rec(&v_plain.d, k); }

/* ---- loops: one instance per variant, identical shape --------------------- */

static atomic_int stop_reader, stop_writer;
#define BATCH 1024

struct result {
	uint64_t reads, torn, writes;
	double ns;
};

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static unsigned writer_gap;	/* set before each writer thread starts */

/*
 * The reader consumes each record with two xors into a checksum: a
 * consistent record has a ^ b == ~0, so after n reads the checksum is ~0 if
 * n is odd and 0 if n is even; a torn read breaks that (with overwhelming
 * probability).  Kept minimal so that the loop measures the read section,
 * not the consumer.
 */
#define DEFINE_LOOPS(name)							\
static __attribute__((noinline)) void reader_loop_##name(struct result *res)	\
{										\
	uint64_t n = 0, chk = 0;						\
	double t0 = now_ns();							\
	while (!atomic_load_explicit(&stop_reader, memory_order_relaxed)) {	\
		for (int i = 0; i < BATCH; i++) {				\
			struct rec r;						\
			read_##name(&r);					\
			chk ^= r.a ^ r.b;					\
		}								\
		n += BATCH;							\
	}									\
	res->ns = now_ns() - t0;						\
	res->reads = n;								\
	res->torn = chk != ((n & 1) ? ~0ull : 0);				\
}										\
static __attribute__((noinline)) uint64_t writer_loop_##name(void)		\
{										\
	uint64_t k = 1;								\
	while (!atomic_load_explicit(&stop_writer, memory_order_relaxed)) {	\
		write_##name(k++);						\
		for (unsigned g = 0; g < writer_gap; g++)			\
			seqlint_cpu_relax();					\
	}									\
	return k - 1;								\
}

DEFINE_LOOPS(seqlint)
DEFINE_LOOPS(ck)
DEFINE_LOOPS(rtesc)
DEFINE_LOOPS(rtesl)
DEFINE_LOOPS(rw)
DEFINE_LOOPS(naive)
DEFINE_LOOPS(plain)

struct variant {
	const char *name, *desc;
	void (*reader)(struct result *);
	uint64_t (*writer)(void);
};

static const struct variant variants[] = {
	{ "seqlint", "seqlint_read_begin/retry (this runtime)", reader_loop_seqlint, writer_loop_seqlint },
	{ "ck_sequence", "Concurrency Kit ck_sequence", reader_loop_ck, writer_loop_ck },
	{ "rte_seqcount", "DPDK rte_seqcount", reader_loop_rtesc, writer_loop_rtesc },
	{ "rte_seqlock", "DPDK rte_seqlock", reader_loop_rtesl, writer_loop_rtesl },
	{ "pthread_rwlock", "glibc pthread_rwlock_t", reader_loop_rw, writer_loop_rw },
	{ "naive_seq_cst", "C11 seqcount, every access seq_cst", reader_loop_naive, writer_loop_naive },
	{ "plain_read", "unsynchronized read (physical limit)", reader_loop_plain, writer_loop_plain },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

struct run_args {
	const struct variant *v;
	struct result res;
	int cpu;
};

static void *reader_thread(void *p)
{
	struct run_args *a = p;
	pin(a->cpu);
	a->v->reader(&a->res);
	return NULL;
}

static void *writer_thread(void *p)
{
	struct run_args *a = p;
	pin(a->cpu);
	a->res.writes = a->v->writer();
	return NULL;
}

static int ncpus;

enum { NO_WRITER, HAMMER, PACED, NMODES };
static const char *mode_names[NMODES] = { "no writer", "hammer", "paced" };
static unsigned paced_gap = 8;

static struct result measure(const struct variant *v, int mode, unsigned ms)
{
	int with_writer = mode != NO_WRITER;
	struct run_args r = { .v = v, .cpu = 0 }, w = { .v = v, .cpu = ncpus > 1 ? 1 : 0 };
	pthread_t rt, wt;
	struct timespec d = { ms / 1000, (long)(ms % 1000) * 1000000L };
	struct timespec warm = { 0, 2000000L };

	writer_gap = mode == PACED ? paced_gap : 0;
	atomic_store(&stop_reader, 0);
	atomic_store(&stop_writer, 0);
	if (with_writer) {
		pthread_create(&wt, NULL, writer_thread, &w);
		nanosleep(&warm, NULL);	/* writer up and running first */
	}
	pthread_create(&rt, NULL, reader_thread, &r);
	nanosleep(&d, NULL);
	atomic_store(&stop_reader, 1);
	pthread_join(rt, NULL);
	atomic_store(&stop_writer, 1);
	if (with_writer)
		pthread_join(wt, NULL);
	r.res.writes = with_writer ? w.res.writes : 0;
	return r.res;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	int trials = 11;
	unsigned ms = 50;
	char only[256] = "";
	int raw = 0;
	int mode_on[NMODES] = { 1, 1, 1 };

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--trials=", 9))
			trials = atoi(argv[i] + 9);
		else if (!strncmp(argv[i], "--ms=", 5))
			ms = (unsigned)atoi(argv[i] + 5);
		else if (!strncmp(argv[i], "--gap=", 6))
			paced_gap = (unsigned)atoi(argv[i] + 6);
		else if (!strncmp(argv[i], "--modes=", 8)) {
			const char *m = argv[i] + 8;
			mode_on[NO_WRITER] = strstr(m, "none") != NULL;
			mode_on[HAMMER] = strstr(m, "hammer") != NULL;
			mode_on[PACED] = strstr(m, "paced") != NULL;
		} else if (!strcmp(argv[i], "--raw"))
			raw = 1;
		else if (!strncmp(argv[i], "--only=", 7))
			snprintf(only, sizeof(only), ",%s,", argv[i] + 7);
		else {
			fprintf(stderr, "usage: bench [--trials=N] [--ms=MS] [--gap=N] [--only=a,b] "
				"[--modes=none,hammer,paced] [--raw]\n");
			return 2;
		}
	}
	if (trials < 1 || trials > 101 || ms < 1)
		return 2;

	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	seqlint_seqcount_init(&v_seqlint.sc);
	ck_sequence_init(&v_ck.sq);
	rte_seqcount_init(&v_rtesc.sc);
	rte_seqlock_init(&v_rtesl.sl);
	pthread_rwlock_init(&v_rw.l, NULL);
	v_seqlint.d.b = v_ck.d.b = v_rtesc.d.b = v_rtesl.d.b = v_rw.d.b = v_plain.d.b = ~0ull;
	atomic_store(&v_naive.b, ~0ull);

	int sel[NVARIANTS], nsel = 0;
	for (size_t i = 0; i < NVARIANTS; i++) {
		char key[64];
		snprintf(key, sizeof(key), ",%s,", variants[i].name);
		if (!only[0] || strstr(only, key))
			sel[nsel++] = (int)i;
	}

	static double ns[NVARIANTS][NMODES][101], wps[NVARIANTS][NMODES][101];
	static int torn[NVARIANTS][NMODES];
	printf("# seqlint runtime benchmark: arch=%s cpus=%d trials=%d ms=%u paced-gap=%u record=%zu bytes\n",
	       SEQLINT_ARCH, ncpus, trials, ms, paced_gap, sizeof(struct rec));

	/* Warm-up: let the CPUs reach their steady clock before measuring. */
	for (int j = 0; j < nsel; j++)
		for (int m = 0; m < NMODES; m++)
			if (mode_on[m])
				(void)measure(&variants[sel[j]], m, 10);

	for (int t = 0; t < trials; t++) {
		for (int j = 0; j < nsel; j++) {
			int i = sel[(j + t) % nsel];	/* rotate the order */
			for (int m = 0; m < NMODES; m++) {
				if (!mode_on[m])
					continue;
				struct result r = measure(&variants[i], m, ms);
				ns[i][m][t] = r.ns / (double)r.reads;
				torn[i][m] |= r.torn != 0;
				wps[i][m][t] = r.writes / (r.ns * 1e-9);
				if (raw)
					printf("raw trial=%d variant=%s mode=%d ns/read=%.3f reads=%llu writes=%llu\n",
					       t, variants[i].name, m, ns[i][m][t],
					       (unsigned long long)r.reads, (unsigned long long)r.writes);
			}
		}
		fprintf(stderr, "trial %d/%d done\n", t + 1, trials);
	}

	/* Medians of the times, and medians of the per-trial (paired) ratios:
	 * seqlint and the peer measured in the same trial, a few hundred
	 * milliseconds apart, so slow drifts of the machine cancel out.
	 * [q1..q3] = interquartile range of the per-trial ratios. */
	const int s = 0;	/* seqlint is variants[0] */
	printf("#\n# medians over %d trials.  ratio = seqlint ns/read / variant ns/read, paired per trial: median [q1..q3]\n"
	       "# (ratio <= 1: seqlint is as fast or faster; plain_read is the physical limit).  torn: any inconsistent record seen\n",
	       trials);
	for (int m = 0; m < NMODES; m++) {
		if (!mode_on[m])
			continue;
		printf("#\n# %s%s\n", mode_names[m],
		       m == HAMMER ? ": writer updates back to back" :
		       m == PACED ? ": writer pauses between updates (--gap)" : "");
		printf("%-15s %9s %10s  %-22s %10s  %s\n", "variant", "ns/read",
		       "Mreads/s", "ratio", "Mwrites/s", "torn");
		for (int j = 0; j < nsel; j++) {
			int i = sel[j];
			double tmp[101];
			for (int t = 0; t < trials; t++)
				tmp[t] = ns[i][m][t];
			double med = median(tmp, trials);
			for (int t = 0; t < trials; t++)
				tmp[t] = ns[s][m][t] / ns[i][m][t];
			double rmed = median(tmp, trials);	/* sorts tmp */
			double rq1 = tmp[trials / 4], rq3 = tmp[(3 * trials) / 4];
			for (int t = 0; t < trials; t++)
				tmp[t] = wps[i][m][t];
			double mw = median(tmp, trials);
			char rs[40];
			snprintf(rs, sizeof(rs), "%.3f [%.3f..%.3f]", rmed, rq1, rq3);
			printf("%-15s %9.3f %10.1f  %-22s %10.2f  %s\n", variants[i].name,
			       med, 1e3 / med, rs, mw / 1e6, torn[i][m] ? "TORN" : "ok");
		}
	}
	return 0;
}
