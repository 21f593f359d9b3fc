/* seqlint test stub: mimics Linux 6.12 <linux/spinlock.h>, <linux/spinlock_types.h>,
 * <linux/rwlock.h> (SMP, no lock debugging).
 * Shapes: spin_lock/spin_unlock and their _bh/_irq/_irqrestore forms are static
 * __always_inline functions; spin_lock_irqsave() is a macro (flags is an lvalue
 * out-parameter); raw_spin_*, read_lock/write_lock and friends are macros that
 * call the out-of-line _raw_*() functions. */
#ifndef SEQLINT_STUB_LINUX_SPINLOCK_H
#define SEQLINT_STUB_LINUX_SPINLOCK_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/lockdep.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <asm/barrier.h>

/* ---- types ---- */
typedef struct { atomic_t val; } arch_spinlock_t;
typedef struct { atomic_t cnts; arch_spinlock_t wait_lock; } arch_rwlock_t;

typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
} raw_spinlock_t;

typedef struct spinlock {
	union {
		struct raw_spinlock rlock;
	};
} spinlock_t;

typedef struct {
	arch_rwlock_t raw_lock;
} rwlock_t;

#define __RAW_SPIN_LOCK_INITIALIZER(name) { .raw_lock = { .val = { 0 } } }
#define __RAW_SPIN_LOCK_UNLOCKED(name) \
	((raw_spinlock_t)__RAW_SPIN_LOCK_INITIALIZER(name))
#define DEFINE_RAW_SPINLOCK(x) raw_spinlock_t x = __RAW_SPIN_LOCK_INITIALIZER(x)

#define __SPIN_LOCK_INITIALIZER(name) { { .rlock = __RAW_SPIN_LOCK_INITIALIZER(name) } }
#define __SPIN_LOCK_UNLOCKED(name) ((spinlock_t)__SPIN_LOCK_INITIALIZER(name))
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_INITIALIZER(x)

#define __RW_LOCK_UNLOCKED(name) ((rwlock_t){ .raw_lock = { { 0 }, { { 0 } } } })
#define DEFINE_RWLOCK(x) rwlock_t x = { .raw_lock = { { 0 }, { { 0 } } } }

/* ---- out-of-line lock functions (kernel/locking/spinlock.c) ---- */
extern void _raw_spin_lock(raw_spinlock_t *lock) __acquires(lock);
extern void _raw_spin_lock_bh(raw_spinlock_t *lock) __acquires(lock);
extern void _raw_spin_lock_irq(raw_spinlock_t *lock) __acquires(lock);
extern unsigned long _raw_spin_lock_irqsave(raw_spinlock_t *lock) __acquires(lock);
extern int _raw_spin_trylock(raw_spinlock_t *lock);
extern void _raw_spin_unlock(raw_spinlock_t *lock) __releases(lock);
extern void _raw_spin_unlock_bh(raw_spinlock_t *lock) __releases(lock);
extern void _raw_spin_unlock_irq(raw_spinlock_t *lock) __releases(lock);
extern void _raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags) __releases(lock);

extern void _raw_read_lock(rwlock_t *lock);
extern void _raw_write_lock(rwlock_t *lock);
extern void _raw_read_lock_bh(rwlock_t *lock);
extern void _raw_write_lock_bh(rwlock_t *lock);
extern void _raw_read_lock_irq(rwlock_t *lock);
extern void _raw_write_lock_irq(rwlock_t *lock);
extern unsigned long _raw_read_lock_irqsave(rwlock_t *lock);
extern unsigned long _raw_write_lock_irqsave(rwlock_t *lock);
extern void _raw_read_unlock(rwlock_t *lock);
extern void _raw_write_unlock(rwlock_t *lock);
extern void _raw_read_unlock_bh(rwlock_t *lock);
extern void _raw_write_unlock_bh(rwlock_t *lock);
extern void _raw_read_unlock_irq(rwlock_t *lock);
extern void _raw_write_unlock_irq(rwlock_t *lock);
extern void _raw_read_unlock_irqrestore(rwlock_t *lock, unsigned long flags);
extern void _raw_write_unlock_irqrestore(rwlock_t *lock, unsigned long flags);

/* ---- raw_spinlock_t API: macros ---- */
#define raw_spin_lock_init(lock)					\
	do { *(lock) = __RAW_SPIN_LOCK_UNLOCKED(lock); } while (0)
#define raw_spin_lock(lock)          _raw_spin_lock(lock)
#define raw_spin_lock_bh(lock)       _raw_spin_lock_bh(lock)
#define raw_spin_lock_irq(lock)      _raw_spin_lock_irq(lock)
#define raw_spin_lock_irqsave(lock, flags)				\
	do {								\
		typecheck(unsigned long, flags);			\
		flags = _raw_spin_lock_irqsave(lock);			\
	} while (0)
#define raw_spin_trylock(lock)       __cond_lock(lock, _raw_spin_trylock(lock))
#define raw_spin_unlock(lock)        _raw_spin_unlock(lock)
#define raw_spin_unlock_bh(lock)     _raw_spin_unlock_bh(lock)
#define raw_spin_unlock_irq(lock)    _raw_spin_unlock_irq(lock)
#define raw_spin_unlock_irqrestore(lock, flags)				\
	do {								\
		typecheck(unsigned long, flags);			\
		_raw_spin_unlock_irqrestore(lock, flags);		\
	} while (0)

/* ---- spinlock_t API ---- */
static __always_inline raw_spinlock_t *spinlock_check(spinlock_t *lock)
{
	return &lock->rlock;
}

#define spin_lock_init(_lock)						\
do {									\
	spinlock_check(_lock);						\
	*(_lock) = __SPIN_LOCK_UNLOCKED(_lock);				\
} while (0)

static __always_inline void spin_lock(spinlock_t *lock)
{
	raw_spin_lock(&lock->rlock);
}

static __always_inline void spin_lock_bh(spinlock_t *lock)
{
	raw_spin_lock_bh(&lock->rlock);
}

static __always_inline void spin_lock_irq(spinlock_t *lock)
{
	raw_spin_lock_irq(&lock->rlock);
}

#define spin_lock_irqsave(lock, flags)					\
do {									\
	raw_spin_lock_irqsave(spinlock_check(lock), flags);		\
} while (0)

static __always_inline int spin_trylock(spinlock_t *lock)
{
	return raw_spin_trylock(&lock->rlock);
}

static __always_inline void spin_unlock(spinlock_t *lock)
{
	raw_spin_unlock(&lock->rlock);
}

static __always_inline void spin_unlock_bh(spinlock_t *lock)
{
	raw_spin_unlock_bh(&lock->rlock);
}

static __always_inline void spin_unlock_irq(spinlock_t *lock)
{
	raw_spin_unlock_irq(&lock->rlock);
}

static __always_inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	raw_spin_unlock_irqrestore(&lock->rlock, flags);
}

/* ---- rwlock_t API: macros ---- */
#define rwlock_init(lock)  do { *(lock) = __RW_LOCK_UNLOCKED(lock); } while (0)
#define read_lock(lock)          _raw_read_lock(lock)
#define write_lock(lock)         _raw_write_lock(lock)
#define read_lock_bh(lock)       _raw_read_lock_bh(lock)
#define write_lock_bh(lock)      _raw_write_lock_bh(lock)
#define read_lock_irq(lock)      _raw_read_lock_irq(lock)
#define write_lock_irq(lock)     _raw_write_lock_irq(lock)
#define read_lock_irqsave(lock, flags)					\
	do {								\
		typecheck(unsigned long, flags);			\
		flags = _raw_read_lock_irqsave(lock);			\
	} while (0)
#define write_lock_irqsave(lock, flags)					\
	do {								\
		typecheck(unsigned long, flags);			\
		flags = _raw_write_lock_irqsave(lock);			\
	} while (0)
#define read_unlock(lock)        _raw_read_unlock(lock)
#define write_unlock(lock)       _raw_write_unlock(lock)
#define read_unlock_bh(lock)     _raw_read_unlock_bh(lock)
#define write_unlock_bh(lock)    _raw_write_unlock_bh(lock)
#define read_unlock_irq(lock)    _raw_read_unlock_irq(lock)
#define write_unlock_irq(lock)   _raw_write_unlock_irq(lock)
#define read_unlock_irqrestore(lock, flags)				\
	do {								\
		typecheck(unsigned long, flags);			\
		_raw_read_unlock_irqrestore(lock, flags);		\
	} while (0)
#define write_unlock_irqrestore(lock, flags)				\
	do {								\
		typecheck(unsigned long, flags);			\
		_raw_write_unlock_irqrestore(lock, flags);		\
	} while (0)

#endif
