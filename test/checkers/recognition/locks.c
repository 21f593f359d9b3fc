// The lock model (core/LockAnalysis): the must-held lock set before each
// event, as the event dump shows it (" held=..."), for the kernel lock APIs,
// write_seqlock, lockdep_assert_held, trylocks in conditions, guards and
// pthread locks. A lock is held only if every path to the point took it.
// The dump also shows the access checks' view (core/AccessContext): a lock
// some path holds (" may-held", when no lock is held on every path), the
// write sections that may be open (" write-open=") and the read sections
// open on every path (" read-open=").
// RUN: %clang_plugin -fsyntax-only -fplugin-arg-seqlint-dump-events %s 2>&1 | FileCheck %s
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>

struct obj {
	spinlock_t lock;
	raw_spinlock_t rlock;
	rwlock_t rw;
	struct mutex m;
	seqlock_t sl;
	int x;
};
static DEFINE_SPINLOCK(glock);

void variants(struct obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->lock, flags);
	o->x = 1;
	spin_unlock_irqrestore(&o->lock, flags);
	raw_spin_lock_bh(&o->rlock);
	o->x = 2;
	raw_spin_unlock_bh(&o->rlock);
	read_lock_irq(&o->rw);
	o->x = 3;
	read_unlock_irq(&o->rw);
	write_seqlock_irqsave(&o->sl, flags);
	o->x = 4;
	write_sequnlock_irqrestore(&o->sl, flags);
	o->x = 5;
}
// CHECK-LABEL: function variants
// CHECK: store key=o->x order=plain held=o->lock{{$}}
// CHECK: unlock api=spin_unlock_irqrestore key=o->lock held=o->lock{{$}}
// CHECK: store key=o->x order=plain held=o->rlock{{$}}
// CHECK: store key=o->x order=plain held=o->rw(shared){{$}}
// CHECK: store key=o->x order=plain held=o->sl write-open=o->sl{{$}}
// CHECK: store key=o->x order=plain{{$}}

/* Must-hold: a lock taken on one branch only is not held after the merge. */
void merge(struct obj *o, int c)
{
	if (c)
		spin_lock(&o->lock);
	else
		spin_lock(&glock);
	o->x = 1;
	if (c)
		spin_unlock(&o->lock);
	else
		spin_unlock(&glock);
	mutex_lock(&o->m);
	while (c--)
		o->x = 2;
	mutex_unlock(&o->m);
}
// CHECK-LABEL: function merge
// CHECK: store key=o->x order=plain may-held{{$}}
// CHECK: store key=o->x order=plain held=o->m{{$}}

/* Sections: a read section is open between a begin and its retry. */
int reader(struct obj *o)
{
	unsigned s;
	int v;

	do {
		s = read_seqbegin(&o->sl);
		v = o->x;
	} while (read_seqretry(&o->sl, s));
	return v;
}
// CHECK-LABEL: function reader
// CHECK: load key=o->x order=plain read-open=o->sl{{$}}
// CHECK: read-retry api=read_seqretry key=o->sl read-open=o->sl{{$}}

/* Trylocks: held on the success branch only. */
int trylocks(struct obj *o)
{
	if (spin_trylock(&o->lock)) {
		o->x = 1;
		spin_unlock(&o->lock);
	}
	if (!mutex_trylock(&o->m))
		return -1;
	o->x = 2;
	mutex_unlock(&o->m);
	return 0;
}
// CHECK-LABEL: function trylocks
// CHECK: store key=o->x order=plain held=o->lock{{$}}
// CHECK: store key=o->x order=plain held=o->m{{$}}

void assert_held(struct obj *o)
{
	lockdep_assert_held(&o->lock);
	o->x = 1;
}
// CHECK-LABEL: function assert_held
// CHECK: store key=o->x order=plain held=o->lock(asserted){{$}}

/* <linux/cleanup.h> guards (the test header: what they expand to). */
#include <linux/cleanup.h>

void guarded(struct obj *o, int c)
{
	if (c) {
		guard_spinlock(&o->lock);
		WRITE_ONCE(o->x, 1);
	}
	WRITE_ONCE(o->x, 2);
	for (;;) {
		guard_spinlock(&o->lock);
		if (READ_ONCE(o->x))
			break;
	}
	WRITE_ONCE(o->x, 3);
}
// CHECK-LABEL: function guarded
// CHECK: store api=WRITE_ONCE key=o->x order=once held=o->lock(scoped){{$}}
// CHECK: store api=WRITE_ONCE key=o->x order=once{{$}}
// CHECK: load api=READ_ONCE key=o->x order=once held=o->lock(scoped){{$}}
// CHECK: store api=WRITE_ONCE key=o->x order=once{{$}}

/* POSIX: pthread_mutex_trylock() returns 0 on success. */
typedef struct { int v; } pthread_mutex_t;
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_trylock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
pthread_mutex_t pm;
int shared_x;

void posix(void)
{
	pthread_mutex_lock(&pm);
	shared_x = 1;
	pthread_mutex_unlock(&pm);
	if (pthread_mutex_trylock(&pm) == 0) {
		shared_x = 2;
		pthread_mutex_unlock(&pm);
	}
	shared_x = 3;
}
// CHECK-LABEL: function posix
// CHECK: store key=shared_x order=plain held=pm{{$}}
// CHECK: store key=shared_x order=plain held=pm{{$}}
// CHECK: store key=shared_x order=plain{{$}}
