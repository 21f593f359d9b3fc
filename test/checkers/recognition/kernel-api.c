// Recognition of the kernel seqlock API, barriers and accessors from the
// 6.12-shaped stub headers: each use is one event, whatever it expands to.
// RUN: %clang_plugin -fsyntax-only -fplugin-arg-seqlint-dump-events %s 2>&1 | FileCheck %s
#include <linux/seqlock.h>

struct obj {
	seqcount_t sc;
	seqcount_spinlock_t scl;
	seqlock_t lock;
	spinlock_t slock;
	int a, b;
	int *ptr;
};

int api_reader(struct obj *o)
{
	unsigned seq;
	int a;

	do {
		seq = read_seqcount_begin(&o->sc);
		a = o->a;
	} while (read_seqcount_retry(&o->sc, seq));
	return a;
}
// CHECK-LABEL: function api_reader
// CHECK-NEXT: 21:9 read-begin api=read_seqcount_begin key=o->sc order=acquire
// CHECK-NEXT: 22:7 load key=o->a order=plain
// CHECK-NEXT: 23:11 read-retry api=read_seqcount_retry key=o->sc
// CHECK-NOT: no-barrier
// CHECK: return

int raw_reader(struct obj *o)
{
	unsigned seq = raw_seqcount_begin(&o->scl);
	int a = o->a;

	smp_rmb();
	if (__read_seqcount_retry(&o->scl, seq))
		return -1;
	return a;
}
// CHECK-LABEL: function raw_reader
// CHECK-NEXT: read-begin api=raw_seqcount_begin key=o->scl
// CHECK-NEXT: load key=o->a
// CHECK-NEXT: barrier api=smp_rmb orders=LL
// CHECK-NEXT: read-retry api=__read_seqcount_retry key=o->scl no-barrier

void api_writer(struct obj *o, int v)
{
	unsigned long flags;

	write_seqlock_irqsave(&o->lock, flags);
	WRITE_ONCE(o->a, v);
	write_sequnlock_irqrestore(&o->lock, flags);
	write_seqcount_begin(&o->sc);
	o->b = v;
	write_seqcount_end(&o->sc);
}
// CHECK-LABEL: function api_writer
// CHECK-NEXT: write-begin api=write_seqlock_irqsave key=o->lock
// CHECK-NEXT: store api=WRITE_ONCE key=o->a order=once
// CHECK-NEXT: write-end api=write_sequnlock_irqrestore key=o->lock
// CHECK-NEXT: write-begin api=write_seqcount_begin key=o->sc
// CHECK-NEXT: store key=o->b order=plain
// CHECK-NEXT: write-end api=write_seqcount_end key=o->sc

void barriers(struct obj *o, int *p)
{
	smp_mb();
	smp_wmb();
	smp_rmb();
	barrier();
	smp_store_release(&o->a, 1);
	(void)smp_load_acquire(&o->b);
	WRITE_ONCE(*p, READ_ONCE(o->a) + 1);
	smp_mb__before_atomic();
}
// CHECK-LABEL: function barriers
// CHECK-NEXT: barrier api=smp_mb orders=LLLSSSSL
// CHECK-NEXT: barrier api=smp_wmb orders=SS
// CHECK-NEXT: barrier api=smp_rmb orders=LL
// CHECK-NEXT: barrier api=barrier orders=none
// CHECK-NEXT: store api=smp_store_release key=o->a order=release
// CHECK-NEXT: load api=smp_load_acquire key=o->b order=acquire
// CHECK-NEXT: load api=READ_ONCE key=o->a order=once
// CHECK-NEXT: store api=WRITE_ONCE key=*p order=once
// CHECK-NEXT: barrier api=smp_mb__before_atomic orders=LLLSSSSL

int seqlock_reader(struct obj *o)
{
	unsigned seq;
	int a;

	do {
		seq = read_seqbegin(&o->lock);
		a = o->a;
	} while (read_seqretry(&o->lock, seq));
	return a;
}
// CHECK-LABEL: function seqlock_reader
// CHECK-NEXT: read-begin api=read_seqbegin key=o->lock
// CHECK-NEXT: load key=o->a
// CHECK-NEXT: read-retry api=read_seqretry key=o->lock

int or_lock_reader(struct obj *o)
{
	int seq = 0, a;

again:
	read_seqbegin_or_lock(&o->lock, &seq);
	a = o->a;
	if (need_seqretry(&o->lock, seq)) {
		seq = 1;
		goto again;
	}
	done_seqretry(&o->lock, seq);
	return a;
}
// CHECK-LABEL: function or_lock_reader
// CHECK-NEXT: read-begin-or-lock api=read_seqbegin_or_lock key=o->lock
// CHECK-NEXT: load key=o->a
// CHECK-NEXT: read-retry api=need_seqretry key=o->lock
// CHECK: read-done api=done_seqretry key=o->lock
