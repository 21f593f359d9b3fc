// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-odd-unchecked: a reader that waits for one particular count.
 * A slot of a lossy ring is stamped 2*lap+1 while its writer fills it and
 * 2*lap+2 once it is full; a reader knows which lap it expects and takes
 * the slot only when the stamp equals that (even) value. Equality with an
 * even value rules out an odd count as surely as `seq & 1` does, and so do
 * `seq < want` and `seq > want` both leaving. Equality with a value of
 * unknown parity, one side of the range only, or no test at all, do not.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define NSLOT 32u

struct slot {
	_Atomic uint32_t stamp;
	_Atomic uint32_t v[4];
};

struct board {
	struct slot slot[NSLOT];
};

/* ---- correct ---- */

/* Taken only when the stamp is the expected (even) value, inline. */
bool take_equal_inline(struct board *b, uint32_t ticket, uint32_t *out)
{
	struct slot *s = &b->slot[ticket % NSLOT];
	uint32_t lap = ticket / NSLOT;
	uint32_t st;

	st = atomic_load_explicit(&s->stamp, memory_order_acquire);
	if (st != 2 * lap + 2)
		return false;
	out[0] = atomic_load_explicit(&s->v[0], memory_order_relaxed);
	out[1] = atomic_load_explicit(&s->v[1], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&s->stamp, memory_order_relaxed) == st;
}

/* The expected value in a local; below it is "not yet", above it "lapped". */
int take_between(struct board *b, uint32_t ticket, uint32_t *out)
{
	struct slot *s = &b->slot[ticket % NSLOT];
	uint32_t expect = 2 * (ticket / NSLOT) + 2;
	uint32_t st, again;

	st = atomic_load_explicit(&s->stamp, memory_order_relaxed);
	if (st < expect)
		return 0;
	if (st > expect)
		return -1;
	atomic_thread_fence(memory_order_acquire);
	out[0] = atomic_load_explicit(&s->v[0], memory_order_relaxed);
	out[1] = atomic_load_explicit(&s->v[1], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	again = atomic_load_explicit(&s->stamp, memory_order_relaxed);
	if (again != st)
		return -1;
	return 1;
}

/* The section runs inside the equal branch; the lap shifted, not doubled. */
bool take_in_branch(struct board *b, uint32_t ticket, uint32_t *out)
{
	struct slot *s = &b->slot[ticket % NSLOT];
	uint32_t full = ((ticket / NSLOT) << 1) + 2;
	uint32_t st;
	bool ok = false;

	st = atomic_load_explicit(&s->stamp, memory_order_acquire);
	if (st == full) {
		out[0] = atomic_load_explicit(&s->v[0], memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		ok = atomic_load_explicit(&s->stamp, memory_order_relaxed) == st;
	}
	return ok;
}

/* A retry loop waiting for a target with its low bit masked off; the
 * bounds are `<=`/`>=` and the target changes only by even steps. */
uint32_t take_masked_target(struct board *b, uint32_t stamp_hint)
{
	struct slot *s = &b->slot[0];
	uint32_t target = stamp_hint & ~1u;
	uint32_t st, v;

	for (;;) {
		st = atomic_load_explicit(&s->stamp, memory_order_acquire);
		if (st >= target && st <= target) {
			v = atomic_load_explicit(&s->v[0], memory_order_relaxed);
			atomic_thread_fence(memory_order_acquire);
			if (atomic_load_explicit(&s->stamp, memory_order_relaxed) == st)
				return v;
		}
		target += 2;
	}
}

/* ---- bugs ---- */

/* Equal to what the caller says, but nothing says that is even. */
bool bug_equal_unknown(struct board *b, uint32_t ticket, uint32_t expect, uint32_t *out)
{
	struct slot *s = &b->slot[ticket % NSLOT];
	uint32_t st;

	st = atomic_load_explicit(&s->stamp, memory_order_acquire); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
	if (st != expect)
		return false;
	out[0] = atomic_load_explicit(&s->v[0], memory_order_relaxed);
	out[1] = atomic_load_explicit(&s->v[1], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&s->stamp, memory_order_relaxed) == st;
}

/* The same reader with no test of the stamp at all. */
bool bug_no_test(struct board *b, uint32_t ticket, uint32_t *out)
{
	struct slot *s = &b->slot[ticket % NSLOT];
	uint32_t st;

	st = atomic_load_explicit(&s->stamp, memory_order_acquire); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
	out[0] = atomic_load_explicit(&s->v[0], memory_order_relaxed);
	out[1] = atomic_load_explicit(&s->v[1], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&s->stamp, memory_order_relaxed) == st;
}

/* Only "not yet" leaves: a stamp above the expected value may be odd. */
int bug_one_side(struct board *b, uint32_t ticket, uint32_t *out)
{
	struct slot *s = &b->slot[ticket % NSLOT];
	uint32_t expect = 2 * (ticket / NSLOT) + 2;
	uint32_t st, again;

	st = atomic_load_explicit(&s->stamp, memory_order_relaxed); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
	if (st < expect)
		return 0;
	atomic_thread_fence(memory_order_acquire);
	out[0] = atomic_load_explicit(&s->v[0], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	again = atomic_load_explicit(&s->stamp, memory_order_relaxed);
	if (again != st)
		return -1;
	return 1;
}

/* The local is even on one path only: one past the lap is odd. */
bool bug_local_not_even(struct board *b, uint32_t ticket, bool writing, uint32_t *out)
{
	struct slot *s = &b->slot[ticket % NSLOT];
	uint32_t expect = 2 * (ticket / NSLOT) + 2;
	uint32_t st;

	if (writing)
		expect = 2 * (ticket / NSLOT) + 1;
	st = atomic_load_explicit(&s->stamp, memory_order_acquire); // expected-warning {{[seqlint-seqcount-read-odd-unchecked]}}
	if (st != expect)
		return false;
	out[0] = atomic_load_explicit(&s->v[0], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&s->stamp, memory_order_relaxed) == st;
}
