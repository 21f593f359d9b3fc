/* The buggy writer in a header included by two translation units: its
 * finding must be reported once. */
#ifndef WRITER_H
#define WRITER_H
#include <linux/compiler.h>
#include <asm/barrier.h>

struct s {
	unsigned seq;
	int a, b;
};

static inline void w(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1;
	p->b = 2;
	smp_wmb();
	WRITE_ONCE(p->seq, p->seq + 1);
}
#endif
