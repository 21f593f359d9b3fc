// Modelled on: QEMU util/stats64.c (stat64_rdlock/_rdunlock/_wrtrylock/_wrunlock,
//   stat64_get, stat64_set, stat64_min_slow; !CONFIG_ATOMIC64 hosts, QEMU 9.x).
// Correct, and not a seqcount although it looks like one: `lock` has an odd bit (a
// writer holds it) and is bumped by 2 per reader. Readers add 2, wait while the word is
// odd, read high/low, and subtract 2: a reader-writer lock, so there is no recheck and
// no retry, and the writer needs no barrier between its stores (readers exclude it).
// The smp_wmb() in stat64_min_slow orders low before high for the lockless fast path
// of stat64_min(), which reads high before low.
#include <stdint.h>
#include <stdbool.h>

/* include/qemu/atomic.h */
#define barrier()		({ asm volatile("" ::: "memory"); (void)0; })
#define smp_mb_release()	({ barrier(); __atomic_thread_fence(__ATOMIC_RELEASE); })
#define smp_wmb()		smp_mb_release()
#define qatomic_read(ptr)	__atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_set(ptr, i)	__atomic_store_n(ptr, i, __ATOMIC_RELAXED)
#define qatomic_add(ptr, n)	((void)__atomic_fetch_add(ptr, n, __ATOMIC_SEQ_CST))
#define qatomic_sub(ptr, n)	((void)__atomic_fetch_sub(ptr, n, __ATOMIC_SEQ_CST))
#define qatomic_dec(ptr)	((void)__atomic_fetch_sub(ptr, 1, __ATOMIC_SEQ_CST))
#define qatomic_cmpxchg(ptr, old, new) ({				\
	__typeof__(*(ptr)) _old = (old);				\
	(void)__atomic_compare_exchange_n(ptr, &_old, new, false,	\
			__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);		\
	_old;								\
})

static inline void cpu_relax(void) { asm volatile("pause" ::: "memory"); }

typedef struct Stat64 {
	uint32_t low, high;
	uint32_t lock;
} Stat64;

static inline void stat64_rdlock(Stat64 *s)
{
	/* Keep out incoming writers to avoid them starving us. */
	qatomic_add(&s->lock, 2);

	/* If there is a concurrent writer, wait for it. */
	while (qatomic_read(&s->lock) & 1)
		cpu_relax();
}

static inline void stat64_rdunlock(Stat64 *s)
{
	qatomic_sub(&s->lock, 2);
}

static inline bool stat64_wrtrylock(Stat64 *s)
{
	return qatomic_cmpxchg(&s->lock, 0, 1) == 0;
}

static inline void stat64_wrunlock(Stat64 *s)
{
	qatomic_dec(&s->lock);
}

uint64_t stat64_get(const Stat64 *s)
{
	uint32_t high, low;

	stat64_rdlock((Stat64 *)s);
	/* 64-bit writes always take the lock, so we can read in any order. */
	high = qatomic_read(&s->high);
	low = qatomic_read(&s->low);
	stat64_rdunlock((Stat64 *)s);

	return ((uint64_t)high << 32) | low;
}

void stat64_set(Stat64 *s, uint64_t val)
{
	while (!stat64_wrtrylock(s))
		cpu_relax();

	qatomic_set(&s->high, val >> 32);
	qatomic_set(&s->low, val);
	stat64_wrunlock(s);
}

bool stat64_min_slow(Stat64 *s, uint64_t value)
{
	uint32_t high, low;
	uint64_t orig;

	if (!stat64_wrtrylock(s)) {
		cpu_relax();
		return false;
	}

	high = qatomic_read(&s->high);
	low = qatomic_read(&s->low);

	orig = ((uint64_t)high << 32) | low;
	if (value < orig) {
		/* set low before high, just like stat64_min reads high before low */
		qatomic_set(&s->low, (uint32_t)value);
		smp_wmb();
		qatomic_set(&s->high, value >> 32);
	}
	stat64_wrunlock(s);
	return true;
}
