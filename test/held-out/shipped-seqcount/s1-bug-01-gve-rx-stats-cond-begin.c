// Modelled on: drivers/net/ethernet/google/gve/gve_rx_dqo.c:gve_rx_poll_dqo() (Linux 6.12)
// The per-poll packet/byte totals are folded into the ring counters under the
// ring's u64_stats_sync. Here the update_begin was moved under "if (work_done)"
// (skip the seqcount bump on empty polls) but the update_end stayed outside the
// if: an empty poll runs u64_stats_update_end() with no section open, leaving
// the 32-bit seqcount odd, so every ndo_get_stats64 reader spins.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>

#define ETH_HLEN 14

struct napi_struct;

struct sk_buff {
	unsigned int len;
	unsigned int data_len;
};

struct gve_rx_compl_desc_dqo {
	u16 buf_id;
	u16 packet_len;
	u8 end_of_packet : 1;
	u8 rx_error : 1;
};

struct gve_rx_ring {
	struct gve_rx_compl_desc_dqo *compl_ring;
	u32 compl_head;
	u32 compl_mask;
	u32 cnt;
	struct sk_buff *skb_head;
	struct sk_buff *skb_tail;
	/* stats, protected by statss */
	u64 rpackets;
	u64 rbytes;
	u64 rx_desc_err_dropped_pkt;
	struct u64_stats_sync statss;
};

bool gve_rx_compl_ready(const struct gve_rx_ring *rx);
int gve_rx_dqo(struct napi_struct *napi, struct gve_rx_ring *rx,
	       const struct gve_rx_compl_desc_dqo *desc);
int gve_rx_complete_skb(struct gve_rx_ring *rx, struct napi_struct *napi,
			const struct gve_rx_compl_desc_dqo *desc);
void gve_rx_free_skb(struct napi_struct *napi, struct gve_rx_ring *rx);
void gve_rx_post_buffers_dqo(struct gve_rx_ring *rx);

int gve_rx_poll_dqo(struct gve_rx_ring *rx, struct napi_struct *napi, int budget)
{
	u64 bytes = 0;
	int work_done = 0;

	while (work_done < budget) {
		struct gve_rx_compl_desc_dqo *compl_desc =
			&rx->compl_ring[rx->compl_head];
		u32 pkt_bytes;
		int err;

		if (!gve_rx_compl_ready(rx))
			break;
		rx->compl_head = (rx->compl_head + 1) & rx->compl_mask;

		err = gve_rx_dqo(napi, rx, compl_desc);
		if (err < 0) {
			gve_rx_free_skb(napi, rx);
			u64_stats_update_begin(&rx->statss);
			rx->rx_desc_err_dropped_pkt++;
			u64_stats_update_end(&rx->statss);
			continue;
		}

		rx->cnt++;
		if (!rx->skb_head || !compl_desc->end_of_packet)
			continue;

		work_done++;
		pkt_bytes = rx->skb_head->len + ETH_HLEN;
		if (gve_rx_complete_skb(rx, napi, compl_desc) != 0) {
			gve_rx_free_skb(napi, rx);
			u64_stats_update_begin(&rx->statss);
			rx->rx_desc_err_dropped_pkt++;
			u64_stats_update_end(&rx->statss);
			continue;
		}

		bytes += pkt_bytes;
		rx->skb_head = NULL;
		rx->skb_tail = NULL;
	}

	gve_rx_post_buffers_dqo(rx);

	if (work_done) {
		u64_stats_update_begin(&rx->statss);
		rx->rpackets += work_done;
		rx->rbytes += bytes;
	}
	u64_stats_update_end(&rx->statss); /* EXPECT: seqlint-seqcount-write-unbalanced */

	return work_done;
}
