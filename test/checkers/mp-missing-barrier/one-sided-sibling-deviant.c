// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, deviant ordering within one object: one path fills a
 * buffer descriptor's address and length, then a write barrier, then the
 * status word that hands it to the DMA engine; another path stores the same
 * status word right after the same fields with no barrier. The first path
 * says what the status word needs; the second does not give it.
 * Modelled on drivers/net/ethernet/freescale/fec_main.c: the RX refill in
 * fec_enet_rx_queue() (wmb() before cbd_sc) against the XDP transmit path
 * fixed by 9025944fddfe ("net: fec: add dma_wmb to ensure correct
 * descriptor values", Linux 6.4). The descriptor fields are plain u16/u32
 * here, as fec's __fec16/__fec32 are.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define BD_EMPTY 0x8000
#define BD_WRAP 0x2000

struct bd { u16 datlen; u16 sc; u32 bufaddr; };

struct rxq {
	struct bd *cur, *base, *last;
	u32 buf_size;
};

extern u32 map_page(struct rxq *q);

/* The RX path: the engine may use the BD as soon as it sees EMPTY. */
void rxq_refill_one(struct rxq *q, struct bd *bdp)
{
	u16 status = bdp == q->last ? BD_WRAP : 0;

	bdp->bufaddr = map_page(q);
	bdp->datlen = 0;
	wmb();
	bdp->sc = status | BD_EMPTY;
}

/* A second refill path, after an allocation failure, with no barrier before
 * the status word (only before the cursor that the clean-up path reads). */
int rxq_retry_refill(struct rxq *q, struct bd *bdp)
{
	u32 addr = map_page(q);

	if (!addr)
		return -1;
	bdp->bufaddr = addr;
	bdp->datlen = 0;
	bdp->sc = (bdp == q->last ? BD_WRAP : 0) | BD_EMPTY; // expected-warning {{'bdp->sc' is stored here after the store to 'bdp->datlen' of the same object with no write barrier in between, but elsewhere in this file it is stored after a write barrier}}
	dma_wmb();
	q->cur = bdp == q->last ? q->base : bdp + 1;
	return 0;
}

/* Fixed: the same barrier as the first path. */
int rxq_retry_refill_ok(struct rxq *q, struct bd *bdp)
{
	u32 addr = map_page(q);

	if (!addr)
		return -1;
	bdp->bufaddr = addr;
	bdp->datlen = 0;
	dma_wmb();
	bdp->sc = (bdp == q->last ? BD_WRAP : 0) | BD_EMPTY;
	dma_wmb();
	q->cur = bdp == q->last ? q->base : bdp + 1;
	return 0;
}

/* Taking the BD back: status cleared first, nothing handed over. */
void rxq_drop(struct rxq *q, struct bd *bdp)
{
	bdp->bufaddr = 0;
	bdp->sc = 0;
	smp_wmb();
	q->cur = bdp;
}

/* Another structure whose fields are never ordered anywhere: no finding. */
struct stats { u32 packets; u32 bytes; u32 last_len; };

void stats_add(struct stats *s, u32 len)
{
	s->packets++;
	s->bytes += len;
	WRITE_ONCE(s->last_len, len);
}

/* The fenced store writes 0 (work may be queued again); the unfenced one
 * sets the flag that makes other CPUs back off and read nothing: the
 * barrier before the reset says nothing about the set. Modelled on
 * drivers/cpufreq/cpufreq_governor.c: dbs_work_handler() and
 * dbs_update_util_handler() (Linux 6.12). */
struct sampler {
	u64 last_time;
	u64 delay_ns;
	bool busy;
	int work_count;
};

void sampler_done(struct sampler *s, u64 delay)
{
	s->delay_ns = delay;
	WRITE_ONCE(s->work_count, 0);
	smp_wmb();
	s->busy = false;
}

void sampler_tick(struct sampler *s, u64 now)
{
	if (READ_ONCE(s->busy))
		return;
	smp_rmb();
	if (now - s->last_time < s->delay_ns)
		return;
	s->last_time = now;
	s->busy = true;
}
