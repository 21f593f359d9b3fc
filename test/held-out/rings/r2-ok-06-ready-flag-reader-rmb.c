// Modelled on: Documentation/memory-barriers.txt, "SMP BARRIER PAIRING" (Linux 6.12)
// Pattern: a table that is built once and guarded by a "ready" flag, in the
//   message-passing shape of Documentation/memory-barriers.txt ("SMP barrier pairing").
//   The writer fills the table, then smp_wmb(), then sets the flag. Fixed: the
//   reader tests the flag and then issues smp_rmb().
// The other side for the reader is the init path on another CPU (a workqueue that
// parses firmware). The reader's loads of the table entries must not be satisfied
// before its load of the flag. smp_wmb() orders only stores, so it does nothing
// here. A reader that saw ready == true can still see zeroed entries. It needs
// smp_rmb() (or smp_load_acquire() of the flag).
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define EAGAIN	11
#define EINVAL	22
#define NR_RATES	32

struct rate_entry { u32 bitrate; u16 hw_value; u16 flags; };

struct rate_table {
	struct rate_entry rates[NR_RATES];
	unsigned int n_rates;
	bool ready;
};

extern int fw_parse_rate(const void *fw, unsigned int i, struct rate_entry *out);

/* workqueue, once per firmware load */
void rate_table_build(struct rate_table *t, const void *fw, unsigned int n)
{
	unsigned int i, k = 0;

	for (i = 0; i < n && k < NR_RATES; i++)
		if (!fw_parse_rate(fw, i, &t->rates[k]))
			k++;
	t->n_rates = k;
	/* entries and count before the flag */
	smp_wmb();
	WRITE_ONCE(t->ready, true);
}

/* TX path, any CPU, no lock */
int rate_lookup(struct rate_table *t, u32 bitrate, u16 *hw_value)
{
	unsigned int i, n;

	if (!READ_ONCE(t->ready))
		return -EAGAIN;
	/* flag before the entries; pairs with the writer's smp_wmb() */
	smp_rmb();

	n = t->n_rates;
	for (i = 0; i < n; i++) {
		if (t->rates[i].bitrate == bitrate) {
			*hw_value = t->rates[i].hw_value;
			return 0;
		}
	}
	return -EINVAL;
}
