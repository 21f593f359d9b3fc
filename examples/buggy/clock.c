/*
 * clock.c - a clocksource-style timekeeper.
 *
 * A periodic tick folds the elapsed cycles into base_ns and records the
 * cycle counter value it used; readers turn a fresh cycle-counter value into
 * nanoseconds with (base, cycle_last, mult, shift). The tick holds clk_lock,
 * readers are lockless and retry when a tick ran under them.
 */
#include "../include/compat.h"

struct clock {
	seqcount_t seq;
	u64 base_ns;		/* time at cycle_last */
	u64 cycle_last;
	u64 mask;		/* width of the cycle counter */
	u32 mult;
	u32 shift;
};

static struct clock clk = {
	.seq = SEQCNT_ZERO(clk.seq),
	.mask = ~0ULL,
	.mult = 1,
};
static DEFINE_SPINLOCK(clk_lock);

static inline u64 cycles_to_ns(u64 cycles, u64 last, u64 mask, u32 mult, u32 shift)
{
	return (((cycles - last) & mask) * mult) >> shift;
}

/* The tick (and clock_set_rate()) are serialized by clk_lock. */
void clock_tick(u64 now_cycles)
{
	spin_lock(&clk_lock);
	write_seqcount_begin(&clk.seq);
	clk.base_ns += cycles_to_ns(now_cycles, clk.cycle_last, clk.mask,
				    clk.mult, clk.shift);
	clk.cycle_last = now_cycles;
	write_seqcount_end(&clk.seq);
	spin_unlock(&clk_lock);
}

void clock_set_rate(u32 mult, u32 shift)
{
	spin_lock(&clk_lock);
	write_seqcount_begin(&clk.seq);
	clk.mult = mult;
	clk.shift = shift;
	write_seqcount_end(&clk.seq);
	spin_unlock(&clk_lock);
}

/* Lockless: nanoseconds at cycle-counter value now_cycles. */
u64 clock_read_ns(u64 now_cycles)
{
	unsigned int seq;
	u64 ns;

	seq = read_seqcount_begin(&clk.seq);
	ns = clk.base_ns + cycles_to_ns(now_cycles, clk.cycle_last,
					clk.mask, clk.mult, clk.shift);
	read_seqcount_retry(&clk.seq, seq);
	return ns;
}

/* Lockless: current parameters, logged for debugging. */
void clock_dump(void)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&clk.seq);
		pr_info("clock: base %llu ns at cycle %llu, mult %u shift %u\n",
			(unsigned long long)clk.base_ns,
			(unsigned long long)clk.cycle_last, clk.mult, clk.shift);
	} while (read_seqcount_retry(&clk.seq, seq));
}
