/* Real findings in two configurations: a statistics writer whose batching
 * variant (-DTHROUGHPUT) forgets the write barrier after the odd increment,
 * and a writer with the same bug in both configurations. */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct pstat {
	unsigned int seq;
	u64 packets;
	u64 bytes;
};

/* Both configurations: no smp_wmb() before the closing increment. */
void pstat_add(struct pstat *s, u64 len)
{
	s->seq++;
	smp_wmb();
	s->packets++;
	s->bytes += len;
	s->seq++;
}

void pstat_batch(struct pstat *s, u64 n, u64 len)
{
	s->seq++;
#ifndef THROUGHPUT
	smp_wmb();
#endif
	s->packets += n;
	s->bytes += len;
	smp_wmb();
	s->seq++;
}

/* Both configurations, with different evidence: the store the closing
 * increment must follow is s->packets with -DTHROUGHPUT and s->bytes with
 * -DLATENCY. One finding, with both notes. */
void pstat_one(struct pstat *s, u64 len)
{
	s->seq++;
	smp_wmb();
	s->packets++;
#ifdef LATENCY
	s->bytes += len;
#endif
	s->seq++;
}
