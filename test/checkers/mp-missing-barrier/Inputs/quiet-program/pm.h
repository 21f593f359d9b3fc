/* A per-core power state whose users are serialized by a contract. */
#include <stddef.h>

enum pm_state { PM_OFF, PM_ON };
enum pm_mode { PM_PAUSE, PM_SCALE };

struct core_pm {
	size_t n_queues;
	volatile enum pm_state state;
	enum pm_mode mode;
};

extern struct core_pm core_pm[64];
