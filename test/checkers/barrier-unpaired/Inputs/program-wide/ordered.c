#include "ev.h"

/* A second reader of ev.posted, ordered by its acquire: the writer's
 * finding stays one finding. */
int ev_peek_acquire(struct ev *e)
{
	if (!smp_load_acquire(&e->posted))
		return 0;
	return e->code;
}
