// Modelled on: net/ipv4/netfilter/ip_tables.c:ipt_do_table()/do_add_counters() and
//              include/linux/netfilter/x_tables.h:xt_write_recseq_begin() (Linux 6.12)
// Related fix: "net: netfilter: Serialize xt_write_recseq sections on RT" (PREEMPT_RT tree, 2012):
//              the recseq writers rely on BH being disabled, nothing else.
// The per-CPU recursion sequence and the per-CPU rule counters have no lock;
// the header says writers need preemption AND softirqs off. The packet hook
// (softirq) does local_bh_disable(); this variant of the "add counters"
// sockopt path runs in process context with only preempt_disable(), so the
// packet softirq can interrupt it between the sequence load and store
// (generic __this_cpu_add() is load/add/store) and between counter updates:
// the count can be left odd forever (table replacement then waits forever)
// or counter increments are lost.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <asm/barrier.h>

extern unsigned long this_cpu_off;
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define __this_cpu_read(pcp)     (*this_cpu_ptr(&(pcp)))
#define __this_cpu_add(pcp, val) do { *this_cpu_ptr(&(pcp)) += (val); } while (0)
#define DEFINE_PER_CPU(type, name) __section(".data..percpu") __typeof__(type) name

struct sk_buff { unsigned int len; u32 mark; };
struct net;
struct nf_hook_state { unsigned int hook; struct net *net; };
typedef unsigned int nf_hookfn(void *priv, struct sk_buff *skb, const struct nf_hook_state *state);
struct nf_hook_ops { nf_hookfn *hook; void *priv; u8 pf; unsigned int hooknum; int priority; };
extern int nf_register_net_hook(struct net *net, const struct nf_hook_ops *ops);
struct sock;
struct nf_sockopt_ops { int set_optmin, set_optmax; int (*set)(struct sock *sk, int optval, void *arg, unsigned int len); };
extern int nf_register_sockopt(struct nf_sockopt_ops *reg);
extern struct net *sock_net(const struct sock *sk);

struct acl_counter { u64 bcnt, pcnt; };
struct acl_rule { u32 mark, mask; int verdict; struct acl_counter __percpu *cnt; };
struct acl_table { unsigned int nrules; struct acl_rule *rules; };
struct acl_add_req { unsigned int nrules; struct acl_counter add[]; };
extern struct acl_table *acl_find_table(struct net *net);

DEFINE_PER_CPU(seqcount_t, acl_recseq);

static inline unsigned int acl_write_recseq_begin(void)
{
	unsigned int addend = (__this_cpu_read(acl_recseq.sequence) + 1) & 1;

	__this_cpu_add(acl_recseq.sequence, addend);
	smp_mb();
	return addend;
}

static inline void acl_write_recseq_end(unsigned int addend)
{
	smp_wmb();
	__this_cpu_add(acl_recseq.sequence, addend);
}

/* packet path: netfilter hook, softirq */
static unsigned int acl_do_table(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct acl_table *t = priv;
	unsigned int i, addend, verdict = 1;

	local_bh_disable();
	addend = acl_write_recseq_begin();
	for (i = 0; i < t->nrules; i++) {
		struct acl_rule *r = &t->rules[i];
		struct acl_counter *c;

		if ((skb->mark & r->mask) != r->mark)
			continue;
		c = this_cpu_ptr(r->cnt);
		c->bcnt += skb->len;
		c->pcnt++;
		verdict = r->verdict;
		break;
	}
	acl_write_recseq_end(addend);
	local_bh_enable();
	return verdict;
}

/* setsockopt(ACL_SO_SET_ADD_COUNTERS): process context */
static int acl_do_add_counters(struct sock *sk, int optval, void *arg, unsigned int len)
{
	struct acl_add_req *req = arg;
	struct acl_table *t = acl_find_table(sock_net(sk));
	unsigned int i, addend;

	if (req->nrules != t->nrules)
		return -22;

	preempt_disable();
	addend = acl_write_recseq_begin(); /* EXPECT: seqlint-seqcount-write-unlocked */
	for (i = 0; i < t->nrules; i++) {
		struct acl_counter *c = this_cpu_ptr(t->rules[i].cnt);

		c->bcnt += req->add[i].bcnt;
		c->pcnt += req->add[i].pcnt;
	}
	acl_write_recseq_end(addend);
	preempt_enable();
	return 0;
}

static struct nf_hook_ops acl_hook = { .hook = acl_do_table, .pf = 2, .hooknum = 1 };
static struct nf_sockopt_ops acl_sockopts = { .set_optmin = 64, .set_optmax = 66, .set = acl_do_add_counters };

int acl_init(struct net *net, struct acl_table *t)
{
	acl_hook.priv = t;
	nf_register_sockopt(&acl_sockopts);
	return nf_register_net_hook(net, &acl_hook);
}
