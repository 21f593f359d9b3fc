// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,barrier-unpaired,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A flag is a location, not a member name. QEMU's AioContext holds three
 * list heads of one type (aio_handlers, deleted_aio_handlers,
 * poll_aio_handlers), each with its own lh_first: a writer that publishes
 * on one list and a reader that tests another pass nothing to each other.
 * The same holds for two global heads of one type, and for a head a
 * helper tests through its parameter (`&c->poll`). Written for
 * seqlint, in QEMU's shape.
 */
#define qatomic_read(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define qatomic_rcu_set(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

struct handler {
	struct handler *next;
	int flags;
};

struct handler_list {
	struct handler *first;
};

struct ops {
	int (*need_wait)(void *);
};

struct loop_ctx {
	struct handler_list handlers;
	struct handler_list deleted;
	struct handler_list poll;
	const struct ops *ops;
	int mode;
	int budget;
};

/* Correct: the writer publishes on 'deleted', the reader tests 'poll'. */
void ctx_retire(struct loop_ctx *c, struct handler *n, const struct ops *o)
{
	c->ops = o;
	n->next = c->deleted.first;
	qatomic_rcu_set(&c->deleted.first, n);
}

int ctx_try_poll(struct loop_ctx *c)
{
	if (qatomic_read(&c->poll.first) == 0)
		return 0;
	return c->ops->need_wait(c);
}

/* Correct: two global heads of one type. */
struct handler_list timers, waiters;
int timer_mode;

void timer_add(struct handler *n)
{
	timer_mode = 1;
	qatomic_rcu_set(&timers.first, n);
}

int waiter_poll(void)
{
	if (qatomic_read(&waiters.first) == 0)
		return 0;
	return timer_mode;
}

/* Correct: a helper tests the list it is handed (&c->poll); the writer
 * publishes on 'handlers'. */
static struct handler *list_first_rcu(struct handler_list *l)
{
	return qatomic_read(&l->first);
}

void ctx_add(struct loop_ctx *c, struct handler *n)
{
	c->budget = 8;
	qatomic_rcu_set(&c->handlers.first, n);
}

int ctx_budget(struct loop_ctx *c)
{
	if (!list_first_rcu(&c->poll))
		return 0;
	return c->budget;
}

/* The bug, still found: the same list on both sides. */
void ctx_retire_mode(struct loop_ctx *c, struct handler *n)
{
	c->mode = 2;
	qatomic_rcu_set(&c->deleted.first, n);
}

int ctx_deleted_mode(struct loop_ctx *c)
{
	if (qatomic_read(&c->deleted.first) != 0) // expected-warning {{'c->mode' is read after 'c->deleted.first' with no read barrier, acquire or address dependency, but its writer in 'ctx_retire_mode()' publishes it with qatomic_rcu_set()}}
		return c->mode;
	return 0;
}

/* The bug through the helper: the head it is handed is the one published. */
int ctx_handlers_budget(struct loop_ctx *c)
{
	if (!list_first_rcu(&c->handlers)) // expected-warning {{'c->budget' is read after 'c->handlers.first' with no read barrier, acquire or address dependency, but its writer in 'ctx_add()' publishes it with qatomic_rcu_set()}}
		return 0;
	return c->budget;
}
