/* Old-style function definitions. */
#include <linux/compiler.h>
#include <asm/barrier.h>
struct s { unsigned seq; int a; };

void update(p, v)
	struct s *p;
	int v;
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = v;
	smp_store_release(&p->seq, p->seq + 1);
}

int get(p)
	struct s *p;
{
	return p->a;
}
