// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/ring.c
// RUN: printf 'APIs:\n  device-memory: [hw_ring_alloc]\n' > %t/.seqlint.yaml
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -DUSER_ALLOC %t/ring.c 2>&1 | FileCheck %s --check-prefix=USER
/*
 * Descriptor rings in coherent DMA memory. The descriptor's words are
 * plain host-order integers (a device that is little-endian like the host
 * and a driver that does not annotate): only the allocation says that the
 * device reads them. A completion entry is polled by its device-endian
 * status word inside a helper and its other words are read in another
 * helper through a second slot pointer (NVMe's cqe_pending() and
 * nvme_handle_cqe(), before b69e2ef24b7b added the dma_rmb()).
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u16 __le16;
typedef u64 dma_addr_t;
struct device;
void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, unsigned gfp);
void *hw_ring_alloc(struct device *dev, size_t size);

#define DESC_OWN 0x80000000u

struct tx_desc { u32 addr; u32 ctrl; };

struct tx_ring {
	struct tx_desc *desc;
	dma_addr_t dma;
	unsigned int next, mask;
};

int tx_ring_alloc(struct device *dev, struct tx_ring *r, unsigned int n)
{
#ifdef USER_ALLOC
	r->desc = hw_ring_alloc(dev, n * sizeof(*r->desc));
#else
	r->desc = dma_alloc_coherent(dev, n * sizeof(*r->desc), &r->dma, 0);
#endif
	r->mask = n - 1;
	return r->desc ? 0 : -1;
}

void tx_post(struct tx_ring *r, u32 addr, u32 len)
{
	struct tx_desc *d = &r->desc[r->next & r->mask];

	d->addr = addr;
	d->ctrl = DESC_OWN | len; // expected-warning {{'d->ctrl' is published here after the store to 'd->addr' with no write barrier}}
	// USER: [[@LINE-1]]:{{.*}}'d->ctrl' is published here after the store to 'd->addr'
	// USER: note: shared with the other side: a descriptor field in memory from hw_ring_alloc()
	r->next++;
}

void tx_post_ok(struct tx_ring *r, u32 addr, u32 len)
{
	struct tx_desc *d = &r->desc[r->next & r->mask];

	d->addr = addr;
	dma_wmb();
	d->ctrl = DESC_OWN | len;
	r->next++;
}

int tx_clean(struct tx_ring *r, unsigned int i)
{
	return !(READ_ONCE(r->desc[i & r->mask].ctrl) & DESC_OWN);
}

/* The same shape in memory that only the CPU sees: no finding. */
struct sw_desc { u32 addr; u32 ctrl; };
struct sw_ring { struct sw_desc *desc; unsigned int next, mask; };

void sw_post(struct sw_ring *r, u32 addr, u32 len)
{
	struct sw_desc *d = &r->desc[r->next & r->mask];

	d->addr = addr;
	d->ctrl = DESC_OWN | len;
	r->next++;
}

int sw_clean(struct sw_ring *r, unsigned int i)
{
	return !(READ_ONCE(r->desc[i & r->mask].ctrl) & DESC_OWN);
}

/* --- completion entries: status polled in one helper, read in another --- */
struct cqe { u64 result; u16 command_id; __le16 status; };
struct cq { struct cqe *cqes; u16 head, depth; u8 phase; };

static inline bool cqe_pending(const struct cq *q)
{
	const struct cqe *e = &q->cqes[q->head];

	return (READ_ONCE(e->status) & 1) == q->phase;
}

static inline u16 cqe_take(const struct cq *q, u64 *res)
{
	const struct cqe *e = &q->cqes[q->head];

	*res = e->result;
	return e->command_id;
}

int cq_poll(struct cq *q, u16 *ids, u64 *res)
{
	int n = 0;

	while (cqe_pending(q)) { // expected-warning {{'e->result' is read after 'e->status' is loaded and tested, with no read barrier}}
		ids[n] = cqe_take(q, &res[n]);
		n++;
		if (++q->head == q->depth) {
			q->head = 0;
			q->phase ^= 1;
		}
	}
	return n;
}

int cq_poll_ok(struct cq *q, u16 *ids, u64 *res)
{
	int n = 0;

	while (cqe_pending(q)) {
		dma_rmb();
		ids[n] = cqe_take(q, &res[n]);
		n++;
		if (++q->head == q->depth) {
			q->head = 0;
			q->phase ^= 1;
		}
	}
	return n;
}

/* A table of rules, one of whose fields is big-endian (a salt in network
 * order), filled by a parser: the record is laid out for a wire format,
 * not handed to a device, and its host-order port is no ownership word,
 * though the file tests it elsewhere. */
typedef u32 __be32;
struct rule { u32 spi; u16 portid; __be32 salt; };
struct rule rules[16];

void rule_parse(unsigned int i, u32 spi, __be32 salt)
{
	struct rule *r = &rules[i & 15];

	r->spi = spi;
	r->portid = 0xffff;
	r->salt = salt;
}

int rule_unbound(unsigned int i)
{
	return READ_ONCE(rules[i & 15].portid) == 0xffff;
}
