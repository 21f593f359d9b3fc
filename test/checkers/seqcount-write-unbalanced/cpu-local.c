// RUN: %clang_plugin -fplugin-arg-seqlint-checks=* -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A count whose readers run on the writer's CPU: a page shared with the task
 * it describes, updated from an interrupt on that task's CPU, the shape of
 * perf's self-monitoring page. The writer brackets its stores with
 * compiler barriers only -- `++w->seq; barrier(); ... barrier(); ++w->seq;`
 * -- and the reader, the task itself, never sees an odd count (the writer's
 * section is atomic with respect to it) and needs only barrier() too. That
 * bracket is what makes the word a count, whatever it is called: a path
 * that returns between the two increments leaves it odd for good. Written
 * for seqlint.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <asm/barrier.h>

struct self_page {
	u32 word;
	u32 slot;
	u64 base;
	u64 scale;
};

struct counter_src {
	struct self_page *page;
	int hw;
	u64 base;
};

u64 read_scale(struct counter_src *s);

static inline void page_open(struct self_page *p)
{
	++p->word;
	barrier();
}

static inline void page_close(struct self_page *p)
{
	barrier();
	++p->word;
}

/* The bug: a bail-out added between the two increments. */
void page_update_bad(struct counter_src *s)
{
	struct self_page *p = s->page;

	preempt_disable();
	page_open(p);
	p->slot = s->hw + 1;
	if (!s->hw) {
		preempt_enable();
		return; // expected-warning {{write section of 'p->word' is still open when the function returns here}}
	}
	p->base = s->base;
	p->scale = read_scale(s);
	page_close(p);
	preempt_enable();
}

/* Correct: the same bracket, open-coded, every path closes it. No check
 * asks for smp_wmb(): barrier() is the ordering meant. */
void page_update(struct counter_src *s)
{
	struct self_page *p = s->page;

	preempt_disable();
	++p->word;
	barrier();
	p->slot = s->hw + 1;
	if (s->hw)
		p->base = s->base;
	p->scale = read_scale(s);
	barrier();
	++p->word;
	preempt_enable();
}

/* The reader, on the same CPU: barrier() and no odd test. */
int page_read(const struct self_page *p, u64 *base, u64 *scale)
{
	u32 w, slot;

	do {
		w = READ_ONCE(p->word);
		barrier();
		slot = READ_ONCE(p->slot);
		*base = READ_ONCE(p->base);
		*scale = READ_ONCE(p->scale);
		barrier();
	} while (READ_ONCE(p->word) != w);
	return slot;
}

/* Not a count: two statistics bumps around a store, no barrier at all. */
struct stats {
	unsigned long events;
	unsigned long last;
};

void stats_note(struct stats *st, unsigned long v)
{
	st->events++;
	st->last = v;
	if (v > 100)
		return;
	st->events++;
}

/* Mixed: smp_wmb() after the opening increment, a compiler barrier before
 * the closing one. The writer orders for another CPU on one side only. */
void page_update_mixed(struct counter_src *s)
{
	struct self_page *p = s->page;

	++p->word;
	smp_wmb();
	p->slot = s->hw + 1;
	p->base = s->base;
	barrier();
	++p->word; // expected-warning {{closing increment of seqcount 'p->word' is not ordered after the data stores}}
}
