// Real bug: Linux gve driver, fixed by commit 858b1d07e491 ("gve: ..."): the
// TX ring's 64-bit drop counter was incremented directly, while the ring's
// other 64-bit statistics are updated inside u64_stats_update_begin()/end()
// on the ring's u64_stats_sync (and read with u64_stats_fetch_begin/retry).
// On 32-bit machines the u64 increment is two stores and a reader can see it
// torn. The fix wraps the increment in the write section. Re-created here in
// the driver's shape: completion path with the section, transmit path's drop
// label without it. Caught by access-plain-shared (the u64_stats rule: the
// structure's other statistics are in sections, this 64-bit one is not).
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -DBITS_PER_LONG=32 -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>

struct sk_buff;
void kfree_skb_any(struct sk_buff *skb);
int ring_has_room(void *ring, int descs);

/* ---- buggy: the drop counter is bumped outside the write section ---- */
struct tx_ring {
	u32 req;		/* producer index: written by xmit only */
	u32 done;		/* consumer index */
	u64 pkt_done;		/* statistics, under statss */
	u64 bytes_done;
	u64 dropped_pkt;
	struct u64_stats_sync statss;
};

int tx_clean(struct tx_ring *tx, u32 pkts, u32 bytes)
{
	tx->done += pkts;
	u64_stats_update_begin(&tx->statss);
	tx->bytes_done += bytes;
	tx->pkt_done += pkts;
	u64_stats_update_end(&tx->statss);
	return pkts;
}

void tx_get_stats(struct tx_ring *tx, u64 *pkts, u64 *bytes)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&tx->statss);
		*pkts = tx->pkt_done;
		*bytes = tx->bytes_done;
	} while (u64_stats_fetch_retry(&tx->statss, start));
}

int tx_xmit(struct tx_ring *tx, struct sk_buff *skb, int descs)
{
	if (!ring_has_room(tx, descs))
		goto drop;
	tx->req += descs;
	return 0;

drop:
	tx->dropped_pkt++; // expected-warning {{plain read-modify-write of 'tx->dropped_pkt' outside a u64_stats write section, but the other statistics of the structure are updated inside u64_stats_update_begin(&tx->statss) sections, in tx_clean()}}
	kfree_skb_any(skb);
	return 0;
}

/* ---- fixed: the increment is inside its own write section ---- */
struct tx_ring_fixed {
	u32 req;
	u32 done;
	u64 pkt_done;
	u64 bytes_done;
	u64 dropped_pkt;
	struct u64_stats_sync statss;
};

int tx_clean_fixed(struct tx_ring_fixed *tx, u32 pkts, u32 bytes)
{
	tx->done += pkts;
	u64_stats_update_begin(&tx->statss);
	tx->bytes_done += bytes;
	tx->pkt_done += pkts;
	u64_stats_update_end(&tx->statss);
	return pkts;
}

int tx_xmit_fixed(struct tx_ring_fixed *tx, struct sk_buff *skb, int descs)
{
	if (!ring_has_room(tx, descs))
		goto drop;
	tx->req += descs;
	return 0;

drop:
	u64_stats_update_begin(&tx->statss);
	tx->dropped_pkt++;
	u64_stats_update_end(&tx->statss);
	kfree_skb_any(skb);
	return 0;
}
