// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A version word whose "update in progress" flag is the top bit instead of
 * the low bit (Xen's runstate area: XEN_RUNSTATE_UPDATE is 1ULL << 63). The
 * reader retries while the word changed or the flag was set: a seqcount
 * reader by protocol. Its recheck must be ordered after the data loads.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>

#define RS_UPDATE (1ULL << 63)

struct runstate {
	unsigned long long entry_time;
	int state;
	unsigned long long time[4];
};

void snapshot_bad(struct runstate *rs, struct runstate *out)
{
	unsigned long long t;
	int i;

	do {
		t = READ_ONCE(rs->entry_time);
		smp_rmb();
		out->state = READ_ONCE(rs->state);
		for (i = 0; i < 4; i++)
			out->time[i] = READ_ONCE(rs->time[i]);
	} while (READ_ONCE(rs->entry_time) != t || (t & RS_UPDATE)); // expected-warning {{recheck of seqcount 'rs->entry_time' is not ordered after the data loads}}
}

void snapshot_good(struct runstate *rs, struct runstate *out)
{
	unsigned long long t;
	int i;

	do {
		t = READ_ONCE(rs->entry_time);
		smp_rmb();
		out->state = READ_ONCE(rs->state);
		for (i = 0; i < 4; i++)
			out->time[i] = READ_ONCE(rs->time[i]);
		smp_rmb();
	} while (READ_ONCE(rs->entry_time) != t || (t & RS_UPDATE));
}

/* A bit that is not the top one is a plain flag: no section, no finding
 * (another object, so that the readers above do not corroborate it). */
struct status { unsigned long long word; int state; };

void flags_only(struct status *st, int *out)
{
	unsigned long long t;

	do {
		t = READ_ONCE(st->word);
		smp_rmb();
		*out = READ_ONCE(st->state);
	} while (READ_ONCE(st->word) != t || (t & (1ULL << 40)));
}
