// RUN: %clang_plugin -fplugin-arg-seqlint-checks=* -fsyntax-only -Xclang -verify %s
/*
 * The advice speaks the file's own API family. Concurrency Kit has no
 * acquire load, so a CK reader is told only to add ck_pr_fence_load(); the
 * kernel's smp_load_acquire() would not even compile there. (Modelled on
 * Concurrency Kit; the kernel's advice is tested in bugs.c, C11's in c11.c.)
 */
void ck_pr_fence_store(void);
void ck_pr_fence_load(void);
void ck_pr_fence_memory(void);
unsigned int ck_pr_load_uint(const unsigned int *);

struct sample {
	unsigned int seq;
	unsigned int a;
};

unsigned int sample_a(struct sample *s)
{
	unsigned int seq, a;

	do {
		seq = ck_pr_load_uint(&s->seq); // expected-note {{the read section of 's->seq' begins here}}
		a = s->a; // expected-warning {{load of 's->a' is not ordered after the load of seqcount 's->seq' that begins the read section: it can read data older than the count; add ck_pr_fence_load() after it [seqlint-seqcount-read-missing-barrier]}}
		ck_pr_fence_load();
	} while ((seq & 1) || ck_pr_load_uint(&s->seq) != seq);
	return a;
}

unsigned int sample_a_right(struct sample *s)
{
	unsigned int seq, a;

	do {
		seq = ck_pr_load_uint(&s->seq);
		ck_pr_fence_load();
		a = s->a;
		ck_pr_fence_load();
	} while ((seq & 1) || ck_pr_load_uint(&s->seq) != seq);
	return a;
}
