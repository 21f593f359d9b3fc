// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier, one side: a store through the pointer just loaded is
 * ordered after that load (an address dependency).
 *
 * A socket's queues share one buffer area with a reference count: a queue
 * set-up takes the area (created with the count set to 1 by a release, or
 * an existing one with the count stepped up), and on an error path drops
 * its reference with an atomic decrement through the pointer it stored in
 * the queue. The count is tested with acquires elsewhere, so it looks like
 * a word that hands the area over, and the decrement came "after the load
 * of 'rxq->umem'" (or the increment after the load of 'd->shared') with
 * nothing ordering that load. But the step's address is the loaded
 * pointer itself: no CPU performs a store before its address is known.
 * (Loads a store does not depend on are still judged:
 * one-sided-dependency.c.)
 * Modelled on DPDK's drivers/net/af_xdp/rte_eth_af_xdp.c (xsk_configure()
 * and xdp_umem_configure()); rewritten.
 */
#include <stdlib.h>

struct umem { int refcnt; int state; void *pool; };
struct rxq { struct umem *umem; int fd; };
struct dev { struct umem *shared; };

int socket_configure(struct rxq *q);
void umem_destroy(struct umem *u);

static struct umem *umem_configure(struct dev *d)
{
	struct umem *u;

	if (d->shared && __atomic_load_n(&d->shared->refcnt, __ATOMIC_ACQUIRE) < 8) {
		__atomic_fetch_add(&d->shared->refcnt, 1, __ATOMIC_ACQUIRE);
		return d->shared;
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	__atomic_store_n(&u->refcnt, 1, __ATOMIC_RELEASE);
	d->shared = u;
	return u;
}

int queue_attach(struct dev *d, struct rxq *rxq)
{
	int ret;

	rxq->umem = umem_configure(d);
	if (!rxq->umem)
		return -1;
	ret = socket_configure(rxq);
	if (ret)
		goto out_umem;
	return 0;
out_umem:
	if (__atomic_sub_fetch(&rxq->umem->refcnt, 1, __ATOMIC_ACQUIRE) == 0)
		umem_destroy(rxq->umem);
	return ret;
}

// expected-no-diagnostics
