// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: a new entry is filled and pushed onto its
 * hash chain with a compare-and-swap on the chain's head slot. The readers
 * load the head slot with an acquire and take no lock, so the CAS that
 * makes the entry reachable must be a release; a relaxed one lets a reader
 * follow the pointer into unwritten fields.
 * Modelled on concurrencykit include/ck_stack.h:ck_stack_push_upmc()
 * (ck_pr_fence_store() before the CAS) and on userspace-rcu's
 * cds_lfht add path, written with GCC __atomic builtins.
 */
#include <stddef.h>
#include <stdlib.h>

struct entry {
	struct entry *next;
	unsigned long key;
	long val;
};

struct chains {
	unsigned long mask;
	struct entry **heads;
};

long chains_get(struct chains *c, unsigned long key)
{
	struct entry *e = __atomic_load_n(&c->heads[key & c->mask], __ATOMIC_ACQUIRE);

	for (; e; e = __atomic_load_n(&e->next, __ATOMIC_ACQUIRE))
		if (e->key == key)
			return e->val;
	return -1;
}

int chains_add(struct chains *c, unsigned long key, long val)
{
	struct entry **slot = &c->heads[key & c->mask];
	struct entry *e = malloc(sizeof(*e)), *old;

	if (!e)
		return -1;
	e->key = key;
	e->val = val;
	old = __atomic_load_n(slot, __ATOMIC_RELAXED);
	do {
		e->next = old;
	} while (!__atomic_compare_exchange_n(slot, &old, e, 0, __ATOMIC_RELAXED, // expected-warning {{'*slot' is published here after the store to 'e->next' with no write barrier in between}}
					      __ATOMIC_RELAXED));
	return 0;
}

int chains_add_ok(struct chains *c, unsigned long key, long val)
{
	struct entry **slot = &c->heads[key & c->mask];
	struct entry *e = malloc(sizeof(*e)), *old;

	if (!e)
		return -1;
	e->key = key;
	e->val = val;
	old = __atomic_load_n(slot, __ATOMIC_RELAXED);
	do {
		e->next = old;
	} while (!__atomic_compare_exchange_n(slot, &old, e, 0, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	return 0;
}

/* A table whose readers take a lock (no acquire anywhere): the CAS only
 * serialises writers, and the readers' lock orders the rest. */
struct locked_chains {
	unsigned long mask;
	struct entry **heads;
};

extern void table_lock(void);
extern void table_unlock(void);

long locked_get(struct locked_chains *c, unsigned long key)
{
	struct entry *e;
	long v = -1;

	table_lock();
	for (e = c->heads[key & c->mask]; e; e = e->next)
		if (e->key == key)
			v = e->val;
	table_unlock();
	return v;
}

int locked_add(struct locked_chains *c, unsigned long key, long val)
{
	struct entry **slot = &c->heads[key & c->mask];
	struct entry *e = malloc(sizeof(*e)), *old;

	if (!e)
		return -1;
	e->key = key;
	e->val = val;
	old = __atomic_load_n(slot, __ATOMIC_RELAXED);
	do {
		e->next = old;
	} while (!__atomic_compare_exchange_n(slot, &old, e, 0, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return 0;
}
