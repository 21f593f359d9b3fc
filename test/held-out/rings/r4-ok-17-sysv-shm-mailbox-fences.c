// Modelled on: the fence-based seqlock of H.-J. Boehm, "Can seqlocks get along with
//              programming language memory models?" (MSPC 2012), and C11 7.17.4 fence
//              synchronisation, used as a lossy mailbox in a System V shared-memory
//              segment (shmget() + shmat()) (C11)
// Correct: one writer process, several reader processes; each slot has a sequence word
// (odd while being written, even when full) and a payload of relaxed atomics.
// - Writer: store the odd sequence (relaxed), release fence, payload stores (relaxed),
//   release fence, store the even sequence (relaxed).
// - Reader: load the sequence (relaxed); if the slot is full for the reader's lap,
//   acquire fence, payload loads (relaxed), acquire fence, re-load the sequence
//   (relaxed) and discard the copy if it changed.
// The first acquire fence synchronises with the writer's second release fence (the
// relaxed load read the even sequence stored after it), so the payload loads see the
// complete record. If a payload load instead read a store of a later write, the
// writer's first release fence synchronises with the reader's second acquire fence,
// so the re-load sees that write's odd sequence (or later) and the copy is discarded.
// Readers never store to the segment; the writer waits for nobody (a slow reader is
// lapped and counts the loss).
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MBOX_SLOTS	64u
#define MBOX_WORDS	14u

struct mbox_slot {
	_Atomic uint64_t seq;			/* 2*lap+1 while writing, 2*lap+2 when full */
	_Atomic uint64_t word[MBOX_WORDS];
};

struct mbox {					/* at the start of the shmat() mapping */
	uint32_t magic;
	uint32_t nslots;
	struct mbox_slot slot[MBOX_SLOTS];
};

struct mbox_writer { struct mbox *m; uint64_t next; };
struct mbox_reader { struct mbox *m; uint64_t next; uint64_t lost; };

void mbox_put(struct mbox_writer *w, const uint64_t *words)
{
	uint64_t n = w->next++;
	struct mbox_slot *s = &w->m->slot[n % MBOX_SLOTS];
	uint64_t lap = n / MBOX_SLOTS;
	unsigned int i;

	/* odd: a reader that sees this discards the slot */
	atomic_store_explicit(&s->seq, 2 * lap + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	for (i = 0; i < MBOX_WORDS; i++)
		atomic_store_explicit(&s->word[i], words[i], memory_order_relaxed);
	/* payload before the "full" sequence */
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->seq, 2 * lap + 2, memory_order_relaxed);
}

/* 1: a record, 0: nothing new, -1: the writer lapped us (skipped ahead) */
int mbox_get(struct mbox_reader *r, uint64_t *words)
{
	struct mbox_slot *s = &r->m->slot[r->next % MBOX_SLOTS];
	uint64_t want = 2 * (r->next / MBOX_SLOTS) + 2;
	uint64_t seq, seq2;
	unsigned int i;

	seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
	if (seq < want)
		return 0;
	if (seq > want) {
		r->next += MBOX_SLOTS;
		r->lost++;
		return -1;
	}
	/* the "full" sequence before the payload */
	atomic_thread_fence(memory_order_acquire);
	for (i = 0; i < MBOX_WORDS; i++)
		words[i] = atomic_load_explicit(&s->word[i], memory_order_relaxed);
	/* the payload before the re-check */
	atomic_thread_fence(memory_order_acquire);
	seq2 = atomic_load_explicit(&s->seq, memory_order_relaxed);
	if (seq2 != seq) {
		r->next += MBOX_SLOTS;
		r->lost++;
		return -1;
	}
	r->next++;
	return 1;
}
