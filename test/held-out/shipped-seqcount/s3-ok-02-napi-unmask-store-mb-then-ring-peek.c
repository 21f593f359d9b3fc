// Modelled on: drivers/net/veth.c:veth_poll() and __veth_xdp_flush() (Linux 6.12)
// Correct: a Dekker pair between the NAPI poller and the producer on the peer.
// The poller clears "notify masked" with smp_store_mb() (store + full barrier)
// before peeking at the ring; the producer stores into the ring and issues
// smp_mb() before reading the flag. Either the poller sees the new entry or
// the producer sees the cleared flag and reschedules NAPI. smp_store_mb() is a
// store followed by a full barrier, so the loads after it are ordered.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

#define NETDEV_TX_OK   0x00
#define NETDEV_TX_BUSY 0x10
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

struct napi_struct { unsigned long state; int weight; };
extern bool napi_complete_done(struct napi_struct *n, int work_done);
extern bool napi_schedule_prep(struct napi_struct *n);
extern void __napi_schedule(struct napi_struct *n);

struct xring {
	int producer;
	spinlock_t producer_lock;
	int consumer_head;
	int size;
	void **queue;
};

static inline bool xring_empty(const struct xring *r)
{
	if (likely(r->size))
		return !READ_ONCE(r->queue[READ_ONCE(r->consumer_head)]);
	return true;
}

extern int xring_produce(struct xring *r, void *ptr);	/* takes producer_lock */
extern void *xring_consume(struct xring *r);

struct pipe_rq {
	struct napi_struct napi;
	struct xring ring;
	bool notify_masked;
	u64 delivered;
};

extern void pipe_deliver(struct pipe_rq *rq, void *frame);

static int pipe_rcv(struct pipe_rq *rq, int budget)
{
	int done = 0;
	void *frame;

	while (done < budget && (frame = xring_consume(&rq->ring))) {
		pipe_deliver(rq, frame);
		done++;
	}
	rq->delivered += done;
	return done;
}

int pipe_poll(struct napi_struct *napi, int budget)
{
	struct pipe_rq *rq = container_of(napi, struct pipe_rq, napi);
	int done = pipe_rcv(rq, budget);

	if (done < budget && napi_complete_done(napi, done)) {
		/* the cleared flag before the ring peek */
		smp_store_mb(rq->notify_masked, false);
		if (unlikely(!xring_empty(&rq->ring))) {
			if (napi_schedule_prep(&rq->napi)) {
				WRITE_ONCE(rq->notify_masked, true);
				__napi_schedule(&rq->napi);
			}
		}
	}
	return done;
}

static void pipe_flush(struct pipe_rq *rq)
{
	/* the ring entry before the flag read */
	smp_mb();
	if (!READ_ONCE(rq->notify_masked) && napi_schedule_prep(&rq->napi)) {
		WRITE_ONCE(rq->notify_masked, true);
		__napi_schedule(&rq->napi);
	}
}

int pipe_xmit_to_peer(struct pipe_rq *rq, void *frame)
{
	if (unlikely(xring_produce(&rq->ring, frame)))
		return NETDEV_TX_BUSY;
	pipe_flush(rq);
	return NETDEV_TX_OK;
}
