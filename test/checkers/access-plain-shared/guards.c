// access-plain-shared: a scoped guard (<linux/cleanup.h> guard()) holds its
// lock only until control leaves the block that declares it. A plain update
// after that block is outside the lock, as the must-held lock analysis
// already knew; the may-held set the access checks use kept the guard to
// the end of the function, and so missed it.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/cleanup.h>

struct port {
	spinlock_t lock;
	unsigned long drops;
	unsigned long resets;
	int state;
};

/* The lockless side: a monitor reads the counters without the lock. */
void port_note(struct port *p, unsigned long d)
{
	WRITE_ONCE(p->drops, d); // expected-note {{'p->drops' is written with WRITE_ONCE() here}}
	WRITE_ONCE(p->resets, 0); // expected-note {{'p->resets' is written with WRITE_ONCE() here}}
}

/* Correct: every update inside the guard's block. */
void port_reset(struct port *p)
{
	guard_spinlock(&p->lock);
	p->drops = 0;
	p->resets++;
}

void port_reset_if(struct port *p, int full)
{
	if (full) {
		guard_spinlock(&p->lock);
		p->drops = 0;
	}
}

/* Bugs: the update comes after the guard's block has ended. */
void port_drop(struct port *p, int reset)
{
	if (reset) {
		guard_spinlock(&p->lock);
		p->state = 0;
	}
	p->drops++; // expected-warning {{plain read-modify-write of 'p->drops' outside any lock, but it is written with WRITE_ONCE() in port_note()}}
}

void port_retry(struct port *p)
{
	for (int i = 0; i < 3; i++) {
		guard_spinlock(&p->lock);
		if (p->state)
			break;
	}
	p->resets++; // expected-warning {{plain read-modify-write of 'p->resets' outside any lock, but it is written with WRITE_ONCE() in port_note()}}
}
