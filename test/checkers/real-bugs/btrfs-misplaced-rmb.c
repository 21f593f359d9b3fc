// btrfs, "btrfs: transaction: Fix misplaced barrier in
// btrfs_record_root_in_trans" (Baptiste Lepers, 2021). The writer
// (record_root_in_trans) sets IN_TRANS_SETUP, updates last_trans, then clears
// IN_TRANS_SETUP with write barriers in between. The lockless fast path must
// read last_trans, then (after a read barrier) the IN_TRANS_SETUP bit. The
// smp_rmb() sat before both loads, so the two loads were unordered; the fix
// moves it between them. Re-created shape, not the btrfs source.
// RUN: %clang_plugin '-fplugin-arg-seqlint-checks=-*,barrier-misplaced,barrier-wrong-kind' -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/mutex.h>

static inline int test_bit(long nr, const volatile unsigned long *addr)
{
	return 1UL & (*addr >> nr);
}

enum { ROOT_SHAREABLE, ROOT_IN_TRANS_SETUP };

struct fs_info {
	struct mutex reloc_mutex;
};

struct root {
	unsigned long state;
	unsigned long long last_trans;
	struct fs_info *fs_info;
};

struct trans_handle {
	unsigned long long transid;
};

int record_slow(struct trans_handle *trans, struct root *root);

/* Buggy: the read barrier is before the last_trans load and the re-read of
 * the state word. */
int record_root_buggy(struct trans_handle *trans, struct root *root)
{
	struct fs_info *fs_info = root->fs_info;
	int ret;

	if (!test_bit(ROOT_SHAREABLE, &root->state))
		return 0;

	smp_rmb(); // expected-warning {{smp_rmb() is placed before both loads of the pair 'root->last_trans' / 'root->state', so it does not order them against each other; move it between the load of 'root->last_trans' and the load of 'root->state' [seqlint-barrier-misplaced]}}
	if (root->last_trans == trans->transid && // expected-note {{first load of the pair: 'root->last_trans'}}
	    !test_bit(ROOT_IN_TRANS_SETUP, &root->state)) // expected-note {{the barrier belongs before this load of 'root->state'}}
		return 0;

	mutex_lock(&fs_info->reloc_mutex);
	ret = record_slow(trans, root);
	mutex_unlock(&fs_info->reloc_mutex);
	return ret;
}

/* Fixed: the barrier between the two loads. */
int record_root_fixed(struct trans_handle *trans, struct root *root)
{
	struct fs_info *fs_info = root->fs_info;
	int ret;

	if (!test_bit(ROOT_SHAREABLE, &root->state))
		return 0;

	if (root->last_trans == trans->transid) {
		smp_rmb();
		if (!test_bit(ROOT_IN_TRANS_SETUP, &root->state))
			return 0;
	}

	mutex_lock(&fs_info->reloc_mutex);
	ret = record_slow(trans, root);
	mutex_unlock(&fs_info->reloc_mutex);
	return ret;
}
