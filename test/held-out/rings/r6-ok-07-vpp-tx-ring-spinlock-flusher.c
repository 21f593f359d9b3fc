// Modelled on: VPP src/plugins/af_packet/device.c:af_packet_interface_tx()
//              (clib_spinlock_lock_if_init() around the whole TX function, plain
//              tp_status = TP_STATUS_SEND_REQUEST, sendto(MSG_DONTWAIT) kick) and
//              src/vppinfra/lock.h (clib_spinlock_*) (VPP 23.x)
// Correct: a TPACKET_V2 TX ring shared by several worker threads. Every access of
//   the ring by this process, and every sendto() on its socket, happens with the
//   queue's spinlock held. A worker fills a frame and stores TP_STATUS_SEND_REQUEST
//   with a plain store and no barrier; it does not kick. The kick is done by
//   txq_kick(), which takes the same lock before sendto(). The kernel reads TX
//   frames only inside tpacket_snd(), i.e. inside a sendto() on this socket, so:
//   worker stores -> unlock (release) -> lock (acquire) in the kicking thread ->
//   sendto() -> the kernel's reads. The frame stores and the status store all
//   happen before the kernel looks at the ring; their order among themselves does
//   not matter. The only status the kernel writes asynchronously
//   (TP_STATUS_AVAILABLE from the skb destructor, after the frame was sent) is
//   read with an acquire load before a frame is reused.
// FLAGS: --no-kernel-stubs
#include <linux/if_packet.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

typedef struct { int locked; } spin_t;

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static inline void spin_lock(spin_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			cpu_relax();
}

static inline void spin_unlock(spin_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

struct afp_txq {
	spin_t lock;
	int fd;
	uint8_t *ring;			/* mmap() of the PACKET_TX_RING */
	unsigned int frame_size;
	unsigned int frame_num;
	unsigned int next_tx;
	unsigned int pending;		/* frames queued since the last kick */
	unsigned long tx_full, kicks, kick_err;
};

#define TXQ_DATA_OFF	(TPACKET2_HDRLEN - sizeof(struct sockaddr_ll))

/* worker thread: queue up to n packets, return how many were taken */
unsigned int txq_enqueue(struct afp_txq *q, const uint8_t *const *pkts,
			 const uint16_t *lens, unsigned int n)
{
	unsigned int i;

	spin_lock(&q->lock);
	for (i = 0; i < n; i++) {
		struct tpacket2_hdr *tph =
			(struct tpacket2_hdr *)(q->ring + (size_t)q->next_tx * q->frame_size);

		if (__atomic_load_n(&tph->tp_status, __ATOMIC_ACQUIRE) &
		    (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING)) {
			q->tx_full++;
			break;
		}
		if (lens[i] > q->frame_size - TXQ_DATA_OFF)
			continue;
		memcpy((uint8_t *)tph + TXQ_DATA_OFF, pkts[i], lens[i]);
		tph->tp_len = tph->tp_snaplen = lens[i];
		tph->tp_status = TP_STATUS_SEND_REQUEST;
		q->next_tx = (q->next_tx + 1) % q->frame_num;
		q->pending++;
	}
	spin_unlock(&q->lock);
	return i;
}

/* TX-pending handler (another thread, or the worker later): the only sendto() */
void txq_kick(struct afp_txq *q)
{
	spin_lock(&q->lock);
	if (q->pending) {
		if (sendto(q->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0)
			q->kick_err++;
		q->pending = 0;
		q->kicks++;
	}
	spin_unlock(&q->lock);
}
