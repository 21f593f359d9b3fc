// RUN: %clang_plugin -fplugin-arg-seqlint-checks=* -fsyntax-only -Xclang -verify %s
/*
 * A bare inline-asm barrier that orders the wrong way is no read barrier.
 * An arm64 reader that loads the count and issues `dmb ishst` (stores
 * before stores) before reading the data can read data older than the
 * count. barrier-wrong-kind judges the barrier APIs and a project's barrier
 * macros, not bare asm; the loads are reported as unordered, as if there
 * were no barrier. `dmb ishld` orders them and nothing is reported.
 */
#include <linux/compiler.h>

struct sample {
	unsigned int seq;
	unsigned long long t, v;
};

unsigned long long sample_t_wrong(struct sample *s)
{
	unsigned int seq;
	unsigned long long t;

	do {
		while ((seq = READ_ONCE(s->seq)) & 1) // expected-note {{the read section of 's->seq' begins here}}
			;
		asm volatile("dmb ishst" ::: "memory");
		t = s->t; // expected-warning {{load of 's->t' is not ordered after the load of seqcount 's->seq' that begins the read section}} expected-note {{this load can be satisfied after the recheck}}
		asm volatile("dmb ishst" ::: "memory");
	} while (READ_ONCE(s->seq) != seq); // expected-warning {{recheck of seqcount 's->seq' is not ordered after the data loads}}
	return t;
}

unsigned long long sample_t_right(struct sample *s)
{
	unsigned int seq;
	unsigned long long t;

	do {
		while ((seq = READ_ONCE(s->seq)) & 1)
			;
		asm volatile("dmb ishld" ::: "memory");
		t = s->t;
		asm volatile("dmb ishld" ::: "memory");
	} while (READ_ONCE(s->seq) != seq);
	return t;
}
