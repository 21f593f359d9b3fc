#include <linux/types.h>
#include <linux/compiler.h>

struct stats {
	unsigned int seq;
	u64 packets, bytes;
};

/* The outer-shareable barriers of a device-coherent arm64 build. */
#define dev_wmb() asm volatile("dmb oshst" ::: "memory")
#define dev_rmb() asm volatile("dmb oshld" ::: "memory")

void stats_update(struct stats *s, u64 bytes)
{
	WRITE_ONCE(s->seq, s->seq + 1);
	dev_wmb();
	s->packets++;
	s->bytes += bytes;
	dev_wmb();
	WRITE_ONCE(s->seq, s->seq + 1);
}

u64 stats_bytes(struct stats *s)
{
	unsigned int seq;
	u64 b;

	do {
		while ((seq = READ_ONCE(s->seq)) & 1)
			;
		dev_rmb();
		b = s->bytes;
		dev_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return b;
}
