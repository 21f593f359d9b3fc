// Modelled on: libpcap pcap-linux.c:pcap_wait_for_frames_mmap(),
//              pcap_get_ring_frame_status() (1.10), netsniff-ng's RX poll loop
//              (user_may_pull_from_rx_block() before poll()), Suricata
//              source-af-packet.c:AFPReadFromRingV3() (7.0)
// Correct: a TPACKET_V3 reader with two kinds of access to block_status.
//   - rv3_wait() and rv3_backlog() only peek: plain volatile loads of
//     hdr.bh1.block_status, to decide whether to sleep in poll() and to report how
//     many blocks are waiting. Neither reads anything else of a block, and neither
//     hands a block back, so there is nothing for a barrier to order (a stale
//     answer only means one more poll() round or a slightly wrong gauge).
//   - rv3_take() is the only code that reads a block: it re-tests the status with
//     an acquire load, walks the struct tpacket3_hdr entries, and gives the block
//     back with a release store of TP_STATUS_KERNEL.
// The other side is the kernel: it retires a block by storing TP_STATUS_USER (after
// smp_wmb()) and refills it only after it reads TP_STATUS_KERNEL there.
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>

struct rv3 {
	int fd;
	uint8_t *mm;			/* mmap() of the TPACKET_V3 PACKET_RX_RING */
	unsigned int bsize;
	unsigned int bcount;
	unsigned int next;
	unsigned long wakeups;
};

typedef void (*rv3_fn)(void *arg, const uint8_t *frame, unsigned int caplen);

static inline struct tpacket_block_desc *rv3_blk(const struct rv3 *r, unsigned int i)
{
	return (struct tpacket_block_desc *)(r->mm + (size_t)i * r->bsize);
}

static inline uint32_t rv3_peek(const struct tpacket_block_desc *bd)
{
	return *(const volatile uint32_t *)&bd->hdr.bh1.block_status;
}

/* sleep until the next block belongs to us (or timeout); reads only the status */
int rv3_wait(struct rv3 *r, int timeout_ms)
{
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN | POLLERR };
	int rc;

	if (rv3_peek(rv3_blk(r, r->next)) & TP_STATUS_USER)
		return 1;
	rc = poll(&pfd, 1, timeout_ms);
	if (rc > 0)
		r->wakeups++;
	return rc;
}

/* how many blocks are waiting for us: a gauge for the stats thread */
unsigned int rv3_backlog(const struct rv3 *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->bcount; i++)
		if (rv3_peek(rv3_blk(r, i)) & TP_STATUS_USER)
			n++;
	return n;
}

/* the consumer: the only reader of block contents */
int rv3_take(struct rv3 *r, rv3_fn fn, void *arg)
{
	struct tpacket_block_desc *bd = rv3_blk(r, r->next);
	struct tpacket3_hdr *ph;
	uint32_t k, n;

	if (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
		return 0;
	n = bd->hdr.bh1.num_pkts;
	ph = (struct tpacket3_hdr *)((uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt);
	for (k = 0; k < n; k++) {
		fn(arg, (const uint8_t *)ph + ph->tp_mac, ph->tp_snaplen);
		ph = (struct tpacket3_hdr *)((uint8_t *)ph + ph->tp_next_offset);
	}
	__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	r->next = (r->next + 1) % r->bcount;
	return (int)n;
}
