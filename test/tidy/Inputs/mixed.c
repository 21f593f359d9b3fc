/* One finding each of several seqlint checks, for the check-selection tests. */
#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/seqlock.h>
#include <asm/barrier.h>

struct sample {
	unsigned int seq;
	int a, b;
};

/* seqlint-seqcount-write-missing-barrier */
void update(struct sample *s, int a, int b)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	s->a = a;
	s->b = b;
	smp_store_release(&s->seq, s->seq + 1);
}

static seqcount_t cfg_seq = SEQCNT_ZERO(cfg_seq);
static struct { int mode; int level; } cfg;

/* seqlint-seqcount-read-side-effect */
int cfg_mode_logged(void)
{
	unsigned int seq;
	int mode;

	do {
		seq = read_seqcount_begin(&cfg_seq);
		mode = cfg.mode;
		printk(KERN_INFO "cfg: mode %d\n", mode);
	} while (read_seqcount_retry(&cfg_seq, seq));
	return mode;
}

/* seqlint-seqcount-write-unbalanced */
void cfg_set(int mode)
{
	write_seqcount_begin(&cfg_seq);
	if (mode < 0)
		return;
	cfg.mode = mode;
	write_seqcount_end(&cfg_seq);
}
