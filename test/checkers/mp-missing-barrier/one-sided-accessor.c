// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only %s 2>&1 | FileCheck %s
/*
 * A byte queue whose positions live in a wrapper type and are reached only
 * through accessor functions: `word_get(&q->wpos)` returns the integer,
 * `word_set(&q->wpos, v)` stores it. This is how PostgreSQL keeps its
 * shared-memory message queue (pg_atomic_uint64 and
 * pg_atomic_read_u64()/pg_atomic_write_u64(), declared on volatile memory),
 * and how atomic_t, rte_atomic32_t and friends look from the outside. The
 * writer copies bytes into the ring at `pos % size` and then moves the
 * write position on through the setter: without a write barrier before
 * the store, a reader in another process can see the new position and read
 * old bytes. Written for seqlint; no project's code.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define compiler_fence()	__asm__ __volatile__("" ::: "memory")
#define write_fence()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define full_fence()		__atomic_thread_fence(__ATOMIC_SEQ_CST)

typedef struct { volatile uint64_t v; } shared_word;

static inline uint64_t word_get(volatile shared_word *w) { return w->v; }
static inline void word_set(volatile shared_word *w, uint64_t x) { w->v = x; }

struct byteq {
	shared_word rpos;
	shared_word wpos;
	size_t size;
	char data[];
};

extern void kick_reader(struct byteq *q);

/* --- the bug: bytes, then the position, with no write fence ----------------- */
size_t put_bytes(struct byteq *q, const void *src, size_t n)
{
	uint64_t w = word_get(&q->wpos);
	uint64_t r = word_get(&q->rpos);
	uint64_t end = w + n;
	size_t off, room = q->size - (size_t)(w - r);

	if (n > room)
		return 0;
	off = w % q->size;
	full_fence(); /* the read of rpos before the copy */
	memcpy(&q->data[off], src, n);
	word_set(&q->wpos, end); // expected-warning {{'q->wpos.v' is published here after the store to 'q->data[]' with no write barrier in between}}
	kick_reader(q);
	return n;
}
// CHECK: one-sided-accessor.c:[[@LINE-4]]:{{.*}}warning: 'q->wpos.v' is published here
// CHECK: note: inside 'word_set'
// CHECK: note: the store to 'q->data[]' is here
// CHECK: note: shared with the other side: an atomic or volatile store

/* The position read back through the accessor in the store itself. */
size_t put_bytes_step(struct byteq *q, const void *src, size_t n)
{
	uint64_t w = word_get(&q->wpos);
	size_t off = w % q->size;

	memcpy(&q->data[off], src, n);
	word_set(&q->wpos, word_get(&q->wpos) + n); // expected-warning {{'q->wpos.v' is published here after the store to 'q->data[]'}}
	return n;
}

/* --- the fixes -------------------------------------------------------------- */
size_t put_bytes_ok(struct byteq *q, const void *src, size_t n)
{
	uint64_t w = word_get(&q->wpos);
	uint64_t end = w + n;
	size_t off = w % q->size;

	memcpy(&q->data[off], src, n);
	write_fence(); /* the bytes before the position: pairs with the reader */
	word_set(&q->wpos, end);
	kick_reader(q);
	return n;
}

size_t put_bytes_step_ok(struct byteq *q, const void *src, size_t n)
{
	uint64_t w = word_get(&q->wpos);
	size_t off = w % q->size;

	memcpy(&q->data[off], src, n);
	write_fence();
	word_set(&q->wpos, word_get(&q->wpos) + n);
	return n;
}

/* --- not a ring position ------------------------------------------------------ */
/* A byte count kept beside the data, set to a total computed elsewhere: not
 * a position that moves on from its own value. */
struct logbuf {
	shared_word total;
	char text[256];
};

void log_put(struct logbuf *l, const char *s, size_t n, uint64_t grand_total)
{
	memcpy(&l->text[grand_total % 256], s, n);
	word_set(&l->total, grand_total);
}

/* A wrapper whose accessors do not say "volatile": a private tally, no
 * evidence that another agent reads it. */
typedef struct { uint64_t v; } tally;
static inline uint64_t tally_get(tally *t) { return __atomic_load_n(&t->v, __ATOMIC_RELAXED); }
static inline void tally_set(tally *t, uint64_t x) { __atomic_store_n(&t->v, x, __ATOMIC_RELAXED); }

struct histo {
	tally n;
	unsigned bucket[64];
};

void histo_add(struct histo *h, unsigned value)
{
	h->bucket[value % 64]++;
	tally_set(&h->n, tally_get(&h->n) + 1);
}

/* --- not a consumer handing a slot back ------------------------------------ */
/* A lock-free group list: a process links itself in with CAS after a look at
 * the leader's entry (PostgreSQL's clog group update). The local `next`
 * first holds the list head; only the later walk loads the link field into
 * it, so the entry it addressed was no position of `link`. */
#define NONE 0xffffffffu
typedef struct { volatile uint32_t v; } word32;
static inline uint32_t w32_get(volatile word32 *w) { return w->v; }
static inline void w32_set(volatile word32 *w, uint32_t x) { w->v = x; }
static inline int w32_cas(volatile word32 *w, uint32_t *old, uint32_t x)
{
	return __atomic_compare_exchange_n(&w->v, old, x, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

struct member { int page; word32 link; uint32_t no; int done; };
struct group { word32 head; struct member *all; };

int group_join(struct group *g, struct member *me, int page)
{
	uint32_t next;

	me->page = page;
	next = w32_get(&g->head);
	for (;;) {
		if (next != NONE && g->all[next].page != me->page) {
			w32_set(&me->link, NONE);
			return 0;
		}
		w32_set(&me->link, next);
		if (w32_cas(&g->head, &next, me->no))
			break;
	}
	while (next != NONE) {
		struct member *m = &g->all[next];
		m->done = 1;
		next = w32_get(&m->link);
	}
	return 1;
}

/* A reader's own cursor, volatile for longjmp's sake, moved on after a page
 * looked up by a function of its page number (PostgreSQL's LISTEN queue):
 * the buffer slot the function returns is not a position of the cursor. */
struct cursor { int page; int offset; };
struct pages { char *buf[8]; };
extern int lookup_page(struct pages *p, int pageno);

static int cursor_advance(volatile struct cursor *cur, int len)
{
	int pageno = cur->page;
	int offset = cur->offset + len;
	int jump = 0;

	if (offset > 4000) {
		pageno++;
		offset = 0;
		jump = 1;
	}
	cur->page = pageno;
	cur->offset = offset;
	return jump;
}

int read_entries(struct pages *p, volatile struct cursor *cur, int len)
{
	int curpage = cur->page;
	int slot = lookup_page(p, curpage);
	char *page = p->buf[slot];
	int n = page[cur->offset];

	cursor_advance(cur, len);
	return n;
}

/* --- accessors two deep ------------------------------------------------------ */
/* The position moved by a helper that calls the setter and the getter
 * (advance() -> word_set(), word_get()): the setter's value is the helper's
 * expression, and the helper's parameters are the caller's arguments. */
static inline void wpos_advance(struct byteq *q, uint64_t n)
{
	word_set(&q->wpos, word_get(&q->wpos) + n);
}

size_t put_bytes_nested(struct byteq *q, const void *src, size_t n)
{
	uint64_t w = word_get(&q->wpos);

	memcpy(&q->data[w % q->size], src, n);
	wpos_advance(q, n); // expected-warning {{'q->wpos.v' is published here after the store to 'q->data[]'}}
	return n;
}
// CHECK: one-sided-accessor.c:[[@LINE-3]]:{{.*}}warning: 'q->wpos.v' is published here

size_t put_bytes_nested_ok(struct byteq *q, const void *src, size_t n)
{
	uint64_t w = word_get(&q->wpos);

	memcpy(&q->data[w % q->size], src, n);
	write_fence();
	wpos_advance(q, n);
	return n;
}
