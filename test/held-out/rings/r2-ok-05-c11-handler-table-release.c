// Modelled on: userspace-rcu include/urcu/pointer.h:rcu_set_pointer()/rcu_dereference()
//              as used for handler tables, written with C11 <stdatomic.h> (liburcu 0.14)
// Pattern: a userspace dispatcher with a fixed table of handler descriptors. Plugins
//   register at run time from a loader thread while worker threads keep dispatching.
//   Registration fills a descriptor and stores its pointer in the table slot, fixed:
//   with memory_order_release.
// The other side is the worker threads (and, through the same code, plugin threads
// built in other files). They load the slot with memory_order_acquire and call
// through fn/ctx/flags. The acquire on the reader side pairs with nothing, because
// the writer's relaxed store is not a release. So the descriptor's fields may still
// be invisible when the pointer is seen. The store must be memory_order_release.
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <errno.h>

#define MAX_OPCODES	256

typedef int (*handler_fn)(void *ctx, const void *msg, size_t len);

struct handler {
	handler_fn fn;
	void *ctx;
	uint32_t flags;
	uint32_t min_len;
	const char *name;
};

struct dispatcher {
	_Atomic(struct handler *) table[MAX_OPCODES];
	_Atomic uint64_t unknown;
};

int dispatcher_register(struct dispatcher *d, uint8_t op, const char *name,
			handler_fn fn, void *ctx, uint32_t flags, uint32_t min_len)
{
	struct handler *h;

	if (atomic_load_explicit(&d->table[op], memory_order_relaxed))
		return -EEXIST;
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->fn = fn;
	h->ctx = ctx;
	h->flags = flags;
	h->min_len = min_len;
	h->name = name;

	/* only the loader thread registers, so no CAS is needed */
	atomic_store_explicit(&d->table[op], h, memory_order_release);
	return 0;
}

int dispatcher_dispatch(struct dispatcher *d, uint8_t op, const void *msg, size_t len)
{
	struct handler *h = atomic_load_explicit(&d->table[op], memory_order_acquire);

	if (!h) {
		atomic_fetch_add_explicit(&d->unknown, 1, memory_order_relaxed);
		return -ENOENT;
	}
	if (len < h->min_len)
		return -EINVAL;
	return h->fn(h->ctx, msg, len);
}
