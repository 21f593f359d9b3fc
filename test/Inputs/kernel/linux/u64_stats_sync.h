/* seqlint test stub: mimics Linux 6.12 <linux/u64_stats_sync.h>.
 * NOTE: on 64-bit (x86_64, the default here) every u64_stats_* sync call is an
 * EMPTY static inline (fetch_begin returns 0, fetch_retry returns false) and the
 * counters are local64_t; only with BITS_PER_LONG == 32 (-DBITS_PER_LONG=32) are
 * they backed by a seqcount_t (write_seqcount_begin / read_seqcount_begin ...). */
#ifndef SEQLINT_STUB_LINUX_U64_STATS_SYNC_H
#define SEQLINT_STUB_LINUX_U64_STATS_SYNC_H

#include <linux/types.h>
#include <linux/seqlock.h>
#include <linux/irqflags.h>

struct u64_stats_sync {
#if BITS_PER_LONG == 32
	seqcount_t seq;
#endif
};

#if BITS_PER_LONG == 64

/* asm/local64.h -> local_t: non-LOCKed asm on x86. */
typedef struct { atomic_long_t a; } local_t;
typedef struct { local_t a; } local64_t;

static inline s64 local64_read(const local64_t *l)
{
	return READ_ONCE(l->a.a.counter);
}
static inline void local64_set(local64_t *l, s64 v)
{
	WRITE_ONCE(l->a.a.counter, v);
}
static inline void local64_add(s64 i, local64_t *l)
{
	asm volatile("addq %1, %0" : "+m"(l->a.a.counter) : "ir"(i));
}
static inline void local64_inc(local64_t *l)
{
	asm volatile("incq %0" : "+m"(l->a.a.counter));
}

typedef struct {
	local64_t v;
} u64_stats_t;

static inline u64 u64_stats_read(const u64_stats_t *p) { return local64_read(&p->v); }
static inline void u64_stats_set(u64_stats_t *p, u64 val) { local64_set(&p->v, val); }
static inline void u64_stats_add(u64_stats_t *p, unsigned long val) { local64_add(val, &p->v); }
static inline void u64_stats_sub(u64_stats_t *p, s64 val) { local64_add(-val, &p->v); }
static inline void u64_stats_inc(u64_stats_t *p) { local64_inc(&p->v); }

static inline void u64_stats_init(struct u64_stats_sync *syncp) { }
static inline void __u64_stats_update_begin(struct u64_stats_sync *syncp) { }
static inline void __u64_stats_update_end(struct u64_stats_sync *syncp) { }
static inline unsigned long __u64_stats_irqsave(void) { return 0; }
static inline void __u64_stats_irqrestore(unsigned long flags) { }
static inline unsigned int __u64_stats_fetch_begin(const struct u64_stats_sync *syncp)
{
	return 0;
}
static inline bool __u64_stats_fetch_retry(const struct u64_stats_sync *syncp,
					   unsigned int start)
{
	return false;
}

#else /* 32-bit */

typedef struct {
	u64 v;
} u64_stats_t;

static inline u64 u64_stats_read(const u64_stats_t *p) { return p->v; }
static inline void u64_stats_set(u64_stats_t *p, u64 val) { p->v = val; }
static inline void u64_stats_add(u64_stats_t *p, unsigned long val) { p->v += val; }
static inline void u64_stats_sub(u64_stats_t *p, s64 val) { p->v -= val; }
static inline void u64_stats_inc(u64_stats_t *p) { p->v++; }

#define u64_stats_init(syncp)						\
	do {								\
		struct u64_stats_sync *__s = (syncp);			\
		seqcount_init(&__s->seq);				\
	} while (0)

static inline void __u64_stats_update_begin(struct u64_stats_sync *syncp)
{
	preempt_disable_nested();
	write_seqcount_begin(&syncp->seq);
}

static inline void __u64_stats_update_end(struct u64_stats_sync *syncp)
{
	write_seqcount_end(&syncp->seq);
	preempt_enable_nested();
}

static inline unsigned long __u64_stats_irqsave(void)
{
	unsigned long flags;

	local_irq_save(flags);
	return flags;
}

static inline void __u64_stats_irqrestore(unsigned long flags)
{
	local_irq_restore(flags);
}

static inline unsigned int __u64_stats_fetch_begin(const struct u64_stats_sync *syncp)
{
	return read_seqcount_begin(&syncp->seq);
}

static inline bool __u64_stats_fetch_retry(const struct u64_stats_sync *syncp,
					   unsigned int start)
{
	return read_seqcount_retry(&syncp->seq, start);
}

#endif

/* The public API is the same static inline wrappers on both. */
static inline void u64_stats_update_begin(struct u64_stats_sync *syncp)
{
	__u64_stats_update_begin(syncp);
}

static inline void u64_stats_update_end(struct u64_stats_sync *syncp)
{
	__u64_stats_update_end(syncp);
}

static inline unsigned long u64_stats_update_begin_irqsave(struct u64_stats_sync *syncp)
{
	unsigned long flags = __u64_stats_irqsave();

	__u64_stats_update_begin(syncp);
	return flags;
}

static inline void u64_stats_update_end_irqrestore(struct u64_stats_sync *syncp,
						   unsigned long flags)
{
	__u64_stats_update_end(syncp);
	__u64_stats_irqrestore(flags);
}

static inline unsigned int u64_stats_fetch_begin(const struct u64_stats_sync *syncp)
{
	return __u64_stats_fetch_begin(syncp);
}

static inline bool u64_stats_fetch_retry(const struct u64_stats_sync *syncp,
					 unsigned int start)
{
	return __u64_stats_fetch_retry(syncp, start);
}

#endif
