// RUN: %clang_plugin -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * seqcount-read-side-effect, kernel style: side effects inside a read section
 * (between the begin and the retry): logging, stores and read-modify-writes
 * to globals (function-local statics included) and to shared objects (the
 * object that holds the seqcount, objects reached through shared pointers),
 * allocation/free, taking locks, and calls to functions of this TU that write
 * globals. They repeat on every retry and act on possibly torn data.
 * Diagnosed on the store or call. Only readers live in this file.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

static seqcount_t cfg_seq = SEQCNT_ZERO(cfg_seq);
static struct { int mode; int level; } cfg;

/* printk() in the section: printed once per retry, with torn values. */
int cfg_mode_logged(void)
{
	unsigned int seq;
	int mode;

	do {
		seq = read_seqcount_begin(&cfg_seq);
		mode = cfg.mode;
		printk(KERN_INFO "cfg: mode %d\n", mode); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqcount_retry(&cfg_seq, seq));
	return mode;
}

/* pr_info() on one path of the section is still in the section. */
int cfg_level_checked(void)
{
	unsigned int seq;
	int level;

	do {
		seq = read_seqcount_begin(&cfg_seq);
		level = cfg.level;
		if (level > 7)
			pr_info("cfg: odd level %d\n", level); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqcount_retry(&cfg_seq, seq));
	return level;
}

/* Publishing a possibly torn value to a global. */
static int cfg_last_mode;

int cfg_mode_cached(void)
{
	unsigned int seq;
	int mode;

	do {
		seq = read_seqcount_begin(&cfg_seq);
		mode = cfg.mode;
		cfg_last_mode = mode; // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqcount_retry(&cfg_seq, seq));
	return mode;
}

/* WRITE_ONCE() does not make a global store harmless. */
static int cfg_last_level;

int cfg_level_cached(void)
{
	unsigned int seq;
	int level;

	do {
		seq = read_seqcount_begin(&cfg_seq);
		level = cfg.level;
		WRITE_ONCE(cfg_last_level, level); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqcount_retry(&cfg_seq, seq));
	return level;
}

/* A global statistics counter bumped once per attempt, not once per read. */
static unsigned long cfg_reads;

int cfg_get_mode(void)
{
	unsigned int seq;
	int mode;

	do {
		seq = read_seqcount_begin(&cfg_seq);
		cfg_reads++; // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		mode = cfg.mode;
	} while (read_seqcount_retry(&cfg_seq, seq));
	return mode;
}

/* A function-local static is a global too (numbering the calls for tracing
 * numbers the attempts instead). */
int cfg_get_level(unsigned int *call_id)
{
	static unsigned int calls;
	unsigned int seq;
	int level;

	do {
		seq = read_seqcount_begin(&cfg_seq);
		*call_id = ++calls; // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		level = cfg.level;
	} while (read_seqcount_retry(&cfg_seq, seq));
	return level;
}

/* Calling a function of this TU that writes a global. */
static unsigned long nr_snapshots;

static void note_snapshot(void)
{
	nr_snapshots++;
}

int cfg_snapshot(int *level)
{
	unsigned int seq;
	int mode;

	do {
		seq = read_seqcount_begin(&cfg_seq);
		mode = cfg.mode;
		*level = cfg.level;
		note_snapshot(); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqcount_retry(&cfg_seq, seq));
	return mode;
}

/* The object that holds the seqcount is shared: updating its fields from the
 * reader races with the writer. */
struct dev {
	seqcount_t seq;
	spinlock_t lock;
	struct mutex mtx;
	u64 rx_bytes;
	unsigned long lookups;
	struct owner *owner;
	void *buf;
};

struct owner {
	unsigned long hits;
};

u64 dev_rx_bytes(struct dev *d)
{
	unsigned int seq;
	u64 bytes;

	do {
		seq = read_seqcount_begin(&d->seq);
		bytes = d->rx_bytes;
		d->lookups += 1; // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqcount_retry(&d->seq, seq));
	return bytes;
}

/* An object reached through a pointer loaded from the shared object is
 * shared too. */
u64 dev_rx_bytes_owner(struct dev *d)
{
	unsigned int seq;
	u64 bytes;
	struct owner *o;

	do {
		seq = read_seqcount_begin(&d->seq);
		bytes = d->rx_bytes;
		o = READ_ONCE(d->owner);
		o->hits++; // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqcount_retry(&d->seq, seq));
	return bytes;
}

/* Allocation in the section: one leak per retry. */
u64 *dev_rx_bytes_copy(struct dev *d)
{
	unsigned int seq;
	u64 *copy, bytes;

	do {
		seq = read_seqcount_begin(&d->seq);
		copy = kmalloc(sizeof(*copy), GFP_ATOMIC); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		bytes = d->rx_bytes;
	} while (read_seqcount_retry(&d->seq, seq));
	if (copy)
		*copy = bytes;
	return copy;
}

/* Freeing what a possibly torn read pointed to. */
void dev_drop_buf(struct dev *d)
{
	unsigned int seq;
	void *buf;

	do {
		seq = read_seqcount_begin(&d->seq);
		buf = d->buf;
		kfree(buf); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqcount_retry(&d->seq, seq));
}

/* (Locks taken and released inside a section are not side effects: the
 * kernel does it, e.g. nfs_path() under rename_lock; see correct.c.) */

/* seqlock_t section. */
static DEFINE_SEQLOCK(tk_lock);
static u64 tk_base;
static u64 tk_last_seen;

u64 tk_get_base(void)
{
	unsigned int seq;
	u64 base;

	do {
		seq = read_seqbegin(&tk_lock);
		base = tk_base;
		tk_last_seen = base; // expected-warning {{[seqlint-seqcount-read-side-effect]}}
	} while (read_seqretry(&tk_lock, seq));
	return base;
}

/* Open-coded section (barriers and odd check in place) with a printk. */
struct snap {
	unsigned int seq;
	u64 a;
};

u64 snap_a_logged(struct snap *s)
{
	unsigned int seq;
	u64 a;

	do {
		seq = READ_ONCE(s->seq) & ~1U;
		smp_rmb();
		a = READ_ONCE(s->a);
		pr_err("snap: a=%llu\n", a); // expected-warning {{[seqlint-seqcount-read-side-effect]}}
		smp_rmb();
	} while (READ_ONCE(s->seq) != seq);
	return a;
}
