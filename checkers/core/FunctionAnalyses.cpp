//===- FunctionAnalyses.cpp - the per-function analysis hub ---------------===//
#include "core/FunctionAnalyses.h"

using namespace llvm;

namespace seqlint {

const LockSets &FunctionAnalyses::locks() {
  if (!Locks)
    Locks = computeLocks(T);
  return *Locks;
}

const DenseSet<int> &FunctionAnalyses::addressKeys() {
  if (!AddressKeys)
    AddressKeys = counterAddressKeys(T);
  return *AddressKeys;
}

const ValidatedBegins &FunctionAnalyses::validatedBegins() {
  if (!Validated)
    Validated = seqlint::validatedBegins(T);
  return *Validated;
}

SectionFlow &FunctionAnalyses::sections() {
  if (!Sections)
    Sections = SectionFlow::solve(*this, Cl);
  return *Sections;
}

void FunctionAnalyses::accessContexts(
    function_ref<void(const Event &, const AccessContext &)> Visit) {
  if (Contexts) {
    for (const auto &[E, C] : *Contexts)
      Visit(*E, C);
    return;
  }
  std::vector<std::pair<const Event *, AccessContext>> Seen;
  if (T.Cfg)
    sections().accessContexts(locks(), [&](const Event &E, const AccessContext &C) {
      Seen.emplace_back(&E, C);
      Visit(E, C);
    });
  Contexts = std::move(Seen);
}

} // namespace seqlint
