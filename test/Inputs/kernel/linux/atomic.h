/* seqlint test stub: mimics Linux 6.12 <linux/atomic.h> on x86_64: the public
 * atomic_*() are static inlines (instrumented wrappers -> raw_ -> arch_), and the
 * arch_ ops are inline asm (LOCK-prefixed for RMW), reads/sets are READ_ONCE/WRITE_ONCE. */
#ifndef SEQLINT_STUB_LINUX_ATOMIC_H
#define SEQLINT_STUB_LINUX_ATOMIC_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/cmpxchg.h>
#include <asm/barrier.h>

#define ATOMIC_INIT(i) { (i) }

static __always_inline int arch_atomic_read(const atomic_t *v)
{
	return __READ_ONCE((v)->counter);
}
static __always_inline void arch_atomic_set(atomic_t *v, int i)
{
	__WRITE_ONCE(v->counter, i);
}
static __always_inline void arch_atomic_inc(atomic_t *v)
{
	asm volatile("lock incl %0" : "+m"(v->counter) :: "memory");
}
static __always_inline void arch_atomic_dec(atomic_t *v)
{
	asm volatile("lock decl %0" : "+m"(v->counter) :: "memory");
}
static __always_inline void arch_atomic_add(int i, atomic_t *v)
{
	asm volatile("lock addl %1, %0" : "+m"(v->counter) : "ir"(i) : "memory");
}
static __always_inline int arch_atomic_add_return(int i, atomic_t *v)
{
	int old = i;
	asm volatile("lock xaddl %0, %1" : "+r"(old), "+m"(v->counter) :: "memory");
	return old + i;
}

static __always_inline int atomic_read(const atomic_t *v) { return arch_atomic_read(v); }
static __always_inline void atomic_set(atomic_t *v, int i) { arch_atomic_set(v, i); }
static __always_inline void atomic_inc(atomic_t *v) { arch_atomic_inc(v); }
static __always_inline void atomic_dec(atomic_t *v) { arch_atomic_dec(v); }
static __always_inline void atomic_add(int i, atomic_t *v) { arch_atomic_add(i, v); }
static __always_inline int atomic_add_return(int i, atomic_t *v) { return arch_atomic_add_return(i, v); }
static __always_inline int atomic_inc_return(atomic_t *v) { return arch_atomic_add_return(1, v); }
static __always_inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	return arch_cmpxchg(&v->counter, old, new);
}
static __always_inline int atomic_read_acquire(const atomic_t *v)
{
	return smp_load_acquire(&(v)->counter);
}
static __always_inline void atomic_set_release(atomic_t *v, int i)
{
	smp_store_release(&(v)->counter, i);
}

static __always_inline s64 atomic64_read(const atomic64_t *v) { return __READ_ONCE((v)->counter); }
static __always_inline void atomic64_set(atomic64_t *v, s64 i) { __WRITE_ONCE(v->counter, i); }
static __always_inline void atomic64_inc(atomic64_t *v)
{
	asm volatile("lock incq %0" : "+m"(v->counter) :: "memory");
}
static __always_inline long atomic_long_read(const atomic_long_t *v) { return atomic64_read(v); }
static __always_inline void atomic_long_set(atomic_long_t *v, long i) { atomic64_set(v, i); }
static __always_inline void atomic_long_inc(atomic_long_t *v) { atomic64_inc(v); }

#endif
