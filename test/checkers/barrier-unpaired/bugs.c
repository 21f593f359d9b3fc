// RUN: %clang_plugin -fplugin-arg-seqlint-checks=barrier-unpaired -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * barrier-unpaired: one side of a message-passing pair orders the shared
 * data with a barrier, a release or an acquire; the other side, in another
 * function of the same TU, has nothing -- the barrier has no partner.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/types.h>

/* Writer has smp_wmb(), reader has no smp_rmb(). */
struct req {
	int status;
	long result;
	int done;
};

void req_complete(struct req *r, int status, long result)
{
	r->status = status;
	r->result = result;
	/* Pairs with smp_rmb() in req_poll(). */
	smp_wmb(); // expected-note {{write-side smp_wmb() in 'req_complete()' is here}} expected-note {{its comment says it pairs with smp_rmb() in 'req_poll()'}}
	WRITE_ONCE(r->done, 1);
}

long req_poll(struct req *r)
{
	if (!READ_ONCE(r->done)) // expected-warning {{'r->result' is read after 'r->done' with no read barrier, acquire or address dependency, but its writer in 'req_complete()' publishes it with smp_wmb(): that ordering has no partner here; use smp_load_acquire() for this load or put smp_rmb() after it [seqlint-barrier-unpaired]}}
		return -1;
	return r->status ? r->status : r->result;
}

/* Writer releases the flag, reader has nothing. */
struct slot {
	int val;
	int full;
};

void slot_put(struct slot *s, int v)
{
	s->val = v;
	smp_store_release(&s->full, 1); // expected-note {{write-side smp_store_release() in 'slot_put()' is here}}
}

int slot_get(struct slot *s)
{
	int full = READ_ONCE(s->full); // expected-warning {{'s->val' is read after 's->full' with no read barrier, acquire or address dependency, but its writer in 'slot_put()' publishes it with smp_store_release()}}

	return full ? s->val : -1;
}

/* Reader has smp_rmb(), writer has no smp_wmb(). */
struct buf {
	int data[16];
	int len;
	bool valid;
};

void buf_fill(struct buf *b, int v)
{
	b->data[0] = v;
	b->len = 1;
	WRITE_ONCE(b->valid, true); // expected-warning {{'b->valid' is published here after the store to 'b->len' with no write barrier in between, but its reader in 'buf_peek()' orders its loads with smp_rmb(): that ordering has no partner here; use smp_store_release() for this store or put smp_wmb() before it [seqlint-barrier-unpaired]}}
}

int buf_peek(struct buf *b)
{
	bool valid = READ_ONCE(b->valid);

	if (!valid)
		return -1;
	smp_rmb(); // expected-note {{read-side smp_rmb() in 'buf_peek()' is here}}
	return b->len ? b->data[0] : 0;
}

/* Reader acquires the flag, writer has nothing. */
static int cfg_value;
static int cfg_valid;

void cfg_set(int v)
{
	cfg_value = v;
	WRITE_ONCE(cfg_valid, 1); // expected-warning {{'cfg_valid' is published here after the store to 'cfg_value' with no write barrier in between, but its reader in 'cfg_get()' orders its loads with smp_load_acquire()}}
}

int cfg_get(void)
{
	if (smp_load_acquire(&cfg_valid))
		return cfg_value;
	return 0;
}
