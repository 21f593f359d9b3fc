// The inline and static functions of an included file are analysed in the
// translation units that use them (directly, through other inline functions,
// or by address, e.g. from an ops table), as the compiler emits them only
// there; unused ones are left to the files that use them.
// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note -I%S/Inputs %s
// With USE_CLEAR, the one unused function is used too.
// RUN: %clang_plugin -fsyntax-only -Xclang -verify=expected,clear -Xclang -verify-ignore-unexpected=note -I%S/Inputs -DUSE_CLEAR %s
#include "header-inline.h"

// expected-warning@header-inline.h:15 {{[seqlint-seqcount-write-missing-barrier]}}
// expected-warning@header-inline.h:24 {{[seqlint-seqcount-write-missing-barrier]}}
// clear-warning@header-inline.h:38 {{[seqlint-seqcount-write-missing-barrier]}}

struct hstat_ops {
	void (*reset_all)(struct hstat *, int);
};

const struct hstat_ops ops = { .reset_all = hstat_reset_all };

void update(struct hstat *s, unsigned long v)
{
	hstat_set(s, v);
#ifdef USE_CLEAR
	hstat_clear(s);
#endif
}
