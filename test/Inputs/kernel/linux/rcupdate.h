/* seqlint test stub: mimics Linux 6.12 <linux/rcupdate.h> (CONFIG_PREEMPT_RCU, no
 * lockdep/sparse): rcu_read_lock/unlock are static inline functions calling the
 * out-of-line __rcu_read_lock/__rcu_read_unlock; rcu_dereference() is a
 * READ_ONCE-based statement expression; rcu_assign_pointer() uses smp_store_release. */
#ifndef SEQLINT_STUB_LINUX_RCUPDATE_H
#define SEQLINT_STUB_LINUX_RCUPDATE_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/barrier.h>

extern void __rcu_read_lock(void);
extern void __rcu_read_unlock(void);
extern int rcu_read_lock_held(void);
extern void synchronize_rcu(void);

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};
extern void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));

#define RCU_LOCKDEP_WARN(c, s) do { } while (0 && (c))
#define rcu_check_sparse(p, space)

static __always_inline void rcu_read_lock(void)
{
	__rcu_read_lock();
	__acquire(RCU);
}

static inline void rcu_read_unlock(void)
{
	__release(RCU);
	__rcu_read_unlock();
}

#define RCU_INITIALIZER(v) (typeof(*(v)) __force __rcu *)(v)

#define __rcu_access_pointer(p, local, space)				\
({									\
	typeof(*p) *local = (typeof(*p) *__force)READ_ONCE(p);		\
	rcu_check_sparse(p, space);					\
	((typeof(*p) __force __kernel *)(local));			\
})

/* The pointer is loaded once; dependent loads through it are ordered. */
#define __rcu_dereference_check(p, local, c, space)			\
({									\
	typeof(*p) *local = (typeof(*p) *__force)READ_ONCE(p);		\
	RCU_LOCKDEP_WARN(!(c), "suspicious rcu_dereference_check() usage"); \
	rcu_check_sparse(p, space);					\
	((typeof(*p) __force __kernel *)(local));			\
})

#define __rcu_dereference_protected(p, local, c, space)			\
({									\
	RCU_LOCKDEP_WARN(!(c), "suspicious rcu_dereference_protected() usage"); \
	rcu_check_sparse(p, space);					\
	((typeof(*p) __force __kernel *)(p));				\
})

#define rcu_access_pointer(p) __rcu_access_pointer((p), __UNIQUE_ID(rcu), __rcu)
#define rcu_dereference_check(p, c)					\
	__rcu_dereference_check((p), __UNIQUE_ID(rcu),			\
				(c) || rcu_read_lock_held(), __rcu)
#define rcu_dereference(p)       rcu_dereference_check(p, 0)
#define rcu_dereference_raw(p)   rcu_dereference_check(p, 1)
#define rcu_dereference_protected(p, c)					\
	__rcu_dereference_protected((p), __UNIQUE_ID(rcu), (c), __rcu)

/* NULL constants are stored with WRITE_ONCE, anything else is released. */
#define rcu_assign_pointer(p, v)					\
do {									\
	uintptr_t _r_a_p__v = (uintptr_t)(v);				\
	rcu_check_sparse(p, __rcu);					\
									\
	if (__builtin_constant_p(v) && (_r_a_p__v) == (uintptr_t)NULL)	\
		WRITE_ONCE((p), (typeof(p))(_r_a_p__v));		\
	else								\
		smp_store_release(&p, RCU_INITIALIZER((typeof(p))_r_a_p__v)); \
} while (0)

#define RCU_INIT_POINTER(p, v)						\
	do {								\
		rcu_check_sparse(p, __rcu);				\
		WRITE_ONCE(p, RCU_INITIALIZER(v));			\
	} while (0)

#endif
