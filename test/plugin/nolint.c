// NOLINT comments suppress findings as in clang-tidy: bare NOLINT, a check
// list (with or without the seqlint- prefix, with globs), NOLINTNEXTLINE and
// NOLINTBEGIN/NOLINTEND regions. A NOLINT for another check does not.
// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/compiler.h>
#include <asm/barrier.h>

struct s {
	unsigned int seq;
	int a, b;
};

void bare(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1; // NOLINT
	smp_store_release(&p->seq, p->seq + 1);
}

void listed(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1; // NOLINT(seqlint-seqcount-write-missing-barrier)
	smp_store_release(&p->seq, p->seq + 1);
}

void listed_short_glob(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1; // NOLINT(bugprone-*, seqcount-write-*)
	smp_store_release(&p->seq, p->seq + 1);
}

void other_check(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1; // NOLINT(seqlint-seqcount-read-side-effect) expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	smp_store_release(&p->seq, p->seq + 1);
}

void next_line(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	// NOLINTNEXTLINE(seqlint-seqcount-write-missing-barrier)
	p->a = 1;
	smp_store_release(&p->seq, p->seq + 1);
}

// NOLINTBEGIN(seqlint-*)
void region(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1;
	smp_store_release(&p->seq, p->seq + 1);
}
// NOLINTEND(seqlint-*)

void after_region(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	smp_store_release(&p->seq, p->seq + 1);
}
