// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: a store that depends on a load is ordered
 * after it.
 *
 * A log of the requests in flight, kept in memory shared with the front
 * end so that a restarted back end can resubmit them: entries linked into
 * a free list by `next`, the list's head and its previous value. The back
 * end fences its updates of the log (so the file treats its indexes as
 * shared) and takes entries off the free list. The head it stores is the
 * last link it read: a list walked, not a position moved past what was
 * read. The store's value comes from the load, and no CPU makes a store
 * visible before the loads its value depends on. An index moved past an
 * entry whose contents were read, with no dependency on them, is still
 * reported.
 * Modelled on DPDK's lib/vhost/vhost.c (rte_vhost_set_inflight_desc_packed,
 * rte_vhost_clr_inflight_desc_packed); rewritten.
 */
#include <stdint.h>

struct log_entry {
	uint8_t inflight;
	uint16_t next, last, num;
	uint64_t addr;
	uint32_t len;
};

struct flight_log {
	uint16_t free_head, old_free_head;
	uint16_t used_idx, old_used_idx;
	struct log_entry e[];
};

struct ring_desc { uint64_t addr; uint32_t len; uint16_t id, flags; };

struct queue {
	struct flight_log *log;
	struct ring_desc *desc;
	uint16_t size;
};

struct device { struct queue *vq[8]; };

static inline struct queue *get_queue(struct device *dev, unsigned i)
{
	return __atomic_load_n(&dev->vq[i & 7], __ATOMIC_ACQUIRE);
}

/* The back end's fenced update: what makes the log's indexes shared. */
void log_clear(struct device *dev, unsigned qi, uint16_t head)
{
	struct queue *q = get_queue(dev, qi);
	struct flight_log *log = q->log;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	log->e[head].inflight = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	log->old_free_head = log->free_head;
	log->old_used_idx = log->used_idx;
}

/* Logs the descriptors head..last in entries taken off the free list. */
int log_take(struct device *dev, unsigned qi, uint16_t head, uint16_t last)
{
	struct queue *q = get_queue(dev, qi);
	struct flight_log *log = q->log;
	uint16_t first = log->old_free_head, cur;

	if (first >= q->size)
		return -1;
	cur = first;
	log->e[first].num = 0;
	log->e[first].inflight = 1;
	while (head != (uint16_t)((last + 1) % q->size)) {
		log->e[first].num++;
		log->e[cur].addr = q->desc[head].addr;
		log->e[cur].len = q->desc[head].len;
		log->e[first].last = cur;
		cur = log->e[cur].next;
		log->free_head = cur;
		head = (head + 1) % q->size;
	}
	log->old_free_head = cur;
	return first;
}

/* Bug: the entry's length is read, then the index is moved past it by
 * position: nothing the store depends on orders the load. */
uint32_t log_pop_bad(struct device *dev, unsigned qi)
{
	struct queue *q = get_queue(dev, qi);
	struct flight_log *log = q->log;
	uint16_t h = log->old_free_head;
	uint32_t len = log->e[h].len;

	log->old_free_head = (h + 1) % q->size; // expected-warning {{'log->old_free_head' hands the slot back to the producer here, after the load of 'log->e[].len'}}
	return len;
}
