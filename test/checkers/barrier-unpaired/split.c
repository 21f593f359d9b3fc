// RUN: %clang_plugin -fplugin-arg-seqlint-checks=barrier-unpaired,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * barrier-unpaired and mp-missing-barrier together: every missing barrier
 * is reported once, by one of them. The writer below has two readers, one
 * with smp_rmb() and one without.
 *  - the writer lacks smp_wmb() and a reader has smp_rmb(): the reader's
 *    barrier lost its partner -> barrier-unpaired at the writer;
 *  - the second reader lacks ordering and its writer has none either ->
 *    mp-missing-barrier at that reader.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct ev {
	int code;
	int posted;
};

void ev_post(struct ev *e, int code)
{
	e->code = code;
	WRITE_ONCE(e->posted, 1); // expected-warning {{[seqlint-barrier-unpaired]}}
}

int ev_peek_ordered(struct ev *e)
{
	if (!READ_ONCE(e->posted))
		return 0;
	smp_rmb();
	return e->code;
}

int ev_peek(struct ev *e)
{
	if (!READ_ONCE(e->posted)) // expected-warning {{'e->code' is read after the flag 'e->posted' with no read barrier, acquire or address dependency in between}}
		return 0;
	return e->code;
}
