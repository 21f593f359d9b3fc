// Modelled on: DPDK drivers/net/af_packet/rte_eth_af_packet.c:eth_af_packet_rx()
//              (22.11.11; "release incoming frame and advance ring buffer"),
//              rte_vlan_insert() (rte_ether.h), and packet_mmap.rst (TPACKET_V2)
// Pattern: a poll-mode RX burst over an AF_PACKET TPACKET_V2 ring, frames reached
//   through rd[i].iov_base. Here the status test is an acquire load, a buffer is
//   taken from a pool (a call), the frame is copied and its VLAN tag read, and then
//   the frame is handed back to the kernel with a plain store of TP_STATUS_KERNEL,
//   as the driver does. A plain store is not ordered after the earlier loads of the
//   frame: on arm64 (or after compiler reordering) the kernel can see
//   TP_STATUS_KERNEL, write the next packet into the frame, and the memcpy() or the
//   tp_snaplen/tp_vlan_tci loads still in flight return bytes of that next packet.
//   The store needs release semantics (or a full barrier before it).
// The other side is the kernel: tpacket_rcv() writes a frame only while its status
// is TP_STATUS_KERNEL, then publishes TP_STATUS_USER after smp_wmb().
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#define PBUF_ROOM	2048
#define PBUF_HEADROOM	128
#define PBUF_F_VLAN	(1u << 0)

struct pbuf {
	uint16_t off;
	uint16_t len;
	uint16_t vlan;
	uint16_t port;
	uint32_t flags;
	uint8_t room[PBUF_HEADROOM + PBUF_ROOM];
};

/* fixed pool of buffers, free ones listed by index (one pool per queue) */
struct pbuf_pool {
	struct pbuf *bufs;
	uint32_t *free_idx;
	uint32_t nfree;
	unsigned long alloc_fail;
};

struct rxq {
	struct iovec *rd;
	unsigned int ring_frames;
	unsigned int pos;
	struct pbuf_pool *pool;
	uint16_t port;
	int keep_vlan;
	unsigned long rx_packets, rx_octets;
};

static struct pbuf *pool_take(struct pbuf_pool *p)
{
	struct pbuf *b;

	if (p->nfree == 0) {
		p->alloc_fail++;
		return NULL;
	}
	b = &p->bufs[p->free_idx[--p->nfree]];
	b->off = PBUF_HEADROOM;
	b->len = 0;
	b->flags = 0;
	return b;
}

/* put the stripped tag back in front of the payload (no ring access) */
static void pbuf_vlan_push(struct pbuf *b)
{
	uint8_t *d = b->room + b->off;

	b->off -= 4;
	memmove(b->room + b->off, d, 12);
	b->room[b->off + 12] = 0x81;
	b->room[b->off + 13] = 0x00;
	b->room[b->off + 14] = (uint8_t)(b->vlan >> 8);
	b->room[b->off + 15] = (uint8_t)b->vlan;
	b->len += 4;
}

uint16_t rxq_burst(struct rxq *q, struct pbuf **pkts, uint16_t want)
{
	unsigned int pos = q->pos;
	unsigned long octets = 0;
	uint16_t n;

	for (n = 0; n < want; n++) {
		struct tpacket2_hdr *th = q->rd[pos].iov_base;
		uint32_t st = __atomic_load_n(&th->tp_status, __ATOMIC_ACQUIRE);
		struct pbuf *b;

		if (!(st & TP_STATUS_USER))
			break;
		b = pool_take(q->pool);
		if (!b)
			break;
		b->len = th->tp_snaplen < PBUF_ROOM ? th->tp_snaplen : PBUF_ROOM;
		memcpy(b->room + b->off, (const uint8_t *)th + th->tp_mac, b->len);
		if (st & TP_STATUS_VLAN_VALID) {
			b->vlan = th->tp_vlan_tci;
			b->flags |= PBUF_F_VLAN;
			if (q->keep_vlan)
				pbuf_vlan_push(b);
		}

		th->tp_status = TP_STATUS_KERNEL; /* EXPECT: seqlint-mp-missing-barrier */
		pos = pos + 1 < q->ring_frames ? pos + 1 : 0;

		b->port = q->port;
		pkts[n] = b;
		octets += b->len;
	}
	q->pos = pos;
	q->rx_packets += n;
	q->rx_octets += octets;
	return n;
}
