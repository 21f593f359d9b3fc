// Modelled on: include/linux/rculist.h:hlist_add_head_rcu(), hlist_for_each_entry_rcu(),
//              as used by flow tables such as net/openvswitch/flow_table.c (Linux 6.12)
// Pattern: an RCU hash table where insertion open-codes the list splice and publishes
//   the new node with a plain WRITE_ONCE() of the bucket head.
// The other side is every CPU doing a lookup under rcu_read_lock(), which is not
// serialised with the writer (the writer's mutex is not taken by readers). The
// reader loads bucket->first and then reads key/value/next of the node. The node's
// fields are written just before, and the publishing store must be ordered after
// them: rcu_assign_pointer() (a store-release), which hlist_add_head_rcu() uses.
// WRITE_ONCE() only stops the compiler from tearing the store.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <asm/barrier.h>

struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

struct flow {
	struct hlist_node node;
	u32 hash;
	u64 key[4];
	u32 action;
	u64 packets;
};

struct flow_table {
	struct mutex lock;		/* writers only */
	unsigned int nbuckets;		/* power of two */
	struct hlist_head *buckets;
	unsigned int count;
};

static inline struct hlist_head *bucket_of(struct flow_table *t, u32 hash)
{
	return &t->buckets[hash & (t->nbuckets - 1)];
}

void flow_insert(struct flow_table *t, struct flow *f, u32 hash,
		 const u64 *key, u32 action)
{
	struct hlist_head *h;
	struct hlist_node *first;
	int i;

	f->hash = hash;
	for (i = 0; i < 4; i++)
		f->key[i] = key[i];
	f->action = action;
	f->packets = 0;

	mutex_lock(&t->lock);
	h = bucket_of(t, hash);
	first = h->first;
	f->node.next = first;
	f->node.pprev = &h->first;
	if (first)
		first->pprev = &f->node.next;
	WRITE_ONCE(h->first, &f->node); /* EXPECT: seqlint-mp-missing-barrier */
	t->count++;
	mutex_unlock(&t->lock);
}

u32 flow_lookup_action(struct flow_table *t, u32 hash, const u64 *key)
{
	struct hlist_node *n;
	u32 action = 0;

	rcu_read_lock();
	for (n = rcu_dereference(bucket_of(t, hash)->first); n;
	     n = rcu_dereference(n->next)) {
		struct flow *f = container_of(n, struct flow, node);

		if (f->hash == hash && f->key[0] == key[0] && f->key[1] == key[1] &&
		    f->key[2] == key[2] && f->key[3] == key[3]) {
			action = f->action;
			break;
		}
	}
	rcu_read_unlock();
	return action;
}
