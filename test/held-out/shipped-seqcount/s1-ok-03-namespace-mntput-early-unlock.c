// Modelled on: fs/namespace.c:mntput_no_expire() with lock_mount_hash()/
//   unlock_mount_hash() (Linux 6.12)
// Correct: the mount_lock seqlock is taken through a one-line helper, and the
// two early "return" paths (refcount still held, mount already doomed) each
// call unlock_mount_hash() before returning; the slow path unlocks once after
// unhashing the children. Every path that takes the write section releases it
// exactly once, and the helpers themselves only begin or only end.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <asm/barrier.h>

#define MNT_INTERNAL 0x4000
#define MNT_DOOMED 0x1000000
#define WARN_ON(c) ({ int __c = !!(c); __c; })

struct vfsmount { int mnt_flags; };
struct mountpoint;
struct namespace;

struct mount {
	struct mount *mnt_parent;
	struct vfsmount mnt;
	struct namespace *mnt_ns;
	struct list_head mnt_mounts;
	struct list_head mnt_child;
	struct list_head mnt_instance;
	struct list_head mnt_stuck_children;
	int mnt_count;
};

static DEFINE_SEQLOCK(mount_lock);

static inline void lock_mount_hash(void)
{
	write_seqlock(&mount_lock);
}

static inline void unlock_mount_hash(void)
{
	write_sequnlock(&mount_lock);
}

void mnt_add_count(struct mount *mnt, int n);
int mnt_get_count(struct mount *mnt);
void list_del(struct list_head *entry);
bool list_empty(const struct list_head *head);
struct mount *first_child(struct mount *mnt);
struct mountpoint *unhash_mnt(struct mount *mnt);
void __put_mountpoint(struct mountpoint *mp, struct list_head *list);
void stuck_child_add(struct mount *child, struct mount *parent);
void shrink_dentry_list(struct list_head *list);
void cleanup_mnt(struct mount *mnt);
bool defer_cleanup(struct mount *mnt);

void mntput_no_expire(struct mount *mnt)
{
	struct list_head list = { &list, &list };
	int count;

	rcu_read_lock();
	if (likely(READ_ONCE(mnt->mnt_ns))) {
		/* Not the final reference: the namespace still holds one. */
		mnt_add_count(mnt, -1);
		rcu_read_unlock();
		return;
	}
	lock_mount_hash();
	/* Pairs with the barrier in __legitimize_mnt(). */
	smp_mb();
	mnt_add_count(mnt, -1);
	count = mnt_get_count(mnt);
	if (count != 0) {
		WARN_ON(count < 0);
		rcu_read_unlock();
		unlock_mount_hash();
		return;
	}
	if (unlikely(mnt->mnt.mnt_flags & MNT_DOOMED)) {
		rcu_read_unlock();
		unlock_mount_hash();
		return;
	}
	mnt->mnt.mnt_flags |= MNT_DOOMED;
	rcu_read_unlock();

	list_del(&mnt->mnt_instance);

	while (unlikely(!list_empty(&mnt->mnt_mounts))) {
		struct mount *p = first_child(mnt);

		__put_mountpoint(unhash_mnt(p), &list);
		stuck_child_add(p, mnt);
	}
	unlock_mount_hash();
	shrink_dentry_list(&list);

	if (likely(!(mnt->mnt.mnt_flags & MNT_INTERNAL)) && defer_cleanup(mnt))
		return;
	cleanup_mnt(mnt);
}
