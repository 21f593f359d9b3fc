// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,barrier-unpaired,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * barrier-unpaired and mp-missing-barrier pair a writer's data stores
 * before its flag store with a reader's data loads after its flag load.
 * "Before" and "after" are along a path of the function, not in the order
 * the blocks are listed. The shape of QEMU 7.2's util/fdmon-io_uring.c:
 * fdmon_io_uring_destroy() moves the handlers still to be submitted onto
 * the deleted list, publishing each with qatomic_rcu_set() in the loop's
 * body, and switches the context's fdmon_ops after the loop; the event
 * loop's try_poll_mode() tests the list head and then calls through
 * fdmon_ops. The store of fdmon_ops follows every publication: the list
 * head does not publish it, and nothing pairs. Written for seqlint.
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
	struct handler_list deleted;
	const struct ops *ops;
	struct handler *submit;
	int idle;
	int mode;
};

extern const struct ops poll_ops, uring_ops;

/* Correct: the store of 'ops' comes after the loop that publishes. */
void uring_destroy(struct loop_ctx *c)
{
	if (c->ops == &uring_ops) {
		struct handler *n;

		while ((n = c->submit)) {
			n->next = c->deleted.first;
			qatomic_rcu_set(&c->deleted.first, n);
			c->submit = n->next;
		}
		c->ops = &poll_ops;
	}
}

int try_poll(struct loop_ctx *c)
{
	if (qatomic_read(&c->deleted.first) == 0)
		return 0;
	if (!c->ops->need_wait(c))
		return 1;
	return 2;
}

/* Correct: the two arms of a branch. 'idle' is stored on the path that
 * does not publish. */
void uring_switch(struct loop_ctx *c, struct handler *n, int publish)
{
	if (publish) {
		n->next = c->deleted.first;
		qatomic_rcu_set(&c->deleted.first, n);
	} else {
		c->idle = 1;
	}
}

int poll_idle(struct loop_ctx *c)
{
	if (qatomic_read(&c->deleted.first) != 0)
		return 0;
	return c->idle;
}

/* The bug, still found: 'mode' stored before the loop, on the path to
 * every publication, with a relaxed-only path in poll_mode_bad(). */
void uring_rearm(struct loop_ctx *c)
{
	struct handler *n;

	c->mode = 2;
	while ((n = c->submit)) {
		c->submit = n->next;
		qatomic_rcu_set(&c->deleted.first, n);
	}
}

int poll_mode_bad(struct loop_ctx *c)
{
	if (qatomic_read(&c->deleted.first) != 0) // expected-warning {{'c->mode' is read after 'c->deleted.first' with no read barrier, acquire or address dependency, but its writer in 'uring_rearm()' publishes it with qatomic_rcu_set()}}
		return c->mode;
	return 0;
}
