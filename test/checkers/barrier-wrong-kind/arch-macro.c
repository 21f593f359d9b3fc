// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,barrier-wrong-kind -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,barrier-wrong-kind -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,barrier-wrong-kind -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=SECTION
/*
 * A project's own barrier macros, defined per architecture: on x86 (where
 * this test is compiled) each is only a compiler barrier, and the branch for
 * arm64, POWER or RISC-V says what it orders. seqlint reads the branches the
 * preprocessor skipped: the weakest barrier instruction among them is what
 * the macro asks for. A consumer that reads its slots through a helper and
 * then hands them back after a store->store barrier lets the producer
 * overwrite a slot that is still being read on arm64. Written for seqlint;
 * the shape is that of a userspace ring mapped from the kernel (AF_XDP's
 * completion ring), not any project's code.
 */
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
# define q_rmb()	__asm__ __volatile__("" ::: "memory")
# define q_wmb()	__asm__ __volatile__("" ::: "memory")
# define q_rwmb()	__asm__ __volatile__("" ::: "memory")
# define q_cbar()	__asm__ __volatile__("" ::: "memory")
#elif defined(__aarch64__)
# define q_rmb()	__asm__ __volatile__("dmb ishld" ::: "memory")
# define q_wmb()	__asm__ __volatile__("dmb ishst" ::: "memory")
# define q_rwmb()	__asm__ __volatile__("dmb ish" ::: "memory")
# define q_cbar()	__asm__ __volatile__("" ::: "memory")
#elif defined(__powerpc64__)
# define q_rmb()	__asm__ __volatile__("lwsync" ::: "memory")
# define q_wmb()	__asm__ __volatile__("lwsync" ::: "memory")
# define q_rwmb()	__asm__ __volatile__("lwsync" ::: "memory")
# define q_cbar()	__asm__ __volatile__("" ::: "memory")
#elif defined(__riscv)
# define q_rmb()	__asm__ __volatile__("fence r,r" \
					     ::: "memory")
# define q_wmb()	__asm__ __volatile__("fence w,w" ::: "memory")
# define q_rwmb()	__asm__ __volatile__("fence rw,rw" ::: "memory")
# define q_cbar()	__asm__ __volatile__("" ::: "memory")
#else
# define q_rmb()	__sync_synchronize()
# define q_wmb()	__sync_synchronize()
# define q_rwmb()	__sync_synchronize()
# define q_cbar()	__sync_synchronize()
#endif

struct mq {
	uint32_t cached_prod, cached_cons, mask;
	uint32_t *producer;	/* mapped: the kernel stores it */
	uint32_t *consumer;	/* mapped: we store it */
	void *ring;
};

struct stash { uint64_t *addrs; uint32_t n; };

static inline const uint64_t *entry(const struct mq *q, uint32_t i)
{
	const uint64_t *a = (const uint64_t *)q->ring;

	return &a[i & q->mask];
}

static inline uint32_t take(struct mq *q, uint32_t max, uint32_t *at)
{
	uint32_t n = q->cached_prod - q->cached_cons;

	if (n == 0) {
		q->cached_prod = *(volatile uint32_t *)q->producer;
		n = q->cached_prod - q->cached_cons;
	}
	if (n > max)
		n = max;
	if (n) {
		q_rmb();
		*at = q->cached_cons;
		q->cached_cons += n;
	}
	return n;
}

static inline void give_back_wmb(struct mq *q, uint32_t n)
{
	q_wmb();
	*(volatile uint32_t *)q->consumer = *q->consumer + n;
}

static inline void give_back_rwmb(struct mq *q, uint32_t n)
{
	q_rwmb();
	*(volatile uint32_t *)q->consumer = *q->consumer + n;
}

/* Bug: a store->store barrier (dmb ishst on arm64) between the slot loads
 * and the store that hands the slots back. The slots go to a private stack:
 * a store into another object's array is no producer's. */
uint32_t drain_wmb(struct mq *q, struct stash *s)
{
	uint32_t at = 0, n, i;

	n = take(q, 32, &at);
	for (i = 0; i < n; i++)
		s->addrs[s->n++] = *entry(q, at + i);
	if (n)
		give_back_wmb(q, n); // expected-warning {{orders stores only}}
	return n;
}
// CHECK: arch-macro.c:[[@LINE-3]]:3: warning: give_back_wmb() orders stores only: the load of '*entry(...)' before it is not ordered against the store to '*(q->consumer)' after it
// CHECK: note: inside 'give_back_wmb': q_wmb()

/* Correct: the read-to-write barrier (dmb ish; lwsync) orders the loads. */
uint32_t drain_rwmb(struct mq *q, struct stash *s)
{
	uint32_t at = 0, n, i;

	n = take(q, 32, &at);
	for (i = 0; i < n; i++)
		s->addrs[s->n++] = *entry(q, at + i);
	if (n)
		give_back_rwmb(q, n);
	return n;
}

/* Correct: the same through a local slot pointer and an inline barrier. */
uint32_t drain_local(struct mq *q, struct stash *s)
{
	uint32_t at = 0, n, i;

	n = take(q, 32, &at);
	for (i = 0; i < n; i++) {
		const uint64_t *e = entry(q, at + i);
		s->addrs[s->n++] = *e;
	}
	if (n) {
		q_rwmb();
		*(volatile uint32_t *)q->consumer = *q->consumer + n;
	}
	return n;
}

/* Correct: a macro that is a compiler barrier in every branch but the
 * generic one is that branch's __sync_synchronize(), a full barrier. */
uint32_t drain_generic(struct mq *q, struct stash *s)
{
	uint32_t at = 0, n, i;

	n = take(q, 32, &at);
	for (i = 0; i < n; i++)
		s->addrs[s->n++] = *entry(q, at + i);
	if (n) {
		q_cbar();
		*(volatile uint32_t *)q->consumer = *q->consumer + n;
	}
	return n;
}

/* A seqcount written with the project's barriers: the read barrier after
 * the odd increment orders no store (the message suggests a C11 fence; the
 * project's macro has no API entry to rename). The reader's is right. */
struct snap { volatile uint32_t seq; uint64_t a, b; };

void snap_write_rmb(struct snap *s, uint64_t x)
{
	s->seq++;
	q_rmb(); // expected-warning {{q_rmb() inside the write section of 's->seq' does not order stores}}
	s->a = x;
	s->b = x;
	q_wmb();
	s->seq++;
}
// SECTION: arch-macro.c:[[@LINE-6]]:2: warning: q_rmb() inside the write section of 's->seq' does not order stores{{.*}}use atomic_thread_fence(memory_order_release)

void snap_write(struct snap *s, uint64_t x)
{
	s->seq++;
	q_wmb();
	s->a = x;
	s->b = x;
	q_wmb();
	s->seq++;
}

uint64_t snap_read(struct snap *s)
{
	uint32_t q;
	uint64_t a, b;

	do {
		q = s->seq;
		q_rmb();
		a = s->a;
		b = s->b;
		q_rmb();
	} while ((q & 1) || q != s->seq);
	return a + b;
}
// CHECK-NOT: warning:
