/* seqlint test stub: the Linux 6.12 shapes of the APIs that register
 * concurrent entry points (workqueue.h, timer.h, hrtimer.h, interrupt.h,
 * kthread.h), reduced to what seqcount-write-unlocked looks at: INIT_WORK()
 * assigns work->func, timer_setup() calls init_timer_key(), request_irq() is
 * an inline wrapper of request_threaded_irq(), kthread_run() is a macro
 * around kthread_create_on_node(). */
#ifndef SEQLINT_STUB_ENTRY_POINTS_H
#define SEQLINT_STUB_ENTRY_POINTS_H

#include <linux/types.h>

#define offsetof(T, m) __builtin_offsetof(T, m)
#define container_of(ptr, type, member)                                        \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* ---- workqueue.h ---- */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	unsigned long data;
	struct list_head entry;
	work_func_t func;
};
#define __INIT_WORK(_work, _func, _onstack)                                    \
	do {                                                                   \
		(_work)->data = 0;                                             \
		(_work)->func = (_func);                                       \
	} while (0)
#define INIT_WORK(_work, _func) __INIT_WORK((_work), (_func), 0)
#define __WORK_INITIALIZER(n, f) { .data = 0, .entry = { &(n).entry, &(n).entry }, .func = (f) }
#define DECLARE_WORK(n, f) struct work_struct n = __WORK_INITIALIZER(n, f)
extern bool queue_work_on(int cpu, void *wq, struct work_struct *work);

/* ---- timer.h ---- */
struct timer_list {
	unsigned long expires;
	void (*function)(struct timer_list *);
	u32 flags;
};
extern void init_timer_key(struct timer_list *timer,
			   void (*func)(struct timer_list *), unsigned int flags,
			   const char *name, void *key);
#define timer_setup(timer, callback, flags)                                    \
	init_timer_key((timer), (callback), (flags), NULL, NULL)
extern int mod_timer(struct timer_list *timer, unsigned long expires);

/* ---- hrtimer.h ---- */
enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
struct hrtimer {
	u64 expires;
	enum hrtimer_restart (*function)(struct hrtimer *);
};

/* ---- interrupt.h ---- */
typedef int irqreturn_t;
#define IRQ_HANDLED 1
#define IRQ_WAKE_THREAD 2
#define IRQF_ONESHOT 0x00002000
typedef irqreturn_t (*irq_handler_t)(int, void *);
extern int request_threaded_irq(unsigned int irq, irq_handler_t handler,
				irq_handler_t thread_fn, unsigned long flags,
				const char *name, void *dev);
static inline int request_irq(unsigned int irq, irq_handler_t handler,
			      unsigned long flags, const char *name, void *dev)
{
	return request_threaded_irq(irq, handler, NULL, flags, name, dev);
}

/* ---- kthread.h ---- */
struct task_struct;
extern struct task_struct *kthread_create_on_node(int (*threadfn)(void *data),
						  void *data, int node,
						  const char namefmt[], ...);
#define kthread_create(threadfn, data, namefmt, arg...)                        \
	kthread_create_on_node(threadfn, data, -1, namefmt, ##arg)
#define kthread_run(threadfn, data, namefmt, ...)                              \
	({                                                                     \
		struct task_struct *__k =                                      \
			kthread_create(threadfn, data, namefmt, ##__VA_ARGS__); \
		__k;                                                           \
	})
extern bool kthread_should_stop(void);

#endif
