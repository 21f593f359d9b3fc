// DPDK (rte_seqcount, rte_seqlock, rte_smp_*) and Concurrency Kit
// (ck_sequence, ck_pr_fence_*) against the real Debian headers: each API
// use is one event, and the API's own inline bodies are not analysed.
// REQUIRES: dpdk-headers, ck-headers
// RUN: %clang_plugin -fsyntax-only -DALLOW_EXPERIMENTAL_API %dpdk_cflags -fplugin-arg-seqlint-dump-events %s 2>&1 | FileCheck %s --implicit-check-not='function rte_' --implicit-check-not='function ck_'
// RUN: %clang_plugin -fsyntax-only -DALLOW_EXPERIMENTAL_API %dpdk_cflags %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning:
#include <stdint.h>
#include <rte_seqcount.h>
#include <rte_seqlock.h>
#include <rte_atomic.h>
#include <ck_sequence.h>
#include <ck_pr.h>

struct cfg {
	rte_seqcount_t sc;
	rte_seqlock_t sl;
	ck_sequence_t cs;
	uint64_t a, b;
};

uint64_t dpdk_reader(struct cfg *c)
{
	uint32_t sn;
	uint64_t a, b;

	do {
		sn = rte_seqcount_read_begin(&c->sc);
		a = c->a;
		b = c->b;
	} while (rte_seqcount_read_retry(&c->sc, sn));
	return a + b;
}
// CHECK-LABEL: function dpdk_reader
// CHECK-NEXT: read-begin api=rte_seqcount_read_begin key=c->sc
// CHECK-NEXT: load key=c->a
// CHECK-NEXT: load key=c->b
// CHECK-NEXT: read-retry api=rte_seqcount_read_retry key=c->sc

void dpdk_writer(struct cfg *c, uint64_t v)
{
	rte_seqlock_write_lock(&c->sl);
	c->a = v;
	c->b = v;
	rte_seqlock_write_unlock(&c->sl);
	rte_smp_wmb();
	rte_smp_rmb();
	rte_smp_mb();
}
// CHECK-LABEL: function dpdk_writer
// CHECK-NEXT: write-begin api=rte_seqlock_write_lock key=c->sl
// CHECK-NEXT: store key=c->a
// CHECK-NEXT: store key=c->b
// CHECK-NEXT: write-end api=rte_seqlock_write_unlock key=c->sl
// CHECK-NEXT: barrier api=rte_smp_wmb orders=SS
// CHECK-NEXT: barrier api=rte_smp_rmb orders=LL
// CHECK-NEXT: barrier api=rte_smp_mb orders=LLLSSSSL

uint64_t ck_reader(struct cfg *c)
{
	unsigned int v;
	uint64_t a;

	do {
		v = ck_sequence_read_begin(&c->cs);
		a = ck_pr_load_64(&c->a);
	} while (ck_sequence_read_retry(&c->cs, v));
	return a;
}
// CHECK-LABEL: function ck_reader
// CHECK-NEXT: read-begin api=ck_sequence_read_begin key=c->cs
// CHECK: read-retry api=ck_sequence_read_retry key=c->cs

void ck_writer(struct cfg *c, uint64_t v)
{
	ck_sequence_write_begin(&c->cs);
	ck_pr_store_64(&c->a, v);
	ck_sequence_write_end(&c->cs);
	ck_pr_fence_store();
	ck_pr_fence_load();
}
// CHECK-LABEL: function ck_writer
// CHECK-NEXT: write-begin api=ck_sequence_write_begin key=c->cs
// CHECK: write-end api=ck_sequence_write_end key=c->cs
// CHECK-NEXT: barrier api=ck_pr_fence_store orders=SS
// CHECK-NEXT: barrier api=ck_pr_fence_load orders=LL

/* The DPDK reader with its retry result ignored: flagged. */
uint64_t dpdk_no_retry(struct cfg *c)
{
	uint32_t sn = rte_seqcount_read_begin(&c->sc);
	uint64_t a = c->a;

	rte_seqcount_read_retry(&c->sc, sn);
	return a;
}
// DIAG: dpdk-ck.c:[[@LINE-3]]:2: warning: result of rte_seqcount_read_retry() on 'c->sc' is ignored{{.*}}[seqlint-seqcount-read-no-retry]
