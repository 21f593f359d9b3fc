#include "ev.h"

int ev_peek_ordered(struct ev *e)
{
	if (!READ_ONCE(e->posted))
		return 0;
	smp_rmb(); /* pairs with the publication in ev_post() */
	return e->code;
}

/* Its writer g_publish() in writer.c has smp_wmb(): this side lost its
 * partner. */
int g_consume(void)
{
	if (!READ_ONCE(g_flag))
		return -1;
	return g_data;
}

struct priv {
	int val;
	int done;
};

int priv_wait(struct priv *p)
{
	if (!READ_ONCE(p->done))
		return -1;
	smp_rmb();
	return p->val;
}

int hdr_consume(void)
{
	if (!READ_ONCE(hdr_flag))
		return -1;
	smp_rmb();
	return hdr_data;
}

/* The writer msg_send() is in ev.h and analysed here too: the plugin judges
 * this pair in this TU, the join does not report it again. */
int msg_recv(struct ready_msg *m)
{
	msg_send(m, 2);
	if (!READ_ONCE(m->ready))
		return -1;
	return m->payload;
}

int job_take(struct job *j)
{
	if (!READ_ONCE(j->queued))
		return -1;
	return j->arg;
}

int cfg_get(struct cfg *c)
{
	if (!READ_ONCE(c->valid))
		return -1;
	smp_rmb();
	return c->mode;
}
