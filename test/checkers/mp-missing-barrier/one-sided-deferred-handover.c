// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * A chain of descriptors handed to a device by deferring one word: every
 * descriptor of the chain but the head is filled completely, and the
 * head's flags (or OWN bit) are written last. The device may be fetching
 * on its own (a packed virtqueue, a DMA engine already running), so the
 * deferred store needs a write barrier after the other descriptors. Nothing
 * in the file polls the word: the deferral itself shows the hand-over.
 * Modelled on virtqueue_add_packed() (drivers/virtio/virtio_ring.c) and
 * stmmac's first-descriptor OWN bit, rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u16 __le16;
typedef u32 __le32;
#define F_NEXT 1
#define F_AVAIL 0x80

struct pdesc { __le32 addr; __le32 len; __le16 id; __le16 flags; };
struct pring { struct pdesc *desc; u16 next, num, avail_flags; };

int pring_add(struct pring *r, const u32 *addr, const u32 *len, unsigned int n, u16 id)
{
	u16 head = r->next, i = head;
	__le16 head_flags = 0, flags;
	unsigned int k;

	for (k = 0; k < n; k++) {
		flags = r->avail_flags | (k + 1 == n ? 0 : F_NEXT);
		if (i == head)
			head_flags = flags;
		else
			r->desc[i].flags = flags;
		r->desc[i].addr = addr[k];
		r->desc[i].len = len[k];
		r->desc[i].id = id;
		if (++i >= r->num)
			i = 0;
	}
	r->next = i;
	r->desc[head].flags = head_flags; // expected-warning {{'r->desc[].flags' is published here after the store to 'r->desc[].flags' with no write barrier}}
	return 0;
}

int pring_add_ok(struct pring *r, const u32 *addr, const u32 *len, unsigned int n, u16 id)
{
	u16 head = r->next, i = head;
	__le16 head_flags = 0, flags;
	unsigned int k;

	for (k = 0; k < n; k++) {
		flags = r->avail_flags | (k + 1 == n ? 0 : F_NEXT);
		if (i == head)
			head_flags = flags;
		else
			r->desc[i].flags = flags;
		r->desc[i].addr = addr[k];
		r->desc[i].len = len[k];
		r->desc[i].id = id;
		if (++i >= r->num)
			i = 0;
	}
	r->next = i;
	dma_wmb();
	r->desc[head].flags = head_flags;
	return 0;
}

/* Not a hand-over: the descriptors are filled in ring order, the head
 * first, and nothing defers a word (a ring the device is told about by a
 * doorbell elsewhere, whose flags the file never polls). */
void pring_fill_in_order(struct pring *r, const u32 *addr, unsigned int n)
{
	u16 head = r->next;
	unsigned int k;

	for (k = 0; k < n; k++) {
		r->desc[(head + k) % r->num].addr = addr[k];
		r->desc[(head + k) % r->num].flags = F_AVAIL;
	}
}
