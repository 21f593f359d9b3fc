// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only %s 2>&1 | FileCheck %s
// REQUIRES: linux-uapi-headers
/*
 * mp-missing-barrier, one side, ownership words in a ring the file maps
 * itself, and accesses only plainly. The shape of a poll-mode driver over
 * an AF_PACKET socket (DPDK 22.11's net/af_packet PMD): the setup mmap()s
 * the socket's RX ring with MAP_SHARED and keeps one iovec per frame; the
 * RX burst lays a struct tpacket2_hdr over each frame, tests tp_status for
 * TP_STATUS_USER with a plain load, takes a buffer from a pool, reads the
 * frame and hands it back with a plain TP_STATUS_KERNEL. Nothing in the
 * file accesses tp_status marked: the mapping is the evidence that the
 * kernel is the other side. The pool's allocator orders memory only on its
 * slow path (a refill from a shared ring, through an ops table); on its
 * fast path (a per-core cache) nothing orders the frame's loads after the
 * test. Written for seqlint.
 */
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>

struct buf {
	uint16_t len;
	uint16_t vlan;
	char data[2048];
};

struct pool;
struct pool_ops {
	int (*dequeue)(struct pool *p, struct buf **out, unsigned int n);
};

struct pool {
	const struct pool_ops *ops;
	unsigned int cached;
	struct buf *cache[64];
};

/* Fast path: the per-core cache, no ordering at all. Slow path: the ops'
 * dequeue (a shared ring, with its own barriers). */
static inline struct buf *pool_get(struct pool *p)
{
	struct buf *b;

	if (p->cached == 0) {
		if (p->ops->dequeue(p, &b, 1) < 0)
			return NULL;
		return b;
	}
	return p->cache[--p->cached];
}

/* Every path orders: a full barrier, then the cache or the ring. */
static inline struct buf *pool_get_fenced(struct pool *p)
{
	struct buf *b;

	__sync_synchronize();
	if (p->cached == 0) {
		if (p->ops->dequeue(p, &b, 1) < 0)
			return NULL;
		return b;
	}
	return p->cache[--p->cached];
}

struct rxq {
	int fd;
	uint8_t *map;
	struct iovec *rd;
	unsigned int frames;
	unsigned int next;
	struct pool *pool;
};

int rxq_setup(struct rxq *q, unsigned int frame_size, unsigned int frames,
	      struct iovec *rd)
{
	q->map = mmap(NULL, (size_t)frame_size * frames, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_LOCKED, q->fd, 0);
	if (q->map == MAP_FAILED)
		return -1;
	q->rd = rd;
	for (unsigned int i = 0; i < frames; i++) {
		q->rd[i].iov_base = q->map + (size_t)i * frame_size;
		q->rd[i].iov_len = frame_size;
	}
	q->frames = frames;
	q->next = 0;
	return 0;
}

/* The bug: the frame's fields are read after a plain test, with only the
 * allocator's fast path in between; the frame goes back with a plain
 * store after them. */
unsigned int rx_burst(struct rxq *q, struct buf **out, unsigned int n)
{
	unsigned int i, next = q->next;

	for (i = 0; i < n; i++) {
		struct tpacket2_hdr *ppd = (struct tpacket2_hdr *)q->rd[next].iov_base;

		if ((ppd->tp_status & TP_STATUS_USER) == 0) // expected-warning {{'ppd->tp_snaplen' is read after 'ppd->tp_status' is loaded and tested}}
			break;
		struct buf *b = pool_get(q->pool);
		if (!b)
			break;
		b->len = ppd->tp_snaplen;
		memcpy(b->data, (uint8_t *)ppd + ppd->tp_mac, b->len);
		if (ppd->tp_status & TP_STATUS_VLAN_VALID)
			b->vlan = ppd->tp_vlan_tci;
		ppd->tp_status = TP_STATUS_KERNEL; // expected-warning {{'ppd->tp_status' hands the slot back to the producer here, after the load of 'ppd->tp_vlan_tci'}}
		if (++next >= q->frames)
			next = 0;
		out[i] = b;
	}
	q->next = next;
	return i;
}

/* CHECK: :[[@LINE-18]]:8: warning: 'ppd->tp_snaplen' is read after 'ppd->tp_status'
 * CHECK: note: shared with the other side: memory from mmap() in 'rxq_setup', a structure of the kernel's user-space ABI ('if_packet.h'): the kernel reads and writes it; 'ppd->tp_status' hands the record over
 */

/* Correct: the allocator orders on every path, and a full barrier comes
 * before the hand-back. */
unsigned int rx_burst_fenced(struct rxq *q, struct buf **out, unsigned int n)
{
	unsigned int i, next = q->next;

	for (i = 0; i < n; i++) {
		struct tpacket2_hdr *ppd = (struct tpacket2_hdr *)q->rd[next].iov_base;

		if ((ppd->tp_status & TP_STATUS_USER) == 0)
			break;
		struct buf *b = pool_get_fenced(q->pool);
		if (!b)
			break;
		b->len = ppd->tp_snaplen;
		memcpy(b->data, (uint8_t *)ppd + ppd->tp_mac, b->len);
		__sync_synchronize();
		ppd->tp_status = TP_STATUS_KERNEL;
		if (++next >= q->frames)
			next = 0;
		out[i] = b;
	}
	q->next = next;
	return i;
}

/* Correct: a helper that tests the word orders on the one path that goes
 * on (its early return is the frame not being ready). */
static inline int frame_ready(struct tpacket2_hdr *ppd)
{
	if ((ppd->tp_status & TP_STATUS_USER) == 0)
		return 0;
	__sync_synchronize();
	return 1;
}

unsigned int rx_one_ready(struct rxq *q, struct buf *b)
{
	struct tpacket2_hdr *ppd = (struct tpacket2_hdr *)q->rd[q->next].iov_base;

	if (!frame_ready(ppd))
		return 0;
	b->len = ppd->tp_snaplen;
	memcpy(b->data, (uint8_t *)ppd + ppd->tp_mac, b->len);
	__sync_synchronize();
	ppd->tp_status = TP_STATUS_KERNEL;
	return 1;
}

/* Correct: TX frames filled, handed over plainly, then send() — the
 * kernel reads TX frames inside that system call, on this thread. */
unsigned int tx_burst(struct rxq *q, struct buf **in, unsigned int n)
{
	unsigned int i, next = q->next;

	for (i = 0; i < n; i++) {
		struct tpacket2_hdr *ppd = (struct tpacket2_hdr *)q->rd[next].iov_base;

		if (ppd->tp_status != TP_STATUS_AVAILABLE)
			break;
		memcpy((uint8_t *)ppd + TPACKET2_HDRLEN - sizeof(struct sockaddr_ll),
		       in[i]->data, in[i]->len);
		ppd->tp_len = in[i]->len;
		ppd->tp_snaplen = in[i]->len;
		ppd->tp_status = TP_STATUS_SEND_REQUEST;
		if (++next >= q->frames)
			next = 0;
	}
	send(q->fd, NULL, 0, MSG_DONTWAIT);
	q->next = next;
	return i;
}

/* Silent: a frame header reached through a parameter only has the type of
 * what the file maps; with no access to the word marked anywhere in the
 * file, that is no evidence that this record is in the mapping (a copy in
 * a capture file has the same type). */
unsigned int frame_len(const struct tpacket2_hdr *h)
{
	if (h->tp_status & TP_STATUS_USER)
		return h->tp_snaplen;
	return 0;
}
