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

#include <cctype>

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

std::string macroBodyAsmText(StringRef Body) {
  if (!Body.contains("asm"))
    return "";
  std::string Text;
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] != '"')
      continue;
    for (++I; I < Body.size() && Body[I] != '"'; ++I)
      Text += Body[I] == '\\' && I + 1 < Body.size() ? Body[++I] : Body[I];
    Text += ' ';
  }
  return StringRef(Text).lower();
}

unsigned macroBodyBarrierBits(StringRef Body) {
  if (Body.contains("asm"))
    return asmBarrierBits(macroBodyAsmText(Body));
  if (Body.contains("__sync_synchronize"))
    return OrdFull;
  if (!Body.contains("thread_fence"))
    return 0;
  std::string Lower = Body.lower();
  StringRef L = Lower;
  if (L.contains("seq_cst"))
    return OrdFull;
  if (L.contains("acq_rel"))
    return OrdLL | OrdLS | OrdSS;
  if (L.contains("acquire"))
    return OrdLL | OrdLS;
  if (L.contains("release"))
    return OrdLS | OrdSS;
  return 0;
}

namespace {
/// Lower case, each run of white space one space, trimmed.
std::string normaliseAsm(StringRef S) {
  std::string Out;
  bool Space = false;
  for (char C : S.trim()) {
    if (isspace((unsigned char)C)) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += (char)tolower((unsigned char)C);
  }
  return Out;
}
} // namespace

void ApiModel::addUserAsm(StringRef Spelling, unsigned Bits) {
  std::string S = normaliseAsm(Spelling);
  for (auto &[Old, OldBits] : UserAsm)
    if (Old == S) {
      OldBits = Bits;
      return;
    }
  UserAsm.push_back({std::move(S), Bits});
}

unsigned ApiModel::asmBits(StringRef Text) const {
  if (!UserAsm.empty()) {
    std::string T = normaliseAsm(Text);
    const std::pair<std::string, unsigned> *Best = nullptr;
    for (const auto &U : UserAsm)
      if (StringRef(T).contains(U.first) &&
          (!Best || U.first.size() > Best->first.size()))
        Best = &U;
    if (Best)
      return Best->second;
  }
  return asmBarrierBits(Text);
}

unsigned ApiModel::macroBodyBits(StringRef Body) const {
  if (UserAsm.empty() || !Body.contains("asm"))
    return macroBodyBarrierBits(Body);
  return asmBits(macroBodyAsmText(Body));
}

} // namespace seqlint
