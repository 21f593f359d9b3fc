// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * Readers whose recheck is loaded into a local of its own and compared with
 * the begin value afterwards, in the shape of PostgreSQL's backend status
 * array (src/include/utils/backend_status.h: pgstat_begin_read_activity(),
 * pgstat_end_read_activity(), pgstat_read_activity_complete(); read in
 * src/backend/utils/activity/backend_status.c). Re-created in our own words,
 * with user macros (not seqlint APIs) and C11 fences for the barriers. There
 * is no writer in this file: the readers are recognised by what they do (a
 * read barrier on each side of the data, the begin value's low bit tested).
 */
#define rd_barrier() __atomic_thread_fence(__ATOMIC_ACQUIRE)

struct slot {
	int changes;
	int pid;
	int state;
	long since;
};

#define slot_read_begin(s, before)                                             \
	do {                                                                   \
		(before) = (s)->changes;                                       \
		rd_barrier();                                                  \
	} while (0)

#define slot_read_end(s, after)                                                \
	do {                                                                   \
		rd_barrier();                                                  \
		(after) = (s)->changes;                                        \
	} while (0)

#define slot_read_complete(before, after) ((before) == (after) && ((before) & 1) == 0)

/* The protocol as PostgreSQL writes it: silent. */
int slot_pid(volatile struct slot *s)
{
	int pid;

	for (;;) {
		int before, after;

		slot_read_begin(s, before);
		pid = s->pid;
		slot_read_end(s, after);
		if (slot_read_complete(before, after))
			break;
	}
	return pid;
}

/* The end step without its barrier: the recheck can be satisfied before
 * the data loads. */
#define slot_read_end_nobarrier(s, after)                                      \
	do {                                                                   \
		(after) = (s)->changes;                                        \
	} while (0)

void slot_copy(volatile struct slot *s, struct slot *out)
{
	for (;;) {
		int before, after;

		slot_read_begin(s, before);
		out->pid = s->pid;
		out->state = s->state;
		out->since = s->since;
		slot_read_end_nobarrier(s, after); // expected-warning {{recheck of seqcount 's->changes' is not ordered after the data loads}}
		if (slot_read_complete(before, after))
			break;
	}
}

/* Two loads of one location into two locals, compared, with nothing that
 * makes it a sequence (no barrier, no low-bit test, and another structure,
 * so that the readers above do not corroborate it): a change detector, not
 * a section. */
struct gauge {
	int changes;
};
int gauge_changed(volatile struct gauge *g, int (*work)(void))
{
	int before, after, r;

	before = g->changes;
	r = work();
	after = g->changes;
	return before != after ? -1 : r;
}
