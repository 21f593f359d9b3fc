// RUN: %clang_plugin -fplugin-arg-seqlint-checks=* -fsyntax-only -Xclang -verify %s
/*
 * The advice speaks the file's own API family. A Concurrency Kit writer that
 * put ck_pr_fence_load() where its write section needs a store fence is told
 * to use ck_pr_fence_store(), not the kernel's smp_wmb(); a side that needs
 * a full fence between its store and its load is told ck_pr_fence_memory().
 * (Modelled on Concurrency Kit's fences; the kernel spellings are tested in
 * bugs.c, C11's in c11.c.)
 */
void ck_pr_fence_store(void);
void ck_pr_fence_load(void);
void ck_pr_fence_memory(void);
void ck_pr_fence_release(void);
void ck_pr_fence_acquire(void);
unsigned int ck_pr_load_uint(const unsigned int *);
void ck_pr_store_uint(unsigned int *, unsigned int);

struct sample {
	unsigned int seq;
	unsigned int a, b;
};

void sample_set(struct sample *s, unsigned int a, unsigned int b)
{
	ck_pr_store_uint(&s->seq, s->seq + 1);
	ck_pr_fence_load(); // expected-warning {{ck_pr_fence_load() inside the write section of 's->seq' does not order stores: the data stores can become visible outside the odd count that guards them; use ck_pr_fence_store() [seqlint-barrier-wrong-kind]}}
	s->a = a; // expected-note {{the store it must order is here}}
	s->b = b;
	ck_pr_fence_store();
	ck_pr_store_uint(&s->seq, s->seq + 1);
}

int flag_then_peek(unsigned int *flag, unsigned int *other)
{
	ck_pr_store_uint(flag, 1); // expected-note {{the access before the barrier is the store to '*flag'}}
	ck_pr_fence_store(); // expected-warning {{ck_pr_fence_store() does not order the store to '*flag' before it against the load of '*other' after it: only a full barrier orders a store against a later load; use ck_pr_fence_memory() [seqlint-barrier-wrong-kind]}}
	return ck_pr_load_uint(other); // expected-note {{the access after the barrier is the load of '*other'}}
}

/* The right fences: nothing to report. */
void sample_set_right(struct sample *s, unsigned int a, unsigned int b)
{
	ck_pr_store_uint(&s->seq, s->seq + 1);
	ck_pr_fence_store();
	s->a = a;
	s->b = b;
	ck_pr_fence_store();
	ck_pr_store_uint(&s->seq, s->seq + 1);
}

int flag_then_peek_right(unsigned int *flag, unsigned int *other)
{
	ck_pr_store_uint(flag, 1);
	ck_pr_fence_memory();
	return ck_pr_load_uint(other);
}
