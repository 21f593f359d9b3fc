// Modelled on: the buggy writer of LWN "Lockless patterns: relaxed access and partial
//   memory barriers" (Bonzini, 2021, /work/shared/lockless-patterns-article.md), placed in
//   a kernel/time/vsyscall.c:update_vsyscall()-like periodic publisher (Linux 6.12).
// The writer bumps `sc` to odd with a plain WRITE_ONCE() and then relies on the
// smp_store_release() of data.x. A release orders what comes BEFORE it, so nothing
// keeps the later WRITE_ONCE(data.y) from becoming visible before the odd `sc`: a reader
// can see even `sc`, the new y, and even `sc` again. The article's fix is smp_wmb()
// after the odd increment.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <asm/processor.h>

struct sample {
	int x;
	int y;
};

static unsigned int sc;
static struct sample data;
static unsigned long sample_epoch_jiffies;

int sample_compute_x(unsigned long now);
int sample_compute_y(unsigned long now);

void sample_publish(unsigned long now)
{
	int nx = sample_compute_x(now);
	int ny = sample_compute_y(now);

	if (now == sample_epoch_jiffies)
		return;
	sample_epoch_jiffies = now;

	WRITE_ONCE(sc, sc + 1);
	smp_store_release(&data.x, nx);
	WRITE_ONCE(data.y, ny); /* EXPECT: seqlint-seqcount-write-missing-barrier */
	smp_store_release(&sc, sc + 1);
}

/* Reader from the article's fixed version: acquire on the begin, smp_rmb() on the recheck. */
struct sample sample_snapshot(void)
{
	struct sample copy;
	unsigned int old;

	do {
		while ((old = smp_load_acquire(&sc)) & 1)
			cpu_relax();
		copy.y = READ_ONCE(data.y);
		copy.x = READ_ONCE(data.x);
		smp_rmb();
	} while (READ_ONCE(sc) != old);

	return copy;
}
