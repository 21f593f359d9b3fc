// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// REQUIRES: linux-uapi-headers
/*
 * mp-missing-barrier, one side, ownership words: a field of a record that
 * hands the whole record from one agent to the other and back. AF_PACKET's
 * mmap()ed rings (Documentation/networking/packet_mmap.rst): the kernel
 * fills an RX frame and then sets tp_status to TP_STATUS_USER; the reader
 * tests it, reads the frame and gives it back with TP_STATUS_KERNEL. On TX
 * the writer fills a frame and sets TP_STATUS_SEND_REQUEST. The shapes are
 * those of tools/testing/selftests/net/psock_tpacket.c, netsniff-ng's
 * ring helpers and libpcap's callback loop; the fast box is MPICH nemesis'
 * (a flag word per cell in a segment shared between processes). Written
 * for seqlint.
 */
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

/* --- TPACKET_V2 RX: tested with a plain load ---------------------------- */

static inline int v2_user_ready(struct tpacket2_hdr *hdr)
{
	return (hdr->tp_status & TP_STATUS_USER) == TP_STATUS_USER;
}

static inline void v2_kernel_ready(struct tpacket2_hdr *hdr)
{
	__sync_synchronize();
	hdr->tp_status = TP_STATUS_KERNEL;
}

unsigned int v2_rx_one(uint8_t *map, unsigned int i, unsigned int frame_size)
{
	struct tpacket2_hdr *hdr = (void *)(map + (size_t)i * frame_size);
	unsigned int len;

	if (!v2_user_ready(hdr)) // expected-warning {{'hdr->tp_len' is read after 'hdr->tp_status' is loaded and tested}}
		return 0;
	len = hdr->tp_len;
	v2_kernel_ready(hdr);
	return len;
}

/* The fix: an acquire (or a full barrier) after the test. */
unsigned int v2_rx_one_fixed(uint8_t *map, unsigned int i, unsigned int frame_size)
{
	struct tpacket2_hdr *hdr = (void *)(map + (size_t)i * frame_size);
	unsigned int len;

	if (!(__atomic_load_n(&hdr->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
		return 0;
	len = hdr->tp_len;
	__atomic_store_n(&hdr->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	return len;
}

/* Correct: the first test (an acquire) takes the frame; a second test of
 * the same word, for a flag (DPDK's RX loop: TP_STATUS_VLAN_VALID), reads a
 * frame this side already owns. */
unsigned int v2_rx_vlan(uint8_t *map, unsigned int i, unsigned int frame_size)
{
	struct tpacket2_hdr *hdr = (void *)(map + (size_t)i * frame_size);
	unsigned int tci = 0;

	if (!(__atomic_load_n(&hdr->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
		return 0;
	if (hdr->tp_status & TP_STATUS_VLAN_VALID)
		tci = hdr->tp_vlan_tci;
	__atomic_store_n(&hdr->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	return tci;
}

/* --- TPACKET_V2 TX: filled, then handed over ---------------------------- */

/* A flusher thread calls send(); the barrier is on the wrong side. */
int v2_tx_post(struct tpacket2_hdr *hdr, const void *pkt, unsigned int len)
{
	if (__atomic_load_n(&hdr->tp_status, __ATOMIC_ACQUIRE) != TP_STATUS_AVAILABLE)
		return 0;
	memcpy((uint8_t *)hdr + TPACKET2_HDRLEN, pkt, len);
	hdr->tp_len = len;
	hdr->tp_status = TP_STATUS_SEND_REQUEST; // expected-warning {{'hdr->tp_status' is published here after the store to 'hdr->tp_len' with no write barrier in between}}
	__sync_synchronize();
	return 1;
}

int v2_tx_post_fixed(struct tpacket2_hdr *hdr, const void *pkt, unsigned int len)
{
	if (__atomic_load_n(&hdr->tp_status, __ATOMIC_ACQUIRE) != TP_STATUS_AVAILABLE)
		return 0;
	memcpy((uint8_t *)hdr + TPACKET2_HDRLEN, pkt, len);
	hdr->tp_len = len;
	__atomic_store_n(&hdr->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
	return 1;
}

/* Correct: one thread; the kernel reads TX frames only inside its send(). */
int v2_tx_burst(int fd, struct tpacket2_hdr *hdr, unsigned int len)
{
	if (__atomic_load_n(&hdr->tp_status, __ATOMIC_ACQUIRE) != TP_STATUS_AVAILABLE)
		return 0;
	hdr->tp_len = len;
	hdr->tp_status = TP_STATUS_SEND_REQUEST;
	return send(fd, NULL, 0, 0) < 0 ? -1 : 1;
}

/* --- TPACKET_V1 RX: read by a callback, then given back ----------------- */

typedef void (*frame_cb)(void *user, const uint8_t *pkt, unsigned int caplen);

int v1_dispatch(struct tpacket_hdr *h, frame_cb cb, void *user)
{
	if (__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) == TP_STATUS_KERNEL)
		return 0;
	cb(user, (const uint8_t *)h + h->tp_mac, h->tp_snaplen);
	h->tp_status = TP_STATUS_KERNEL; // expected-warning {{'h->tp_status' hands the slot back to the producer here, after the load of 'h->tp_snaplen'}}
	return 1;
}

int v1_dispatch_fixed(struct tpacket_hdr *h, frame_cb cb, void *user)
{
	if (__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) == TP_STATUS_KERNEL)
		return 0;
	cb(user, (const uint8_t *)h + h->tp_mac, h->tp_snaplen);
	__atomic_store_n(&h->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	return 1;
}

/* --- A word only read is no ownership word ------------------------------ */

/* TPACKET_V3's block header: this file only peeks at it (the block goes
 * back elsewhere), so nothing here shows the word moves both ways. */
unsigned int v3_peek(struct tpacket_block_desc *pbd)
{
	if (!(pbd->hdr.bh1.block_status & TP_STATUS_USER))
		return 0;
	return pbd->hdr.bh1.num_pkts;
}

/* --- Shared between processes: the word loaded with an acquire ---------- */

struct fbox {
	volatile int flag;	/* 0: the sender's, 1: the receiver's */
	int source, datalen;
	char payload[64];
};

int fbox_send(struct fbox *box, int me, const void *buf, int size)
{
	if (__atomic_load_n(&box->flag, __ATOMIC_ACQUIRE) != 0)
		return -1;
	box->source = me;
	box->datalen = size;
	memcpy(box->payload, buf, (size_t)size);
	box->flag = 1; // expected-warning {{'box->flag' is published here after the store to 'box->datalen'}}
	return 0;
}

int fbox_recv(struct fbox *box, void *buf)
{
	int n;

	if (__atomic_load_n(&box->flag, __ATOMIC_ACQUIRE) != 1)
		return -1;
	n = box->datalen;
	memcpy(buf, box->payload, (size_t)n);
	__atomic_store_n(&box->flag, 0, __ATOMIC_RELEASE);
	return n;
}

/* A state word no one acquires: a single-threaded state machine. */
struct job { int state, arg, result; };

void job_run(struct job *j, int arg)
{
	if (j->state != 0)
		return;
	j->arg = arg;
	j->state = 1;
}

int job_done(struct job *j)
{
	if (j->state != 2)
		return -1;
	return j->result;
}
