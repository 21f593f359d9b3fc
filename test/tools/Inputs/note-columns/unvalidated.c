/* A begin value that no retry validates: the finding and its note
 * ("the sequence value is stored in 'seq' and never validated") are both
 * the reader's. */
#include <linux/types.h>
#include <linux/seqlock.h>

static seqcount_t pt_seq = SEQCNT_ZERO(pt_seq);
static u64 px;

u64 pt_x(void)
{
	unsigned int seq;
	u64 x;

	seq = read_seqcount_begin(&pt_seq);
	x = px;
	return x;
}
