// Recognition of QEMU's seqlock API (include/qemu/seqlock.h shapes:
// static inline functions on QemuSeqLock), C11 <stdatomic.h> atomics and
// fences, GNU __atomic builtins, and the kernel latch and u64_stats APIs.
// RUN: %clang_plugin -std=gnu11 -fsyntax-only -fplugin-arg-seqlint-dump-events %s 2>&1 | FileCheck %s
// RUN: %clang_plugin -std=gnu11 -fsyntax-only %s 2>&1 | count 0
#include <stdatomic.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>

/* QEMU: include/qemu/seqlock.h is a set of static inline functions. */
typedef struct QemuSeqLock { unsigned sequence; } QemuSeqLock;
static inline unsigned seqlock_read_begin(const QemuSeqLock *sl)
{
	return __atomic_load_n(&sl->sequence, __ATOMIC_ACQUIRE) & ~1;
}
static inline int seqlock_read_retry(const QemuSeqLock *sl, unsigned start)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&sl->sequence, __ATOMIC_RELAXED) != start;
}
static inline void seqlock_write_begin(QemuSeqLock *sl)
{
	__atomic_store_n(&sl->sequence, sl->sequence + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}
static inline void seqlock_write_end(QemuSeqLock *sl)
{
	__atomic_store_n(&sl->sequence, sl->sequence + 1, __ATOMIC_RELEASE);
}

struct vcpu {
	QemuSeqLock lock;
	long clock;
};

long qemu_get_clock(struct vcpu *v)
{
	unsigned start;
	long val;

	do {
		start = seqlock_read_begin(&v->lock);
		val = v->clock;
	} while (seqlock_read_retry(&v->lock, start));
	return val;
}
// CHECK-LABEL: function qemu_get_clock
// CHECK-NEXT: read-begin api=seqlock_read_begin key=v->lock
// CHECK-NEXT: load key=v->clock
// CHECK-NEXT: read-retry api=seqlock_read_retry key=v->lock

void qemu_set_clock(struct vcpu *v, long val)
{
	seqlock_write_begin(&v->lock);
	v->clock = val;
	seqlock_write_end(&v->lock);
}
// CHECK-LABEL: function qemu_set_clock
// CHECK-NEXT: write-begin api=seqlock_write_begin key=v->lock
// CHECK-NEXT: store key=v->clock
// CHECK-NEXT: write-end api=seqlock_write_end key=v->lock

struct c11 {
	atomic_uint seq;
	atomic_long data;
	long plain;
};

void c11_accesses(struct c11 *c, long v)
{
	atomic_thread_fence(memory_order_acquire);
	atomic_thread_fence(memory_order_release);
	atomic_thread_fence(memory_order_seq_cst);
	atomic_signal_fence(memory_order_seq_cst);
	atomic_store_explicit(&c->data, v, memory_order_release);
	(void)atomic_load_explicit(&c->data, memory_order_acquire);
	atomic_fetch_add_explicit(&c->seq, 1, memory_order_relaxed);
	__atomic_store_n(&c->plain, v, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQ_REL);
	c->data = v;
}
// CHECK-LABEL: function c11_accesses
// CHECK-NEXT: barrier orders=LLLS
// CHECK-NEXT: barrier orders=LSSS
// CHECK-NEXT: barrier orders=LLLSSSSL
// CHECK-NEXT: barrier orders=none
// CHECK-NEXT: store key=c->data order=release
// CHECK-NEXT: load key=c->data order=acquire
// CHECK-NEXT: rmw key=c->seq order=once increment
// CHECK-NEXT: store key=c->plain order=once
// CHECK-NEXT: barrier orders=LLLSSS
// CHECK-NEXT: store key=c->data order=seq_cst

struct latched {
	seqcount_latch_t seq;
	long data[2];
};

long latch_read(struct latched *l)
{
	unsigned seq;
	long v;

	do {
		seq = raw_read_seqcount_latch(&l->seq);
		v = l->data[seq & 1];
	} while (raw_read_seqcount_latch_retry(&l->seq, seq));
	return v;
}
// CHECK-LABEL: function latch_read
// CHECK-NEXT: read-begin api=raw_read_seqcount_latch key=l->seq
// CHECK-NEXT: load key=l->data[]
// CHECK-NEXT: read-retry api=raw_read_seqcount_latch_retry key=l->seq

struct stats {
	struct u64_stats_sync syncp;
	u64_stats_t packets;
};

u64 stats_read(struct stats *s)
{
	unsigned start;
	u64 p;

	do {
		start = u64_stats_fetch_begin(&s->syncp);
		p = u64_stats_read(&s->packets);
	} while (u64_stats_fetch_retry(&s->syncp, start));
	return p;
}
// CHECK-LABEL: function stats_read
// CHECK-NEXT: read-begin api=u64_stats_fetch_begin key=s->syncp
// CHECK-NEXT: read-retry api=u64_stats_fetch_retry key=s->syncp
