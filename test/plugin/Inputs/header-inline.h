/* Inline functions of a header, for header-functions.c. Both writers forget
 * the smp_wmb() after the odd increment. */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct hstat {
	unsigned int seq;
	unsigned long val;
};

/* Called by the including file: analysed there. */
static inline void hstat_set(struct hstat *s, unsigned long v)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	WRITE_ONCE(s->val, v);
	smp_store_release(&s->seq, s->seq + 1);
}

/* Reached only through hstat_reset_all(), itself reached only through the
 * ops table of the including file. */
static inline void hstat_reset(struct hstat *s)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	WRITE_ONCE(s->val, 0);
	smp_store_release(&s->seq, s->seq + 1);
}

static inline void hstat_reset_all(struct hstat *s, int n)
{
	for (int i = 0; i < n; i++)
		hstat_reset(&s[i]);
}

/* Never used by the including file: analysed in the files that use it. */
static inline void hstat_clear(struct hstat *s)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	WRITE_ONCE(s->val, 0);
	smp_store_release(&s->seq, s->seq + 1);
}
