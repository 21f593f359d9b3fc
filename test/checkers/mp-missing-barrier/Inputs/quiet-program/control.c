/* The control API: two writers of the state, nothing ordered or locked. */
#include "pm.h"

struct core_pm core_pm[64];

int pm_enable(unsigned core, enum pm_mode mode)
{
	struct core_pm *c = &core_pm[core & 63];

	if (c->state != PM_OFF && c->mode != mode)
		return -22;
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
	return 0;
}
