// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
/*
 * mp-missing-barrier, one side: when the file loads one word of a
 * descriptor type with an acquire (a virtio packed descriptor's flags),
 * that word is the one that hands the descriptor over; a tested load of
 * another word of the same type (its len) is data the acquire ordered,
 * not a second ownership word polled without a barrier. Modelled on
 * DPDK's vhost (lib/vhost/vhost.h's desc_is_avail() acquires
 * desc->flags; virtio_net.c's fill_vec_buf_packed_indirect() walks the
 * indirect table the head announced, reading each entry's len, then its
 * addr). A descriptor type with no acquired word is still judged.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u64 __le64;
typedef u32 __le32;
typedef u16 __le16;

struct pdesc {
	__le64 addr;
	__le32 len;
	__le16 id;
	__le16 flags;
};

extern int map_buf(u64 addr, u32 len);

int desc_ready(struct pdesc *d, u16 avail)
{
	return (smp_load_acquire(&d->flags) & 0x80) == avail;
}

/* Correct: the head's flags were acquired before the table is walked. */
int walk_indirect(struct pdesc *table, int n, u32 *total)
{
	int i;
	u32 len;

	for (i = 0; i < n; i++) {
		len = table[i].len;
		if (len < 16)
			return -1;
		*total += len;
		if (map_buf(table[i].addr, len))
			return -1;
	}
	return 0;
}

/* No word of this type is acquired anywhere: its polled len is the word
 * the device writes last. Bug: the address read before it is ordered. */
struct rdesc {
	__le64 addr;
	__le32 len;
};

int walk_ring(struct rdesc *ring, int n)
{
	int i;
	u32 len;

	for (i = 0; i < n; i++) {
		len = ring[i].len; // expected-warning {{'ring[].addr' is read after 'ring[].len' is loaded and tested, with no read barrier}} expected-note {{shared with the other side}}
		if (len < 16)
			return -1;
		if (map_buf(ring[i].addr, len)) // expected-note {{the load of 'ring[].addr' is here}}
			return -1;
	}
	return 0;
}
