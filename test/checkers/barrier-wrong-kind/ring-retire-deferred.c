// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A ring consumer split into API calls, the way a library exposes it: one
 * call reads the next record at the consumer's position and advances the
 * position (kept in a field); a later call hands everything read so far
 * back by storing that position into the shared tail. The producer's head
 * is loaded with an acquire, so the control page is shared with another
 * agent. The store that hands the records back must come after their
 * loads: smp_wmb() orders stores only; smp_store_release() or smp_mb() is
 * needed.
 *
 * Modelled on tools/lib/perf/mmap.c (perf_mmap__read_event(),
 * perf_mmap__consume()) and tools/include/linux/ring_buffer.h
 * (ring_buffer_write_tail(): smp_store_release()), Linux 6.12, with the
 * record read inlined and other names.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct ctl_page {
	u64 head;		/* the producer's */
	u64 tail;		/* the consumer's */
};

struct rec { u32 type; u32 len; };

struct reader {
	struct ctl_page *ctl;
	unsigned char *data;
	u64 mask;
	u64 pos, end;
};

static inline u64 ctl_read_head(struct ctl_page *c)
{
	return smp_load_acquire(&c->head);
}

static inline void ctl_write_tail_wmb(struct ctl_page *c, u64 tail)
{
	smp_wmb();
	WRITE_ONCE(c->tail, tail);
}

int reader_begin(struct reader *r)
{
	r->end = ctl_read_head(r->ctl);
	return r->end == r->pos ? -1 : 0;
}

const struct rec *reader_next(struct reader *r)
{
	const struct rec *e;

	if (r->end - r->pos < sizeof(*e))
		return 0;
	e = (const struct rec *)&r->data[r->pos & r->mask];
	if (e->len < sizeof(*e))
		return 0;
	r->pos += e->len;
	return e;
}

void reader_done(struct reader *r)
{
	ctl_write_tail_wmb(r->ctl, r->pos); // expected-warning {{smp_wmb() orders stores only}}
}

/* The same with a store-release: right. */
struct reader2 {
	struct ctl_page *ctl;
	unsigned char *data;
	u64 mask;
	u64 pos, end;
};

int reader2_begin(struct reader2 *r)
{
	r->end = smp_load_acquire(&r->ctl->head);
	return r->end == r->pos ? -1 : 0;
}

u32 reader2_next(struct reader2 *r)
{
	u32 t = r->data[r->pos & r->mask];

	r->pos += 8;
	return t;
}

void reader2_done(struct reader2 *r)
{
	smp_store_release(&r->ctl->tail, r->pos);
}

/* A producer: the position indexes slot stores, the barrier orders them
 * before the head store (smp_wmb() is right). */
struct writer {
	struct ctl_page *ctl;
	unsigned char *data;
	u64 mask;
	u64 pos;
};

u64 writer_space(struct writer *w)
{
	return smp_load_acquire(&w->ctl->tail) + w->mask + 1 - w->pos;
}

void writer_put(struct writer *w, unsigned char b)
{
	w->data[w->pos & w->mask] = b;
	w->pos++;
}

void writer_commit(struct writer *w)
{
	smp_wmb();
	WRITE_ONCE(w->ctl->head, w->pos);
}

/* No acquire of a sibling index: nothing says another agent reads the
 * tail (a statistics snapshot). */
struct stats_cursor {
	u64 seen;
	u64 shown;
};

struct stats_reader {
	struct stats_cursor *cur;
	u32 *hist;
	u64 mask;
	u64 pos;
};

u32 stats_next(struct stats_reader *s)
{
	u32 v = s->hist[s->pos & s->mask];

	s->pos++;
	return v;
}

void stats_done(struct stats_reader *s)
{
	smp_wmb();
	WRITE_ONCE(s->cur->shown, s->pos);
}
