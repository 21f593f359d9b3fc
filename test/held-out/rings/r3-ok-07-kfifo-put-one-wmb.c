// Modelled on: lib/kfifo.c:kfifo_copy_in(), __kfifo_in(); include/linux/kfifo.h:kfifo_put()
//              (Linux 6.12), as a driver-private byte FIFO that copies those shapes
// Pattern: a lockless single-producer FIFO. The bulk path copies data and ends its
//   copy helper with smp_wmb() before "in += len". Fixed: the one-element fast path
//   for the IRQ handler has its own smp_wmb(), as kfifo_put() does.
// The other side is the reader (a tty/read() path in another file). It loads "in",
// and after the kfifo reader's ordering it copies the bytes below it. The producer
// must order the data store before the index store on EVERY path. The put-one path
// is the one place where the write barrier is missing.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct byte_fifo {
	unsigned int in;
	unsigned int out;
	unsigned int mask;	/* size - 1, size a power of two */
	u8 *data;
	unsigned long overruns;
};

static inline unsigned int fifo_unused(struct byte_fifo *f)
{
	return (f->mask + 1) - (f->in - READ_ONCE(f->out));
}

static void fifo_copy_in(struct byte_fifo *f, const u8 *src, unsigned int len,
			 unsigned int off)
{
	unsigned int size = f->mask + 1, l;

	off &= f->mask;
	l = len < size - off ? len : size - off;
	__builtin_memcpy(f->data + off, src, l);
	__builtin_memcpy(f->data, src + l, len - l);
	/*
	 * make sure that the data in the fifo is up to date before
	 * incrementing the fifo->in index counter
	 */
	smp_wmb();
}

unsigned int fifo_in(struct byte_fifo *f, const u8 *buf, unsigned int len)
{
	unsigned int l = fifo_unused(f);

	if (len > l)
		len = l;
	fifo_copy_in(f, buf, len, f->in);
	WRITE_ONCE(f->in, f->in + len);
	return len;
}

/* hard IRQ: one received byte */
bool fifo_put_byte(struct byte_fifo *f, u8 c)
{
	if (!fifo_unused(f)) {
		f->overruns++;
		return false;
	}
	f->data[f->in & f->mask] = c;
	smp_wmb();
	WRITE_ONCE(f->in, f->in + 1);
	return true;
}
