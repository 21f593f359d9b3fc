// Modelled on: drivers/tty/n_tty.c:n_tty_receive_buf_common() / n_tty_read() (Linux 6.12)
// Shipped bug: "tty: fix hang on tty device with no_room set" (4903fde8047a, 2023);
//              the shipped code had no barrier there, this case has the tempting smp_wmb().
// Producer: when the buffer is full it sets "stalled" and, before giving up,
// re-reads the consumer's tail to see whether room appeared meanwhile.
// Consumer: advances the tail, then checks "stalled" to restart the producer.
// Each side stores one variable and loads the other: both need smp_mb(). The
// producer's smp_wmb() orders nothing here (a store before, loads after), so
// both sides can read stale values and the line stays stalled forever.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define LDISC_BUF_SIZE 4096
#define LDISC_MASK(x) ((x) & (LDISC_BUF_SIZE - 1))

struct ldisc_port;
extern void ldisc_restart_rx_work(struct ldisc_port *port);
extern size_t ldisc_copy_in(struct ldisc_port *port, const u8 *cp, size_t n);

struct ldisc_port {
	size_t rd_head;		/* producer only */
	size_t commit;		/* producer publishes, consumer reads */
	size_t rd_tail;		/* consumer publishes, producer reads */
	int stalled;		/* producer sets, consumer clears */
	unsigned char buf[LDISC_BUF_SIZE];
};

static size_t ldisc_pending(const struct ldisc_port *port)
{
	return READ_ONCE(port->commit) - READ_ONCE(port->rd_tail);
}

static void ldisc_kick(struct ldisc_port *port)
{
	if (READ_ONCE(port->stalled)) {
		WRITE_ONCE(port->stalled, 0);
		ldisc_restart_rx_work(port);
	}
}

size_t ldisc_receive(struct ldisc_port *port, const u8 *cp, size_t count)
{
	size_t done = 0, room, n;

	while (count) {
		size_t tail = smp_load_acquire(&port->rd_tail);

		room = LDISC_BUF_SIZE - (port->rd_head - tail) - 1;
		WRITE_ONCE(port->stalled, room == 0);
		if (!room)
			break;
		n = count < room ? count : room;
		n = ldisc_copy_in(port, cp, n);
		port->rd_head += n;
		smp_store_release(&port->commit, port->rd_head);
		cp += n;
		count -= n;
		done += n;
	}

	if (unlikely(port->stalled)) {
		/* stalled must be visible before we re-check the consumer */
		smp_wmb(); /* EXPECT: seqlint-barrier-wrong-kind */
		if (!ldisc_pending(port))
			ldisc_kick(port);
	}
	return done;
}

size_t ldisc_read(struct ldisc_port *port, u8 *dst, size_t want)
{
	size_t head = smp_load_acquire(&port->commit);
	size_t tail = port->rd_tail;
	size_t got = 0;

	while (tail != head && got < want)
		dst[got++] = port->buf[LDISC_MASK(tail++)];

	if (got) {
		smp_store_release(&port->rd_tail, tail);
		/* the new tail before we look at stalled */
		smp_mb();
		ldisc_kick(port);
	}
	return got;
}
