// Modelled on: netsniff-ng ring_tx.c / ring.h (union frame_map, __set_tx_kernel(),
//              user_may_pull_from_tx(), pull_and_flush_tx_ring(); trafgen's TX
//              path) and Documentation/networking/packet_mmap.rst (PACKET_TX_RING)
// Pattern: the fixed form of r6-bug-05 (correct). A TPACKET_V2 TX ring writer that
//   reaches each frame through a union of header pointers. The producer thread
//   checks the frame is free (acquire load), copies the packet, sets
//   tp_len/tp_snaplen, and stores TP_STATUS_SEND_REQUEST with a release store,
//   while a flusher thread in this file keeps calling sendto() to kick the kernel.
//   The release makes the payload and the header fields visible before the status
//   that lets tpacket_snd() on another CPU take the frame.
// The other side is the kernel: tpacket_snd() takes every frame whose status is
// TP_STATUS_SEND_REQUEST, reads its header and bytes, and later sets
// TP_STATUS_AVAILABLE (after smp_wmb()) from the skb destructor.
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

union frame_map {
	struct {
		struct tpacket2_hdr tp_h __attribute__((aligned(TPACKET_ALIGNMENT)));
		struct sockaddr_ll s_ll __attribute__((aligned(TPACKET_ALIGNMENT)));
	} *v2;
	void *raw;
};

#define TX_PAYLOAD_OFF	(TPACKET2_HDRLEN - sizeof(struct sockaddr_ll))

struct tx_sock {
	int fd;
	uint8_t *mm;			/* mmap() of the PACKET_TX_RING */
	unsigned int frame_size;
	unsigned int frames;
	unsigned int slot;
	int stop;
	unsigned long queued, full;
};

/* the flusher: kicks the kernel while producers keep filling frames */
void *tx_flusher_main(void *arg)
{
	struct tx_sock *ts = arg;

	while (!__atomic_load_n(&ts->stop, __ATOMIC_ACQUIRE)) {
		sendto(ts->fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
		usleep(20);
	}
	return NULL;
}

static inline int frame_user_may_fill(union frame_map f)
{
	uint32_t st = __atomic_load_n(&f.v2->tp_h.tp_status, __ATOMIC_ACQUIRE);

	return (st & ~(TP_STATUS_TS_SOFTWARE | TP_STATUS_TS_RAW_HARDWARE)) ==
	       TP_STATUS_AVAILABLE;
}

/* producer thread: 1 queued, 0 ring full, -1 too big */
int tx_sock_queue(struct tx_sock *ts, const void *pkt, size_t len)
{
	union frame_map f;

	if (len > ts->frame_size - TX_PAYLOAD_OFF)
		return -1;
	f.raw = ts->mm + (size_t)ts->slot * ts->frame_size;
	if (!frame_user_may_fill(f)) {
		ts->full++;
		return 0;
	}
	memcpy((uint8_t *)f.raw + TX_PAYLOAD_OFF, pkt, len);
	f.v2->tp_h.tp_len = (uint32_t)len;
	f.v2->tp_h.tp_snaplen = (uint32_t)len;
	__atomic_store_n(&f.v2->tp_h.tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
	ts->slot = ts->slot + 1 == ts->frames ? 0 : ts->slot + 1;
	ts->queued++;
	return 1;
}

int tx_sock_start_flusher(struct tx_sock *ts, pthread_t *tid)
{
	return pthread_create(tid, NULL, tx_flusher_main, ts);
}
