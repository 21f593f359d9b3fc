// Modelled on: drivers/tty/n_tty.c:__receive_buf() and n_tty_read() (Linux 6.12; the 4.x wakeup shape)
// Shipped bug: "tty: fix stall caused by missing memory barrier in drivers/tty/n_tty.c" (2015)
// The producer publishes the new head with a release store and then peeks at
// the wait queue without its lock to skip an empty wake-up. The reader queues
// itself, sets its state (full barrier) and re-checks the head. A release
// store orders what comes BEFORE it, not the loads after it: the list load in
// waitqueue_active() can be satisfied before the head store is visible, both
// sides miss each other and read() sleeps with data in the buffer.
// (6.12 calls wake_up_interruptible_poll() unconditionally here.)
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

#define TASK_INTERRUPTIBLE 0x0001
#define TASK_RUNNING       0x0000
#define POLLIN  0x0001
#define SIGIO   29
#define POLL_IN 1
#define RXBUF_SIZE 4096

struct wait_queue_head { spinlock_t lock; struct list_head head; };
struct wait_queue_entry { unsigned int flags; void *private; struct list_head entry; };
struct fasync_struct;

static inline int waitqueue_active(struct wait_queue_head *wq)
{
	return READ_ONCE(wq->head.next) != &wq->head;
}
extern void __wake_up(struct wait_queue_head *wq, unsigned int mode, int nr, void *key);
#define wake_up_interruptible_poll(x, m) \
	__wake_up(x, TASK_INTERRUPTIBLE, 1, (void *)(unsigned long)(m))
extern void kill_fasync(struct fasync_struct **fp, int sig, int band);
extern void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w);
extern void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w);
extern void __set_current_state_mb(int state);	/* smp_store_mb(current->__state, state) */
extern long schedule_timeout(long timeout);

struct rx_ldisc {
	size_t head;		/* producer private */
	size_t commit;		/* published head */
	size_t tail;		/* consumer */
	size_t min_wake;
	bool extproc;
	struct wait_queue_head read_wait;
	struct fasync_struct *fasync;
	unsigned char buf[RXBUF_SIZE];
};

static inline size_t rx_cnt(const struct rx_ldisc *ld)
{
	return ld->head - READ_ONCE(ld->tail);
}

void rx_ldisc_receive(struct rx_ldisc *ld, const unsigned char *cp, size_t n)
{
	while (n--)
		ld->buf[ld->head++ & (RXBUF_SIZE - 1)] = *cp++;

	/* publish the head to the reader */
	smp_store_release(&ld->commit, ld->head); /* EXPECT: seqlint-barrier-wrong-kind */

	if (rx_cnt(ld) >= ld->min_wake || ld->extproc) {
		kill_fasync(&ld->fasync, SIGIO, POLL_IN);
		if (waitqueue_active(&ld->read_wait))
			wake_up_interruptible_poll(&ld->read_wait, POLLIN);
	}
}

ssize_t rx_ldisc_read(struct rx_ldisc *ld, unsigned char *dst, size_t nr, long timeout)
{
	struct wait_queue_entry wait = { 0 };
	size_t got = 0;

	add_wait_queue(&ld->read_wait, &wait);
	while (got < nr) {
		size_t head;

		__set_current_state_mb(TASK_INTERRUPTIBLE);
		head = smp_load_acquire(&ld->commit);
		if (head == ld->tail) {
			if (!timeout)
				break;
			timeout = schedule_timeout(timeout);
			continue;
		}
		__set_current_state_mb(TASK_RUNNING);
		while (ld->tail != head && got < nr) {
			dst[got++] = ld->buf[ld->tail & (RXBUF_SIZE - 1)];
			smp_store_release(&ld->tail, ld->tail + 1);
		}
	}
	__set_current_state_mb(TASK_RUNNING);
	remove_wait_queue(&ld->read_wait, &wait);
	return got;
}
