#include <seqlint/seqcount.h>
#include <stdio.h>

static seqlint_seqlock_t lock = SEQLINT_SEQLOCK_INIT;
static struct { uint32_t a, b; } shared, in = { 3, 4 }, out;

int main(void)
{
	seqlint_seqlock_write_lock(&lock);
	seqlint_copy_in(&shared, &in);
	seqlint_seqlock_write_unlock(&lock);
	unsigned seq;
	do {
		seq = seqlint_seqlock_read_begin(&lock);
		seqlint_copy_out(&out, &shared);
	} while (seqlint_seqlock_read_retry(&lock, seq));
	if (out.a != 3 || out.b != 4)
		return 1;
	printf("consumer: seqlint runtime works\n");
	return 0;
}
