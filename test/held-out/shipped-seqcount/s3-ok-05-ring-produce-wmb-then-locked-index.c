// Modelled on: include/linux/ptr_ring.h:__ptr_ring_produce()/ptr_ring_produce_bh() and its
//              lockless consumer __ptr_ring_peek() (Linux 6.12)
// Correct: smp_wmb() orders the initialisation of the record before the store
// that makes it reachable from the slot (store -> store; the consumer relies
// on the address dependency). The loads after that store -- prod, size,
// batch and wake_batch -- read fields that only producers touch, always under
// prod_lock, which this function holds; nothing another CPU stores without
// that lock is read, so no store -> load barrier is needed.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

#define ENOSPC 28

struct evt_rec {
	u64 stamp;
	u32 code;
	u32 len;
	u8 payload[48];
};

struct evt_ring {
	/* producer side, protected by prod_lock */
	spinlock_t prod_lock;
	int prod;
	int size;
	unsigned int batch;
	unsigned int wake_batch;
	u64 dropped;
	/* consumer side */
	int cons_head;
	/* shared slots: NULL means free */
	struct evt_rec **slot;
};

extern void evt_ring_wake_reader(struct evt_ring *r);

int evt_ring_post(struct evt_ring *r, struct evt_rec *rec, u64 now, u32 code)
{
	int ret = 0;

	rec->stamp = now;
	rec->code = code;

	spin_lock_bh(&r->prod_lock);
	if (unlikely(!r->size) || READ_ONCE(r->slot[r->prod])) {
		r->dropped++;
		ret = -ENOSPC;
		goto out;
	}

	/* the record must be complete before its pointer is visible */
	smp_wmb();
	WRITE_ONCE(r->slot[r->prod++], rec);
	if (unlikely(r->prod >= r->size))
		r->prod = 0;

	if (++r->batch >= r->wake_batch) {
		r->batch = 0;
		evt_ring_wake_reader(r);
	}
out:
	spin_unlock_bh(&r->prod_lock);
	return ret;
}

/* Lockless single consumer (the reader thread). */
struct evt_rec *evt_ring_take(struct evt_ring *r)
{
	struct evt_rec *rec;

	if (unlikely(!r->size))
		return NULL;
	rec = READ_ONCE(r->slot[r->cons_head]);
	if (!rec)
		return NULL;
	/* rec->... are read through the dependency on rec */
	WRITE_ONCE(r->slot[r->cons_head], NULL);
	if (++r->cons_head >= r->size)
		r->cons_head = 0;
	return rec;
}
