/* Smoke input for the kernel stubs: uses every API once so that
 *   clang-19 -fsyntax-only -Wall -I test/Inputs/kernel test/Inputs/kernel/smoke.c
 * proves the headers compile (also with -DSEQLINT_STUB_SEQ_LOCK=0 and
 * -DBITS_PER_LONG=32). Not a test by itself: it has no RUN line. */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/rcupdate.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/u64_stats_sync.h>
#include <asm/barrier.h>

struct point { u64 x, y; };

static seqcount_t sc = SEQCNT_ZERO(sc);
static DEFINE_SPINLOCK(sc_lock);
static DEFINE_RAW_SPINLOCK(raw_lock);
static DEFINE_MUTEX(mtx);
static DEFINE_RWLOCK(rwl);
static seqcount_spinlock_t sc_spin = SEQCNT_SPINLOCK_ZERO(sc_spin, &sc_lock);
static seqcount_raw_spinlock_t sc_raw;
static seqcount_mutex_t sc_mutex;
static seqcount_rwlock_t sc_rw;
static seqcount_latch_t latch = SEQCNT_LATCH_ZERO(latch);
static DEFINE_SEQLOCK(sl);
static seqlock_t sl2;
static struct point pt, latch_data[2];
static struct point *gptr;
static int flag, data;
static atomic_t refs = ATOMIC_INIT(1);

struct netstats {
	struct u64_stats_sync syncp;
	u64_stats_t packets;
};

void smoke_init(void)
{
	seqcount_init(&sc);
	seqcount_raw_spinlock_init(&sc_raw, &raw_lock);
	seqcount_mutex_init(&sc_mutex, &mtx);
	seqcount_rwlock_init(&sc_rw, &rwl);
	seqcount_latch_init(&latch);
	seqlock_init(&sl2);
	raw_spin_lock_init(&raw_lock);
	rwlock_init(&rwl);
	mutex_init(&mtx);
}

struct point smoke_readers(void)
{
	struct point p;
	unsigned seq;
	int s = 0;
	unsigned long flags;

	do {
		seq = read_seqcount_begin(&sc);
		p = pt;
	} while (read_seqcount_retry(&sc, seq));

	do {
		seq = raw_read_seqcount_begin(&sc_spin);
		p.x = pt.x;
	} while (__read_seqcount_retry(&sc_spin, seq));

	seq = __read_seqcount_begin(&sc_raw);
	(void)read_seqcount_retry(&sc_raw, seq);
	seq = raw_read_seqcount(&sc_mutex);
	(void)read_seqcount_retry(&sc_mutex, seq);
	seq = raw_seqcount_begin(&sc_rw);
	(void)read_seqcount_retry(&sc_rw, seq);

	do {
		seq = raw_read_seqcount_latch(&latch);
		p = latch_data[seq & 1];
	} while (read_seqcount_latch_retry(&latch, seq));

	do {
		seq = read_seqbegin(&sl);
		p.y = pt.y;
	} while (read_seqretry(&sl, seq));

	do {
		read_seqbegin_or_lock(&sl, &s);
		p = pt;
	} while (need_seqretry(&sl, s) && (s = 1));
	done_seqretry(&sl, s);

	s = 0;
	do {
		flags = read_seqbegin_or_lock_irqsave(&sl, &s);
		p = pt;
	} while (need_seqretry(&sl, s) && (s = 1));
	done_seqretry_irqrestore(&sl, s, flags);

	read_seqlock_excl(&sl);
	p = pt;
	read_sequnlock_excl(&sl);

	scoped_seqlock_read(&sl, ss_lock) {
		p = pt;
	}
	return p;
}

void smoke_writers(u64 v)
{
	unsigned long flags;

	spin_lock(&sc_lock);
	write_seqcount_begin(&sc_spin);
	pt.x = v;
	write_seqcount_end(&sc_spin);
	spin_unlock(&sc_lock);

	preempt_disable();
	raw_write_seqcount_begin(&sc);
	pt.y = v;
	raw_write_seqcount_end(&sc);
	write_seqcount_begin_nested(&sc, 1);
	write_seqcount_end(&sc);
	raw_write_seqcount_barrier(&sc);
	write_seqcount_invalidate(&sc);
	preempt_enable();

	mutex_lock(&mtx);
	write_seqcount_begin(&sc_mutex);
	write_seqcount_end(&sc_mutex);
	mutex_unlock(&mtx);

	raw_spin_lock_irqsave(&raw_lock, flags);
	write_seqcount_begin(&sc_raw);
	write_seqcount_end(&sc_raw);
	raw_spin_unlock_irqrestore(&raw_lock, flags);

	write_lock(&rwl);
	write_seqcount_begin(&sc_rw);
	write_seqcount_end(&sc_rw);
	write_unlock(&rwl);

	raw_write_seqcount_latch(&latch);
	latch_data[0].x = v;
	raw_write_seqcount_latch(&latch);
	latch_data[1].x = v;

	write_seqlock(&sl);
	pt.x = v;
	write_sequnlock(&sl);
	write_seqlock_bh(&sl);
	write_sequnlock_bh(&sl);
	write_seqlock_irq(&sl);
	write_sequnlock_irq(&sl);
	write_seqlock_irqsave(&sl, flags);
	write_sequnlock_irqrestore(&sl, flags);
}

void smoke_locks(void)
{
	unsigned long flags;

	spin_lock_bh(&sc_lock);
	spin_unlock_bh(&sc_lock);
	spin_lock_irq(&sc_lock);
	spin_unlock_irq(&sc_lock);
	spin_lock_irqsave(&sc_lock, flags);
	lockdep_assert_held(&sc_lock);
	spin_unlock_irqrestore(&sc_lock, flags);
	if (spin_trylock(&sc_lock))
		spin_unlock(&sc_lock);
	raw_spin_lock(&raw_lock);
	raw_spin_unlock(&raw_lock);
	read_lock(&rwl);
	read_unlock(&rwl);
	read_lock_irqsave(&rwl, flags);
	read_unlock_irqrestore(&rwl, flags);
	write_lock_bh(&rwl);
	write_unlock_bh(&rwl);
	read_seqlock_excl_irqsave(&sl, flags);
	read_sequnlock_excl_irqrestore(&sl, flags);
}

void smoke_barriers(struct point *np)
{
	int v;

	/* message passing, open-coded */
	data = 42;
	smp_wmb();
	WRITE_ONCE(flag, 1);
	if (READ_ONCE(flag)) {
		smp_rmb();
		v = data;
		(void)v;
	}
	smp_store_release(&flag, 2);
	v = smp_load_acquire(&flag);
	smp_mb();
	barrier();
	smp_store_mb(flag, 3);
	atomic_inc(&refs);
	smp_mb__after_atomic();
	smp_mb__before_atomic();
	(void)atomic_add_return(1, &refs);
	virt_mb();
	virt_rmb();
	virt_wmb();
	mb();
	rmb();
	wmb();
	v = data_race(data);
	v = smp_cond_load_acquire(&flag, VAL != 0);

	rcu_assign_pointer(gptr, np);
	rcu_read_lock();
	np = rcu_dereference(gptr);
	if (np && likely(np->x) && !unlikely(np->y))
		pr_info("x=%llu v=%d\n", np->x, v);
	rcu_read_unlock();
	printk(KERN_ERR "err\n");
	pr_debug("dbg %d\n", v);
	np = kmalloc(sizeof(*np), GFP_KERNEL);
	kfree(np);
	np = kzalloc(sizeof(*np), GFP_ATOMIC);
	kfree(np);
}

u64 smoke_u64_stats(struct netstats *st)
{
	unsigned int start;
	u64 packets;
	unsigned long flags;

	u64_stats_init(&st->syncp);
	u64_stats_update_begin(&st->syncp);
	u64_stats_inc(&st->packets);
	u64_stats_update_end(&st->syncp);
	flags = u64_stats_update_begin_irqsave(&st->syncp);
	u64_stats_add(&st->packets, 2);
	u64_stats_update_end_irqrestore(&st->syncp, flags);
	do {
		start = u64_stats_fetch_begin(&st->syncp);
		packets = u64_stats_read(&st->packets);
	} while (u64_stats_fetch_retry(&st->syncp, start));
	return packets;
}
