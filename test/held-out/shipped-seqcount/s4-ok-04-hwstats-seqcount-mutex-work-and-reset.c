// Modelled on: drivers/net/ethernet/xilinx/xilinx_axienet_main.c:axienet_refresh_stats(),
//              __axienet_device_reset() and axienet_get_stats64() (Linux 6.12)
// Correct: the 64-bit software copies of the MAC's wrapping 32-bit counters
// are written from three process-context entry points -- the periodic stats
// work, the DMA error recovery work and ndo_open (both via the reset path) --
// and every write section runs under stats_lock, the mutex associated with
// the seqcount_mutex_t (which also disables preemption around the section).
// One section sits in a helper that does not take the lock itself; both its
// callers do. Readers in ndo_get_stats64 retry.
#include <linux/types.h>
#include <linux/seqlock.h>
#include <linux/mutex.h>

enum { XAE_STAT_COUNT = 8, XAE_STATS_OFFSET = 0x200, HZ = 250 };
#define container_of(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))
struct work_struct { atomic_long_t data; struct list_head entry; void (*func)(struct work_struct *); };
struct delayed_work { struct work_struct work; unsigned long expires; void *wq; };
#define INIT_WORK(_work, _func) do { (_work)->func = (_func); } while (0)
#define INIT_DELAYED_WORK(_work, _func) INIT_WORK(&(_work)->work, (_func))
extern bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay);

struct net_device;
struct rtnl_link_stats64 { u64 rx_packets, tx_packets, rx_bytes, tx_bytes, rx_errors; };
struct net_device_ops { int (*ndo_open)(struct net_device *);
			void (*ndo_get_stats64)(struct net_device *, struct rtnl_link_stats64 *); };

struct xae_local {
	void *regs;
	struct mutex stats_lock;
	seqcount_mutex_t hw_stats_seq;
	bool reset_in_progress;
	u64 hw_stat_base[XAE_STAT_COUNT];
	u32 hw_last_counter[XAE_STAT_COUNT];
	struct delayed_work stats_work;
	struct work_struct dma_err_task;
};

extern struct xae_local *xae_priv(struct net_device *dev);
extern u32 xae_ior(struct xae_local *lp, unsigned int off);
extern int xae_dma_reset_and_wait(struct xae_local *lp);	/* polls, may sleep */

/* caller holds stats_lock */
static void xae_stats_fold(struct xae_local *lp, bool reset)
{
	int i;

	write_seqcount_begin(&lp->hw_stats_seq);
	lp->reset_in_progress = reset;
	for (i = 0; i < XAE_STAT_COUNT; i++) {
		u32 now = xae_ior(lp, XAE_STATS_OFFSET + i * 8);

		lp->hw_stat_base[i] += now - lp->hw_last_counter[i];
		lp->hw_last_counter[i] = now;
	}
	write_seqcount_end(&lp->hw_stats_seq);
}

static void xae_refresh_stats(struct work_struct *work)
{
	struct xae_local *lp = container_of(work, struct xae_local, stats_work.work);

	mutex_lock(&lp->stats_lock);
	xae_stats_fold(lp, false);
	mutex_unlock(&lp->stats_lock);
	schedule_delayed_work(&lp->stats_work, 13 * HZ);
}

static int xae_device_reset(struct xae_local *lp)
{
	int ret, i;

	mutex_lock(&lp->stats_lock);
	xae_stats_fold(lp, true);	/* the hardware counters are about to restart */
	ret = xae_dma_reset_and_wait(lp);
	if (!ret) {
		write_seqcount_begin(&lp->hw_stats_seq);
		lp->reset_in_progress = false;
		for (i = 0; i < XAE_STAT_COUNT; i++)
			lp->hw_last_counter[i] = xae_ior(lp, XAE_STATS_OFFSET + i * 8);
		write_seqcount_end(&lp->hw_stats_seq);
	}
	mutex_unlock(&lp->stats_lock);
	return ret;
}

static void xae_dma_err_handler(struct work_struct *work)
{
	/* DMA error interrupt deferred to process context */
	xae_device_reset(container_of(work, struct xae_local, dma_err_task));
}

static int xae_open(struct net_device *ndev)
{
	struct xae_local *lp = xae_priv(ndev);
	int ret = xae_device_reset(lp);
	if (!ret)
		schedule_delayed_work(&lp->stats_work, 0);
	return ret;
}

static void xae_get_stats64(struct net_device *ndev, struct rtnl_link_stats64 *s)
{
	struct xae_local *lp = xae_priv(ndev);
	unsigned int start;
	do {
		start = read_seqcount_begin(&lp->hw_stats_seq);
		s->rx_packets = lp->hw_stat_base[0];
		s->tx_packets = lp->hw_stat_base[1];
		s->rx_errors = lp->hw_stat_base[2];
	} while (read_seqcount_retry(&lp->hw_stats_seq, start));
}

const struct net_device_ops xae_netdev_ops = { .ndo_open = xae_open, .ndo_get_stats64 = xae_get_stats64 };
void xae_probe_init(struct xae_local *lp)
{
	mutex_init(&lp->stats_lock);
	seqcount_mutex_init(&lp->hw_stats_seq, &lp->stats_lock);
	INIT_DELAYED_WORK(&lp->stats_work, xae_refresh_stats);
	INIT_WORK(&lp->dma_err_task, xae_dma_err_handler);
}
