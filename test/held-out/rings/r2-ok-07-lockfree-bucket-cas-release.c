// Modelled on: concurrencykit include/ck_stack.h:ck_stack_push_upmc() (a CAS push onto
//              a list head) used as a hash-bucket insert, in GCC __atomic form (ck 0.7)
// Pattern: an insert-only lock-free hash map in userspace (a symbol or string-intern
//   table, in the style of concurrencykit ck_ht / userspace-RCU rculfhash). A new
//   node is pushed onto its bucket with a GCC __atomic compare-and-swap. Fixed: its
//   success order is __ATOMIC_RELEASE.
// The other side is any thread calling map_find(), in this library or in the
// application that links it, with no lock. It loads the bucket head with
// __ATOMIC_ACQUIRE and reads key/len/value/next of each node. The node was filled
// just before the CAS, and the CAS that makes it reachable must be a release.
// Otherwise a finder can match on a half-written key or follow a garbage next
// pointer.
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct node {
	struct node *next;
	uint64_t hash;
	size_t len;
	void *value;
	char key[];
};

struct map {
	size_t nbuckets;		/* power of two, fixed */
	struct node **buckets;
	uint64_t (*hashfn)(const char *, size_t);
};

void *map_find(struct map *m, const char *key, size_t len)
{
	uint64_t h = m->hashfn(key, len);
	struct node *n = __atomic_load_n(&m->buckets[h & (m->nbuckets - 1)],
					 __ATOMIC_ACQUIRE);

	for (; n; n = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE))
		if (n->hash == h && n->len == len && !memcmp(n->key, key, len))
			return n->value;
	return NULL;
}

/* Returns the value now stored under key (ours, or a racing inserter's). */
void *map_insert(struct map *m, const char *key, size_t len, void *value)
{
	uint64_t h = m->hashfn(key, len);
	struct node **bucket = &m->buckets[h & (m->nbuckets - 1)];
	struct node *n, *head;
	void *found;

	found = map_find(m, key, len);
	if (found)
		return found;

	n = malloc(sizeof(*n) + len);
	if (!n)
		return NULL;
	n->hash = h;
	n->len = len;
	n->value = value;
	memcpy(n->key, key, len);

	head = __atomic_load_n(bucket, __ATOMIC_RELAXED);
	do {
		n->next = head;
	} while (!__atomic_compare_exchange_n(bucket, &head, n, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return value;
}
