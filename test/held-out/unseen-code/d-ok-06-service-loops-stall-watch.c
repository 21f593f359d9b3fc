// Modelled on: DPDK lib/eal/common/rte_service.c:service_runner_func(),
//   service_counter_add() and lcore_attr_get_loops() (DPDK 22.11/24.x), plus the
//   progress check of app/test/test_service_cores.c.
// FLAGS: @dpdk@
// Correct: `loops` and the per-service `calls` are statistics. The service lcore is
// their only writer and bumps them with relaxed load + relaxed store; a watchdog on the
// main lcore snapshots `loops`, sleeps, and compares it with a second load to see
// whether the lcore still makes progress. A counter loaded twice and compared, and a
// thread_active flag published with seq_cst around the loop, but no data is read under
// the counter and no snapshot needs to be consistent.
#include <stdint.h>
#include <stdbool.h>
#include <rte_atomic.h>
#include <rte_cycles.h>

#define SVC_MAX		64
#define RUNSTATE_RUNNING	1

struct svc_stats {
	uint64_t calls;
	uint64_t cycles;
};

struct core_state {
	int32_t runstate;
	int32_t thread_active;
	uint64_t loops;
	uint64_t mapped;		/* bitmap of services */
	struct svc_stats stats[SVC_MAX];
};

int32_t service_run_one(uint32_t id);

static void
svc_counter_add(uint64_t *counter, uint64_t operand)
{
	/* single writer: a relaxed load and a relaxed store, no atomic add */
	uint64_t value = __atomic_load_n(counter, __ATOMIC_RELAXED);

	__atomic_store_n(counter, value + operand, __ATOMIC_RELAXED);
}

int32_t
service_runner_func(struct core_state *cs)
{
	__atomic_store_n(&cs->thread_active, 1, __ATOMIC_SEQ_CST);

	while (__atomic_load_n(&cs->runstate, __ATOMIC_ACQUIRE) == RUNSTATE_RUNNING) {
		uint32_t id;

		for (id = 0; id < SVC_MAX; id++) {
			uint64_t start;

			if (!(cs->mapped & (1ULL << id)))
				continue;
			start = rte_rdtsc();
			service_run_one(id);
			svc_counter_add(&cs->stats[id].calls, 1);
			svc_counter_add(&cs->stats[id].cycles, rte_rdtsc() - start);
		}
		__atomic_store_n(&cs->loops, cs->loops + 1, __ATOMIC_RELAXED);
	}

	__atomic_store_n(&cs->thread_active, 0, __ATOMIC_SEQ_CST);
	return 0;
}

bool
service_lcore_stalled(const struct core_state *cs, unsigned int wait_ms)
{
	uint64_t before, after;

	if (!__atomic_load_n(&cs->thread_active, __ATOMIC_ACQUIRE))
		return false;

	before = __atomic_load_n(&cs->loops, __ATOMIC_RELAXED);
	rte_delay_ms(wait_ms);
	after = __atomic_load_n(&cs->loops, __ATOMIC_RELAXED);

	return before == after;
}
