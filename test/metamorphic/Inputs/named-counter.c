// RUN: %clang_plugin -fsyntax-only %s
// Input of ../selftest.test (not a lit test itself: Inputs/ is excluded).
// An open-coded writer whose counter is recognised by its name alone: plain
// increments of `seq` around plain stores, no marked access, and no barrier
// between them (the smp_wmb() before the section is not the protocol's:
// the name is the only evidence). The rename rewrite calls the counter f1
// and the finding goes away, which is what the self-test wants to see
// reported as CHANGED.
#include <linux/compiler.h>
#include <asm/barrier.h>

struct stat {
	unsigned int seq;
	unsigned long a;
	unsigned long b;
};

void stat_update(struct stat *s, unsigned long a)
{
	smp_wmb();
	s->seq++;
	s->a = a;
	s->b = a;
	s->seq++;
}
