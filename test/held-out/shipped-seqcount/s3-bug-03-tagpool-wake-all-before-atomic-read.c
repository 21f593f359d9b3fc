// Modelled on: lib/sbitmap.c:sbitmap_queue_wake_all() and block/blk-mq-tag.c:blk_mq_tag_wakeup_all()
//              (Linux 6.12, which has smp_mb() here)
// Shipped bug: same misuse fixed next door in "sbitmap: fix improper use of
//              smp_mb__before_atomic()" (a0934fd2b120, 2019; sbitmap_queue_update_wake_batch())
// The shutdown path sets a flag, then scans the wait queues and wakes whoever
// is queued. A waiter queues itself (set_current_state() = full barrier) and
// then re-reads the flag. Flag store -> waitqueue_active() loads is a Dekker
// pair and needs smp_mb(): smp_mb__before_atomic() only upgrades an adjacent
// atomic read-modify-write, and atomic_read()/waitqueue_active() are plain
// loads, so both sides can miss each other and the waiter sleeps forever.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

#define TAGPOOL_WAIT_QUEUES 8
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_NORMAL 0x0003

struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};

struct wait_queue_entry {
	unsigned int flags;
	void *private;
	struct list_head entry;
};

static inline int list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static inline int waitqueue_active(struct wait_queue_head *wq_head)
{
	return !list_empty(&wq_head->head);
}

extern void __wake_up(struct wait_queue_head *wq_head, unsigned int mode,
		      int nr, void *key);
#define wake_up(x) __wake_up(x, TASK_NORMAL, 1, NULL)
extern void prepare_to_wait_exclusive(struct wait_queue_head *wq,
				      struct wait_queue_entry *w, int state);
extern void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w);
extern void io_schedule(void);

struct tagpool_ws {
	struct wait_queue_head wait;
};

struct tagpool {
	unsigned long *map;
	unsigned int depth;
	bool stopping;
	atomic_t wake_index;
	struct tagpool_ws ws[TAGPOOL_WAIT_QUEUES];
};

static inline int tagpool_index_inc(int index)
{
	return (index + 1) & (TAGPOOL_WAIT_QUEUES - 1);
}

void tagpool_wake_all(struct tagpool *tp)
{
	int i, wake_index;

	/* pairs with the barrier in set_current_state() on the waiter side */
	smp_mb__before_atomic(); /* EXPECT: seqlint-barrier-wrong-kind */
	wake_index = atomic_read(&tp->wake_index);
	for (i = 0; i < TAGPOOL_WAIT_QUEUES; i++) {
		struct tagpool_ws *ws = &tp->ws[wake_index];

		if (waitqueue_active(&ws->wait))
			wake_up(&ws->wait);

		wake_index = tagpool_index_inc(wake_index);
	}
}

void tagpool_shutdown(struct tagpool *tp)
{
	WRITE_ONCE(tp->stopping, true);
	tagpool_wake_all(tp);
}

/* Sleeper: queue first, then look at the condition again. */
int tagpool_wait_for_tag(struct tagpool *tp, struct tagpool_ws *ws,
			 int (*try_get)(struct tagpool *))
{
	struct wait_queue_entry wait = { 0 };
	int tag;

	for (;;) {
		prepare_to_wait_exclusive(&ws->wait, &wait, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(tp->stopping)) {
			tag = -1;
			break;
		}
		tag = try_get(tp);
		if (tag >= 0)
			break;
		io_schedule();
	}
	finish_wait(&ws->wait, &wait);
	return tag;
}
