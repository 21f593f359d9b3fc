// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier: a reference count is no flag, also when the only
 * read-modify-write of it is in a header's helper this file never calls.
 *
 * A receive path builds a buffer from a hardware frame it owns: it sets
 * the data offset and length, then sets the reference count to 1. A
 * transmit path reads the reference count to know whether the buffer is
 * shared (1: it may write the header in place) and then reads the
 * buffer's address. Taken as a flag and its data, the two made a
 * message-passing pair with no barrier on either side. But the count is
 * stepped with an atomic add by the library's own helper (in the header,
 * unreachable from this file's functions and so never analysed): it
 * counts references, and the buffer is handed from one path to the other
 * by a ring of its own. A location that some function of the file, any
 * function, updates with an atomic read-modify-write is no flag. A flag
 * that is only stored and loaded, beside it, still makes a pair.
 * Modelled on DPDK's drivers/net/dpaa/dpaa_rxtx.c and
 * drivers/net/virtio/virtio_rxtx.c with lib/mbuf/rte_mbuf.h; rewritten.
 */
#include "Inputs/refcount-buf.h"

struct frame { uint64_t addr; uint16_t off, len; };

void build_buf(struct pbuf *m, const struct frame *f)
{
	m->data_off = f->off;
	m->data_len = f->len;
	m->nb_segs = 1;
	m->next = 0;
	pbuf_refcnt_set(m, 1);
}

int can_push(struct pbuf *m, uint16_t hdr)
{
	if (pbuf_refcnt_read(m) == 1 && m->nb_segs == 1)
		return m->data_off >= hdr && m->buf_addr != 0;
	return 0;
}

/* A flag that is only stored and loaded, beside it: still a pair. */
struct note { int a, b; uint16_t ready; };

void post_note(struct note *n, int a)
{
	n->a = a;
	n->b = 2;
	__atomic_store_n(&n->ready, 1, __ATOMIC_RELAXED); // expected-warning {{'n->ready' is published here after the store to 'n->b' with no write barrier in between}}
}

int take_note(struct note *n)
{
	if (__atomic_load_n(&n->ready, __ATOMIC_RELAXED)) // expected-warning {{'n->b' is read after the flag 'n->ready' with no read barrier, acquire or address dependency in between}}
		return n->a + n->b;
	return 0;
}
