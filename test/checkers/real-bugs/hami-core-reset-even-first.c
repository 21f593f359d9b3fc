// Real bug: HAMi-core, PR #242 (review of clear_proc_slot_atomic): a process
// slot in shared memory is protected by an open-coded seqlock. The memory
// accounting writers bump the count to odd, update the per-device usage with
// atomics, and bump it back to even; lockless readers retry on an odd or
// changed count. The slot-clearing helper first stored 0 (an even, "stable"
// count) into the seqlock and only then cleared the usage fields, so a
// concurrent reader could see an unchanged even count around a half-cleared
// slot and sum stale and zeroed values. The fields are _Atomic and cleared
// with relaxed atomic stores: no data race, the bug is the protocol.
//
// Caught by access-plain-shared, whose seqcount-data rule covers marked
// stores too: data written inside the count's write sections elsewhere, stored
// here outside any write section. (seqcount-write-missing-barrier does not see
// it: the clearing function never increments the count, so it has no section.)
// Fixed shape: clear the fields inside a write section (odd before, even after).
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,access-plain-shared -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <stdatomic.h>
#include <stdint.h>

#define NDEV 16

struct dev_usage {
	_Atomic uint64_t total;
	_Atomic uint64_t data_size;
};

struct proc_slot {
	_Atomic int32_t pid;
	_Atomic uint64_t seqlock;
	struct dev_usage used[NDEV];
};

/* Writer: odd, update, even. */
void add_usage(struct proc_slot *slot, int dev, uint64_t n)
{
	atomic_fetch_add_explicit(&slot->seqlock, 1, memory_order_acq_rel);
	atomic_fetch_add_explicit(&slot->used[dev].total, n, memory_order_release);
	atomic_fetch_add_explicit(&slot->used[dev].data_size, n, memory_order_release);
	atomic_fetch_add_explicit(&slot->seqlock, 1, memory_order_release);
}

/* Reader: retry while odd or changed. */
uint64_t slot_usage(struct proc_slot *slot, int dev)
{
	uint64_t s1, s2, total;

	do {
		s1 = atomic_load_explicit(&slot->seqlock, memory_order_acquire);
		while (s1 & 1)
			s1 = atomic_load_explicit(&slot->seqlock, memory_order_acquire);
		total = atomic_load_explicit(&slot->used[dev].total, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&slot->seqlock, memory_order_relaxed);
	} while (s1 != s2);
	return total;
}

/* ---- buggy: the count is made even first, the data cleared afterwards ---- */
void clear_slot(struct proc_slot *slot)
{
	atomic_store_explicit(&slot->seqlock, 0, memory_order_relaxed);
	atomic_store_explicit(&slot->pid, 0, memory_order_release); // expected-warning {{store to 'slot->pid' outside a write section, but it is written inside write sections of 'slot->seqlock' in clear_slot_fixed()}}
	for (int dev = 0; dev < NDEV; dev++) {
		atomic_store_explicit(&slot->used[dev].total, 0, memory_order_relaxed); // expected-warning {{store to 'slot->used[].total' outside a write section, but it is written inside write sections of 'slot->seqlock' in add_usage(): a reader can see this store with an unchanged even count and use a half-updated snapshot}}
		atomic_store_explicit(&slot->used[dev].data_size, 0, memory_order_relaxed); // expected-warning {{store to 'slot->used[].data_size' outside a write section}}
	}
}

/* ---- fixed: the clears are a write section of their own ---- */
void clear_slot_fixed(struct proc_slot *slot)
{
	atomic_fetch_add_explicit(&slot->seqlock, 1, memory_order_acq_rel);
	atomic_store_explicit(&slot->pid, 0, memory_order_release);
	for (int dev = 0; dev < NDEV; dev++) {
		atomic_store_explicit(&slot->used[dev].total, 0, memory_order_relaxed);
		atomic_store_explicit(&slot->used[dev].data_size, 0, memory_order_relaxed);
	}
	atomic_fetch_add_explicit(&slot->seqlock, 1, memory_order_release);
}
