// REQUIRES: ck-headers
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,access-plain-shared -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * access-plain-shared on a single-producer hash table (issue 14).
 *
 * Modelled on Concurrency Kit 0.7.1's src/ck_ht.c: one writer, many
 * lockless readers. A version number (`moves`) is bumped by the writer
 * around a slot that moves, and readers compare it before and after a
 * probe. The entry count sits next to it:
 *  - the writer grows the table by building a new map (from a helper that
 *    allocates it through the table's allocator hooks) and counting its
 *    entries plainly before the map is published: not shared yet;
 *  - the count is stored with ck_pr_store_64() outside a version bracket
 *    (it is also stored inside one, where a slot moves), and readers read
 *    it only on its own (ht_count()), never inside a probe validated by
 *    the version: a lockless variable of its own, not data of the
 *    version's snapshot.
 */
#include <ck_pr.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hooks {
	void *(*malloc)(size_t);
	void (*free)(void *, size_t, bool);
};

struct slot {
	void *key;
	void *value;
};

struct hmap {
	uint64_t moves;
	uint64_t count;
	uint64_t limit;
	uint64_t mask;
	struct slot *slots;
};

struct htable {
	struct hmap *map;
	struct hooks *mem;
};

static struct hmap *hmap_make(struct htable *t, uint64_t n)
{
	struct hmap *m = t->mem->malloc(sizeof(*m) + n * sizeof(struct slot));

	if (m == NULL)
		return NULL;
	m->moves = 0;
	m->count = 0;
	m->limit = n / 2;
	m->mask = n - 1;
	m->slots = (struct slot *)(m + 1);
	return m;
}

/* Reader: a probe validated by the version number. */
void *ht_get(struct htable *t, void *key, uint64_t h)
{
	struct hmap *m;
	uint64_t v1, v2;
	void *val;

	do {
		m = ck_pr_load_ptr(&t->map);
		v1 = ck_pr_load_64(&m->moves);
		ck_pr_fence_load();
		val = NULL;
		if (ck_pr_load_ptr(&m->slots[h & m->mask].key) == key)
			val = ck_pr_load_ptr(&m->slots[h & m->mask].value);
		if (ck_pr_load_64(&m->limit) == 0)
			val = NULL;
		ck_pr_fence_load();
		v2 = ck_pr_load_64(&m->moves);
	} while (v1 != v2);
	return val;
}

/* Reader: the count on its own. */
uint64_t ht_count(struct htable *t)
{
	struct hmap *m = ck_pr_load_ptr(&t->map);

	return ck_pr_load_64(&m->count);
}

/* Writer: a slot moves inside a version bracket; the count and the limit
 * change there too. */
void ht_move(struct hmap *m, uint64_t from, uint64_t to)
{
	ck_pr_store_64(&m->moves, m->moves + 1);
	ck_pr_fence_store();
	ck_pr_store_ptr(&m->slots[to].value, m->slots[from].value);
	ck_pr_store_ptr(&m->slots[to].key, m->slots[from].key);
	ck_pr_store_ptr(&m->slots[from].key, NULL);
	ck_pr_store_64(&m->count, m->count + 1);
	ck_pr_store_64(&m->limit, m->limit - 1);
	ck_pr_fence_store();
	ck_pr_store_64(&m->moves, m->moves + 1);
}

/* ---- correct ---- */

/* Writer: a new entry inside a bracket of its own; the count is stored
 * after it. */
bool ht_put(struct htable *t, void *key, void *value, uint64_t h)
{
	struct hmap *m = t->map;
	struct slot *s = &m->slots[h & m->mask];

	if (s->key != NULL)
		return false;
	ck_pr_store_64(&m->moves, m->moves + 1);
	ck_pr_fence_store();
	ck_pr_store_ptr(&s->value, value);
	ck_pr_store_ptr(&s->key, key);
	ck_pr_fence_store();
	ck_pr_store_64(&m->moves, m->moves + 1);
	ck_pr_store_64(&m->count, m->count + 1);
	return true;
}

/* Writer: a bigger map is filled before it is published. */
bool ht_grow(struct htable *t)
{
	struct hmap *old = t->map, *bigger;
	uint64_t i;

	bigger = hmap_make(t, (old->mask + 1) * 2);
	if (bigger == NULL)
		return false;
	for (i = 0; i <= old->mask; i++) {
		struct slot *s = &old->slots[i];

		if (s->key == NULL)
			continue;
		bigger->slots[i] = *s;
		bigger->count++;
	}
	ck_pr_fence_store();
	ck_pr_store_ptr(&t->map, bigger);
	t->mem->free(old, 0, true);
	return true;
}

/* ---- bugs nearby ---- */

/* The published map's count, updated plainly. */
void ht_recount(struct htable *t)
{
	struct hmap *m = t->map;

	m->count++; // expected-warning {{plain read-modify-write of 'm->count' outside any write section}}
}

/* The limit is read inside the readers' validated probe: stored outside a
 * bracket, a reader can validate a snapshot with a half-updated limit. */
void ht_set_limit(struct htable *t, uint64_t limit)
{
	struct hmap *m = t->map;

	ck_pr_store_64(&m->limit, limit); // expected-warning {{store to 'm->limit' outside a write section}}
}
