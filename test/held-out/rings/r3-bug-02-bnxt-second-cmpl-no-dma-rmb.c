// Modelled on: drivers/net/ethernet/broadcom/bnxt/bnxt.c:__bnxt_poll_work(), bnxt_rx_pkt()
//              (Linux 5.13)
// Shipped bug: "bnxt_en: Add missing DMA memory barriers" (828affc27ed4, 2021)
// The other side is the NIC, which writes completion entries into the completion ring
// and marks each one valid by writing its V bit with the current phase. The poll
// loop tests V of the next entry and issues dma_rmb() before it reads the rest. An
// RX completion takes TWO entries, and bnxt_rx_pkt() tests V of the second entry
// (rxcmp1) but reads its fields (errors, metadata, cfa code) with no dma_rmb().
// The barrier is present in one place and missing in the other. On arm64 the
// second entry's fields can be read from before the device wrote them.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __le32;
#define cpu_to_le32(x)		((__le32)(x))
#define le32_to_cpu(x)		((u32)(x))
#define EBUSY			16

#define CMP_TYPE_MASK		0x3f
#define CMP_TYPE_TX_L2		0x00
#define CMP_TYPE_RX_L2		0x11
#define TX_CMP_V		(1u << 0)
#define RX_CMP_V		(1u << 0)
#define RX_CMP_LEN_SHIFT	16
#define RX_CMP_ERR_MASK		0xfffe

struct tx_cmp { __le32 tx_cmp_flags_type; __le32 tx_cmp_opaque; __le32 tx_cmp_errors_v; __le32 tx_cmp_unused; };
struct rx_cmp { __le32 rx_cmp_len_flags_type; __le32 rx_cmp_opaque; __le32 rx_cmp_misc_v1; __le32 rx_cmp_rss_hash; };
struct rx_cmp_ext { __le32 rx_cmp_flags2; __le32 rx_cmp_meta_data; __le32 rx_cmp_cfa_code_errors_v2; __le32 rx_cmp_timestamp; };

struct cp_ring {
	struct tx_cmp *desc;		/* coherent, 16-byte entries */
	u32 cp_raw_cons;
	u32 ring_mask;
	u32 cp_bit;			/* ring size: flips the expected V each lap */
	u64 rx_pkts, rx_errors, tx_pkts;
};

#define CMP_IDX(cpr, raw)	((raw) & (cpr)->ring_mask)
#define NEXT_RAW(raw)		((raw) + 1)
#define TX_CMP_VALID(cpr, txcmp, raw)						\
	(!!(READ_ONCE((txcmp)->tx_cmp_errors_v) & cpu_to_le32(TX_CMP_V)) ==	\
	 !((raw) & (cpr)->cp_bit))
#define RX_CMP_VALID(cpr, rxcmp1, raw)						\
	(!!(READ_ONCE((rxcmp1)->rx_cmp_cfa_code_errors_v2) & cpu_to_le32(RX_CMP_V)) == \
	 !((raw) & (cpr)->cp_bit))

extern void rx_deliver(struct cp_ring *cpr, u32 opaque, u32 len, u32 hash, u32 meta);

static int rx_pkt(struct cp_ring *cpr, u32 *raw_cons)
{
	struct rx_cmp *rxcmp = (struct rx_cmp *)&cpr->desc[CMP_IDX(cpr, *raw_cons)];
	u32 tmp_raw_cons = NEXT_RAW(*raw_cons);
	struct rx_cmp_ext *rxcmp1 =
		(struct rx_cmp_ext *)&cpr->desc[CMP_IDX(cpr, tmp_raw_cons)];
	u32 len, errors;

	if (!RX_CMP_VALID(cpr, rxcmp1, tmp_raw_cons)) /* EXPECT: seqlint-mp-missing-barrier */
		return -EBUSY;

	len = le32_to_cpu(rxcmp->rx_cmp_len_flags_type) >> RX_CMP_LEN_SHIFT;
	errors = le32_to_cpu(rxcmp1->rx_cmp_cfa_code_errors_v2) & RX_CMP_ERR_MASK;
	if (errors) {
		cpr->rx_errors++;
	} else {
		rx_deliver(cpr, le32_to_cpu(rxcmp->rx_cmp_opaque), len,
			   le32_to_cpu(rxcmp->rx_cmp_rss_hash),
			   le32_to_cpu(rxcmp1->rx_cmp_meta_data));
		cpr->rx_pkts++;
	}
	*raw_cons = NEXT_RAW(tmp_raw_cons);
	return 1;
}

int poll_work(struct cp_ring *cpr, int budget)
{
	u32 raw_cons = cpr->cp_raw_cons;
	int rx_pkts = 0;

	while (rx_pkts < budget) {
		struct tx_cmp *txcmp = &cpr->desc[CMP_IDX(cpr, raw_cons)];
		u32 type;

		if (!TX_CMP_VALID(cpr, txcmp, raw_cons))
			break;
		/* The valid test of the entry must be done first before
		 * reading any further. */
		dma_rmb();

		type = le32_to_cpu(txcmp->tx_cmp_flags_type) & CMP_TYPE_MASK;
		if (type == CMP_TYPE_TX_L2) {
			cpr->tx_pkts++;
		} else if (type == CMP_TYPE_RX_L2) {
			if (rx_pkt(cpr, &raw_cons) < 0)
				break;
			rx_pkts++;
			continue;
		}
		raw_cons = NEXT_RAW(raw_cons);
	}
	cpr->cp_raw_cons = raw_cons;
	return rx_pkts;
}
