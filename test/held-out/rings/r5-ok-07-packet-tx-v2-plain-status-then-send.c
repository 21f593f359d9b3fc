// Modelled on: tools/testing/selftests/net/psock_tpacket.c:walk_tx(),
//              __v2_tx_kernel_ready(), __v2_tx_user_ready() (Linux 6.12)
// Correct: a single-threaded AF_PACKET TX ring writer. It finds a free frame (status
// loaded with acquire), copies the packet, sets tp_len, stores
// tp_status = TP_STATUS_SEND_REQUEST with a plain store, and only then calls send()
// on the same thread. No other thread of the process calls send() on this socket.
// The kernel reads TX frames only inside tpacket_snd(), i.e. inside this thread's
// send() (and packet_poll() inside its poll()); the system call comes after every
// frame store in program order, so no barrier is needed before the status store (the
// selftest's __sync_synchronize() after it is harmless). Compare r5-bug-02, where a
// separate flusher thread calls send() concurrently.
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

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

/* queue up to n copies of pkt, then kick the kernel once */
int tx_burst(int fd, struct tx_ring *r, const void *pkt, unsigned int len, int n)
{
	int queued = 0;

	if (len > r->frame_size - TX_DATA_OFF)
		return -1;
	while (queued < n) {
		struct tpacket2_hdr *hdr = tx_frame(r, r->next);

		if (__atomic_load_n(&hdr->tp_status, __ATOMIC_ACQUIRE) &
		    (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING))
			break;
		memcpy((uint8_t *)hdr + TX_DATA_OFF, pkt, len);
		hdr->tp_len = len;
		hdr->tp_status = TP_STATUS_SEND_REQUEST;
		r->next = (r->next + 1) % r->frame_nr;
		queued++;
	}
	if (queued && send(fd, NULL, 0, 0) < 0)
		return -1;
	return queued;
}
