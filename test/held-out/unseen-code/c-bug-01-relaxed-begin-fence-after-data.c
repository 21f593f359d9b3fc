// Modelled on: msullivan/rmc-compiler case_studies/seqlock_c11.hpp (SeqLock::read_lock/
//   read_unlock/write_lock/write_unlock, after H. Boehm, "Can Seqlocks Get Along with
//   Programming Language Memory Models?", MSPC 2012), rewritten as C11.
// A quote cache: a market-data thread writes bid/ask/size, strategy threads copy them.
// The reader loads the counter `sc` relaxed (read_lock() uses acquire) and relies on
// the acquire fence placed after the data loads. That fence orders the data loads
// before the recheck, but nothing orders the first load of `sc` before the data loads:
// they can be satisfied first, from an older update, while `sc` is read from a newer
// even value and matches the recheck. Reported at the first data load.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

struct quote {
	atomic_uint sc;
	_Atomic int64_t bid;
	_Atomic int64_t ask;
	_Atomic uint32_t bid_size;
	_Atomic uint32_t ask_size;
};

struct quote_copy {
	int64_t bid, ask;
	uint32_t bid_size, ask_size;
};

static inline void cpu_pause(void)
{
	__builtin_ia32_pause();
}

void quote_read(struct quote *q, struct quote_copy *out)
{
	unsigned int s;

	for (;;) {
		s = atomic_load_explicit(&q->sc, memory_order_relaxed);
		if (s & 1) {
			cpu_pause();
			continue;
		}
		out->bid = atomic_load_explicit(&q->bid, memory_order_relaxed); /* EXPECT: seqlint-seqcount-read-missing-barrier */
		out->ask = atomic_load_explicit(&q->ask, memory_order_relaxed);
		out->bid_size = atomic_load_explicit(&q->bid_size, memory_order_relaxed);
		out->ask_size = atomic_load_explicit(&q->ask_size, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&q->sc, memory_order_relaxed) == s)
			return;
	}
}

/* single writer (the feed handler thread) */
void quote_update(struct quote *q, int64_t bid, int64_t ask, uint32_t bsz, uint32_t asz)
{
	unsigned int s = atomic_load_explicit(&q->sc, memory_order_relaxed);

	atomic_store_explicit(&q->sc, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&q->bid, bid, memory_order_relaxed);
	atomic_store_explicit(&q->ask, ask, memory_order_relaxed);
	atomic_store_explicit(&q->bid_size, bsz, memory_order_relaxed);
	atomic_store_explicit(&q->ask_size, asz, memory_order_relaxed);
	atomic_store_explicit(&q->sc, s + 2, memory_order_release);
}
