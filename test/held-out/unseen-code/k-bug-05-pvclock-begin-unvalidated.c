// Modelled on: arch/x86/include/asm/pvclock.h:pvclock_read_begin()/pvclock_read_retry()
//   and arch/x86/kernel/pvclock.c:pvclock_read_flags() (Linux 6.12).
// Paravirt clock page read through helpers; the odd/even word is hdr->w. In this
// version of read_flags the loop was "simplified" away on the grounds that flags is a
// single byte: the begin value is taken and never compared again, so a flags byte
// written in the middle of a host update (e.g. a transient GUEST_STOPPED) is accepted.
// The value of a begin that nobody validates is the bug: reported at the begin call.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define PVTI_TSC_STABLE		(1 << 0)
#define PVTI_GUEST_STOPPED	(1 << 1)

struct pvti_hdr {
	u32 w;
	u32 pad0;
};

struct pvti {
	struct pvti_hdr hdr;
	u64 tsc_timestamp;
	u64 system_time;
	u32 mul;
	s8 shift;
	u8 flags;
	u8 pad[2];
};

static u8 valid_flags;

static __always_inline unsigned pvti_read_begin(const struct pvti_hdr *hdr)
{
	unsigned w = READ_ONCE(hdr->w) & ~1;

	virt_rmb();
	return w;
}

static __always_inline bool pvti_read_retry(const struct pvti_hdr *hdr, unsigned w)
{
	virt_rmb();
	return unlikely(w != READ_ONCE(hdr->w));
}

static __always_inline u64 pvti_scale(u64 delta, u32 mul, int shift)
{
	if (shift < 0)
		delta >>= -shift;
	else
		delta <<= shift;
	return (delta * mul) >> 32;
}

u8 pvti_read_flags(struct pvti *src)
{
	unsigned w;
	u8 flags;

	w = pvti_read_begin(&src->hdr); /* EXPECT: seqlint-seqcount-read-no-retry */
	flags = READ_ONCE(src->flags);

	return flags & valid_flags;
}

u64 pvti_clock_read(struct pvti *src, u64 tsc)
{
	unsigned w;
	u64 ret;
	u8 flags;

	do {
		w = pvti_read_begin(&src->hdr);
		ret = src->system_time + pvti_scale(tsc - src->tsc_timestamp,
						    src->mul, src->shift);
		flags = src->flags;
	} while (pvti_read_retry(&src->hdr, w));

	if (flags & PVTI_GUEST_STOPPED)
		src->flags &= ~PVTI_GUEST_STOPPED;

	return ret;
}
