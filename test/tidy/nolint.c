// REQUIRES: tidy-module
// clang-tidy applies NOLINT to seqlint-* checks as to its own: bare NOLINT,
// a check list (full names, globs), NOLINTNEXTLINE, NOLINTBEGIN/NOLINTEND regions
// A NOLINT for another check does not suppress. (The module leaves NOLINT to
// clang-tidy, so NOLINT lists need the full seqlint-<check> name here; the
// plugin also accepts the name without the prefix.)
// RUN: clang-tidy --load=%tidy_module --checks='-*,seqlint-*' --quiet %s -- -I%kernel_inc 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: clang-tidy --load=%tidy_module --checks='-*,seqlint-*' %s -- -I%kernel_inc 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATS
// STATS: Suppressed 6 warnings (6 NOLINT).
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

void listed_glob(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1; // NOLINT(bugprone-*, seqlint-seqcount-write-*)
	smp_store_release(&p->seq, p->seq + 1);
}

void other_check(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = 1; // NOLINT(seqlint-seqcount-read-side-effect)
	// CHECK: nolint.c:[[@LINE-1]]:2: warning: store to 'p->a' is not ordered after the odd increment {{.*}} [seqlint-seqcount-write-missing-barrier]
	smp_store_release(&p->seq, p->seq + 1);
}

void next_line(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	// NOLINTNEXTLINE(seqlint-seqcount-write-missing-barrier)
	p->a = 1;
	smp_store_release(&p->seq, p->seq + 1);
}

void next_line_all(struct s *p)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	// NOLINTNEXTLINE
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
	p->a = 1;
	// CHECK: nolint.c:[[@LINE-1]]:2: warning: {{.*}} [seqlint-seqcount-write-missing-barrier]
	smp_store_release(&p->seq, p->seq + 1);
}
