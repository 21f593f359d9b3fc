// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A lock taken inside a read section's retry loop and still held where the
 * loop retries: the next attempt takes it again and spins on itself (an
 * open-coded read_seqbegin_or_lock() that forgot to stop retrying once it
 * holds the lock). A lock taken and released inside the attempt, or a
 * retry that stops once the lock is held, is fine.
 */
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

struct sig {
	unsigned int state;
	spinlock_t lock;
	unsigned long utime, stime;
};

void sig_times_bad(struct sig *s, unsigned long *ut, unsigned long *st)
{
	unsigned int v;
	int pass = 0;
	int locked = 0;

	do {
		v = READ_ONCE(s->state) & ~1U;
		if (pass) {
			spin_lock(&s->lock); // expected-warning {{call to spin_lock() inside the read section of 's->state'}}
			locked = 1;
		}
		smp_rmb();
		*ut = s->utime;
		*st = s->stime;
		smp_rmb();
		pass = 1;
	} while (READ_ONCE(s->state) != v);
	if (locked)
		spin_unlock(&s->lock);
}

/* The retry stops once the lock is held. */
void sig_times_good(struct sig *s, unsigned long *ut, unsigned long *st)
{
	unsigned int v;
	int pass = 0;
	int locked = 0;

	do {
		v = READ_ONCE(s->state) & ~1U;
		if (pass) {
			spin_lock(&s->lock);
			locked = 1;
		}
		smp_rmb();
		*ut = s->utime;
		*st = s->stime;
		smp_rmb();
		pass = 1;
	} while (!locked && READ_ONCE(s->state) != v);
	if (locked)
		spin_unlock(&s->lock);
}

/* Taken and released inside the attempt. */
void sig_times_nested(struct sig *s, unsigned long *ut, unsigned long *st)
{
	unsigned int v;

	do {
		v = READ_ONCE(s->state) & ~1U;
		smp_rmb();
		spin_lock(&s->lock);
		*ut = s->utime;
		spin_unlock(&s->lock);
		*st = s->stime;
		smp_rmb();
	} while (READ_ONCE(s->state) != v);
}

void sig_account(struct sig *s, unsigned long u)
{
	spin_lock(&s->lock);
	WRITE_ONCE(s->state, s->state + 1);
	smp_wmb();
	s->utime += u;
	s->stime += u;
	smp_wmb();
	WRITE_ONCE(s->state, s->state + 1);
	spin_unlock(&s->lock);
}
