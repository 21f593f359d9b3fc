//===- ApiModelAsm.cpp - barrier instructions in inline asm ---------------===//
//
// Part of the API model (core/ApiModel.h): what the barrier instructions of
// the architectures seqlint knows order, for `asm volatile("dmb ishst" :::
// "memory")` and for a project's barrier macro defined as inline asm.
//
// Kept out of ApiModel.cpp on purpose: the metamorphic harness keeps every
// identifier-like string literal of that file from being renamed (they are
// API names), and the mnemonics here are not names a C file declares; the
// x86 `lock` prefix would stop every field called `lock` from being renamed.
//
//===----------------------------------------------------------------------===//
#include "core/ApiModel.h"
#include "core/Events.h"

using namespace llvm;

namespace seqlint {

unsigned asmBarrierBits(StringRef S) {
  if (S.contains("mfence") || S.contains("lock") || S.contains("dmb sy") ||
      S.contains("dsb") || S.contains("fence rw,rw") || S.contains("hwsync") || S.contains("xchg") ||
      (S.contains("sync") && !S.contains("lwsync") && !S.contains("isync")))
    return OrdFull;
  if (S.contains("lwsync"))
    return OrdLL | OrdLS | OrdSS;
  if (S.contains("dmb ishld") || S.contains("fence r,rw"))
    return OrdLL | OrdLS;
  if (S.contains("dmb ishst") || S.contains("sfence") || S.contains("fence w,w"))
    return OrdSS;
  if (S.contains("lfence") || S.contains("fence r,r"))
    return OrdLL;
  if (S.contains("dmb ish")) // neither ld nor st: both
    return OrdFull;
  return 0;
}

} // namespace seqlint
