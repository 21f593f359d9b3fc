// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// expected-no-diagnostics
/*
 * seqcount-read-odd-unchecked, kernel style: readers that handle the low bit
 * in every accepted way -- "& ~1" masking, "& 1" / "% 2" tests with retry or
 * bail-out, waiting while odd (lib/vdso/gettimeofday.c), raw_seqcount_begin()
 * -- plus readers where an odd count is meaningful or impossible: the API
 * (which waits), latch readers (the low bit selects the copy), and a single
 * counter load compared with a cached value (not a read section at all).
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <asm/barrier.h>
#include <asm/processor.h>

#define EAGAIN 11

struct snap {
	unsigned int seq;
	u64 a;
	u64 b;
};

/* Masking: an odd count can never equal the masked value at the recheck. */
u64 snap_sum_masked(struct snap *s)
{
	unsigned int seq;
	u64 a, b;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		smp_rmb();
		a = READ_ONCE(s->a);
		b = READ_ONCE(s->b);
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return a + b;
}

/* Testing the bit and retrying. */
u64 snap_a_goto(struct snap *s)
{
	unsigned int seq;
	u64 a;

retry:
	seq = smp_load_acquire(&s->seq);
	if (seq & 1)
		goto retry;
	a = READ_ONCE(s->a);
	smp_rmb();
	if (READ_ONCE(s->seq) != seq)
		goto retry;
	return a;
}

/* Waiting while odd with an acquire load. */
u64 snap_b_wait(struct snap *s)
{
	unsigned int seq;
	u64 b;

	do {
		while ((seq = smp_load_acquire(&s->seq)) & 1)
			cpu_relax();
		b = READ_ONCE(s->b);
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return b;
}

/* lib/vdso/gettimeofday.c: while (unlikely((seq = READ_ONCE(vd->seq)) & 1)). */
struct vdso_data {
	u32 seq;
	u64 cycle_last;
	u64 mask;
};

u64 vdso_read(const struct vdso_data *vd)
{
	u32 seq;
	u64 last, mask;

	do {
		while (unlikely((seq = READ_ONCE(vd->seq)) & 1))
			cpu_relax();
		smp_rmb();
		last = READ_ONCE(vd->cycle_last);
		mask = READ_ONCE(vd->mask);
		smp_rmb();
	} while (unlikely(READ_ONCE(vd->seq) != seq));
	return last & mask;
}

/* "% 2" is the same test. */
u64 snap_sum_mod(struct snap *s)
{
	unsigned int seq;
	u64 a, b;

	for (;;) {
		seq = READ_ONCE(s->seq);
		if (seq % 2)
			continue;
		smp_rmb();
		a = READ_ONCE(s->a);
		b = READ_ONCE(s->b);
		smp_rmb();
		if (READ_ONCE(s->seq) == seq)
			break;
	}
	return a + b;
}

/* Bailing out on an odd count (the caller retries later) is a check too. */
int snap_try_a(struct snap *s, u64 *a)
{
	unsigned int seq;
	u64 v;

	seq = smp_load_acquire(&s->seq);
	if (unlikely(seq & 1))
		return -EAGAIN;
	v = READ_ONCE(s->a);
	smp_rmb();
	if (READ_ONCE(s->seq) != seq)
		return -EAGAIN;
	*a = v;
	return 0;
}

/* The API waits for an even count. */
struct point {
	u64 x, y;
};

static seqcount_t pt_seq = SEQCNT_ZERO(pt_seq);
static struct point pt;

struct point pt_get(void)
{
	struct point p;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&pt_seq);
		p = pt;
	} while (read_seqcount_retry(&pt_seq, seq));
	return p;
}

/* raw_seqcount_begin() masks the bit itself, raw_read_seqcount() & ~1 by hand. */
u64 pt_get_x(void)
{
	unsigned int seq;
	u64 x;

	do {
		seq = raw_seqcount_begin(&pt_seq);
		x = pt.x;
	} while (read_seqcount_retry(&pt_seq, seq));
	return x;
}

u64 pt_get_y(void)
{
	unsigned int seq;
	u64 y;

	do {
		seq = raw_read_seqcount(&pt_seq) & ~1U;
		y = pt.y;
	} while (read_seqcount_retry(&pt_seq, seq));
	return y;
}

/* Latch reader: the odd count is valid, its low bit picks the stable copy. */
static seqcount_latch_t tk_latch = SEQCNT_LATCH_ZERO(tk_latch);
static u64 tk_base[2];

u64 tk_get_base(void)
{
	unsigned int seq;
	u64 base;

	do {
		seq = raw_read_seqcount_latch(&tk_latch);
		base = tk_base[seq & 1];
	} while (read_seqcount_latch_retry(&tk_latch, seq));
	return base;
}

/* Open-coded latch reader: same, by hand. */
struct latch {
	unsigned int seq;
	u64 val[2];
};

u64 latch_get(struct latch *l)
{
	unsigned int seq;
	u64 v;

	do {
		seq = READ_ONCE(l->seq);
		smp_rmb();
		v = READ_ONCE(l->val[seq & 1]);
		smp_rmb();
	} while (READ_ONCE(l->seq) != seq);
	return v;
}

/* Testing the bit of the recheck value is as good: if it equals seq and is
 * even, seq was even too. */
u64 snap_a_recheck_odd(struct snap *s)
{
	unsigned int seq, again;
	u64 a;

retry:
	seq = READ_ONCE(s->seq);
	smp_rmb();
	a = READ_ONCE(s->a);
	smp_rmb();
	again = READ_ONCE(s->seq);
	if (again != seq || (again & 1))
		goto retry;
	return a;
}

/* One counter load compared with a cached generation: a cache check, not a
 * read section (no reload of the counter). */
struct cfg {
	unsigned int gen;
	int mode;
};

struct cfg_cache {
	unsigned int gen;
	int mode;
};

bool cfg_cache_valid(const struct cfg *c, const struct cfg_cache *cache)
{
	return READ_ONCE(c->gen) == cache->gen;
}

/* seqlock_t reader. */
static DEFINE_SEQLOCK(cfg_lock);
static struct { int mode, level; } cfgv;

int cfg_get_mode(void)
{
	unsigned int seq;
	int mode;

	do {
		seq = read_seqbegin(&cfg_lock);
		mode = cfgv.mode;
	} while (read_seqretry(&cfg_lock, seq));
	return mode;
}

/*
 * Not a count: a pointer loaded with a full barrier, acted on, and loaded
 * again until it stops changing (QEMU's rr_kick_next_cpu(): kick whichever
 * vCPU is current, and the next one if the scheduler moved on meanwhile).
 */
struct vcpu;
void vcpu_kick(struct vcpu *v);
static struct vcpu *cur_vcpu;
void kick_current(void)
{
	struct vcpu *v;

	do {
		v = smp_load_acquire(&cur_vcpu);
		if (v)
			vcpu_kick(v);
	} while (v != smp_load_acquire(&cur_vcpu));
}

/*
 * Not a seqcount: a generation number that every update bumps once, after
 * its stores (Concurrency Kit's ck_rhs.c). No writer makes it odd for the
 * length of an update, so a reader has no odd value to wait for.
 */
struct bucket_set {
	unsigned int gen[8];
	void *slot[64];
};
void bucket_put(struct bucket_set *m, unsigned int b, int at, void *o)
{
	WRITE_ONCE(m->slot[at], o);
	m->gen[b]++;
	smp_wmb();
}
void *bucket_get(struct bucket_set *m, unsigned int b, int at)
{
	unsigned int g;
	void *o;

	do {
		g = READ_ONCE(m->gen[b]);
		smp_rmb();
		o = READ_ONCE(m->slot[at]);
		smp_rmb();
	} while (g != READ_ONCE(m->gen[b]));
	return o;
}

/* One count per bucket in an array reached by a pointer, masked: the load
 * of the pointer before the recheck only computes the count's address. */
struct gen_tbl {
	unsigned int *gen;
	long *val;
};
long gen_tbl_read(struct gen_tbl *t, int b)
{
	unsigned int g;
	long v;

	do {
		g = READ_ONCE(t->gen[b]) & ~1U;
		smp_rmb();
		v = READ_ONCE(t->val[b]);
		smp_rmb();
	} while (READ_ONCE(t->gen[b]) != g);
	return v;
}

/* The Hyper-V reference TSC page (include/clocksource/hyperv_timer.h,
 * hv_read_tsc_page_tsc()): the writer marks an update with 0, not with an
 * odd value, and the reader bails out on 0. Read barriers on both sides make
 * it a section; the test of the begin value against 0 is its check. */
struct ref_page {
	u32 sequence;
	u64 scale;
	s64 offset;
};
bool ref_page_read(const struct ref_page *p, u64 *scale, s64 *offset)
{
	u32 s;

	do {
		s = READ_ONCE(p->sequence);
		if (!s)
			return false;
		smp_rmb();
		*scale = READ_ONCE(p->scale);
		*offset = READ_ONCE(p->offset);
		smp_rmb();
	} while (READ_ONCE(p->sequence) != s);
	return true;
}

/* Begin and end helpers in the shape of PostgreSQL's
 * pgstat_begin_read_activity()/pgstat_end_read_activity(): the begin helper
 * returns a plain load ordered by a read barrier, the end helper refuses an
 * odd begin value. The odd test is on the caller's value, in the helper. */
struct act_slot {
	u32 changes;
	long state;
};
static inline u32 act_read_begin(struct act_slot *a)
{
	u32 b = a->changes;

	smp_rmb();
	return b;
}
static inline bool act_read_end(struct act_slot *a, u32 before)
{
	smp_rmb();
	if (before & 1)
		return false;
	return READ_ONCE(a->changes) == before;
}
long act_read(struct act_slot *a)
{
	u32 b;
	long st;

	do {
		b = act_read_begin(a);
		st = READ_ONCE(a->state);
	} while (!act_read_end(a, b));
	return st;
}

/* Concurrency Kit's multi-producer ring enqueue (include/ck_ring.h,
 * _ck_ring_enqueue_reserve_mp()): the producer index is loaded, the
 * consumer's index read after a read barrier, and the producer index loaded
 * again into a local of its own and compared: a consistent pair of indexes
 * before a compare-and-swap of the producer index, not a read section. */
struct mp_ring {
	unsigned int p_head;
	unsigned int c_head;
	unsigned int mask;
};
bool mp_ring_reserve(struct mp_ring *r, unsigned int *ticket)
{
	unsigned int producer, consumer, fresh;

	producer = READ_ONCE(r->p_head);
	for (;;) {
		smp_rmb();
		consumer = READ_ONCE(r->c_head);
		if (producer - consumer < r->mask) {
			if (__sync_val_compare_and_swap(&r->p_head, producer, producer + 1) == producer)
				break;
			producer = READ_ONCE(r->p_head);
		} else {
			smp_rmb();
			fresh = READ_ONCE(r->p_head);
			if (producer == fresh)
				return false;
			producer = fresh;
		}
	}
	*ticket = producer;
	return true;
}

/* Concurrency Kit's ck_ht (src/ck_ht.c): a deletion version that the
 * garbage collector bumps around moving an entry (odd in between), and that
 * lookups snapshot twice, into two locals, to re-probe after a concurrent
 * move. Each slot is ordered on its own (key published last); the lookup
 * never needs an even count. */
struct vtable {
	unsigned long deletions;
	unsigned long key[8];
	unsigned long value[8];
};
void vtable_move(struct vtable *t, int from, int to)
{
	WRITE_ONCE(t->deletions, t->deletions + 1);
	smp_wmb();
	WRITE_ONCE(t->value[to], t->value[from]);
	smp_wmb();
	WRITE_ONCE(t->key[to], t->key[from]);
	smp_wmb();
	WRITE_ONCE(t->deletions, t->deletions + 1);
	smp_wmb();
	WRITE_ONCE(t->key[from], 0);
}
unsigned long vtable_get(struct vtable *t, unsigned long k)
{
	unsigned long d, d2, v;
	int i;

again:
	for (i = 0; i < 8; i++) {
		d = READ_ONCE(t->deletions);
		if (READ_ONCE(t->key[i]) != k)
			continue;
		smp_rmb();
		v = READ_ONCE(t->value[i]);
		d2 = READ_ONCE(t->deletions);
		if (d != d2)
			goto again;
		return v;
	}
	return 0;
}
