// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * PostgreSQL commit 38628db8d8ca, "Add memory barriers for
 * PgBackendStatus.st_changecount protocol" (2014). Every backend publishes
 * its status in shared memory; readers (pg_stat_activity) copy it. The
 * protocol is a hand-written seqcount: the writer bumps st_changecount before
 * and after updating the entry (odd while it writes), the reader copies the
 * entry and retries until the count was the same, and even, before and after
 * the copy. Before the fix there was no barrier at all: on a weakly ordered
 * CPU (or after compiler reordering) the data stores can become visible
 * outside the odd/even window and a reader can accept a torn copy.
 * The fix wrapped the increments and the count reads in macros with
 * pg_write_barrier() / pg_read_barrier().
 *
 * This is the shape of an assert-enabled build (Assert() checks that the
 * count is even again after the update). Re-created, not copied.
 */

/* src/include/port/atomics.h, in the shape of the GCC fallbacks. */
#define pg_compiler_barrier() __asm__ __volatile__("" ::: "memory")
#define pg_memory_barrier() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define pg_read_barrier() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define pg_write_barrier() __atomic_thread_fence(__ATOMIC_RELEASE)

void ExceptionalCondition(const char *cond, const char *file, int line);
#define Assert(c)                                                              \
	do {                                                                   \
		if (!(c))                                                      \
			ExceptionalCondition(#c, __FILE__, __LINE__);          \
	} while (0)

extern volatile int InterruptPending;
void ProcessInterrupts(void);
#define CHECK_FOR_INTERRUPTS()                                                 \
	do {                                                                   \
		if (InterruptPending)                                          \
			ProcessInterrupts();                                   \
	} while (0)

typedef struct BackendStatus {
	int st_changecount;
	int st_procpid;
	int st_state;
	long st_state_start;
	long st_xact_start;
} BackendStatus;

/* ---- before the fix --------------------------------------------------- */

void report_activity_buggy(BackendStatus *be, int state, long now)
{
	be->st_changecount++;
	be->st_state = state; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	be->st_state_start = now;
	be->st_changecount++; // expected-warning {{[seqlint-seqcount-write-missing-barrier]}}
	Assert((be->st_changecount & 1) == 0);
}

void read_status_buggy(BackendStatus *be, BackendStatus *local)
{
	for (;;) {
		int save_changecount = be->st_changecount;

		local->st_procpid = be->st_procpid; // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
		local->st_state = be->st_state;
		local->st_state_start = be->st_state_start;

		if (save_changecount == be->st_changecount && // expected-warning {{[seqlint-seqcount-read-missing-barrier]}}
		    (save_changecount & 1) == 0)
			break;
		CHECK_FOR_INTERRUPTS();
	}
}

/* ---- after the fix ---------------------------------------------------- */

#define increment_changecount_before(be)                                       \
	do {                                                                   \
		(be)->st_changecount++;                                        \
		pg_write_barrier();                                            \
	} while (0)

#define increment_changecount_after(be)                                        \
	do {                                                                   \
		pg_write_barrier();                                            \
		(be)->st_changecount++;                                        \
		Assert(((be)->st_changecount & 1) == 0);                       \
	} while (0)

#define save_changecount_before(be, save)                                      \
	do {                                                                   \
		(save) = (be)->st_changecount;                                 \
		pg_read_barrier();                                             \
	} while (0)

#define save_changecount_after(be, save)                                       \
	do {                                                                   \
		pg_read_barrier();                                             \
		(save) = (be)->st_changecount;                                 \
	} while (0)

void report_activity_fixed(BackendStatus *be, int state, long now)
{
	increment_changecount_before(be);
	be->st_state = state;
	be->st_state_start = now;
	increment_changecount_after(be);
}

void read_status_fixed(BackendStatus *be, BackendStatus *local)
{
	for (;;) {
		int before_changecount, after_changecount;

		save_changecount_before(be, before_changecount);
		local->st_procpid = be->st_procpid;
		local->st_state = be->st_state;
		local->st_state_start = be->st_state_start;
		save_changecount_after(be, after_changecount);

		if (before_changecount == after_changecount &&
		    (before_changecount & 1) == 0)
			break;
		CHECK_FOR_INTERRUPTS();
	}
}

/* The fixed reader in the open-coded form the checker recognises as a
 * seqcount reader (the count reloaded and compared in the loop condition):
 * with the barriers it is silent too. */
void read_status_fixed_recheck(BackendStatus *be, BackendStatus *local)
{
	for (;;) {
		int save_changecount = be->st_changecount;

		pg_read_barrier();
		local->st_procpid = be->st_procpid;
		local->st_state = be->st_state;
		pg_read_barrier();
		if (save_changecount == be->st_changecount &&
		    (save_changecount & 1) == 0)
			break;
		CHECK_FOR_INTERRUPTS();
	}
}
