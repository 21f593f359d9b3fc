// Modelled on: mm/memory.c:copy_page_range() (Linux 6.12)
// Correct: the write_protect_seq section is opened only for COW mappings and
// closed under the same "if (is_cow)" test after the page-table walk. is_cow is
// a local computed once and never changed, so every path that ran the begin
// runs the end and no other path runs either; the walk's "break" on -ENOMEM
// still falls through to the end. A path-insensitive tool sees an end that is
// reachable without a begin.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>

#define ENOMEM 12
#define VM_SHARED 0x00000008UL
#define VM_MAYWRITE 0x00000020UL
#define VM_PFNMAP 0x00000400UL

typedef struct { unsigned long pgd; } pgd_t;

struct mm_struct {
	pgd_t *pgd;
	seqcount_t write_protect_seq;
	unsigned long flags;
};

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	struct mm_struct *vm_mm;
	unsigned long vm_flags;
};

struct mmu_notifier_range {
	struct mm_struct *mm;
	unsigned long start;
	unsigned long end;
};

static inline bool is_cow_mapping(unsigned long flags)
{
	return (flags & (VM_SHARED | VM_MAYWRITE)) == VM_MAYWRITE;
}

bool vma_needs_copy(struct vm_area_struct *dst, struct vm_area_struct *src);
bool is_vm_hugetlb_page(struct vm_area_struct *vma);
int copy_hugetlb_page_range(struct mm_struct *dst, struct mm_struct *src,
			    struct vm_area_struct *dst_vma,
			    struct vm_area_struct *src_vma);
int track_pfn_copy(struct vm_area_struct *dst, struct vm_area_struct *src,
		   unsigned long *pfn);
void untrack_pfn_copy(struct vm_area_struct *dst, unsigned long pfn);
void mmu_notifier_range_init(struct mmu_notifier_range *r, struct mm_struct *mm,
			     unsigned long start, unsigned long end);
void mmu_notifier_invalidate_range_start(struct mmu_notifier_range *r);
void mmu_notifier_invalidate_range_end(struct mmu_notifier_range *r);
void vma_assert_write_locked(struct vm_area_struct *vma);
pgd_t *pgd_offset(struct mm_struct *mm, unsigned long addr);
unsigned long pgd_addr_end(unsigned long addr, unsigned long end);
int pgd_none_or_clear_bad(pgd_t *pgd);
int copy_p4d_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
		   pgd_t *dst_pgd, pgd_t *src_pgd, unsigned long addr,
		   unsigned long end);

int copy_page_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma)
{
	pgd_t *src_pgd, *dst_pgd;
	unsigned long addr = src_vma->vm_start;
	unsigned long end = src_vma->vm_end;
	struct mm_struct *dst_mm = dst_vma->vm_mm;
	struct mm_struct *src_mm = src_vma->vm_mm;
	struct mmu_notifier_range range;
	unsigned long next, pfn = 0;
	bool is_cow;
	int ret;

	if (!vma_needs_copy(dst_vma, src_vma))
		return 0;

	if (is_vm_hugetlb_page(src_vma))
		return copy_hugetlb_page_range(dst_mm, src_mm, dst_vma, src_vma);

	if (unlikely(src_vma->vm_flags & VM_PFNMAP)) {
		ret = track_pfn_copy(dst_vma, src_vma, &pfn);
		if (ret)
			return ret;
	}

	is_cow = is_cow_mapping(src_vma->vm_flags);

	if (is_cow) {
		mmu_notifier_range_init(&range, src_mm, addr, end);
		mmu_notifier_invalidate_range_start(&range);
		vma_assert_write_locked(src_vma);
		raw_write_seqcount_begin(&src_mm->write_protect_seq);
	}

	ret = 0;
	dst_pgd = pgd_offset(dst_mm, addr);
	src_pgd = pgd_offset(src_mm, addr);
	do {
		next = pgd_addr_end(addr, end);
		if (pgd_none_or_clear_bad(src_pgd))
			continue;
		if (unlikely(copy_p4d_range(dst_vma, src_vma, dst_pgd, src_pgd,
					    addr, next))) {
			ret = -ENOMEM;
			break;
		}
	} while (dst_pgd++, src_pgd++, addr = next, addr != end);

	if (is_cow) {
		raw_write_seqcount_end(&src_mm->write_protect_seq);
		mmu_notifier_invalidate_range_end(&range);
	}
	if (ret && unlikely(src_vma->vm_flags & VM_PFNMAP))
		untrack_pfn_copy(dst_vma, pfn);
	return ret;
}
