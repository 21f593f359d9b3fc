/* Shared by retire.c and poll.c: a loop context with three list heads of
 * one type, and two global heads of one type (QEMU's AioContext shape). */
#define qatomic_read(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define qatomic_rcu_set(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

struct handler {
	struct handler *next;
};

struct handler_list {
	struct handler *first;
};

struct loop_ctx {
	struct handler_list handlers;
	struct handler_list deleted;
	struct handler_list poll;
	int ops;
	int mode;
};

extern struct handler_list timers, waiters;
extern int timer_mode;
