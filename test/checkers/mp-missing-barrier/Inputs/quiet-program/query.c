/* More control calls of the same contract: two writers of the state,
 * nothing ordered or locked; quiet too. */
#include "pm.h"

int pm_mode_of(unsigned core)
{
	struct core_pm *c = &core_pm[core & 63];

	if (c->state != PM_ON)
		return -1;
	return c->mode;
}

void pm_reset(unsigned core)
{
	core_pm[core & 63].state = PM_OFF;
	core_pm[core & 63].n_queues = 0;
}

void pm_force(unsigned core, enum pm_mode mode)
{
	core_pm[core & 63].mode = mode;
	core_pm[core & 63].state = PM_ON;
}
