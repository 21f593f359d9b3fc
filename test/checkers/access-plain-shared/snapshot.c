// access-plain-shared: a reader's private snapshot shares its field names
// with the shared statistics it copies, and is not shared itself.
// Modelled on PostgreSQL 15's pgstat_bgwriter.c / pgstat_internal.h: the
// statistics live in shared memory under a change count; each backend
// copies them into its own global (pgStatLocal.snapshot) with a read
// section whose begin and end are helpers, then adjusts its copy plainly.
// The same adjustment of the shared statistics is still reported.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
typedef unsigned int u32;
void *memcpy(void *d, const void *s, unsigned long n);
#define rd_barrier() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wr_barrier() __atomic_thread_fence(__ATOMIC_RELEASE)

static inline void cc_write_begin(u32 *cc) { (*cc)++; wr_barrier(); }
static inline void cc_write_end(u32 *cc) { wr_barrier(); (*cc)++; }
static inline u32 cc_read_begin(u32 *cc)
{
	u32 b = *cc;

	rd_barrier();
	return b;
}
static inline int cc_read_end(u32 *cc, u32 b)
{
	u32 a;

	rd_barrier();
	a = *cc;
	if (b & 1)
		return 0;
	return a == b;
}
static inline void copy_counted(void *dst, void *src, unsigned long len, u32 *cc)
{
	u32 b;

	do {
		b = cc_read_begin(cc);
		memcpy(dst, src, len);
	} while (!cc_read_end(cc, b));
}

struct wstats { unsigned long written, allocs; };
struct shared { u32 changecount; struct wstats stats; };
struct backend {
	struct shared *shmem;
	struct { struct wstats w; } snap;
	struct wstats other;
};
struct backend B;

void stats_report(unsigned long n)
{
	struct shared *s = B.shmem;

	cc_write_begin(&s->changecount);
	s->stats.written += n;
	s->stats.allocs++;
	cc_write_end(&s->changecount);
}

void stats_snapshot(const struct wstats *reset)
{
	struct shared *s = B.shmem;

	copy_counted(&B.snap.w, &s->stats, sizeof(s->stats), &s->changecount);
	B.snap.w.written -= reset->written;
	B.snap.w.allocs -= reset->allocs;
}

/* The same through a local pointer (pgstat_archiver.c's stat_snap). */
void stats_snapshot_ptr(const struct wstats *reset)
{
	struct shared *s = B.shmem;
	struct wstats *snap = &B.snap.w;

	copy_counted(snap, &s->stats, sizeof(s->stats), &s->changecount);
	snap->written -= reset->written;
	snap->allocs -= reset->allocs;
}

/* Another wstats of the backend, which no section publishes: the member
 * is a location with what holds it (other, not shared's stats), so the
 * sections' evidence is not about it. (Reported while evidence went by the
 * field alone.) */
void stats_other(const struct wstats *reset)
{
	B.other.written -= reset->written;
}

/* The shared statistics themselves, adjusted outside a write section. */
void stats_shared_adjust(const struct wstats *reset)
{
	B.shmem->stats.written -= reset->written; // expected-warning {{plain read-modify-write of 'B.shmem->stats.written' outside any write section}}
}
