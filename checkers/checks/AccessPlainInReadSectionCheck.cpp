//===- AccessPlainInReadSectionCheck.cpp ----------------------------------===//
//
// access-plain-in-read-section: in C11 code, a plain load of shared data
// inside a seqcount read section. The writer changes the data while the
// reader runs (that is what the retry is for), so the plain load is a data
// race, and a data race is undefined behaviour in C11 -- the retry does not
// make it defined. The data must be read with atomic loads (relaxed is
// enough; the count's acquire/fences order them).
//
// C11 code: the section's counter is read with a C11/GNU atomic
// (atomic_load_explicit, __atomic_load_n, an _Atomic object) or with an API
// built on them (seqlint's runtime). Linux-style code (READ_ONCE,
// seqcount_t, the kernel API), QEMU, DPDK and Concurrency Kit are exempt:
// their memory models (the LKMM, QEMU's and CK's own) or API contracts
// (rte_seqcount.h: "The protected data may be read using atomic and/or
// non-atomic operations") allow plain reads in a read section that is
// retried.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "core/AccessContext.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace {

/// Which C11-based API family reads the counter, if any.
std::optional<Family> c11Family(const Event &Begin) {
  if (Begin.Api) {
    switch (Begin.Api->F) {
    case Family::C11:
    case Family::GNU:
    case Family::Runtime:
      return Begin.Api->F;
    default:
      return std::nullopt;
    }
  }
  // Open-coded: an atomic builtin, or a load of an _Atomic object.
  if (const auto *AE = dyn_cast_or_null<AtomicExpr>(Begin.S)) {
    switch (AE->getOp()) {
    case AtomicExpr::AO__atomic_load:
    case AtomicExpr::AO__atomic_load_n:
      return Family::GNU;
    default:
      return Family::C11;
    }
  }
  if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(Begin.S))
    if (IC->getSubExpr()->getType()->isAtomicType())
      return Family::C11;
  return std::nullopt;
}

std::string relaxedLoad(Family F, StringRef Name) {
  switch (F) {
  case Family::GNU:
    return "__atomic_load_n(&" + Name.str() + ", __ATOMIC_RELAXED)";
  case Family::Runtime:
    return "seqlint_read_once(" + Name.str() + ")";
  default:
    return "atomic_load_explicit(&" + Name.str() + ", memory_order_relaxed)";
  }
}

class AccessPlainInReadSectionCheck : public Check {
public:
  AccessPlainInReadSectionCheck() : Check("access-plain-in-read-section") {}

  void functionDone(const FunctionTrace &T, Classifier &) override {
    if (T.Counters.empty())
      return;
    std::optional<FunctionAnalyses> Local;
    FunctionAnalyses &FA = analysesOf(T, Local);
    const DenseSet<int> &AddressKeys = FA.addressKeys();
    DenseSet<int> Reported;
    FA.accessContexts([&](const Event &E, const AccessContext &C) {
      if (E.Kind != EventKind::Load || C.ReadSections.empty())
        return;
      if (E.Ord != Order::Plain || E.Api || E.Key < 0)
        return;
      if (T.Counters.count(E.Key) || AddressKeys.count(E.Key))
        return;
      const LocationKey &K = T.key(E.Key);
      if (K.isLocal())
        return;
      if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(E.S))
        if (IC->getSubExpr()->getType().isConstQualified())
          return; // read-only data is not written concurrently
      for (auto &[Counter, Begin] : C.ReadSections) {
        std::optional<Family> F = c11Family(*Begin);
        if (!F)
          continue;
        if (!Reported.insert(E.Key).second)
          return;
        std::string N = K.displayName();
        Finding Fd = make(
            E.Loc,
            "plain load of '" + N + "' inside a read section of '" +
                T.key(Counter).displayName() +
                "': the writer stores to it concurrently, a data race and "
                "undefined behaviour in C11 even though the read is retried; "
                "read it with " +
                relaxedLoad(*F, N));
        Fd.Notes.push_back({Begin->Loc, "the read section begins here"});
        viaNote(Fd, *Begin);
        emit(Fd);
        return;
      }
    });
  }
};

} // namespace

std::unique_ptr<Check> createAccessPlainInReadSectionCheck() {
  return std::make_unique<AccessPlainInReadSectionCheck>();
}

} // namespace seqlint
