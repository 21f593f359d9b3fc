/* A writer ordered by the project's own barrier, declared in .seqlint.yaml. */
#include <linux/compiler.h>
#include <asm/barrier.h>
#define my_wmb() __asm__ __volatile__("" ::: "memory")
struct sample { unsigned int seq; int a, b; };
void update(struct sample *s, int a, int b)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	my_wmb();
	s->a = a;
	s->b = b;
	smp_store_release(&s->seq, s->seq + 1);
}
