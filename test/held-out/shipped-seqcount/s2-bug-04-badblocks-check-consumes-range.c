// Modelled on: block/badblocks.c:_badblocks_check() (Linux 6.12; still present in 6.12.118)
// Shipped bug: "badblocks: fix missing bad blocks on retry in _badblocks_check()"
//   (Zheng Qixing, 2025, upstream 5236f041fa6c)
// The read section is a goto loop: "retry:" re-reads the table under
// read_seqbegin(&bb->lock) and walks the range by advancing the parameters
// s/sectors. Those live across the retry, so after a racing badblocks_set()
// the retry starts with sectors == 0 and reports "no bad blocks". The acked/
// unacked counters are fine: they are re-zeroed after "retry:" (so is "set"
// here; the real function left it alone).
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/seqlock.h>

typedef u64 sector_t;

#define BB_LEN_MASK (0x00000000000001FFULL)
#define BB_OFFSET_MASK (0x7FFFFFFFFFFFFE00ULL)
#define BB_ACK_MASK (0x8000000000000000ULL)

#define BB_OFFSET(x) (((x) & BB_OFFSET_MASK) >> 9)
#define BB_LEN(x) (((x) & BB_LEN_MASK) + 1)
#define BB_ACK(x) (!!((x) & BB_ACK_MASK))
#define BB_END(x) (BB_OFFSET(x) + BB_LEN(x))

struct badblocks {
	int count;		/* count of bad blocks */
	int shift;		/* -ve: badblocks disabled */
	u64 *page;		/* badblock list */
	seqlock_t lock;
};

struct badblocks_context {
	sector_t start;
	sector_t len;
};

static inline int badblocks_empty(struct badblocks *bb) { return bb->count == 0; }
int prev_badblocks(struct badblocks *bb, struct badblocks_context *bad, int hint);
bool overlap_front(struct badblocks *bb, int front, struct badblocks_context *bad);
bool overlap_behind(struct badblocks *bb, struct badblocks_context *bad, int behind);

int _badblocks_check(struct badblocks *bb, sector_t s, int sectors,
		     sector_t *first_bad, int *bad_sectors)
{
	int unacked_badblocks, acked_badblocks;
	int prev = -1, hint = -1, set;
	struct badblocks_context bad;
	unsigned int seq;
	int len, rv;
	u64 *p;

retry:
	seq = read_seqbegin(&bb->lock);

	p = bb->page;
	unacked_badblocks = 0;
	acked_badblocks = 0;
	set = 0;

re_check:
	bad.start = s;
	bad.len = sectors;

	if (badblocks_empty(bb)) {
		len = sectors;
		goto update_sectors;
	}

	prev = prev_badblocks(bb, &bad, hint);

	/* Overlapped with front badblocks record */
	if ((prev >= 0) && overlap_front(bb, prev, &bad)) {
		if (BB_ACK(p[prev]))
			acked_badblocks++;
		else
			unacked_badblocks++;

		if (BB_END(p[prev]) >= (s + sectors))
			len = sectors;
		else
			len = BB_END(p[prev]) - s;

		if (set == 0) {
			*first_bad = BB_OFFSET(p[prev]);
			*bad_sectors = BB_LEN(p[prev]);
			set = 1;
		}
		goto update_sectors;
	}

	/* Not front overlap, but behind overlap */
	if ((prev + 1) < bb->count && overlap_behind(bb, &bad, prev + 1)) {
		len = BB_OFFSET(p[prev + 1]) - bad.start;
		hint = prev + 1;
		goto update_sectors;
	}

	/* not cover any badblocks range in the table */
	len = sectors;

update_sectors:
	s += len; /* EXPECT: seqlint-seqcount-read-side-effect */
	sectors -= len; /* EXPECT: seqlint-seqcount-read-side-effect */

	if (sectors > 0)
		goto re_check;

	if (unacked_badblocks > 0)
		rv = -1;
	else if (acked_badblocks > 0)
		rv = 1;
	else
		rv = 0;

	if (read_seqretry(&bb->lock, seq))
		goto retry;

	return rv;
}
