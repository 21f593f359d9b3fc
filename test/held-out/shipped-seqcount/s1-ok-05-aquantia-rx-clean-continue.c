// Modelled on: drivers/net/ethernet/aquantia/atlantic/aq_ring.c:__aq_ring_rx_clean()
//   (Linux 6.12)
// Correct: the rx ring's u64_stats section is opened and closed inside each
// loop iteration. The error and allocation-failure branches close it before
// "continue" or "goto err_exit", and the success path closes it before handing
// the skb to GRO, so the section is never open at a loop back-edge, at the
// continue, or at the function exit.
// FLAGS: -DBITS_PER_LONG=32
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>

#define ENOMEM 12
#define EIO 5
#define AQ_CFG_RX_HDR_SIZE 256U

struct napi_struct;
struct sk_buff { unsigned int len; };

struct aq_ring_buff_s {
	u16 len;
	u16 next;
	u8 is_eop : 1;
	u8 is_error : 1;
	u8 is_cleaned : 1;
	u8 is_lro : 1;
	u8 is_cso_err : 1;
};

struct aq_ring_stats_rx_s {
	struct u64_stats_sync syncp;
	u64 errors;
	u64 packets;
	u64 bytes;
	u64 lro_packets;
	u64 jumbo_packets;
	u64 alloc_fails;
	u64 skb_alloc_fails;
};

struct aq_ring_s {
	struct aq_ring_buff_s *buff_ring;
	unsigned int sw_head;
	unsigned int hw_head;
	unsigned int size;
	struct {
		struct aq_ring_stats_rx_s rx;
	} stats;
};

unsigned int aq_ring_next_dx(struct aq_ring_s *self, unsigned int dx);
struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int len);
int aq_ring_build_skb(struct aq_ring_s *self, struct aq_ring_buff_s *buff,
		      struct sk_buff *skb);
void napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb);

int __aq_ring_rx_clean(struct aq_ring_s *self, struct napi_struct *napi,
		       int *work_done, int budget)
{
	int err = 0;

	for (; (self->sw_head != self->hw_head) && budget;
	     self->sw_head = aq_ring_next_dx(self, self->sw_head),
	     --budget, ++(*work_done)) {
		struct aq_ring_buff_s *buff = &self->buff_ring[self->sw_head];
		struct sk_buff *skb;

		if (buff->is_cleaned)
			continue;

		if (!buff->is_eop && buff->next >= self->size) {
			err = -EIO;
			goto err_exit;
		}

		if (buff->is_error || (buff->is_lro && buff->is_cso_err)) {
			u64_stats_update_begin(&self->stats.rx.syncp);
			++self->stats.rx.errors;
			u64_stats_update_end(&self->stats.rx.syncp);
			continue;
		}

		skb = napi_alloc_skb(napi, AQ_CFG_RX_HDR_SIZE);
		if (unlikely(!skb)) {
			u64_stats_update_begin(&self->stats.rx.syncp);
			self->stats.rx.skb_alloc_fails++;
			u64_stats_update_end(&self->stats.rx.syncp);
			err = -ENOMEM;
			goto err_exit;
		}

		aq_ring_build_skb(self, buff, skb);

		u64_stats_update_begin(&self->stats.rx.syncp);
		++self->stats.rx.packets;
		self->stats.rx.bytes += skb->len;
		u64_stats_update_end(&self->stats.rx.syncp);

		napi_gro_receive(napi, skb);
	}

err_exit:
	return err;
}
