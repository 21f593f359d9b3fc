// Modelled on: QEMU util/qht.c:qht_insert__locked() and qht_lookup_custom() (QEMU 9.x),
//   with seqlock_write_begin()/_end() on the bucket open-coded.
// The bucket's odd/even word is `stamp`; writers hold the bucket lock, lookups are
// lockless and retry on a changed stamp. After making `stamp` odd the insert path uses
// smp_rmb() -- in QEMU an acquire fence -- where seqlock_write_begin() has smp_wmb():
// an acquire fence after a store orders nothing for the stores that follow, so the new
// hash/pointer can be seen by a lookup that also sees the old even stamp.
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

/* include/qemu/atomic.h */
#define barrier()		({ asm volatile("" ::: "memory"); (void)0; })
#define smp_mb_release()	({ barrier(); __atomic_thread_fence(__ATOMIC_RELEASE); })
#define smp_mb_acquire()	({ barrier(); __atomic_thread_fence(__ATOMIC_ACQUIRE); })
#define smp_wmb()		smp_mb_release()
#define smp_rmb()		smp_mb_acquire()
#define qatomic_read(ptr)	__atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_set(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)
#define qatomic_inc(ptr)	((void)__atomic_fetch_add(ptr, 1, __ATOMIC_SEQ_CST))
#define qatomic_rcu_set(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELEASE)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define QHT_BUCKET_ENTRIES	4

typedef bool (*qht_cmp_func_t)(const void *a, const void *b);

struct qht_bucket {
	int lock;
	unsigned stamp;
	uint32_t hashes[QHT_BUCKET_ENTRIES];
	void *pointers[QHT_BUCKET_ENTRIES];
	struct qht_bucket *next;
};

struct qht_map {
	struct qht_bucket *buckets;
	size_t n_buckets;
	size_t n_added_buckets;
};

struct qht {
	struct qht_map *map;
	qht_cmp_func_t cmp;
};

struct qht_bucket *qht_bucket_alloc(void);
bool qht_map_needs_resize(const struct qht_map *map);

/* call with head->lock held */
static void *qht_insert__locked(const struct qht *ht, struct qht_map *map,
				struct qht_bucket *head, void *p, uint32_t hash,
				bool *needs_resize)
{
	struct qht_bucket *b = head;
	struct qht_bucket *prev = NULL;
	struct qht_bucket *new = NULL;
	int i;

	do {
		for (i = 0; i < QHT_BUCKET_ENTRIES; i++) {
			if (b->pointers[i]) {
				if (unlikely(b->hashes[i] == hash &&
					     ht->cmp(b->pointers[i], p)))
					return b->pointers[i];
			} else {
				goto found;
			}
		}
		prev = b;
		b = b->next;
	} while (b);

	b = qht_bucket_alloc();
	new = b;
	i = 0;
	qatomic_inc(&map->n_added_buckets);
	if (unlikely(qht_map_needs_resize(map)) && needs_resize)
		*needs_resize = true;

found:
	/* found an empty key: enter the write section */
	qatomic_set(&head->stamp, head->stamp + 1);
	smp_rmb(); /* EXPECT: seqlint-barrier-wrong-kind */
	if (new)
		qatomic_rcu_set(&prev->next, b);
	qatomic_set(&b->hashes[i], hash);
	qatomic_set(&b->pointers[i], p);
	smp_wmb();
	qatomic_set(&head->stamp, head->stamp + 1);
	return NULL;
}

void *qht_insert_bucket(const struct qht *ht, struct qht_bucket *head, void *p,
			uint32_t hash)
{
	bool needs_resize = false;

	return qht_insert__locked(ht, ht->map, head, p, hash, &needs_resize);
}
