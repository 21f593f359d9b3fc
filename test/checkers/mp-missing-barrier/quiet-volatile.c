// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier: a flag whose only sign of another agent is `volatile`.
 *
 * Legacy code declares shared words volatile and then serializes their
 * users by other means: the callers' lock in another file, or a contract
 * ("call this only with the port stopped"). A writer and a reader of such
 * a flag are not reported when, in the file,
 *  - the flag is volatile by declaration and accessed plainly (no
 *    READ_ONCE(), no volatile cast, no atomic),
 *  - no function that touches the flag's record has a barrier, a lock, an
 *    atomic or a marked access,
 *  - two or more functions store the flag plainly: unsynchronized writers
 *    that no barrier could make correct unless something outside the file
 *    serializes them, and that serializes their readers too,
 *  - and no reader waits for the flag in a loop.
 * Modelled on DPDK's lib/power/rte_power_pmd_mgmt.c (queue_enable() and
 * queue_disable(), documented as not thread safe) and lib/eal/common/
 * malloc_elem.c (the heap's volatile links, set by split and join under the
 * heap lock that malloc_heap.c takes); rewritten.
 * The same shapes are reported when a reader waits for the flag, when the
 * file orders another access to the record, or with a single writer.
 */
#include <stddef.h>

enum pm_state { PM_OFF, PM_ON };
enum pm_mode { PM_PAUSE, PM_SCALE };

/* A control API: enable and disable, never concurrent. */
struct core_pm {
	size_t n_queues;
	volatile enum pm_state state;
	enum pm_mode mode;
};

static struct core_pm core_pm[64];

extern int start_scaling(unsigned core);
extern void stop_scaling(unsigned core);

int pm_enable(unsigned core, enum pm_mode mode)
{
	struct core_pm *c = &core_pm[core & 63];

	if (c->state != PM_OFF && c->mode != mode)
		return -22;
	if (mode == PM_SCALE && c->state == PM_OFF && start_scaling(core) < 0)
		return -1;
	if (++c->n_queues == 1) {
		c->mode = mode;
		c->state = PM_ON;
	}
	return 0;
}

int pm_disable(unsigned core)
{
	struct core_pm *c = &core_pm[core & 63];

	if (c->state != PM_ON)
		return -22;
	if (--c->n_queues == 0)
		c->state = PM_OFF;
	if (c->mode == PM_SCALE && c->state == PM_OFF)
		stop_scaling(core);
	return 0;
}

/* A heap of blocks whose volatile links are set by split and join, all
 * called with a lock that another file takes. */
struct blk {
	struct blk *volatile prev;
	struct blk *volatile next;
	size_t size;
	int free;
	struct blk *orig;
};

void blk_split(struct blk *b, struct blk *at, size_t size)
{
	struct blk *nx = b->next;

	at->size = b->size - size;
	at->free = 1;
	at->orig = b->orig;
	at->prev = b;
	at->next = nx;
	if (nx)
		nx->prev = at;
	b->next = at;
	b->size = size;
}

void blk_join_next(struct blk *b)
{
	struct blk *nx = b->next;

	if (nx && nx->free) {
		b->size += nx->size;
		b->next = nx->next;
		if (nx->next)
			nx->next->prev = b;
	}
}

size_t blk_prev_size(struct blk *b)
{
	if (b->prev && b->prev->free)
		return b->orig == b->prev->orig ? b->prev->size : 0;
	return 0;
}

/* The same control state, waited for by a worker: another agent sets it. */
struct core_run {
	size_t n_queues;
	volatile enum pm_state state;
	enum pm_mode mode;
};

static struct core_run core_run[64];

void run_enable(unsigned core, enum pm_mode mode)
{
	struct core_run *c = &core_run[core & 63];

	c->mode = mode; // expected-note {{'c->mode' is stored here}}
	c->state = PM_ON; // expected-warning {{'c->state' is published here after the store to 'c->mode' with no write barrier in between}}
	// expected-note@-1 {{'c->state' is published here, in 'run_enable()', after 'c->mode' is stored}}
}

void run_disable(unsigned core)
{
	core_run[core & 63].state = PM_OFF;
}

enum pm_mode run_wait(unsigned core)
{
	struct core_run *c = &core_run[core & 63];

	while (c->state != PM_ON) // expected-warning {{'c->mode' is read after the flag 'c->state' with no read barrier}}
		;                 // expected-note@-1 {{'c->state' is read here, in 'run_wait()', and 'c->mode' after it}}
	return c->mode; // expected-note {{'c->mode' is read here}}
}

/* The same control API, in a file that reads the record's queue count
 * with an acquire elsewhere: the record is handled as shared, so its
 * volatile state is a flag. */
struct core_cnt {
	size_t n_queues;
	volatile enum pm_state state;
	enum pm_mode mode;
};

static struct core_cnt core_cnt[64];

int cnt_enable(unsigned core, enum pm_mode mode)
{
	struct core_cnt *c = &core_cnt[core & 63];

	if (c->state != PM_OFF && c->mode != mode)
		return -22;
	if (++c->n_queues == 1) {
		c->mode = mode; // expected-note {{'c->mode' is stored here}}
		c->state = PM_ON; // expected-warning {{'c->state' is published here after the store to 'c->mode' with no write barrier in between}}
		// expected-note@-1 {{'c->state' is published here, in 'cnt_enable()', after 'c->mode' is stored}}
	}
	return 0;
}

int cnt_disable(unsigned core)
{
	struct core_cnt *c = &core_cnt[core & 63];

	if (c->state != PM_ON) // expected-warning {{'c->mode' is read after the flag 'c->state' with no read barrier}}
		return -22;    // expected-note@-1 {{'c->state' is read here, in 'cnt_disable()', and 'c->mode' after it}}
	if (--c->n_queues == 0)
		c->state = PM_OFF;
	if (c->mode == PM_SCALE && c->state == PM_OFF) // expected-note {{'c->mode' is read here}}
		stop_scaling(core);
	return 0;
}

size_t cnt_queues(unsigned core)
{
	return __atomic_load_n(&core_cnt[core & 63].n_queues, __ATOMIC_ACQUIRE);
}
