/* The article's buggy writer: no smp_wmb() after the odd increment. */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct sample {
	unsigned int seq;
	int a, b;
};

void update(struct sample *s, int a, int b)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	s->a = a;
	s->b = b;
	smp_store_release(&s->seq, s->seq + 1);
}
