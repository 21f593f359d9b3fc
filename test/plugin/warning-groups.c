// Where clang can put a custom diagnostic into a -W group (clang 22; found by
// the compile check in cmake/SeqlintCompat.cmake), seqlint's findings are
// warnings in -Wuser-defined-warnings and clang applies the -W flags and
// pragmas to them itself; the no-werror plugin argument still keeps them
// warnings under -Werror. (Clang 19: see levels.test, -Werror and -w only.)
// REQUIRES: plugin, custom-diag-groups
//
// RUN: %clang_plugin -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=WARN,TAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: not %clang_plugin -Werror -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=warning: --implicit-check-not=error:
// RUN: not %clang_plugin -Werror=user-defined-warnings -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %clang_plugin -Werror -Wno-error=user-defined-warnings -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=WARN,TAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %clang_plugin -Werror -fplugin-arg-seqlint-no-werror -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=WARN,PLAIN --implicit-check-not=warning: --implicit-check-not=error:
//
// -Wno-<group> and -w silence them, -Werror or not; the last option wins.
// RUN: %clang_plugin -Wno-user-defined-warnings -fsyntax-only %s 2>&1 | count 0
// RUN: %clang_plugin -Werror -Wno-user-defined-warnings -fsyntax-only %s 2>&1 | count 0
// RUN: %clang_plugin -Werror=user-defined-warnings -Wno-user-defined-warnings -fsyntax-only %s 2>&1 | count 0
// RUN: %clang_plugin -w -Werror -fsyntax-only %s 2>&1 | count 0
// RUN: not %clang_plugin -Wno-user-defined-warnings -Werror=user-defined-warnings -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=warning: --implicit-check-not=error:
#include <linux/compiler.h>
#include <asm/barrier.h>

struct s {
	unsigned int seq;
	int a;
};

void before(struct s *p, int a)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = a;
	// WARN: warning-groups.c:[[@LINE-1]]:2: warning: store to 'p->a' {{.*}}[seqlint-seqcount-write-missing-barrier]
	// TAG-SAME: {{^}} [-Wuser-defined-warnings]{{$}}
	// PLAIN-SAME: {{^$}}
	// ERR: warning-groups.c:[[@LINE-4]]:2: error: store to 'p->a' {{.*}}[seqlint-seqcount-write-missing-barrier] [-Werror,-Wuser-defined-warnings]
	smp_store_release(&p->seq, p->seq + 1);
}

// A pragma in the source silences the group for its region only.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wuser-defined-warnings"
void silenced(struct s *p, int a)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = a;
	smp_store_release(&p->seq, p->seq + 1);
}
#pragma clang diagnostic pop

void after(struct s *p, int a)
{
	WRITE_ONCE(p->seq, p->seq + 1);
	p->a = a;
	// WARN: warning-groups.c:[[@LINE-1]]:2: warning: store to 'p->a' {{.*}}[seqlint-seqcount-write-missing-barrier]
	// ERR: warning-groups.c:[[@LINE-2]]:2: error: store to 'p->a' {{.*}}[seqlint-seqcount-write-missing-barrier] [-Werror,-Wuser-defined-warnings]
	smp_store_release(&p->seq, p->seq + 1);
}
// WARN: 2 warnings generated.
