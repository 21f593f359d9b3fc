// Modelled on: net/ipv4/tcp_metrics.c:tcp_fastopen_cache_get() (Linux 6.12)
// The real reader runs its read_seqbegin()/read_seqretry() loop only inside
// "if (tm)". Here the do/while was hoisted around the "if (tm)" while the
// begin stayed inside it: on a metrics-cache miss read_seqretry() is reached
// with no begin and compares the live count against seq == 0, so once any
// writer has bumped fastopen_seqlock the loop spins forever under RCU.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>

#define TCP_FASTOPEN_COOKIE_MAX 16

struct sock;
struct dst_entry;

struct tcp_fastopen_cookie {
	u8 val[TCP_FASTOPEN_COOKIE_MAX];
	s8 len;
	bool exp;
};

struct tcp_fastopen_metrics {
	u16 mss;
	u16 syn_loss : 10,
	    try_exp : 2;
	unsigned long last_syn_loss;
	struct tcp_fastopen_cookie cookie;
};

struct tcp_metrics_block {
	struct tcp_metrics_block *tcpm_next;
	unsigned long tcpm_stamp;
	u32 tcpm_lock;
	u32 tcpm_vals[5];
	struct tcp_fastopen_metrics tcpm_fastopen;
};

static DEFINE_SEQLOCK(fastopen_seqlock);

struct tcp_metrics_block *tcp_get_metrics(struct sock *sk,
					  struct dst_entry *dst, bool create);
struct dst_entry *__sk_dst_get(const struct sock *sk);

void tcp_fastopen_cache_get(struct sock *sk, u16 *mss,
			    struct tcp_fastopen_cookie *cookie)
{
	struct tcp_fastopen_metrics *tfom;
	struct tcp_metrics_block *tm;
	unsigned int seq = 0;

	rcu_read_lock();
	tm = tcp_get_metrics(sk, __sk_dst_get(sk), false);
	do {
		if (tm) {
			tfom = &tm->tcpm_fastopen;
			seq = read_seqbegin(&fastopen_seqlock);
			if (tfom->mss)
				*mss = tfom->mss;
			*cookie = tfom->cookie;
			if (cookie->len <= 0 && tfom->try_exp == 1)
				cookie->exp = true;
		}
	} while (read_seqretry(&fastopen_seqlock, seq)); /* EXPECT: seqlint-seqcount-read-no-retry */
	rcu_read_unlock();
}
