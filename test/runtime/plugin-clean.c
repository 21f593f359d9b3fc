// The runtime headers, every API used the way it is meant to be used, and the
// runtime examples, analysed by the seqlint plugin: zero warnings.  Run with
// each barrier implementation (the arch's inline asm, the C11 fallback, the
// debug build) and, where cross toolchains exist, with the other arches'
// inline asm.
//
// RUN: %clang_plugin -fsyntax-only %runtime_cflags %s 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s
// RUN: %clang_plugin -fsyntax-only %runtime_cflags -DSEQLINT_GENERIC_BARRIERS %s 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s
// RUN: %clang_plugin -fsyntax-only %runtime_cflags -DSEQLINT_DEBUG %s 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s
// RUN: %clang_plugin -fsyntax-only %runtime_cflags %runtime_examples/kernel_style.c 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s
// RUN: %clang_plugin -fsyntax-only %runtime_cflags %runtime_examples/c_api.c 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s
// RUN: %if cross-aarch64 %{ %clang_plugin --target=aarch64-linux-gnu -fsyntax-only %runtime_cflags %s 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s %}
// RUN: %if cross-riscv64 %{ %clang_plugin --target=riscv64-linux-gnu -fsyntax-only %runtime_cflags %s 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s %}
// RUN: %if cross-ppc64le %{ %clang_plugin --target=powerpc64le-linux-gnu -fsyntax-only %runtime_cflags %s 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s %}
// RUN: %if cross-armhf %{ %clang_plugin --target=arm-linux-gnueabihf -fsyntax-only %runtime_cflags %s 2>&1 | FileCheck --allow-empty --implicit-check-not='warning:' %s %}

#include <seqlint/linux.h>

/* ---- seqcount with the copy helpers (C API) ---- */
struct pos { int64_t x, y; };
static seqlint_seqcount_t pos_seq = SEQLINT_SEQCOUNT_INIT;
static struct pos pos_shared;

void pos_set(const struct pos *p)	/* single writer */
{
	seqlint_write_begin(&pos_seq);
	seqlint_copy_in(&pos_shared, p);
	seqlint_write_end(&pos_seq);
}

struct pos pos_get(void)
{
	struct pos p;
	unsigned seq;

	do {
		seq = seqlint_read_begin(&pos_seq);
		seqlint_copy_out(&p, &pos_shared);
	} while (seqlint_read_retry(&pos_seq, seq));
	return p;
}

void pos_set2(const struct pos *p) { seqlint_write_object(&pos_seq, &pos_shared, p); }
void pos_get2(struct pos *p) { seqlint_read_object(&pos_seq, &pos_shared, p); }

/* ---- scalar fields with ONCE accesses ---- */
struct meter { seqlint_seqcount_t seq; unsigned long count, total; };	/* words */

void meter_add(struct meter *m, unsigned long v)	/* single writer per meter */
{
	seqlint_write_begin(&m->seq);
	seqlint_write_once(m->count, m->count + 1);
	seqlint_write_once(m->total, m->total + v);
	seqlint_write_end(&m->seq);
}

unsigned long meter_mean(const struct meter *m)
{
	unsigned long count, total;
	unsigned seq;

	do {
		seq = seqlint_read_begin(&m->seq);
		count = seqlint_read_once(m->count);
		total = seqlint_read_once(m->total);
	} while (seqlint_read_retry(&m->seq, seq));
	return count ? total / count : 0;
}

/* ---- seqlock: any number of writers ---- */
static seqlint_seqlock_t lim_lock = SEQLINT_SEQLOCK_INIT;
static struct { uint32_t lo, hi; } limits;

void limits_set(uint32_t lo, uint32_t hi)
{
	seqlint_seqlock_write_lock(&lim_lock);
	seqlint_write_once(limits.lo, lo);
	seqlint_write_once(limits.hi, hi);
	seqlint_seqlock_write_unlock(&lim_lock);
}

int limits_contains(uint32_t v)
{
	uint32_t lo, hi;
	unsigned seq;

	do {
		seq = seqlint_seqlock_read_begin(&lim_lock);
		lo = seqlint_read_once(limits.lo);
		hi = seqlint_read_once(limits.hi);
	} while (seqlint_seqlock_read_retry(&lim_lock, seq));
	return lo <= v && v <= hi;
}

/* ---- latch ---- */
static seqlint_latch_t lat = SEQLINT_LATCH_INIT;
static struct pos lat_copies[2];

void lat_set(const struct pos *p)
{
	seqlint_latch_write_begin(&lat);
	seqlint_copy_in(&lat_copies[0], p);
	seqlint_latch_write_switch(&lat);
	seqlint_copy_in(&lat_copies[1], p);
	seqlint_latch_write_end(&lat);
}

struct pos lat_get(void)
{
	struct pos p;
	unsigned seq;

	do {
		seq = seqlint_latch_read_begin(&lat);
		seqlint_copy_out(&p, &lat_copies[seqlint_latch_index(seq)]);
	} while (seqlint_latch_read_retry(&lat, seq));
	return p;
}

void lat_set2(const struct pos *p) { seqlint_latch_write_object(&lat, lat_copies, p); }
void lat_get2(struct pos *p) { seqlint_latch_read_object(&lat, lat_copies, p); }

/* ---- message passing with the barrier layer ---- */
static int mp_data, mp_flag;
static int mp_payload;
static int *mp_ptr;

void mp_send(int v)
{
	seqlint_write_once(mp_data, v);
	seqlint_smp_wmb();
	seqlint_write_once(mp_flag, 1);
}

int mp_recv(void)
{
	if (!seqlint_read_once(mp_flag))
		return -1;
	seqlint_smp_rmb();
	return seqlint_read_once(mp_data);
}

void mp_publish(int v)
{
	seqlint_write_once(mp_payload, v);
	seqlint_store_release(&mp_ptr, &mp_payload);
}

int mp_lookup(void)
{
	int *p = seqlint_load_acquire(&mp_ptr);
	return p ? seqlint_read_once(*p) : -1;
}

/* store buffering (Dekker): each side must see the other's flag, or both */
static int sb_x, sb_y;

int sb_left(void)
{
	seqlint_write_once(sb_x, 1);
	seqlint_smp_mb();
	return seqlint_read_once(sb_y);
}

int sb_right(void)
{
	seqlint_write_once(sb_y, 1);
	seqlint_smp_mb();
	return seqlint_read_once(sb_x);
}

/* ---- Linux names ---- */
struct ktk { seqcount_t seq; unsigned long sec, nsec; };
static struct ktk ktk = { .seq = SEQCNT_ZERO(ktk.seq) };
static DEFINE_SEQLOCK(kstats_lock);
static unsigned long kpackets;

void ktk_tick(unsigned long sec, unsigned long nsec)	/* single writer */
{
	write_seqcount_begin(&ktk.seq);
	WRITE_ONCE(ktk.sec, sec);
	WRITE_ONCE(ktk.nsec, nsec);
	write_seqcount_end(&ktk.seq);
}

void ktk_get(unsigned long *sec, unsigned long *nsec)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&ktk.seq);
		*sec = READ_ONCE(ktk.sec);
		*nsec = READ_ONCE(ktk.nsec);
	} while (read_seqcount_retry(&ktk.seq, seq));
}

unsigned long ktk_sec_raw(void)
{
	unsigned long sec;
	unsigned int seq;

	do {
		seq = raw_read_seqcount_begin(&ktk.seq);
		sec = READ_ONCE(ktk.sec);
	} while (read_seqcount_retry(&ktk.seq, seq));
	return sec;
}

void kstats_inc(void)
{
	write_seqlock(&kstats_lock);
	WRITE_ONCE(kpackets, kpackets + 1);
	write_sequnlock(&kstats_lock);
}

unsigned long kstats_get(void)
{
	unsigned long v;
	unsigned int seq;

	do {
		seq = read_seqbegin(&kstats_lock);
		v = READ_ONCE(kpackets);
	} while (read_seqretry(&kstats_lock, seq));
	return v;
}

void kinit(struct ktk *t, seqlock_t *sl)
{
	seqcount_init(&t->seq);
	seqlock_init(sl);
}

static int kflag, kdata, kready, kvalue, kx, ky;

void kmp_send(int v)
{
	WRITE_ONCE(kdata, v);
	smp_store_release(&kflag, 1);
	WRITE_ONCE(kvalue, v);
	smp_wmb();
	WRITE_ONCE(kready, 1);
}

int kmp_recv(void)
{
	if (!smp_load_acquire(&kflag))
		return -1;
	return READ_ONCE(kdata);
}

int kmp_recv2(void)
{
	if (!READ_ONCE(kready))
		return -1;
	smp_rmb();
	return READ_ONCE(kvalue);
}

int ksb_left(void)
{
	WRITE_ONCE(kx, 1);
	smp_mb();
	return READ_ONCE(ky);
}

int ksb_right(void)
{
	WRITE_ONCE(ky, 1);
	smp_mb();
	return READ_ONCE(kx);
}
