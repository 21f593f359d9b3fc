// Modelled on: DPDK drivers/net/af_packet/rte_eth_af_packet.c:eth_af_packet_rx()
//              (22.11.11), rte_mbuf.h:rte_pktmbuf_alloc() (the per-lcore mempool
//              cache get), and Documentation/networking/packet_mmap.rst (TPACKET_V2)
// Pattern: a poll-mode RX burst over an AF_PACKET TPACKET_V2 ring. The frame headers
//   are reached through an iovec array built at setup time (rd[i].iov_base = map +
//   i * framesize). The burst tests TP_STATUS_USER with a plain load, then takes a
//   packet buffer from a per-core free list (a call between the status test and the
//   frame reads), then reads tp_snaplen/tp_mac/tp_vlan_tci and copies the bytes.
//   Nothing orders the status load before the frame loads: on arm64 the frame loads
//   may be satisfied before the status load, and the function call is no barrier
//   (the free-list pop touches only this core's memory). The hand-back is a release
//   store, so the only defect is the read side.
// The other side is the kernel: the ring is mmap()ed from a packet socket with a
// PACKET_RX_RING; tpacket_rcv() fills the frame and header, then publishes
// TP_STATUS_USER after smp_wmb().
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#define BUF_ROOM	2048
#define BUF_F_VLAN	(1ull << 0)

struct pkt_buf {
	struct pkt_buf *next_free;
	uint32_t pkt_len;
	uint16_t data_len;
	uint16_t vlan_tci;
	uint16_t port;
	uint64_t flags;
	uint8_t data[BUF_ROOM];
};

/* per-core cache of free buffers (stands in for the mempool's lcore cache) */
struct buf_cache {
	struct pkt_buf *head;
	unsigned int avail;
	unsigned long misses;
};

struct afp_rxq {
	int fd;
	struct iovec *rd;		/* rd[i].iov_base: frame i of the mmap()ed ring */
	uint8_t *map;
	unsigned int nframes;
	unsigned int cur;
	struct buf_cache *cache;
	uint16_t port_id;
	unsigned long pkts;
	unsigned long bytes;
};

static struct pkt_buf *buf_cache_get(struct buf_cache *c)
{
	struct pkt_buf *b = c->head;

	if (b == NULL) {
		c->misses++;
		return NULL;
	}
	c->head = b->next_free;
	c->avail--;
	b->next_free = NULL;
	b->pkt_len = 0;
	b->data_len = 0;
	b->flags = 0;
	return b;
}

uint16_t afp_rx_burst(struct afp_rxq *q, struct pkt_buf **out, uint16_t max)
{
	unsigned int slot = q->cur;
	unsigned long nbytes = 0;
	uint16_t got = 0;

	while (got < max) {
		struct tpacket2_hdr *fh = (struct tpacket2_hdr *)q->rd[slot].iov_base;
		struct pkt_buf *b;

		if ((fh->tp_status & TP_STATUS_USER) == 0) /* EXPECT: seqlint-mp-missing-barrier */
			break;

		b = buf_cache_get(q->cache);
		if (b == NULL)
			break;

		b->data_len = fh->tp_snaplen > BUF_ROOM ? BUF_ROOM : fh->tp_snaplen;
		b->pkt_len = b->data_len;
		memcpy(b->data, (uint8_t *)fh + fh->tp_mac, b->data_len);
		if (fh->tp_status & TP_STATUS_VLAN_VALID) {
			b->vlan_tci = fh->tp_vlan_tci;
			b->flags |= BUF_F_VLAN;
		}

		/* give the frame back to the kernel, after every read of it */
		__atomic_store_n(&fh->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
		if (++slot == q->nframes)
			slot = 0;

		b->port = q->port_id;
		out[got++] = b;
		nbytes += b->pkt_len;
	}
	q->cur = slot;
	q->pkts += got;
	q->bytes += nbytes;
	return got;
}
