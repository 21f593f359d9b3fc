// RUN: %clang_plugin -fplugin-arg-seqlint-checks=* -fsyntax-only -Xclang -verify %s
/*
 * A bare inline-asm barrier that orders the wrong way is no write barrier.
 * An arm64 writer that bumps the count to odd and then issues `dmb ishld`
 * (loads before later loads and stores) leaves its data stores free to
 * become visible before the odd count. barrier-wrong-kind judges the
 * barrier APIs and a project's barrier macros, not bare asm; the stores
 * are reported as unordered here, as if there were no barrier. `dmb ishst`
 * orders them and nothing is reported.
 */
#include <linux/compiler.h>

struct sample {
	unsigned int seq;
	unsigned long long t, v;
};

void sample_set_wrong(struct sample *s, unsigned long long t,
		      unsigned long long v)
{
	WRITE_ONCE(s->seq, s->seq + 1); // expected-note {{the write section of 's->seq' begins here}}
	asm volatile("dmb ishld" ::: "memory");
	s->t = t; // expected-warning {{store to 's->t' is not ordered after the odd increment of seqcount 's->seq'}}
	s->v = v; // expected-note {{this store can become visible after the closing increment}}
	asm volatile("dmb ishld" ::: "memory");
	WRITE_ONCE(s->seq, s->seq + 1); // expected-warning {{closing increment of seqcount 's->seq' is not ordered after the data stores}}
}

void sample_set_right(struct sample *s, unsigned long long t,
		      unsigned long long v)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	asm volatile("dmb ishst" ::: "memory");
	s->t = t;
	s->v = v;
	asm volatile("dmb ishst" ::: "memory");
	WRITE_ONCE(s->seq, s->seq + 1);
}
