// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A consumer that counts the producer's entries with READ_ONCE() and then
 * reads the slots at its own position, each slot with READ_ONCE() too (the
 * kernel's side of a ring that user space fills: io_uring's SQ before it
 * used smp_load_acquire() for the tail). The kernel's READ_ONCE() is a
 * statement expression; the slot it reads is still a slot of the ring.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct sq_hdr { u32 head, tail; };
struct sq_ctx { struct sq_hdr *hdr; u32 *array; u32 entries, cached_head; };

extern void take(u32 idx);

static inline u32 sq_pending(struct sq_ctx *c)
{
	return READ_ONCE(c->hdr->tail) - c->cached_head;
}

static inline u32 sq_pending_acquire(struct sq_ctx *c)
{
	return smp_load_acquire(&c->hdr->tail) - c->cached_head;
}

void sq_drain(struct sq_ctx *c)
{
	u32 n = sq_pending(c); // expected-warning {{'c->array[]' is read after 'c->hdr->tail' is loaded and tested, with no read barrier}}

	while (n--) {
		u32 slot = c->cached_head++ & (c->entries - 1);

		take(READ_ONCE(c->array[slot]));
	}
	smp_store_release(&c->hdr->head, c->cached_head);
}

void sq_drain_ok(struct sq_ctx *c)
{
	u32 n = sq_pending_acquire(c);

	while (n--) {
		u32 slot = c->cached_head++ & (c->entries - 1);

		take(READ_ONCE(c->array[slot]));
	}
	smp_store_release(&c->hdr->head, c->cached_head);
}
