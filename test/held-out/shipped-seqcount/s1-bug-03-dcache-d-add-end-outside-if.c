// Modelled on: fs/dcache.c:__d_add() (Linux 6.12)
// In the real function raw_write_seqcount_begin/end(&dentry->d_seq) bracket
// only the inode/type update inside "if (inode)". Here the end was moved below
// __d_rehash() so RCU-walk would see hash and inode change together, but the
// begin stayed inside "if (inode)": adding a negative dentry (inode == NULL)
// runs raw_write_seqcount_end() with no section open, d_seq becomes odd and
// every lockless lookup of that dentry falls back or spins.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };
struct wait_queue_head { spinlock_t lock; struct list_head head; };
typedef struct wait_queue_head wait_queue_head_t;

struct inode {
	spinlock_t i_lock;
	unsigned int i_mode;
	struct hlist_head i_dentry;
	unsigned int i_dir_seq;
};

struct dentry {
	unsigned int d_flags;
	seqcount_spinlock_t d_seq;
	struct hlist_node d_hash;
	struct dentry *d_parent;
	struct inode *d_inode;
	spinlock_t d_lock;
	union {
		struct hlist_node d_alias;
		wait_queue_head_t *d_wait;
	} d_u;
};

#define DCACHE_PAR_LOOKUP 0x10000000

static inline bool d_in_lookup(const struct dentry *dentry)
{
	return dentry->d_flags & DCACHE_PAR_LOOKUP;
}

void hlist_add_head(struct hlist_node *n, struct hlist_head *h);
unsigned int d_flags_for_inode(struct inode *inode);
void __d_set_inode_and_type(struct dentry *dentry, struct inode *inode,
			    unsigned int type_flags);
void __d_rehash(struct dentry *entry);
unsigned int start_dir_add(struct inode *dir);
void end_dir_add(struct inode *dir, unsigned int n, wait_queue_head_t *d_wait);
wait_queue_head_t *__d_lookup_unhash(struct dentry *dentry);
void fsnotify_update_flags(struct dentry *dentry);

void __d_add(struct dentry *dentry, struct inode *inode)
{
	wait_queue_head_t *d_wait = NULL;
	struct inode *dir = NULL;
	unsigned int n = 0;

	spin_lock(&dentry->d_lock);
	if (unlikely(d_in_lookup(dentry))) {
		dir = dentry->d_parent->d_inode;
		n = start_dir_add(dir);
		d_wait = __d_lookup_unhash(dentry);
	}
	if (inode) {
		unsigned int add_flags = d_flags_for_inode(inode);

		hlist_add_head(&dentry->d_u.d_alias, &inode->i_dentry);
		raw_write_seqcount_begin(&dentry->d_seq);
		__d_set_inode_and_type(dentry, inode, add_flags);
	}
	__d_rehash(dentry);
	raw_write_seqcount_end(&dentry->d_seq); /* EXPECT: seqlint-seqcount-write-unbalanced */
	if (inode)
		fsnotify_update_flags(dentry);
	if (dir)
		end_dir_add(dir, n, d_wait);
	spin_unlock(&dentry->d_lock);
	if (inode)
		spin_unlock(&inode->i_lock);
}
