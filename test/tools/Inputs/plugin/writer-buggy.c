/* The article's buggy open-coded seqcount writer: the data stores are not
 * ordered after the odd increment (no smp_wmb() between them), so a reader
 * can see the new data with the old, even count. */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct s {
	unsigned seq;
	int a, b;
};

void w(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1;
	p->b = 2;
	smp_wmb();
	WRITE_ONCE(p->seq, p->seq + 1);
}
