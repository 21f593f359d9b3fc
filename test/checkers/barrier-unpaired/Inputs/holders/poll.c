#include "loop.h"

int ctx_try_poll(struct loop_ctx *c)
{
	if (qatomic_read(&c->poll.first) == 0)
		return 0;
	return c->ops;
}

int ctx_deleted_mode(struct loop_ctx *c)
{
	if (qatomic_read(&c->deleted.first) != 0)
		return c->mode;
	return 0;
}

int waiter_poll(void)
{
	if (qatomic_read(&waiters.first) == 0)
		return 0;
	return timer_mode;
}
