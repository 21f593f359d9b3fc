// Modelled on: net/core/gen_stats.c:gnet_stats_read_basic() (Linux 6.12)
// Correct: the per-CPU branch copies into loop-body locals inside the
// u64_stats retry loop and sums after it; the single-counter branch stores
// straight into the out-parameters *ret_bytes/*ret_packets inside the section,
// which is fine because a retry overwrites them (plain stores, no "+=").
// The begin and the retry are both guarded by "running" (a parameter that
// never changes), so the retry is never reached without a begin.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>

#define NR_CPUS 8
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define per_cpu_ptr(ptr, cpu) (&(ptr)[cpu])

struct gnet_stats_basic_sync {
	u64_stats_t bytes;
	u64_stats_t packets;
	struct u64_stats_sync syncp;
} __attribute__((__aligned__(16)));

struct gnet_dump;
struct gnet_stats_basic {
	u64 bytes;
	u32 packets;
};

int gnet_stats_copy(struct gnet_dump *d, int type, void *buf, int size, int padattr);

static void gnet_stats_read_basic(u64 *ret_bytes, u64 *ret_packets,
				  struct gnet_stats_basic_sync *cpu,
				  struct gnet_stats_basic_sync *b, bool running)
{
	unsigned int start;

	if (cpu) {
		u64 t_bytes = 0, t_packets = 0;
		int i;

		for_each_possible_cpu(i) {
			struct gnet_stats_basic_sync *bcpu = per_cpu_ptr(cpu, i);
			unsigned int start;
			u64 bytes, packets;

			do {
				start = u64_stats_fetch_begin(&bcpu->syncp);
				bytes = u64_stats_read(&bcpu->bytes);
				packets = u64_stats_read(&bcpu->packets);
			} while (u64_stats_fetch_retry(&bcpu->syncp, start));

			t_bytes += bytes;
			t_packets += packets;
		}
		*ret_bytes = t_bytes;
		*ret_packets = t_packets;
		return;
	}
	do {
		if (running)
			start = u64_stats_fetch_begin(&b->syncp);
		*ret_bytes = u64_stats_read(&b->bytes);
		*ret_packets = u64_stats_read(&b->packets);
	} while (running && u64_stats_fetch_retry(&b->syncp, start));
}

int ___gnet_stats_copy_basic(struct gnet_dump *d,
			     struct gnet_stats_basic_sync *cpu,
			     struct gnet_stats_basic_sync *b,
			     int type, bool running)
{
	struct gnet_stats_basic sb;
	u64 bstats_bytes, bstats_packets;

	gnet_stats_read_basic(&bstats_bytes, &bstats_packets, cpu, b, running);

	sb.bytes = bstats_bytes;
	sb.packets = (u32)bstats_packets;
	return gnet_stats_copy(d, type, &sb, sizeof(sb), 0);
}
