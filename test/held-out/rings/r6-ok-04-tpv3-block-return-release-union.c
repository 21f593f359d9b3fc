// Modelled on: Suricata src/source-af-packet.c (union thdr, AFPWalkBlock(),
//              AFPParsePacketV3(), AFPReadFromRingV3(); 7.0) and libpcap
//              pcap-linux.c (union thdr, packet_mmap_v3_release(); 1.10)
// Pattern: the fixed form of r6-bug-04 (correct). A TPACKET_V3 capture loop that
//   reaches the block descriptor and the packet headers through unions of header
//   pointers. It takes the block with an acquire load of hdr.bh1.block_status,
//   walks every struct tpacket3_hdr (a hashing helper reads the packet bytes), and
//   gives the block back with a release store of TP_STATUS_KERNEL, so every load of
//   the block is complete before the kernel can see the block as its own.
// The other side is the kernel: its TPACKET_V3 receive path (tpacket_rcv(),
// prb_open_block(), prb_fill_curr_block()) writes into a block only after it has
// seen block_status == TP_STATUS_KERNEL.
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>

union blk_ptr {
	struct tpacket_block_desc *bd;
	uint8_t *raw;
};

union pkt_ptr {
	struct tpacket3_hdr *h3;
	uint8_t *raw;
};

#define FLOW_BUCKETS	4096

struct capture_ring {
	uint8_t *mm;
	unsigned int block_size;
	unsigned int block_count;
	unsigned int cur;
	uint32_t flow_hits[FLOW_BUCKETS];
	uint64_t pkts, drops_seen;
};

static uint32_t frame_flow_hash(const uint8_t *l2, unsigned int caplen)
{
	uint32_t h = 2166136261u;
	unsigned int i, end = caplen < 38 ? caplen : 38;	/* MACs, IPs, ports */

	for (i = 12; i < end; i++)
		h = (h ^ l2[i]) * 16777619u;
	return h;
}

static inline int block_is_ours(union blk_ptr b)
{
	return (__atomic_load_n(&b.bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
		TP_STATUS_USER) != 0;
}

int capture_ring_poll(struct capture_ring *cr, int budget)
{
	int blocks = 0;

	while (blocks < budget) {
		union blk_ptr b;
		union pkt_ptr p;
		uint32_t left;

		b.raw = cr->mm + (size_t)cr->cur * cr->block_size;
		if (!block_is_ours(b))
			break;

		left = b.bd->hdr.bh1.num_pkts;
		p.raw = b.raw + b.bd->hdr.bh1.offset_to_first_pkt;
		while (left--) {
			uint32_t h = frame_flow_hash(p.raw + p.h3->tp_mac, p.h3->tp_snaplen);

			cr->flow_hits[h % FLOW_BUCKETS]++;
			if (p.h3->tp_status & TP_STATUS_LOSING)
				cr->drops_seen++;
			cr->pkts++;
			p.raw += p.h3->tp_next_offset;
		}

		__atomic_store_n(&b.bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
		cr->cur = cr->cur + 1 == cr->block_count ? 0 : cr->cur + 1;
		blocks++;
	}
	return blocks;
}
