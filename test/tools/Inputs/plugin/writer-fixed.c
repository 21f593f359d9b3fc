/* The same writer, fixed: a write barrier after the odd increment and one
 * before the even increment. */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct s {
	unsigned seq;
	int a, b;
};

void w(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	smp_wmb();
	p->a = 1;
	p->b = 2;
	smp_wmb();
	WRITE_ONCE(p->seq, p->seq + 1);
}
