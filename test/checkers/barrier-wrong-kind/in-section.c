// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
/*
 * barrier-wrong-kind inside a seqcount section, every check on: a read
 * barrier (or an acquire fence) where a write section needs store->store
 * order, a write barrier (or a release fence) where a read section needs
 * load->load order. One finding, at the barrier, with a fix-it -- not a
 * second "missing barrier" at the access it fails to order.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <stdatomic.h>

struct clk { unsigned v; unsigned long mult, base; };

void clk_write(struct clk *c, unsigned long m, unsigned long b)
{
	WRITE_ONCE(c->v, c->v + 1);
	smp_rmb(); // expected-warning {{smp_rmb() inside the write section of 'c->v' does not order stores: the data stores can become visible outside the odd count that guards them; use smp_wmb()}}
	// CHECK: fix-it:"{{.*}}in-section.c":{[[@LINE-1]]:2-[[@LINE-1]]:9}:"smp_wmb"
	WRITE_ONCE(c->mult, m);
	WRITE_ONCE(c->base, b);
	smp_wmb();
	WRITE_ONCE(c->v, c->v + 1);
}

unsigned long clk_read(struct clk *c)
{
	unsigned v;
	unsigned long m, b;

	do {
		v = smp_load_acquire(&c->v) & ~1U;
		m = READ_ONCE(c->mult);
		b = READ_ONCE(c->base);
		smp_wmb(); // expected-warning {{smp_wmb() inside the read section of 'c->v' does not order loads: the count can be read on the wrong side of the data loads and validate a torn read; use smp_rmb()}}
		// CHECK: fix-it:"{{.*}}in-section.c":{[[@LINE-1]]:3-[[@LINE-1]]:10}:"smp_rmb"
	} while (READ_ONCE(c->v) != v);
	return m * b;
}

struct cal { _Atomic unsigned era; _Atomic unsigned long mult; };

void cal_write(struct cal *c, unsigned long m)
{
	unsigned e = atomic_load_explicit(&c->era, memory_order_relaxed);

	atomic_store_explicit(&c->era, e + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire); // expected-warning {{the acquire fence inside the write section of 'c->era' does not order stores}}
	atomic_store_explicit(&c->mult, m, memory_order_relaxed);
	atomic_store_explicit(&c->era, e + 2, memory_order_release);
}

unsigned long cal_read(struct cal *c)
{
	unsigned e;
	unsigned long m;

	do {
		e = atomic_load_explicit(&c->era, memory_order_acquire);
		m = atomic_load_explicit(&c->mult, memory_order_relaxed);
		atomic_thread_fence(memory_order_release); // expected-warning {{the release fence inside the read section of 'c->era' does not order loads: the count can be read on the wrong side of the data loads and validate a torn read; use atomic_thread_fence(memory_order_acquire)}}
	} while ((e & 1) || atomic_load_explicit(&c->era, memory_order_relaxed) != e);
	return m;
}

/* ---- correct code ---- */

void clk_write_ok(struct clk *c, unsigned long m)
{
	WRITE_ONCE(c->v, c->v + 1);
	smp_wmb();
	WRITE_ONCE(c->mult, m);
	smp_wmb();
	WRITE_ONCE(c->v, c->v + 1);
}

/* A full barrier orders everything. */
unsigned long clk_read_ok(struct clk *c)
{
	unsigned v;
	unsigned long m;

	do {
		v = smp_load_acquire(&c->v) & ~1U;
		m = READ_ONCE(c->mult);
		smp_mb();
	} while (READ_ONCE(c->v) != v);
	return m;
}

/* A read barrier in a write section that orders nothing of it is not in
 * the way: the section's own smp_wmb() follows it. */
void clk_write_extra(struct clk *c, unsigned long m, const unsigned long *src)
{
	unsigned long x = READ_ONCE(*src);

	smp_rmb();
	WRITE_ONCE(c->v, c->v + 1);
	smp_wmb();
	WRITE_ONCE(c->mult, m + x);
	smp_wmb();
	WRITE_ONCE(c->v, c->v + 1);
}

/* KVM's guest clock update (arch/x86/kvm/x86.c, kvm_setup_guest_pvclock()):
 * the count is made odd with `(v + 1) | 1` through a host copy in the same
 * assignment, and made even again by storing the copy's increment. A read
 * barrier after the odd step orders none of the data stores. */
struct gclock {
	unsigned int version;
	unsigned long tsc;
	unsigned long ns;
};
struct vclock {
	struct gclock host;
	struct gclock *guest;
};
void gclock_publish_rmb(struct vclock *vc)
{
	struct gclock *g = vc->guest;

	g->version = vc->host.version = (g->version + 1) | 1;
	smp_rmb(); // expected-warning {{smp_rmb() inside the write section of 'g->version' does not order stores}}
	g->tsc = vc->host.tsc;
	g->ns = vc->host.ns;
	smp_wmb();
	g->version = ++vc->host.version;
}
/* The same with the write barrier it needs: silent. */
void gclock_publish(struct vclock *vc)
{
	struct gclock *g = vc->guest;

	g->version = vc->host.version = (g->version + 1) | 1;
	smp_wmb();
	g->tsc = vc->host.tsc;
	g->ns = vc->host.ns;
	smp_wmb();
	g->version = ++vc->host.version;
}
