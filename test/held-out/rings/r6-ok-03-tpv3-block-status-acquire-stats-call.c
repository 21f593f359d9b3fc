// Modelled on: netsniff-ng ring_rx.c / ring_rx.h (walk_t3_block(),
//              user_may_pull_from_rx_block(), kernel_may_pull_from_rx_block()),
//              libpcap pcap-linux.c:pcap_read_linux_mmap_v3() (1.10), and
//              Documentation/networking/packet_mmap.rst (TPACKET_V3 example)
// Pattern: the fixed form of r6-bug-03 (correct). A TPACKET_V3 RX reader: the
//   block's hdr.bh1.block_status is tested with an acquire load, then a statistics
//   helper runs (it touches only the reader's own struct), then the block is walked
//   (num_pkts, offset_to_first_pkt, each struct tpacket3_hdr by tp_next_offset).
//   The acquire orders the status load before every load of the block, wherever
//   they are; the hand-back is a full barrier and then the store of
//   TP_STATUS_KERNEL.
// The other side is the kernel: prb_close_block() fills the block descriptor and
// then, after smp_wmb(), stores TP_STATUS_USER into block_status.
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define ONCE(x)	(*(volatile __typeof__(x) *)&(x))

struct v3_ring {
	uint8_t *mm;			/* mmap() of the PACKET_RX_RING, TPACKET_V3 */
	unsigned int block_sz;
	unsigned int block_nr;
	unsigned int blk;		/* next block to look at */
};

struct rx_stats {
	unsigned long blocks;
	unsigned long pkts;
	unsigned long bytes;
	struct timespec last;
	double max_gap_ms;
};

typedef void (*pkt_handler)(void *ctx, const uint8_t *pkt, unsigned int caplen,
			    unsigned int len, unsigned int sec, unsigned int nsec);

static inline struct tpacket_block_desc *v3_block(struct v3_ring *r, unsigned int i)
{
	return (struct tpacket_block_desc *)(r->mm + (size_t)i * r->block_sz);
}

/* count a block and how long we went without one */
static void rx_stats_block(struct rx_stats *s)
{
	struct timespec now;
	double gap;

	clock_gettime(CLOCK_MONOTONIC, &now);
	gap = (now.tv_sec - s->last.tv_sec) * 1e3 + (now.tv_nsec - s->last.tv_nsec) / 1e6;
	if (s->blocks && gap > s->max_gap_ms)
		s->max_gap_ms = gap;
	s->last = now;
	s->blocks++;
}

int v3_read_blocks(struct v3_ring *r, struct rx_stats *s, pkt_handler fn, void *ctx)
{
	int done = 0;

	for (;;) {
		struct tpacket_block_desc *bd = v3_block(r, r->blk);
		struct tpacket3_hdr *ph;
		unsigned int i, n;

		if ((__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER) == 0)
			break;

		rx_stats_block(s);

		n = bd->hdr.bh1.num_pkts;
		ph = (struct tpacket3_hdr *)((uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt);
		for (i = 0; i < n; i++) {
			fn(ctx, (const uint8_t *)ph + ph->tp_mac, ph->tp_snaplen, ph->tp_len,
			   ph->tp_sec, ph->tp_nsec);
			s->pkts++;
			s->bytes += ph->tp_len;
			ph = (struct tpacket3_hdr *)((uint8_t *)ph + ph->tp_next_offset);
		}

		__sync_synchronize();	/* block reads before the kernel may refill it */
		ONCE(bd->hdr.bh1.block_status) = TP_STATUS_KERNEL;
		r->blk = (r->blk + 1) % r->block_nr;
		done++;
	}
	return done;
}
