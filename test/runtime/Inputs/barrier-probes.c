/*
 * One out-of-line function per seqcount path; the cross-*.test files compile
 * this file for each architecture, disassemble it and FileCheck the barrier
 * instructions below (the check prefix names the architecture and, for
 * GENERIC-*, the -DSEQLINT_GENERIC_BARRIERS fallback).
 */
#include <seqlint/seqcount.h>

struct rec { uint64_t a, b; };

void probe_write_begin(seqlint_seqcount_t *s) { seqlint_write_begin(s); }
void probe_write_end(seqlint_seqcount_t *s) { seqlint_write_end(s); }
unsigned probe_read_begin(const seqlint_seqcount_t *s) { return seqlint_read_begin(s); }
bool probe_read_retry(const seqlint_seqcount_t *s, unsigned start)
{
	return seqlint_read_retry(s, start);
}
void probe_full_barrier(void) { seqlint_smp_mb(); }
void probe_copy_out(struct rec *dst, const struct rec *src) { seqlint_copy_out(dst, src); }

/* ---- x86-64: TSO, no fence on any seqcount path; lock addl for smp_mb ---- */
// X86-LABEL: <probe_write_begin>:
// X86-NOT: {{lock|mfence|sfence|lfence|xchg}}
// X86: {{(inc|add|mov)}}{{.*}}(%rdi)
// X86-NOT: {{lock|mfence|sfence|lfence|xchg}}
// X86: ret
// X86-LABEL: <probe_write_end>:
// X86-NOT: {{lock|mfence|sfence|lfence|xchg}}
// X86: ret
// X86-LABEL: <probe_read_begin>:
// X86-NOT: {{lock|mfence|sfence|lfence|xchg}}
// X86: mov{{.*}}(%rdi),%eax
// X86-NOT: {{lock|mfence|sfence|lfence|xchg}}
// X86-LABEL: <probe_read_retry>:
// X86-NOT: {{lock|mfence|sfence|lfence|xchg}}
// X86: ret
// X86-LABEL: <probe_full_barrier>:
// X86-NEXT: lock addl $0x0,-0x4(%rsp)
// X86-NEXT: ret
// X86-LABEL: <probe_copy_out>:
// X86-NOT: {{lock|fence}}

/* ---- x86-64, C11 fallback: only the full barrier differs ---- */
// GENERIC-X86-LABEL: <probe_write_begin>:
// GENERIC-X86-NOT: {{lock|fence}}
// GENERIC-X86: ret
// GENERIC-X86-LABEL: <probe_read_retry>:
// GENERIC-X86-NOT: {{lock|fence}}
// GENERIC-X86: ret
// GENERIC-X86-LABEL: <probe_full_barrier>:
// (clang 22 locks a red-zone slot below the stack pointer: -0x40(%rsp))
// GENERIC-X86-NEXT: {{mfence|lock or[lq] \$0x0,(-0x[0-9a-f]+)?\(%rsp\)}}

/* ---- arm64: dmb ishst / stlr / ldar / dmb ishld / dmb ish ---- */
// AARCH64-LABEL: <probe_write_begin>:
// AARCH64-NOT: {{dmb|dsb|stlr}}
// AARCH64: str w{{[0-9]+}}, [x0]
// AARCH64-NEXT: dmb ishst
// AARCH64-NEXT: ret
// AARCH64-LABEL: <probe_write_end>:
// AARCH64-NOT: {{dmb|dsb}}
// AARCH64: stlr w{{[0-9]+}}, [x0]
// AARCH64-NEXT: ret
// AARCH64-LABEL: <probe_read_begin>:
// AARCH64-NOT: {{dmb|dsb}}
// AARCH64: ldar w{{[0-9]+}}, [x{{[0-9]+}}]
// AARCH64-NOT: {{dmb|dsb}}
// AARCH64-LABEL: <probe_read_retry>:
// AARCH64-NEXT: dmb ishld
// AARCH64-NEXT: ldr w{{[0-9]+}}, [x0]
// AARCH64-NOT: {{dmb|dsb}}
// AARCH64-LABEL: <probe_full_barrier>:
// AARCH64-NEXT: dmb ish{{$}}
// AARCH64-NEXT: ret
// AARCH64-LABEL: <probe_copy_out>:
// AARCH64-NOT: {{dmb|ldar|ldp}}
// AARCH64: ldr x
// AARCH64-NOT: {{dmb|ldar|ldp}}
// AARCH64: ldr x
// AARCH64-NOT: {{dmb|ldar|ldp}}
// AARCH64: ret

/* ---- arm64, C11 fallback: the release fence is a full dmb ish ---- */
// GENERIC-AARCH64-LABEL: <probe_write_begin>:
// GENERIC-AARCH64: str w{{[0-9]+}}, [x0]
// GENERIC-AARCH64-NEXT: dmb ish{{$}}
// GENERIC-AARCH64-LABEL: <probe_write_end>:
// GENERIC-AARCH64: stlr w{{[0-9]+}}, [x0]
// GENERIC-AARCH64-LABEL: <probe_read_begin>:
// GENERIC-AARCH64: ldar w
// GENERIC-AARCH64-LABEL: <probe_read_retry>:
// GENERIC-AARCH64-NEXT: dmb ishld
// GENERIC-AARCH64-LABEL: <probe_full_barrier>:
// GENERIC-AARCH64-NEXT: dmb ish{{$}}

/* ---- ARMv7-A: dmb ishst for wmb, dmb ish for everything else ---- */
// ARMV7-LABEL: <probe_write_begin>:
// ARMV7-NOT: dmb
// ARMV7: str{{(\.w)?}} r{{[0-9]+}}, [r0
// ARMV7-NEXT: dmb ishst
// ARMV7-NOT: dmb
// ARMV7: bx lr
// ARMV7-LABEL: <probe_write_end>:
// ARMV7-NOT: dmb
// ARMV7: dmb ish{{$}}
// ARMV7-NOT: dmb
// ARMV7: str{{(\.w)?}} r{{[0-9]+}}, [r0
// ARMV7-NOT: dmb
// ARMV7-LABEL: <probe_read_begin>:
// ARMV7-NOT: dmb
// ARMV7: ldr{{(\.w)?}} r{{[0-9]+}}, [r{{[0-9]+}}
// ARMV7-NEXT: dmb ish{{$}}
// ARMV7-LABEL: <probe_read_retry>:
// ARMV7-NEXT: dmb ish{{$}}
// ARMV7-NEXT: ldr{{(\.w)?}} r{{[0-9]+}}, [r0
// ARMV7-NOT: dmb
// ARMV7-LABEL: <probe_full_barrier>:
// ARMV7-NEXT: dmb ish{{$}}

/* ---- riscv64: fence w,w / fence rw,w; sw / lw; fence r,rw / fence r,r ---- */
// RISCV64-LABEL: <probe_write_begin>:
// RISCV64-NOT: {{fence|amo}}
// RISCV64: sw {{[a-z0-9]+}},0(a0)
// RISCV64-NEXT: fence w,w
// RISCV64-NEXT: ret
// RISCV64-LABEL: <probe_write_end>:
// RISCV64-NOT: {{fence|amo}}
// RISCV64: fence rw,w
// RISCV64-NOT: {{fence|amo}}
// RISCV64: sw {{[a-z0-9]+}},0(a0)
// RISCV64-NEXT: ret
// RISCV64-LABEL: <probe_read_begin>:
// RISCV64-NOT: {{fence|amo}}
// RISCV64: lw {{[a-z0-9]+}},0(a{{[0-9]}})
// RISCV64-NOT: {{fence|amo}}
// RISCV64: fence r,rw
// RISCV64-NOT: {{fence (r,r$|w|rw)|amo}}
// RISCV64-LABEL: <probe_read_retry>:
// RISCV64-NEXT: fence r,r
// RISCV64-NEXT: lw {{[a-z0-9]+}},0(a0)
// RISCV64-NOT: {{fence|amo}}
// RISCV64-LABEL: <probe_full_barrier>:
// RISCV64-NEXT: fence rw,rw
// RISCV64-NEXT: ret
// RISCV64-LABEL: <probe_copy_out>:
// RISCV64-NOT: {{fence|amo}}
// RISCV64: ret

/* ---- ppc64le: lwsync everywhere, sync (hwsync) only for smp_mb ---- */
// PPC64LE-LABEL: <probe_write_begin>:
// PPC64LE-NOT: {{sync|isync}}
// PPC64LE: stw r{{[0-9]+}},0(r3)
// PPC64LE-NEXT: lwsync
// PPC64LE-NEXT: blr
// PPC64LE-LABEL: <probe_write_end>:
// PPC64LE-NOT: {{sync|isync}}
// PPC64LE: lwsync
// PPC64LE-NOT: {{sync|isync}}
// PPC64LE: stw r{{[0-9]+}},0(r3)
// PPC64LE-NEXT: blr
// PPC64LE-LABEL: <probe_read_begin>:
// PPC64LE-NOT: {{sync|isync}}
// PPC64LE: lwz r{{[0-9]+}},0(r{{[0-9]+}})
// PPC64LE-NEXT: lwsync
// PPC64LE-NOT: {{hwsync|isync|[[:space:]]sync}}
// PPC64LE-LABEL: <probe_read_retry>:
// PPC64LE-NEXT: lwsync
// PPC64LE-NEXT: lwz r{{[0-9]+}},0(r3)
// PPC64LE-NOT: {{sync|isync}}
// PPC64LE-LABEL: <probe_full_barrier>:
// PPC64LE-NEXT: {{hwsync|sync}}
// PPC64LE-NEXT: blr
