// RUN: %clang_plugin -fplugin-arg-seqlint-checks=* -fsyntax-only -Xclang -verify %s
/*
 * A count bumped inside two calls is no write section that spans them. The
 * shape is an epoch library's regression test: each test function enters a
 * read-side section, queues a deferred callback (which bumps the record's
 * count of pending callbacks), leaves the section (a marked store of the
 * record's active flag) and stops on a failed check with a function that
 * does not return. main() runs the tests one after the other, so it meets
 * "bump, store, ..., bump" through its calls; the stores after a bump belong
 * to the test that made it. A writer whose begin and end helpers bump the
 * count around stores of the caller's is still a writer, and its missing
 * barriers are still reported.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

extern void fail(const char *why) __attribute__((noreturn));

struct entry {
	struct entry *next;
	void (*fn)(struct entry *);
};

struct record {
	unsigned int active;
	unsigned int n_pending;
	struct entry *pending[4];
};

static struct record rec;
static unsigned int global_epoch;

static void queue_call(struct record *r, struct entry *e, void (*fn)(struct entry *))
{
	unsigned int epoch = READ_ONCE(global_epoch);

	r->n_pending++;
	e->fn = fn;
	e->next = r->pending[epoch & 3];
	r->pending[epoch & 3] = e;
}

static void section_begin(struct record *r)
{
	WRITE_ONCE(r->active, r->active + 1);
	smp_mb();
}

static int section_end(struct record *r)
{
	smp_mb();
	WRITE_ONCE(r->active, r->active - 1);
	return r->active == 0;
}

static void done(struct entry *e)
{
	(void)e;
}

/* Correct: one test, its own bump and its own section. */
static void test_single(void)
{
	struct entry e;

	section_begin(&rec);
	queue_call(&rec, &e, done);
	if (!section_end(&rec))
		fail("expected no more sections");
}

/* Correct: another test, the same shape. */
static void test_again(void)
{
	struct entry e;

	if (rec.n_pending > 1)
		fail("too many pending callbacks");
	section_begin(&rec);
	queue_call(&rec, &e, done);
	if (!section_end(&rec))
		fail("expected no more sections");
}

int main(void)
{
	test_single();
	test_again();
	return 0;
}

/* Bug: a real writer with begin and end helpers; the end has no barrier. */
struct stat {
	unsigned int seq;
	unsigned long packets;
	unsigned long bytes;
};

static void stat_begin(struct stat *s)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	smp_wmb();
}

static void stat_end(struct stat *s)
{
	WRITE_ONCE(s->seq, s->seq + 1); // expected-note {{inside 'stat_end': WRITE_ONCE() (called at the place above)}}
}

void stat_add(struct stat *s, unsigned long len)
{
	stat_begin(s);
	s->packets++;
	s->bytes += len; // expected-note {{this store can become visible after the closing increment}}
	stat_end(s); // expected-warning {{closing increment of seqcount 's->seq' is not ordered after the data stores}}
}

unsigned long stat_read(struct stat *s)
{
	unsigned int seq;
	unsigned long v;

	do {
		seq = READ_ONCE(s->seq);
		smp_rmb();
		v = s->bytes;
		smp_rmb();
	} while (seq & 1 || READ_ONCE(s->seq) != seq);
	return v;
}
