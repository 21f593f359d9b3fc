// RUN: %clang_plugin -fplugin-arg-seqlint-checks=* -fsyntax-only -Xclang -verify %s
/*
 * A request number is no seqcount. A driver talks to its firmware through a
 * mailbox: each command takes the next sequence number
 * (`seq = ++sc->fw_seq`), writes the command with that number into the
 * mailbox, and polls the reply until the firmware echoes the number back.
 * A caller that sends two commands with its own stores (and a write
 * barrier) between them meets "bump, stores, bump" and looks like a
 * writer that brackets data with an open-coded seqcount. What tells the
 * two apart is the use of the new count: the mailbox compares it with a
 * value it loads (the reply). A seqcount writer never checks its new count
 * against anything but its parity. A writer that copies its new count into
 * another location (a guest's copy of a clock page) is still a writer, and
 * a missing barrier there is still reported.
 * Modelled on DPDK's drivers/net/bnx2x (elink_cb_fw_command() and its
 * callers bnx2x_nic_load() and bnx2x_leader_reset()); rewritten.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define SEQ_MASK 0xffffu
#define CODE_MASK 0xffff0000u
#define CMD_LOAD_REQ 0x10000000u
#define CMD_LOAD_DONE 0x11000000u

struct mailbox { u32 drv_header, drv_param, fw_header; };

struct nic {
	struct mailbox *mb; /* shared with the firmware */
	u16 fw_seq;
	u32 load_code;
	int state;
};

extern void udelay(unsigned long us);

static u32 fw_command(struct nic *sc, u32 command, u32 param)
{
	u32 seq, rc = 0;
	int cnt = 0;

	seq = ++sc->fw_seq;
	WRITE_ONCE(sc->mb->drv_param, param);
	WRITE_ONCE(sc->mb->drv_header, command | seq);
	do {
		udelay(10);
		rc = READ_ONCE(sc->mb->fw_header);
	} while (seq != (rc & SEQ_MASK) && cnt++ < 500);
	if (seq == (rc & SEQ_MASK))
		return rc & CODE_MASK;
	return 0;
}

int nic_load(struct nic *sc)
{
	u32 code = fw_command(sc, CMD_LOAD_REQ, 0);

	if (!code)
		return -1;
	sc->load_code = code;
	sc->state = 1;
	wmb();
	if (!fw_command(sc, CMD_LOAD_DONE, 0))
		return -1;
	return 0;
}

/* A writer that copies its new count into the guest's page: a seqcount. */
struct clock_page { u32 version; u64 time; u32 mul; };
struct vclock { struct clock_page host; struct clock_page *guest; };

void clock_publish(struct vclock *vc, u64 t, u32 mul)
{
	struct clock_page *g = vc->guest;

	g->version = ++vc->host.version; // expected-warning {{store to 'g->version' is not ordered after the odd increment of seqcount 'vc->host.version'}}
	// expected-note@-1 {{the write section of 'vc->host.version' begins here; no write barrier follows it}}
	g->time = t;
	g->mul = mul;
	smp_wmb();
	g->version = ++vc->host.version;
}
