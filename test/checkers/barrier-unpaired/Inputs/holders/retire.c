#include "loop.h"

void ctx_retire(struct loop_ctx *c, struct handler *n, int o)
{
	c->ops = o;
	qatomic_rcu_set(&c->deleted.first, n);
}

void ctx_retire_mode(struct loop_ctx *c, struct handler *n)
{
	c->mode = 2;
	qatomic_rcu_set(&c->deleted.first, n);
}

void timer_add(struct handler *n)
{
	timer_mode = 1;
	qatomic_rcu_set(&timers.first, n);
}
