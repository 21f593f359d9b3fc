// Modelled on: Documentation/networking/packet_mmap.rst (TPACKET_V2 RX ring) and
//              tools/testing/selftests/net/psock_tpacket.c:walk_v1_v2_rx(),
//              __v2_rx_kernel_ready() (Linux 6.12)
// Pattern: AF_PACKET RX ring reader in user space that tests TP_STATUS_USER in the
//   frame header with a plain (volatile) load and then reads tp_len/tp_mac and the
//   packet bytes with no read barrier between the test and the reads.
// The other side is the kernel: the ring is kernel memory mapped with mmap() on the
// packet socket (PACKET_RX_RING). tpacket_rcv() copies the packet into the frame,
// fills the header, then (after smp_wmb) sets tp_status to TP_STATUS_USER. The reader
// must order its load of tp_status before its loads of the header fields and data,
// or it may see the new status with the previous contents of the frame.
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>

struct rx_ring {
	uint8_t *map;			/* mmap(NULL, size, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0) */
	unsigned int frame_size;
	unsigned int frame_nr;
	unsigned int next;
};

struct rx_totals { uint64_t frames, bytes; };

static inline struct tpacket2_hdr *rx_frame(struct rx_ring *r, unsigned int idx)
{
	return (struct tpacket2_hdr *)(r->map + (size_t)idx * r->frame_size);
}

static inline int rx_frame_ready(struct tpacket2_hdr *hdr)
{
	return (*(volatile __u32 *)&hdr->tp_status & TP_STATUS_USER) == TP_STATUS_USER; /* EXPECT: seqlint-mp-missing-barrier */
}

static inline void rx_frame_done(struct tpacket2_hdr *hdr)
{
	__sync_synchronize();		/* frame reads before the hand-back */
	*(volatile __u32 *)&hdr->tp_status = TP_STATUS_KERNEL;
}

unsigned int rx_walk(struct rx_ring *r, struct rx_totals *t,
		     void (*consume)(const uint8_t *pkt, unsigned int len))
{
	unsigned int n = 0;

	while (n < r->frame_nr) {
		struct tpacket2_hdr *hdr = rx_frame(r, r->next);

		if (!rx_frame_ready(hdr))
			break;
		consume((const uint8_t *)hdr + hdr->tp_mac, hdr->tp_snaplen);
		t->bytes += hdr->tp_len;
		t->frames++;
		rx_frame_done(hdr);
		r->next = (r->next + 1) % r->frame_nr;
		n++;
	}
	return n;
}
