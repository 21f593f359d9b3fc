#include <linux/compiler.h>
#include <asm/barrier.h>
struct s { unsigned seq; int a; };
void update(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = undeclared;
	smp_store_release(&p->seq, p->seq + 1);
}
