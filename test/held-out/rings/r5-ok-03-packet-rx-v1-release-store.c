// Modelled on: libpcap pcap-linux.c:packet_mmap_acquire(), packet_mmap_release(),
//              pcap_read_linux_mmap_v1() (1.10), and packet_mmap.rst (TPACKET_V1)
// Pattern: AF_PACKET TPACKET_V1 RX reader: acquire load of the status (as libpcap's
//   packet_mmap_acquire()), frame read, then the frame handed back with a release
//   store of TP_STATUS_KERNEL (as libpcap's packet_mmap_release()). This file is the
//   correct form of r5-bug-03.
// The other side is the kernel: once tp_status is TP_STATUS_KERNEL, tpacket_rcv() may
// copy the next packet into the frame. The frame reads (header fields, and the
// packet bytes the callback reads) must complete before the status store is
// visible; the release store orders them before it.
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>

struct v1_ring {
	uint8_t *base;			/* mmap() of the PACKET_RX_RING (TPACKET_V1) */
	unsigned int frame_size;
	unsigned int frames;
	unsigned int cur;
};

typedef void (*frame_cb)(void *user, const uint8_t *pkt, unsigned int caplen,
			 unsigned int wirelen, unsigned int sec, unsigned int usec);

static inline struct tpacket_hdr *v1_frame(struct v1_ring *r, unsigned int i)
{
	return (struct tpacket_hdr *)(r->base + (size_t)i * r->frame_size);
}

static inline int v1_owned(struct tpacket_hdr *h)
{
	return __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) != TP_STATUS_KERNEL;
}

static inline void v1_give_back(struct tpacket_hdr *h)
{
	__atomic_store_n(&h->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
}

int v1_dispatch(struct v1_ring *r, int max, frame_cb cb, void *user)
{
	int n = 0;

	while (n < max) {
		struct tpacket_hdr *h = v1_frame(r, r->cur);

		if (!v1_owned(h))
			break;
		cb(user, (const uint8_t *)h + h->tp_mac, h->tp_snaplen, h->tp_len,
		   h->tp_sec, h->tp_usec);
		v1_give_back(h);
		r->cur = r->cur + 1 == r->frames ? 0 : r->cur + 1;
		n++;
	}
	return n;
}
