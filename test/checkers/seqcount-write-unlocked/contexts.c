// RUN: %clang_plugin -DBITS_PER_LONG=32 -fplugin-arg-seqlint-checks=seqcount-write-unlocked -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-write-unlocked, per-CPU writers that disagree on exclusion: a
 * u64_stats_sync (a seqcount on 32-bit) or a DEFINE_PER_CPU seqcount has one
 * writer per CPU by design, so two writers race only when one's context can
 * interrupt the other's section on the same CPU: a softirq (NAPI poll, timer,
 * netfilter hook, ndo_start_xmit) against a writer with bottom halves
 * enabled, a hard interrupt handler against one with interrupts enabled.
 * Modelled on nft_counter (fixed by "netfilter: nft_counter: Disable BH in
 * nft_counter_offload_stats()", 2024), bpf prog stats (2021) and gemini's
 * tx reclaim vs its irq handler.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>
#include "Inputs/entry-points.h"

void local_bh_disable(void);
void local_bh_enable(void);
struct napi_struct { int weight; int (*poll)(struct napi_struct *, int); };
struct net_device;
void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int));
extern unsigned long __my_cpu_offset;
#define this_cpu_ptr(p) ((typeof(p))((unsigned long)(p) + __my_cpu_offset))
#define DEFINE_PER_CPU(type, name) __attribute__((section(".data..percpu"))) type name

struct rx_stats {
	u64 packets, bytes;
	struct u64_stats_sync syncp;
};
struct port {
	struct rx_stats stats;
	struct napi_struct napi;
	struct work_struct refill_work;
	struct timer_list stall_timer;
	struct work_struct stall_timer_work;
	spinlock_t lock;
};

/* ---- bugs ---- */

/* NAPI poll (softirq) and a work item that only disables preemption. */
static int port_poll(struct napi_struct *napi, int budget)
{
	struct port *p = container_of(napi, struct port, napi);

	u64_stats_update_begin(&p->stats.syncp);
	p->stats.packets += budget;
	u64_stats_update_end(&p->stats.syncp);
	return budget;
}

static void port_refill(struct work_struct *w)
{
	struct port *p = container_of(w, struct port, refill_work);

	preempt_disable();
	u64_stats_update_begin(&p->stats.syncp); // expected-warning {{write section of 'p->stats.syncp' runs with only preemption disabled when reached from 'port_refill', but 'port_poll' also writes it from softirq context and can interrupt this section on the same CPU}}
	p->stats.bytes += 64;
	u64_stats_update_end(&p->stats.syncp);
	preempt_enable();
}

/* A per-CPU seqcount reached through this_cpu_ptr(): timer vs work item. */
static DEFINE_PER_CPU(seqcount_t, walk_seq);
static DEFINE_PER_CPU(u64, walk_hits);

static void walk_account(void)
{
	seqcount_t *s = this_cpu_ptr(&walk_seq);

	write_seqcount_begin(s);
	*this_cpu_ptr(&walk_hits) += 1;
	write_seqcount_end(s);
}

static void walk_timer(struct timer_list *t)
{
	walk_account();
}

static void walk_work(struct work_struct *w)
{
	seqcount_t *s = this_cpu_ptr(&walk_seq);

	write_seqcount_begin(s); // expected-warning {{write section of '*s' runs with nothing disabled when reached from 'walk_work', but 'walk_timer' also writes it from softirq context}}
	*this_cpu_ptr(&walk_hits) = 0;
	write_seqcount_end(s);
}

void port_setup(struct port *p, struct net_device *dev)
{
	netif_napi_add(dev, &p->napi, port_poll);
	INIT_WORK(&p->refill_work, port_refill);
	INIT_WORK(&p->stall_timer_work, walk_work);
	timer_setup(&p->stall_timer, walk_timer, 0);
}

/* ---- correct code ---- */

typedef int irqreturn_t_;
struct txq {
	struct rx_stats stats;
	struct napi_struct napi;
	struct work_struct reset_work, drain_work, gc_work;
	spinlock_t lock;
};

/* NAPI poll, and a work item that disables bottom halves first. */
static int txq_poll(struct napi_struct *napi, int budget)
{
	struct txq *q = container_of(napi, struct txq, napi);

	u64_stats_update_begin(&q->stats.syncp);
	q->stats.packets += budget;
	u64_stats_update_end(&q->stats.syncp);
	return budget;
}

static void txq_reset(struct work_struct *w)
{
	struct txq *q = container_of(w, struct txq, reset_work);

	local_bh_disable();
	u64_stats_update_begin(&q->stats.syncp);
	q->stats.packets = 0;
	u64_stats_update_end(&q->stats.syncp);
	local_bh_enable();
}

/* A helper whose callers all hold the _bh lock. */
static void txq_account(struct txq *q, u64 bytes)
{
	u64_stats_update_begin(&q->stats.syncp);
	q->stats.bytes += bytes;
	u64_stats_update_end(&q->stats.syncp);
}

static void txq_drain(struct work_struct *w)
{
	struct txq *q = container_of(w, struct txq, drain_work);

	spin_lock_bh(&q->lock);
	txq_account(q, 0);
	spin_unlock_bh(&q->lock);
}

/* The irqsave form keeps out everything. */
static void txq_gc(struct work_struct *w)
{
	struct txq *q = container_of(w, struct txq, gc_work);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&q->stats.syncp);
	q->stats.bytes = 0;
	u64_stats_update_end_irqrestore(&q->stats.syncp, flags);
}

void txq_setup(struct txq *q, struct net_device *dev)
{
	netif_napi_add(dev, &q->napi, txq_poll);
	INIT_WORK(&q->reset_work, txq_reset);
	INIT_WORK(&q->drain_work, txq_drain);
	INIT_WORK(&q->gc_work, txq_gc);
}

/* Two work items (process context) only: u64_stats' own preemption
 * handling is enough; no softirq or interrupt writer. */
struct cfg { struct rx_stats stats; struct work_struct a, b; };
static void cfg_a(struct work_struct *w)
{
	struct cfg *c = container_of(w, struct cfg, a);

	u64_stats_update_begin(&c->stats.syncp);
	c->stats.packets++;
	u64_stats_update_end(&c->stats.syncp);
}
static void cfg_b(struct work_struct *w)
{
	struct cfg *c = container_of(w, struct cfg, b);

	u64_stats_update_begin(&c->stats.syncp);
	c->stats.bytes++;
	u64_stats_update_end(&c->stats.syncp);
}
void cfg_setup(struct cfg *c)
{
	INIT_WORK(&c->a, cfg_a);
	INIT_WORK(&c->b, cfg_b);
}
