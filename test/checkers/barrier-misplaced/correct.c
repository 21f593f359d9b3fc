// barrier-misplaced, correct code: barriers between the accesses they order,
// and shapes this function alone cannot judge.
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-misplaced' -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

struct msg {
	int a, b;
	int ready;
	unsigned long gen;
	unsigned long state;
	seqcount_t seq;
	spinlock_t lock;
};

static inline int test_bit(long nr, const volatile unsigned long *addr)
{
	return 1UL & (*addr >> nr);
}
void notify(struct msg *m);

/* The kernel idioms: wmb between data and flag, rmb between flag and data. */
void send(struct msg *m, int a, int b)
{
	m->a = a;
	m->b = b;
	smp_wmb();
	WRITE_ONCE(m->ready, 1);
}

int recv(struct msg *m)
{
	if (!READ_ONCE(m->ready))
		return 0;
	smp_rmb();
	return m->a + m->b;
}

/* Fill helper: the caller publishes (plain stores only before the barrier). */
void fill(struct msg *m, int a, int b)
{
	m->a = a;
	m->b = b;
	smp_wmb();
}

/* A flag store, then the barrier, then more stores it orders. */
void two_step(struct msg *m, int a)
{
	m->a = a;
	WRITE_ONCE(m->ready, 1);
	smp_wmb();
	WRITE_ONCE(m->gen, 2);
}

/* Only the flag store before the barrier: nothing to publish here. */
void flag_only(struct msg *m)
{
	WRITE_ONCE(m->ready, 1);
	smp_wmb();
}

/* A call after the barrier may store. */
void then_notify(struct msg *m, int a)
{
	m->a = a;
	WRITE_ONCE(m->ready, 1);
	smp_wmb();
	notify(m);
}

/* The flag read before the barrier is read again first after it: the
 * barrier orders the flag against the data. */
int recheck_first(struct msg *m)
{
	if (!test_bit(0, &m->state))
		return 0;
	smp_rmb();
	if (test_bit(1, &m->state))
		return m->a;
	return m->b;
}

/* The barrier between the two loads of the pair (the btrfs fix). */
int check_fixed(struct msg *m, unsigned long gen)
{
	if (!test_bit(0, &m->state))
		return 0;
	if (READ_ONCE(m->gen) == gen) {
		smp_rmb();
		if (test_bit(1, &m->state))
			return 1;
	}
	return 0;
}

/* Fresh loads of other objects after the barrier. */
int other_object(struct msg *m, struct msg *n)
{
	if (!READ_ONCE(m->ready))
		return 0;
	smp_rmb();
	return n->a && READ_ONCE(m->ready);
}

/* A barrier at the start: the first load is in the caller. */
int starts_with_rmb(struct msg *m)
{
	smp_rmb();
	return m->a && READ_ONCE(m->ready);
}

/* Seqcount reader with barriers in a loop. */
int seq_read(struct msg *m)
{
	unsigned int s;
	int a;

	do {
		s = read_seqcount_begin(&m->seq);
		a = m->a;
	} while (read_seqcount_retry(&m->seq, s));
	return a;
}

/* Seqcount writer, open-coded. */
void seq_write(struct msg *m, int a)
{
	m->gen++;
	smp_wmb();
	m->a = a;
	smp_wmb();
	m->gen++;
}

/* fs/netfs/write_collect.c: a loop back to a label before the barrier; the
 * loads of the previous round are not "before" the barrier in this sense. */
struct req {
	unsigned long long issued_to, collected_to;
	int origin;
};

int collect(struct req *r)
{
	unsigned long long issued, collected;
	int rounds = 0;

again:
	issued = READ_ONCE(r->issued_to);
	smp_rmb();
	collected = r->origin == 1 ? issued : 0;
	if (READ_ONCE(r->collected_to) < collected && ++rounds < 3)
		goto again;
	return rounds;
}

/* A lock after the barrier: the critical section may store. */
void then_lock(struct msg *m, int a)
{
	m->a = a;
	WRITE_ONCE(m->ready, 1);
	smp_wmb();
	spin_lock(&m->lock);
	m->b = 1;
	spin_unlock(&m->lock);
}

/* An unlock, then a store the barrier orders after the flag. */
void unlock_then_store(struct msg *m, int a)
{
	spin_lock(&m->lock);
	m->a = a;
	WRITE_ONCE(m->ready, 1);
	smp_wmb();
	spin_unlock(&m->lock);
	WRITE_ONCE(m->gen, 1);
}

/* n_tty: the producer's index is read before each buffer read, and each
 * buffer read has its own smp_rmb() (in a helper): the second read of the
 * index starts the next round, it does not recheck this one. */
struct echo { unsigned int commit; unsigned char buf[64]; };

static inline unsigned char echo_at(struct echo *e, unsigned int i)
{
	smp_rmb();
	return e->buf[i & 63];
}

int echo_two(struct echo *e, unsigned int tail)
{
	unsigned char op, arg;

	if (e->commit == tail + 1)
		return -1;
	op = echo_at(e, tail + 1);
	if (e->commit == tail + 2)
		return -1;
	arg = echo_at(e, tail + 2);
	return op + arg;
}

/* ring_buffer: the re-read after the barrier is arithmetic, not a test. */
struct iter { unsigned long head, stamp, next; };

unsigned long iter_next(struct iter *it, unsigned long *page_stamp)
{
	if (it->head > 4096)
		return 0;
	smp_rmb();
	if (it->stamp != *page_stamp)
		return 0;
	it->next = it->head + 8;
	return it->next;
}

/* Marked stores of lockless variables (each read on its own), then a
 * trailing fence for the caller's next store: Concurrency Kit's
 * ck_hs_map_bound_set(). */
void bound_set(struct msg *m, int n)
{
	if (n > READ_ONCE(m->a))
		WRITE_ONCE(m->a, n);
	WRITE_ONCE(m->b, n);
	smp_wmb();
}

/* The node is linked in with an exchange (a publication of its own), then
 * its next pointer, then a trailing fence: ck_stack_push_mpnc(). */
struct node { struct node *next; };
struct lstack { struct node *head; };
void lstack_push(struct lstack *s, struct node *e)
{
	struct node *old = __atomic_exchange_n(&s->head, e, __ATOMIC_RELAXED);

	WRITE_ONCE(e->next, old);
	smp_wmb();
}

/* A hazard-pointer queue (Concurrency Kit's ck_hp_fifo_dequeue_mpmc()):
 * head, read fence, tail, then the head is published as a hazard with a
 * full-barrier exchange before the head is loaded again. The exchange goes
 * to the caller's record on its stack, yet it orders the tail load before
 * the re-read: the read fence is where it belongs. Seen through helpers. */
struct hrec { void *slot[2]; };
struct hq { struct node *head, *tail; };
static inline void hazard_set(struct hrec *r, int i, void *p)
{
	__atomic_exchange_n(&r->slot[i], p, __ATOMIC_SEQ_CST);
}
static inline struct node *hq_peek(struct hrec *r, struct hq *q)
{
	struct node *head, *tail;

	head = READ_ONCE(q->head);
	smp_rmb();
	tail = READ_ONCE(q->tail);
	hazard_set(r, 0, head);
	if (head != READ_ONCE(q->head))
		return 0;
	return head == tail ? 0 : head;
}
struct hq shared_q;
struct node *hq_worker(void)
{
	struct hrec rec = {{0, 0}};

	return hq_peek(&rec, &shared_q);
}
