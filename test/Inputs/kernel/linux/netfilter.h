/* Test-only stand-in for the parts of Linux 6.12 <linux/netfilter.h> the
 * checker tests use: hook and sockopt registration (their members name the
 * contexts the functions run in). Not kernel code. */
#ifndef SEQLINT_STUB_LINUX_NETFILTER_H
#define SEQLINT_STUB_LINUX_NETFILTER_H

struct sk_buff;
struct sock;
struct net;
struct nf_hook_state { unsigned int hook; struct net *net; };
typedef unsigned int nf_hookfn(void *priv, struct sk_buff *skb,
			       const struct nf_hook_state *state);
struct nf_hook_ops {
	nf_hookfn *hook;
	void *priv;
	unsigned char pf;
	unsigned int hooknum;
	int priority;
};
struct nf_sockopt_ops {
	int pf;
	int set_optmin, set_optmax;
	int (*set)(struct sock *sk, int optval, void *arg, unsigned int len);
	int get_optmin, get_optmax;
	int (*get)(struct sock *sk, int optval, void *user, int *len);
};
extern int nf_register_net_hook(struct net *net, const struct nf_hook_ops *ops);
extern int nf_register_sockopt(struct nf_sockopt_ops *reg);

#endif
