/* A data-path reader in a file that reads the queue count with an acquire:
 * the record is shared here, so the state is a flag and the pair with
 * pm_enable() is reported. */
#include "pm.h"

extern void scale_down(unsigned core);

int pm_poll_once(unsigned core)
{
	struct core_pm *c = &core_pm[core & 63];

	if (__atomic_load_n(&c->n_queues, __ATOMIC_ACQUIRE) == 0)
		return 0;
	if (c->state == PM_ON && c->mode == PM_SCALE)
		scale_down(core);
	return 1;
}
