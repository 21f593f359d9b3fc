// REQUIRES: dpdk-headers
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note -DALLOW_EXPERIMENTAL_API %dpdk_cflags %s
/*
 * mp-missing-barrier: DPDK's rte_io_wmb() before a relaxed doorbell write
 * is the write barrier the doorbell needs.
 *
 * A transmit burst fills descriptors in device memory, then issues
 * rte_io_wmb() and writes the tail register with a relaxed write. On x86
 * the real header defines rte_io_wmb() as a compiler barrier (stores and
 * device writes are ordered there anyway), so it was seen as no barrier
 * at all and the doorbell was reported. rte_io_wmb() and rte_io_mb() are
 * DPDK's device write barriers by name, whatever an architecture expands
 * them to. A doorbell with no barrier before it is still reported.
 * Modelled on DPDK's drivers/net/i40e/i40e_rxtx.c (i40e_xmit_pkts());
 * rewritten.
 */
#include <stdint.h>
#include <rte_atomic.h>
#include <rte_io.h>

struct tx_desc { uint64_t addr; uint64_t cmd; };
struct txq {
	volatile struct tx_desc *ring;
	volatile void *tail_reg;
	uint16_t tail, mask;
};

uint16_t xmit(struct txq *q, const uint64_t *addr, const uint16_t *len, uint16_t n)
{
	uint16_t i, id = q->tail;

	for (i = 0; i < n; i++) {
		volatile struct tx_desc *d = &q->ring[id];

		d->addr = addr[i];
		d->cmd = ((uint64_t)len[i] << 34) | 1;
		id = (id + 1) & q->mask;
	}
	rte_io_wmb();
	rte_write32_relaxed(id, q->tail_reg);
	q->tail = id;
	return n;
}

uint16_t xmit_unordered(struct txq *q, uint64_t addr, uint16_t len)
{
	uint16_t id = q->tail;
	volatile struct tx_desc *d = &q->ring[id];

	d->addr = addr;
	d->cmd = ((uint64_t)len << 34) | 1;
	id = (id + 1) & q->mask;
	rte_write32_relaxed(id, q->tail_reg); // expected-warning {{the doorbell is written here after the store to}}
	q->tail = id;
	return 1;
}
