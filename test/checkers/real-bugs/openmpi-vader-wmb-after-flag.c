// Open MPI vader BTL, commit dca3516765a4 ("btl/vader: move memory barrier
// to where it belongs"): the sender copies the message into the peer's fast
// box and writes the header the receiver polls for; the write barrier meant
// to make the data visible before the header came after the header store,
// so on ARM and POWER the receiver could see the header before the data
// (random data corruption). Re-created shape, not the Open MPI source:
// opal_atomic_wmb() is declared a write barrier in the project config.
// RUN: echo 'APIs: {write-barrier: [opal_atomic_wmb], read-barrier: [opal_atomic_rmb]}' > %t.yaml
// RUN: %clang_plugin -fplugin-arg-seqlint-config=%t.yaml '-fplugin-arg-seqlint-checks=-*,barrier-misplaced,barrier-wrong-kind' -fsyntax-only -Xclang -verify %s
#include <stdint.h>

void opal_atomic_wmb(void);
void opal_atomic_rmb(void);

struct fbox_hdr {
	volatile uint64_t word; /* size, sequence number and tag: nonzero = full */
};

struct endpoint {
	unsigned char *buffer;
	uint32_t end;
	uint16_t seq;
};

#define make_header(tag, seq, size) \
	(((uint64_t)(size) << 32) | ((uint64_t)(seq) << 16) | (tag))

/* Buggy: data, then the header, then the barrier. */
void fbox_send_buggy(struct endpoint *ep, uint16_t tag, const unsigned char *msg,
		     uint32_t len)
{
	struct fbox_hdr *hdr = (struct fbox_hdr *)(ep->buffer + ep->end);
	unsigned char *data = (unsigned char *)(hdr + 1);

	for (uint32_t i = 0; i < len; i++)
		data[i] = msg[i]; // expected-note {{data store to 'data[]'}}
	hdr->word = make_header(tag, ep->seq, len); // expected-note {{the publishing store to 'hdr->word'; the barrier belongs before it}}
	opal_atomic_wmb(); // expected-warning {{opal_atomic_wmb() comes after the store to 'hdr->word' that publishes the data, and no store follows it in this function: it does not order the store to 'data[]' before the publication; move it before the store to 'hdr->word' [seqlint-barrier-misplaced]}}
}

/* Fixed: the barrier between the data and the header. */
void fbox_send_fixed(struct endpoint *ep, uint16_t tag, const unsigned char *msg,
		     uint32_t len)
{
	struct fbox_hdr *hdr = (struct fbox_hdr *)(ep->buffer + ep->end);
	unsigned char *data = (unsigned char *)(hdr + 1);

	for (uint32_t i = 0; i < len; i++)
		data[i] = msg[i];
	opal_atomic_wmb();
	hdr->word = make_header(tag, ep->seq, len);
}

/* The receiver: header, read barrier, data. */
uint32_t fbox_poll(struct fbox_hdr *hdr, unsigned char *out)
{
	uint64_t h = hdr->word;
	if (!h)
		return 0;
	opal_atomic_rmb();
	const unsigned char *data = (const unsigned char *)(hdr + 1);
	uint32_t len = (uint32_t)(h >> 32);
	for (uint32_t i = 0; i < len; i++)
		out[i] = data[i];
	return len;
}
