// Modelled on: concurrencykit/ck regressions/ck_sequence/validate/ck_sequence.c
//   (consumer()/main() writer loop) and /usr/include/ck_sequence.h (CK 0.7).
// Correct use of CK's sequence lock on a field named `sc`: writers are serialized by a
// CK spinlock and bracket their stores with ck_sequence_write_begin()/_end(); readers
// use either the explicit begin/retry loop or the CK_SEQUENCE_READ() macro, a for-loop
// whose condition calls ck_sequence_read_begin() and whose increment expression calls
// ck_sequence_read_retry(). The copy is validated only after the loop.
#include <ck_cc.h>
#include <ck_pr.h>
#include <ck_sequence.h>
#include <ck_spinlock.h>
#include <stdbool.h>
#include <stdio.h>

struct example {
	unsigned int a;
	unsigned int b;
	unsigned int c;
};

struct shared_example {
	ck_sequence_t sc;
	ck_spinlock_fas_t wlock;
	struct example v;
};

static int validate(const struct example *copy)
{
	if (copy->b != copy->a + 1000 || copy->c != copy->a + copy->b) {
		fprintf(stderr, "inconsistent copy %u %u %u\n", copy->a, copy->b, copy->c);
		return -1;
	}
	return 0;
}

void example_update(struct shared_example *s, unsigned int counter)
{
	ck_spinlock_fas_lock(&s->wlock);
	ck_sequence_write_begin(&s->sc);
	ck_pr_store_uint(&s->v.a, counter);
	ck_pr_store_uint(&s->v.b, counter + 1000);
	ck_pr_store_uint(&s->v.c, counter + counter + 1000);
	ck_sequence_write_end(&s->sc);
	ck_spinlock_fas_unlock(&s->wlock);
}

int example_consume(struct shared_example *s)
{
	struct example copy;
	unsigned int version;

	do {
		version = ck_sequence_read_begin(&s->sc);
		copy.a = ck_pr_load_uint(&s->v.a);
		copy.b = ck_pr_load_uint(&s->v.b);
		copy.c = ck_pr_load_uint(&s->v.c);
	} while (ck_sequence_read_retry(&s->sc, version) == true);
	if (validate(&copy))
		return -1;

	CK_SEQUENCE_READ(&s->sc, &version) {
		copy.a = ck_pr_load_uint(&s->v.a);
		copy.b = ck_pr_load_uint(&s->v.b);
		copy.c = ck_pr_load_uint(&s->v.c);
	}
	return validate(&copy);
}
