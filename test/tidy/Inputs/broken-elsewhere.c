/* A seqlint bug in one function, a compile error in another. */
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

int broken(void)
{
	return undeclared;
}
