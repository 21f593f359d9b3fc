// Modelled on: tools/testing/selftests/net/psock_tpacket.c:walk_tx(),
//              __v2_tx_kernel_ready(), __v2_tx_user_ready() (Linux 6.12) and
//              Documentation/networking/packet_mmap.rst (PACKET_TX_RING)
// Pattern: AF_PACKET TX ring writer that copies the packet into a free frame, sets
//   tp_len and then stores tp_status = TP_STATUS_SEND_REQUEST, with the only barrier
//   (__sync_synchronize(), as in the selftest's helper) AFTER the status store.
// The other side is the kernel: the ring is mapped with mmap() on a socket with a
// PACKET_TX_RING. Here a separate flusher thread keeps calling send(fd, NULL, 0, 0),
// so tpacket_snd() may scan the ring while this thread fills frames: it picks any
// frame whose status is SEND_REQUEST and reads tp_len and the packet bytes. The frame
// stores must be visible before the status store; a barrier after it orders nothing
// that matters (the selftest gets away with it: its send() runs on the same thread).
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tx_ring {
	uint8_t *map;			/* mmap() of the PACKET_TX_RING */
	unsigned int frame_size;
	unsigned int frame_nr;
	unsigned int next;
};

#define TX_DATA_OFF	(TPACKET2_HDRLEN - sizeof(struct sockaddr_ll))

static inline struct tpacket2_hdr *tx_frame(struct tx_ring *r, unsigned int idx)
{
	return (struct tpacket2_hdr *)(r->map + (size_t)idx * r->frame_size);
}

static inline int tx_frame_free(struct tpacket2_hdr *hdr)
{
	return !(__atomic_load_n(&hdr->tp_status, __ATOMIC_ACQUIRE) &
		 (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING));
}

static inline void tx_frame_post(struct tpacket2_hdr *hdr)
{
	hdr->tp_status = TP_STATUS_SEND_REQUEST; /* EXPECT: seqlint-mp-missing-barrier */
	__sync_synchronize();
}

/* called by the producer thread; the flusher thread calls send() in a loop */
int tx_queue(struct tx_ring *r, const void *pkt, unsigned int len)
{
	struct tpacket2_hdr *hdr = tx_frame(r, r->next);

	if (len > r->frame_size - TX_DATA_OFF)
		return -1;
	if (!tx_frame_free(hdr))
		return 0;
	memcpy((uint8_t *)hdr + TX_DATA_OFF, pkt, len);
	hdr->tp_len = len;
	tx_frame_post(hdr);
	r->next = (r->next + 1) % r->frame_nr;
	return 1;
}
