// Modelled on: fs/ufs/inode.c:free_branch_tail() (Linux 6.12)
// The real loop reads the block pointer, and only "if (block)" takes
// write_seqlock(&ufsi->meta_lock) around the pointer clear. Here the read was
// moved under the seqlock (so check and clear are one writer step), but the
// "continue" for holes skips write_sequnlock(): the next iteration runs
// write_seqlock() again while the section (and the spinlock) is still held on
// that path -- self-deadlock, and the meta_lock count stays odd for readers.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

struct super_block;
struct ufs_buffer_head;

struct ufs_sb_private_info {
	unsigned int s_apb;	/* pointers per block */
	unsigned int s_fpb;	/* fragments per block */
	unsigned int s_fshift;
};

struct ufs_sb_info {
	struct ufs_sb_private_info *s_uspi;
	unsigned int s_flags;
};

struct inode {
	struct super_block *i_sb;
	unsigned int i_flags;
};

struct ufs_inode_info {
	u64 i_lastfrag;
	seqlock_t meta_lock;
	struct inode vfs_inode;
};

struct to_free {
	struct inode *inode;
	u64 to;
	unsigned int count;
};

struct ufs_sb_info *UFS_SB(struct super_block *sb);
struct ufs_inode_info *UFS_I(struct inode *inode);
void *ubh_get_data_ptr(struct ufs_sb_private_info *uspi,
		       struct ufs_buffer_head *ubh, unsigned int i);
u64 ufs_data_ptr_to_cpu(struct super_block *sb, void *p);
void ufs_data_ptr_clear(struct ufs_sb_private_info *uspi, void *p);
void ubh_mark_buffer_dirty(struct ufs_buffer_head *ubh);
int ubh_buffer_dirty(struct ufs_buffer_head *ubh);
void ubh_sync_block(struct ufs_buffer_head *ubh);
void ubh_brelse(struct ufs_buffer_head *ubh);
void free_full_branch(struct inode *inode, u64 ind_block, int depth);
void free_data(struct to_free *ctx, u64 from, unsigned int count);
bool IS_SYNC(const struct inode *inode);

void free_branch_tail(struct inode *inode, unsigned int from,
		      struct ufs_buffer_head *ubh, int depth)
{
	struct super_block *sb = inode->i_sb;
	struct ufs_sb_private_info *uspi = UFS_SB(sb)->s_uspi;
	struct ufs_inode_info *ufsi = UFS_I(inode);
	unsigned int i;

	if (--depth) {
		for (i = from; i < uspi->s_apb; i++) {
			void *p = ubh_get_data_ptr(uspi, ubh, i);
			u64 block;

			write_seqlock(&ufsi->meta_lock); /* EXPECT: seqlint-seqcount-write-unbalanced */
			block = ufs_data_ptr_to_cpu(sb, p);
			if (!block)
				continue;
			ufs_data_ptr_clear(uspi, p);
			write_sequnlock(&ufsi->meta_lock);

			ubh_mark_buffer_dirty(ubh);
			free_full_branch(inode, block, depth);
		}
	} else {
		struct to_free ctx = { .inode = inode };

		for (i = from; i < uspi->s_apb; i++) {
			void *p = ubh_get_data_ptr(uspi, ubh, i);
			u64 block = ufs_data_ptr_to_cpu(sb, p);

			if (block) {
				write_seqlock(&ufsi->meta_lock);
				ufs_data_ptr_clear(uspi, p);
				write_sequnlock(&ufsi->meta_lock);
				ubh_mark_buffer_dirty(ubh);
				free_data(&ctx, block, uspi->s_fpb);
			}
		}
		free_data(&ctx, 0, 0);
	}
	if (IS_SYNC(inode) && ubh_buffer_dirty(ubh))
		ubh_sync_block(ubh);
	ubh_brelse(ubh);
}
