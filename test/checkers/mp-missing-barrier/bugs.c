// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier: message passing (data stores, then a flag or pointer
 * store; a flag load and test, then data loads) with nothing ordering the
 * data against the flag on a side that needs it.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/rcupdate.h>

/* The article's first example with both barriers left out. The reader
 * reaches the data through the loaded pointer (an address dependency), so
 * only the writer is wrong. */
struct msg {
	int x;
};
static struct msg a;
static struct msg *message;

void article_writer(void)
{
	a.x = 1; // expected-note {{'a.x' is stored here}}
	WRITE_ONCE(message, &a); // expected-warning {{'message' is published here after the store to 'a.x' with no write barrier in between: a reader that sees the new value can still read the old data; use smp_store_release() for this store or put smp_wmb() before it [seqlint-mp-missing-barrier]}}
}

int article_reader(void)
{
	struct msg *datum = READ_ONCE(message); // expected-note {{'message' is read here, in 'article_reader()', and 'datum->x' after it}}

	if (datum != NULL)
		return datum->x;
	return 0;
}

/* A ready flag next to the data in one structure, no ordering on either
 * side: both sides are reported, each with a note at the other. */
struct req {
	int status;
	long result;
	int done;
};

void req_complete(struct req *r, int status, long result)
{
	r->status = status;
	r->result = result;
	WRITE_ONCE(r->done, 1); // expected-warning {{'r->done' is published here after the store to 'r->result' with no write barrier}}
}

long req_poll(struct req *r)
{
	if (!READ_ONCE(r->done)) // expected-warning {{'r->result' is read after the flag 'r->done' with no read barrier, acquire or address dependency in between: it can be older than the flag; use smp_load_acquire() for the flag or put smp_rmb() after this load [seqlint-mp-missing-barrier]}}
		return -1;
	if (r->status)
		return r->status;
	return r->result;
}

/* A freshly initialised object published with WRITE_ONCE() instead of
 * rcu_assign_pointer(): the rcu_dereference() reader is fine (dependency),
 * the publication is not. */
struct cfg {
	int mode;
	int limit;
};
static struct cfg *cur_cfg;
static struct cfg cfg_slots[2];

void cfg_publish(int slot, int mode, int limit)
{
	struct cfg *c = &cfg_slots[slot];

	c->mode = mode;
	c->limit = limit;
	WRITE_ONCE(cur_cfg, c); // expected-warning {{'cur_cfg' is published here after the store to 'c->limit'}}
}

int cfg_limit(void)
{
	struct cfg *c;
	int limit = 0;

	rcu_read_lock();
	c = rcu_dereference(cur_cfg);
	if (c)
		limit = c->limit;
	rcu_read_unlock();
	return limit;
}

/* Global flag and global data. (A writer with only plain accesses is not
 * analysed: the check looks at functions with marked accesses.) */
static int payload_len;
static int payload_ready;

void payload_set(int len)
{
	payload_len = len;
	WRITE_ONCE(payload_ready, 1); // expected-warning {{'payload_ready' is published here after the store to 'payload_len'}}
}

int payload_get(void)
{
	if (READ_ONCE(payload_ready) == 1) // expected-warning {{'payload_len' is read after the flag 'payload_ready'}}
		return payload_len;
	return -1;
}

/* The barrier is there, but after the flag store: it orders nothing the
 * reader needs. (barrier-misplaced, on by default, also reports the
 * barrier itself; this file runs mp-missing-barrier alone.) */
struct slot {
	int val;
	int full;
};

void slot_put(struct slot *s, int v)
{
	s->val = v;
	WRITE_ONCE(s->full, 1); // expected-warning {{'s->full' is published here after the store to 's->val'}}
	smp_wmb();
}

int slot_get(struct slot *s)
{
	int full = READ_ONCE(s->full); // expected-warning {{'s->val' is read after the flag 's->full'}}

	if (!full)
		return -1;
	return s->val;
}
