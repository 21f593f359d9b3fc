// RUN: %clang_plugin -fsyntax-only -Xclang -verify %s -Xclang -plugin-arg-seqlint -Xclang checks=*
/*
 * Helpers seen through (issue 13, item 2): begin, end, lock and retry
 * helpers of the TU are summarised into what they do to sections, locks and
 * ordering, and each call gets that effect in the caller's terms. The
 * finding is reported at the call, with a note inside the helper. Counters
 * are named `tick`, `w` and `e` on purpose.
 */
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

struct page_data {
	unsigned int tick;
	unsigned long a, b, c;
};

/* --- a write-begin helper without its smp_wmb() ------------------------ */

static inline void pd_begin_nobarrier(struct page_data *p)
{
	WRITE_ONCE(p->tick, p->tick + 1); // expected-note {{inside 'pd_begin_nobarrier': WRITE_ONCE() (called at the place above)}}
}

static inline void pd_end(struct page_data *p)
{
	smp_wmb();
	WRITE_ONCE(p->tick, p->tick + 1);
}

void pd_update_bad(struct page_data *p, unsigned long a, unsigned long b)
{
	pd_begin_nobarrier(p); // expected-note {{the write section of 'p->tick' begins here}}
	p->a = a; // expected-warning {{store to 'p->a' is not ordered after the odd increment of seqcount 'p->tick'}}
	p->b = b;
	pd_end(p);
}

/* The same with the barrier in the begin helper: nothing to report. */
static inline void pd_begin(struct page_data *p)
{
	WRITE_ONCE(p->tick, p->tick + 1);
	smp_wmb();
}

void pd_update_good(struct page_data *p, unsigned long a, unsigned long b)
{
	pd_begin(p);
	p->a = a;
	p->b = b;
	pd_end(p);
}

/* --- begin and retry helpers, through an argument of another type ------- */

struct hdr { unsigned int w; };
struct clock_src { struct hdr h; unsigned long t, m; };

static inline unsigned int hdr_begin(const struct hdr *h)
{
	unsigned int w;

	while ((w = READ_ONCE(h->w)) & 1) // expected-note {{inside 'hdr_begin': READ_ONCE()}}
		;
	smp_rmb();
	return w;
}

static inline int hdr_retry_norb(const struct hdr *h, unsigned int start)
{
	return READ_ONCE(h->w) != start; // expected-note {{inside 'hdr_retry_norb': READ_ONCE()}}
}

static inline int hdr_retry(const struct hdr *h, unsigned int start)
{
	smp_rmb();
	return READ_ONCE(h->w) != start;
}

unsigned long clock_read_bad(struct clock_src *c)
{
	unsigned int w;
	unsigned long t;

	do {
		w = hdr_begin(&c->h);
		t = c->t + c->m; // expected-note {{this load can be satisfied after the recheck}}
	} while (hdr_retry_norb(&c->h, w)); // expected-warning {{recheck of seqcount 'c->h.w' is not ordered after the data loads}}
	return t;
}

unsigned long clock_read_good(struct clock_src *c)
{
	unsigned int w;
	unsigned long t;

	do {
		w = hdr_begin(&c->h);
		t = c->t + c->m;
	} while (hdr_retry(&c->h, w));
	return t;
}

/* A begin from a helper, never validated. */
unsigned long clock_peek_bad(struct clock_src *c)
{
	unsigned int w;

	w = hdr_begin(&c->h); // expected-warning {{the value of hdr_begin() on 'c->h.w' is never validated}} expected-note {{never validated}}
	return READ_ONCE(c->t);
}

/* Returned to a caller that validates it: fine. */
unsigned int clock_begin_for_caller(struct clock_src *c)
{
	unsigned int w = hdr_begin(&c->h);
	return w;
}

/* --- lock-and-begin helpers: an early return leaves the section open ---- */

struct epoch_lock { unsigned int e; };
struct timers {
	struct epoch_lock lk;
	spinlock_t lock;
	long start, bias;
};

static inline void tl_write_lock(struct epoch_lock *l, spinlock_t *s)
{
	spin_lock(s);
	WRITE_ONCE(l->e, l->e + 1); // expected-note {{inside 'tl_write_lock'}}
	smp_wmb();
}

static inline void tl_write_unlock(struct epoch_lock *l, spinlock_t *s)
{
	smp_wmb();
	WRITE_ONCE(l->e, l->e + 1);
	spin_unlock(s);
}

void timers_warp_bad(struct timers *ts, long now)
{
	tl_write_lock(&ts->lk, &ts->lock); // expected-note {{write section begins here with tl_write_lock()}}
	if (ts->start != -1 && ts->start <= now)
		return; // expected-warning {{write section of 'ts->lk.e' is still open when the function returns here}}
	ts->start = now;
	tl_write_unlock(&ts->lk, &ts->lock);
}

void timers_warp_good(struct timers *ts, long now)
{
	tl_write_lock(&ts->lk, &ts->lock);
	if (ts->start != -1 && ts->start <= now) {
		tl_write_unlock(&ts->lk, &ts->lock);
		return;
	}
	ts->start = now;
	tl_write_unlock(&ts->lk, &ts->lock);
}

/* --- not seen through ------------------------------------------------------ */

/* A complete section of its own: its callers see a call, and a caller with
 * a finding-free body stays silent. */
static void pd_set(struct page_data *p, unsigned long a)
{
	pd_begin(p);
	p->a = a;
	pd_end(p);
}

void pd_twice(struct page_data *p)
{
	pd_set(p, 1);
	pd_set(p, 2);
}

/* A helper whose begin runs on some paths only is not one event list. */
static inline void pd_maybe_begin(struct page_data *p, int c)
{
	if (c)
		WRITE_ONCE(p->tick, p->tick + 1);
}

void pd_maybe(struct page_data *p, int c)
{
	pd_maybe_begin(p, c);
	p->c = 1;
}

/* Recursion (self and mutual) is cut, and stays silent. */
static void rec_a(struct page_data *p, int n);
static void rec_b(struct page_data *p, int n)
{
	WRITE_ONCE(p->tick, p->tick + 1);
	if (n)
		rec_a(p, n - 1);
}
static void rec_a(struct page_data *p, int n)
{
	rec_b(p, n);
	rec_a(p, n);
}
void rec_entry(struct page_data *p)
{
	rec_a(p, 3);
}
