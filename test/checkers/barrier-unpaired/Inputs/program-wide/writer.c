#include "ev.h"

/* The writer lost its smp_wmb(); its reader is in reader.c. */
void ev_post(struct ev *e, int code)
{
	e->code = code;
	WRITE_ONCE(e->posted, 1);
}

/* Globals with external linkage: one object program-wide. */
int g_data;
int g_flag;

void g_publish(int v)
{
	g_data = v;
	smp_wmb();
	WRITE_ONCE(g_flag, 1);
}

/* Same names as reader.c's record, but another type: no pair. */
struct priv {
	int val;
	int done;
};

void priv_finish(struct priv *p, int v)
{
	p->val = v;
	WRITE_ONCE(p->done, 1);
}

void hdr_publish(int v)
{
	hdr_data = v;
	WRITE_ONCE(hdr_flag, 1);
}

void send_one(struct ready_msg *m)
{
	msg_send(m, 1);
}

/* Neither side orders: mp-missing-barrier, at both sides. */
void job_queue(struct job *j, int arg)
{
	j->arg = arg;
	WRITE_ONCE(j->queued, 1);
}

/* Known and accepted: NOLINT applies at the join as in a TU. */
void cfg_set(struct cfg *c, int mode)
{
	c->mode = mode;
	WRITE_ONCE(c->valid, 1); // NOLINT(seqlint-barrier-unpaired)
}
