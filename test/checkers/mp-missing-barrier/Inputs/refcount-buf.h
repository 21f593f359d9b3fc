/* A packet buffer library's header: a reference count read and set with
 * relaxed atomics, and stepped with an atomic add when a reference is
 * taken or dropped. Modelled on DPDK's lib/mbuf/rte_mbuf.h; rewritten. */
#include <stdint.h>

struct pbuf {
	void *buf_addr;
	uint16_t data_off;
	uint16_t data_len;
	uint16_t refcnt;
	uint16_t nb_segs;
	struct pbuf *next;
};

static inline uint16_t pbuf_refcnt_read(const struct pbuf *m)
{
	return __atomic_load_n(&m->refcnt, __ATOMIC_RELAXED);
}

static inline void pbuf_refcnt_set(struct pbuf *m, uint16_t v)
{
	__atomic_store_n(&m->refcnt, v, __ATOMIC_RELAXED);
}

static inline uint16_t pbuf_refcnt_update(struct pbuf *m, int16_t v)
{
	return __atomic_add_fetch(&m->refcnt, (uint16_t)v, __ATOMIC_ACQ_REL);
}

static inline int pbuf_prefree(struct pbuf *m)
{
	if (pbuf_refcnt_read(m) == 1)
		return 1;
	return pbuf_refcnt_update(m, -1) == 0;
}
