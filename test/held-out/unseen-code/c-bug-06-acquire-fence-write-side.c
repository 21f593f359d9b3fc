// Modelled on: Dat3M benchmarks/locks/seqlock-6.c and bdemsky/cdschecker-benchmarks
//   seqlock (CAS to an odd value to enter the write section, fetch_add to leave it),
//   C11; fence kinds after H. Boehm's C11 seqlock writer (release fence after the CAS).
// A configuration slot with several fields and concurrent writers: a writer claims
// the section by CAS-ing the word `owner_word` from even to odd, then issues an acquire
// fence before the field stores. An acquire fence orders earlier LOADS before later
// accesses; it does not keep the later relaxed field stores from becoming visible
// before the odd value (the CAS is relaxed). A reader can see a new field with the old
// even word. It has to be a release fence.
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

struct cfg_slot {
	atomic_uint owner_word;
	_Atomic uint32_t flags;
	_Atomic uint32_t timeout_ms;
	_Atomic uint64_t cookie;
};

static inline void cpu_pause(void)
{
	__builtin_ia32_pause();
}

void cfg_slot_write(struct cfg_slot *s, uint32_t flags, uint32_t timeout_ms, uint64_t cookie)
{
	unsigned int old;

	for (;;) {
		old = atomic_load_explicit(&s->owner_word, memory_order_relaxed);
		if (old & 1) {
			cpu_pause();
			continue;
		}
		if (atomic_compare_exchange_strong_explicit(&s->owner_word, &old, old + 1,
							    memory_order_relaxed,
							    memory_order_relaxed))
			break;
	}
	atomic_thread_fence(memory_order_acquire); /* EXPECT: seqlint-barrier-wrong-kind */

	atomic_store_explicit(&s->flags, flags, memory_order_relaxed);
	atomic_store_explicit(&s->timeout_ms, timeout_ms, memory_order_relaxed);
	atomic_store_explicit(&s->cookie, cookie, memory_order_relaxed);

	atomic_fetch_add_explicit(&s->owner_word, 1, memory_order_release);
}

bool cfg_slot_read(struct cfg_slot *s, uint32_t *flags, uint32_t *timeout_ms, uint64_t *cookie)
{
	unsigned int g;

	g = atomic_load_explicit(&s->owner_word, memory_order_acquire);
	if (g & 1)
		return false;
	*flags = atomic_load_explicit(&s->flags, memory_order_relaxed);
	*timeout_ms = atomic_load_explicit(&s->timeout_ms, memory_order_relaxed);
	*cookie = atomic_load_explicit(&s->cookie, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&s->owner_word, memory_order_relaxed) == g;
}
