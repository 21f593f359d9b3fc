// RUN: %clang_plugin -fsyntax-only %s
// Input of ../selftest.test (not a lit test itself: Inputs/ is excluded).
// An open-coded writer (marked increments of one location around stores to
// other data, a write barrier after the opening one) whose closing increment
// is not ordered after the data stores: one finding, whatever the names.
// The rename rewrite must keep it (SAME); the injected rewrites of the
// self-test change it on purpose.
#include <linux/compiler.h>
#include <asm/barrier.h>

struct stat {
	unsigned int seq;
	unsigned long a;
	unsigned long b;
};

void stat_update(struct stat *s, unsigned long a)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	smp_wmb();
	s->a = a;
	s->b = a;
	WRITE_ONCE(s->seq, s->seq + 1);
}
