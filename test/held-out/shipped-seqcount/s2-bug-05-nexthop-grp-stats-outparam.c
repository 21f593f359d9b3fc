// Modelled on: net/ipv4/nexthop.c:nh_grp_entry_stats_read() and
//   nla_put_nh_group_stats_entry() (Linux 6.12)
// Not a shipped bug: the real function reads each CPU's packet count into a
// local inside the u64_stats fetch/retry loop and adds it to *ret_packets
// after the loop. Here the add was folded into the read section, the same
// shape as the 2026 "fix data race in ..." series (veth, hns3, be2net, ovs,
// idpf): "*ret_packets +=" through the out-parameter repeats on every retry,
// so the per-entry packet count reported over netlink is inflated.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/u64_stats_sync.h>

#define NR_CPUS 8
#define EMSGSIZE 90
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define per_cpu_ptr(ptr, cpu) (&(ptr)[cpu])

struct sk_buff;
struct nlattr;

struct nh_grp_entry_stats {
	u64_stats_t packets;
	struct u64_stats_sync syncp;
};

struct nexthop {
	u32 id;
	u8 protocol;
	bool is_group;
};

struct nh_grp_entry {
	struct nexthop *nh;
	struct nh_grp_entry_stats *stats;	/* per-cpu, [NR_CPUS] */
	u16 weight;
	u64 packets_hw;
};

#define NHA_GROUP_STATS_ENTRY 1
#define NHA_GROUP_STATS_ENTRY_ID 1
#define NHA_GROUP_STATS_ENTRY_PACKETS 2
#define NHA_GROUP_STATS_ENTRY_PACKETS_HW 3
#define NHA_OP_FLAG_DUMP_HW_STATS 2

struct nlattr *nla_nest_start(struct sk_buff *skb, int type);
void nla_nest_end(struct sk_buff *skb, struct nlattr *nest);
void nla_nest_cancel(struct sk_buff *skb, struct nlattr *nest);
int nla_put_u32(struct sk_buff *skb, int type, u32 value);
int nla_put_uint(struct sk_buff *skb, int type, u64 value);

static void nh_grp_entry_stats_read(struct nh_grp_entry *nhge,
				    u64 *ret_packets)
{
	int i;

	*ret_packets = 0;

	for_each_possible_cpu(i) {
		struct nh_grp_entry_stats *cpu_stats;
		unsigned int start;

		cpu_stats = per_cpu_ptr(nhge->stats, i);
		do {
			start = u64_stats_fetch_begin(&cpu_stats->syncp);
			*ret_packets += u64_stats_read(&cpu_stats->packets); /* EXPECT: seqlint-seqcount-read-side-effect */
		} while (u64_stats_fetch_retry(&cpu_stats->syncp, start));
	}
}

int nla_put_nh_group_stats_entry(struct sk_buff *skb, struct nh_grp_entry *nhge,
				 u32 op_flags)
{
	struct nlattr *nest;
	u64 packets;

	nh_grp_entry_stats_read(nhge, &packets);

	nest = nla_nest_start(skb, NHA_GROUP_STATS_ENTRY);
	if (!nest)
		return -EMSGSIZE;

	if (nla_put_u32(skb, NHA_GROUP_STATS_ENTRY_ID, nhge->nh->id) ||
	    nla_put_uint(skb, NHA_GROUP_STATS_ENTRY_PACKETS,
			 packets + nhge->packets_hw))
		goto nla_put_failure;

	if (op_flags & NHA_OP_FLAG_DUMP_HW_STATS &&
	    nla_put_uint(skb, NHA_GROUP_STATS_ENTRY_PACKETS_HW, nhge->packets_hw))
		goto nla_put_failure;

	nla_nest_end(skb, nest);
	return 0;

nla_put_failure:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}
