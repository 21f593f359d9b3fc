// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: a new parameter block is filled outside the
 * writers' lock and swapped in under it. Taking the lock is an acquire: the
 * stores before it may still pass the pointer store, and a reader that takes
 * no lock (rcu_dereference()) can see the pointer before the fields.
 * Modelled on net/sched/act_police.c:tcf_police_init() (Linux 6.12), which
 * does this with rcu_replace_pointer() under police->tcf_lock.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

struct rate_cfg {
	u64 burst;
	u64 rate_bps;
	u32 mtu;
};

struct meter {
	spinlock_t lock;
	int action;
	struct rate_cfg __rcu *cfg;
};

extern struct rate_cfg *rate_cfg_new(void);
extern void rate_cfg_free_later(struct rate_cfg *c);

int meter_change(struct meter *m, u64 burst, u64 rate, u32 mtu, int action)
{
	struct rate_cfg *c = rate_cfg_new(), *old;

	if (!c)
		return -1;
	c->burst = burst;
	c->rate_bps = rate;
	c->mtu = mtu;

	spin_lock_bh(&m->lock);
	m->action = action;
	old = m->cfg;
	m->cfg = c; // expected-warning {{'m->cfg' is published here after the store to 'c->mtu' with no write barrier in between}}
	spin_unlock_bh(&m->lock);
	rate_cfg_free_later(old);
	return 0;
}

int meter_change_ok(struct meter *m, u64 burst, u64 rate, u32 mtu, int action)
{
	struct rate_cfg *c = rate_cfg_new(), *old;

	if (!c)
		return -1;
	c->burst = burst;
	c->rate_bps = rate;
	c->mtu = mtu;

	spin_lock_bh(&m->lock);
	m->action = action;
	old = rcu_dereference_protected(m->cfg, 1);
	rcu_assign_pointer(m->cfg, c);
	spin_unlock_bh(&m->lock);
	rate_cfg_free_later(old);
	return 0;
}

/* The packet path: RCU only, never the meter's lock. */
u64 meter_limit(struct meter *m, u32 len)
{
	struct rate_cfg *c = rcu_dereference(m->cfg);

	if (len > c->mtu)
		return 0;
	return c->burst + c->rate_bps;
}

/* Readers that take the lock: the lock orders everything, no finding. */
struct table_cfg { u32 size; u32 seed; };
struct table {
	spinlock_t lock;
	struct table_cfg *cfg;
};

extern struct table_cfg *table_cfg_new(void);

void table_change(struct table *t, u32 size, u32 seed)
{
	struct table_cfg *c = table_cfg_new();

	c->size = size;
	c->seed = seed;
	spin_lock(&t->lock);
	t->cfg = c;
	spin_unlock(&t->lock);
}

u32 table_size(struct table *t)
{
	u32 n;

	spin_lock(&t->lock);
	n = t->cfg->size;
	spin_unlock(&t->lock);
	return n;
}

/* Filled, then published after an unlock (a release): ordered. */
struct slotcfg { u32 a, b; };
struct holder {
	spinlock_t lock;
	struct slotcfg *cur;
};

extern struct slotcfg *slotcfg_new(void);

void holder_change(struct holder *h, u32 a, u32 b)
{
	struct slotcfg *c = slotcfg_new();

	spin_lock(&h->lock);
	c->a = a;
	c->b = b;
	spin_unlock(&h->lock);
	spin_lock(&h->lock);
	h->cur = c;
	spin_unlock(&h->lock);
}

u32 holder_a(struct holder *h)
{
	return rcu_dereference(h->cur)->a;
}
