// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * Open-coded seqcounts recognized by what the code does, whatever the
 * names: a count copied into a local and stored back as copy + 1 / copy + 2
 * (DPDK-style shared-memory stats), the finding at the first data store in
 * source order even inside a loop; and the ring producer whose index goes up
 * by one with a release after each record, which is message passing, not a
 * write section.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct port_stats { unsigned long ipackets, opackets; };
struct shm_hdr { unsigned int w; unsigned int nb_ports; };
struct shm { struct shm_hdr hdr; struct port_stats port[8]; };

void shm_publish(struct shm *sh, const struct port_stats *pc, unsigned int n)
{
	struct shm_hdr *hdr = &sh->hdr;
	unsigned int w = hdr->w;

	__atomic_store_n(&hdr->w, w + 1, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < n; i++) {
		sh->port[i].ipackets = pc[i].ipackets; // expected-warning {{store to 'sh->port[].ipackets' is not ordered after the odd increment of seqcount 'hdr->w'}}
		sh->port[i].opackets = pc[i].opackets;
	}
	hdr->nb_ports = n;
	__atomic_store_n(&hdr->w, w + 2, __ATOMIC_RELEASE);
}

/* ---- correct code ---- */

void shm_publish_fenced(struct shm *sh, const struct port_stats *pc, unsigned int n)
{
	struct shm_hdr *hdr = &sh->hdr;
	unsigned int w = hdr->w;

	__atomic_store_n(&hdr->w, w + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (unsigned int i = 0; i < n; i++)
		sh->port[i].ipackets = pc[i].ipackets;
	__atomic_store_n(&hdr->w, w + 2, __ATOMIC_RELEASE);
}

/* Two records per event, each published by a release of the index. */
struct rec { int kind; long val; };
struct logbuf { unsigned int tail; struct rec slot[64]; };

void log_two(struct logbuf *lb, long a, long b)
{
	unsigned int tail = lb->tail;

	lb->slot[tail & 63].kind = 1;
	lb->slot[tail & 63].val = a;
	smp_store_release(&lb->tail, tail + 1);
	lb->slot[(tail + 1) & 63].kind = 2;
	lb->slot[(tail + 1) & 63].val = b;
	smp_store_release(&lb->tail, tail + 2);
}
