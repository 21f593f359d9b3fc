// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -DUAPI -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * A ring whose layout comes from a uapi header is memory the kernel shares
 * with user space: that alone says the producer index is written by another
 * agent, so a plain load of it, tested, then the descriptor loads need a
 * read barrier or an acquire between. The same code on a record of a
 * private header has no such evidence and stays silent (nothing else in the
 * file says the index is shared).
 */
#ifdef UAPI
#include "Inputs/uapi/linux/xring.h"
#else
#include "Inputs/private/xring.h"
// expected-no-diagnostics
#endif

int drain(struct xring *r, unsigned long long *addr)
{
	unsigned int c = r->consumer;

#ifdef UAPI
	// expected-warning@+2 {{'r->desc[].addr' is read after 'r->producer' is loaded and tested}}
#endif
	if (c == r->producer)
		return 0;
	*addr = r->desc[c & 255].addr;
	__atomic_store_n(&r->consumer, c + 1, __ATOMIC_RELEASE);
	return 1;
}
