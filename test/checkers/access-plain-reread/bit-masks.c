// access-plain-reread: a marked load tested through one bit mask and a plain
// re-read through another. When the bits the re-read uses are disjoint from
// the bits the check tested, the re-read uses nothing that was checked: not
// a double fetch. The same bits, or the whole word, still are.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef u32 __le32;
#define cpu_to_le32(x)	((__le32)(x))
#define le32_to_cpu(x)	((u32)(x))

/* A completion entry as a NIC writes it (bnxt's second RX completion:
 * drivers/net/ethernet/broadcom/bnxt/bnxt.c:bnxt_rx_pkt(), Linux 6.12). The
 * valid bit and the error bits share one word; the device writes the word
 * once, and the driver owns it after it saw the valid bit. */
#define CMPL_VALID	(1u << 0)
#define CMPL_ERRORS	0xfffeu
#define CMPL_LEN_SHIFT	16

struct cmpl_ext {
	__le32 info;
	__le32 errors_v;
	__le32 meta;
};

extern void deliver(u32 meta, u32 errors);

/* Valid bit tested, dma_rmb(), then the error bits of the same word. */
int cmpl_second_entry(struct cmpl_ext *c, u32 phase)
{
	if (!!(READ_ONCE(c->errors_v) & cpu_to_le32(CMPL_VALID)) != !phase)
		return -1;
	dma_rmb();
	deliver(le32_to_cpu(c->meta), le32_to_cpu(c->errors_v) & CMPL_ERRORS);
	return 0;
}

/* io_uring/io_uring.c:io_uring_enter() (Linux 6.12): one bit of ctx->flags
 * is checked with an acquire load, another bit, fixed at setup, is tested
 * plainly later. */
#define SETUP_R_DISABLED	(1u << 6)
#define SETUP_SQPOLL		(1u << 1)

struct uctx {
	unsigned int flags;
	int sq_thread;
};

extern void wake_poller(struct uctx *ctx);

int uring_enter(struct uctx *ctx)
{
	if (smp_load_acquire(&ctx->flags) & SETUP_R_DISABLED)
		return -1;
	if (ctx->flags & SETUP_SQPOLL) {
		wake_poller(ctx);
		return 0;
	}
	return 1;
}

/* The mask on the left of the '&' is the same mask. */
int uring_enter_mask_first(struct uctx *ctx)
{
	if (SETUP_R_DISABLED & smp_load_acquire(&ctx->flags))
		return -1;
	return (SETUP_SQPOLL & ctx->flags) ? 1 : 0;
}

/* The same bit tested again: the value the code acts on was not checked. */
int uring_enter_same_bit(struct uctx *ctx)
{
	if (smp_load_acquire(&ctx->flags) & SETUP_R_DISABLED)
		return -1;
	if (ctx->flags & SETUP_R_DISABLED) // expected-warning {{plain re-read of 'ctx->flags'}}
		wake_poller(ctx);
	return 0;
}

/* Overlapping masks: bit 0 was checked and is part of the re-read. */
int cmpl_overlap(struct cmpl_ext *c)
{
	if (!(READ_ONCE(c->errors_v) & cpu_to_le32(CMPL_VALID)))
		return -1;
	dma_rmb();
	return le32_to_cpu(c->errors_v) & 0xffu; // expected-warning {{plain re-read of 'c->errors_v'}}
}

/* The whole word re-read (no mask): the checked bit is in it. */
u32 cmpl_whole_word(struct cmpl_ext *c)
{
	if (!(READ_ONCE(c->errors_v) & cpu_to_le32(CMPL_VALID)))
		return 0;
	dma_rmb();
	return le32_to_cpu(c->errors_v) >> CMPL_LEN_SHIFT; // expected-warning {{plain re-read of 'c->errors_v'}}
}

/* The check is not a bit test: any re-read uses checked bits. */
int uring_enter_whole_check(struct uctx *ctx)
{
	if (smp_load_acquire(&ctx->flags) == 0)
		return -1;
	return (ctx->flags & SETUP_SQPOLL) ? 1 : 0; // expected-warning {{plain re-read of 'ctx->flags'}}
}

/* A mask that is not a constant says nothing about which bits are used. */
int uring_enter_variable_mask(struct uctx *ctx, unsigned int m)
{
	if (smp_load_acquire(&ctx->flags) & SETUP_R_DISABLED)
		return -1;
	return (ctx->flags & m) ? 1 : 0; // expected-warning {{plain re-read of 'ctx->flags'}}
}
