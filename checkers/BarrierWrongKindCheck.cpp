//===- BarrierWrongKindCheck.cpp ------------------------------------------===//
//
// barrier-wrong-kind: a barrier whose kind orders none of the access pairs
// it stands between in this function. smp_wmb() orders store->store only,
// smp_rmb() load->load only, an acquire fence earlier loads against later
// accesses, a release fence earlier accesses against later stores; only a
// full barrier orders a store against a later load. Also
// smp_mb__before_atomic()/smp_mb__after_atomic() that are not next to an
// atomic read-modify-write: they are no-ops on x86 and order nothing there.
//
// Only what the function shows is judged: both sides must have known
// accesses before the next barrier, with no unknown call, lock or unlock in
// between, and no path running into the caller empty-handed.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "core/BarrierScan.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace seqlint {
namespace {

unsigned neededPairs(unsigned Before, unsigned After) {
  unsigned N = 0;
  if ((Before & AccLoad) && (After & AccLoad))
    N |= OrdLL;
  if ((Before & AccLoad) && (After & AccStore))
    N |= OrdLS;
  if ((Before & AccStore) && (After & AccStore))
    N |= OrdSS;
  if ((Before & AccStore) && (After & AccLoad))
    N |= OrdSL;
  return N;
}

bool isLinuxBarrierName(StringRef N) {
  return N == "smp_wmb" || N == "smp_rmb" || N == "smp_mb" || N == "wmb" ||
         N == "rmb" || N == "mb" || N == "virt_wmb" || N == "virt_rmb" ||
         N == "virt_mb" || N == "smp_mb__before_atomic" ||
         N == "smp_mb__after_atomic";
}

class BarrierWrongKindCheck : public Check {
public:
  BarrierWrongKindCheck() : Check("barrier-wrong-kind") {}

  /// From the section analysis: a barrier that sits where a write section
  /// needs store->store order (after the odd increment, before the even
  /// one) or a read section load->load order (after the begin, before the
  /// recheck), and does not provide it.
  void sectionBarrierWrongKind(const FunctionTrace &T, int Counter, const Event &E,
                               unsigned Needed, const Event &Access) override {
    if (!isJudgedBarrier(E) || !InSection.insert(&E).second)
      return;
    bool Write = Needed == OrdSS;
    bool C11 = spelledAsFence(E);
    StringRef Use = Write ? (C11 ? "atomic_thread_fence(memory_order_release)" : "smp_wmb")
                          : (C11 ? "atomic_thread_fence(memory_order_acquire)" : "smp_rmb");
    bool Call = !Use.starts_with("atomic_thread_fence");
    std::string Msg =
        barrierSpelling(E) + " inside the " + (Write ? "write" : "read") +
        " section of '" + name(T, Counter) + "' does not order " +
        (Write ? "stores: the data stores can become visible outside the odd "
                 "count that guards them"
               : "loads: the count can be read on the wrong side of the data "
                 "loads and validate a torn read") +
        "; use " + Use.str() + (Call ? "()" : "");
    Finding F = make(E, Msg);
    F.Notes.push_back({Access.Loc, std::string("the ") + (Write ? "store" : "load") +
                                       " it must order is here"});
    viaNote(F, Access);
    if (Call)
      if (auto Fix = renameBarrier(E, Use))
        F.FixIts.push_back(*Fix);
    emit(F);
  }

  void functionDone(const FunctionTrace &T, Classifier &) override {
    forEachJudgedBarrier(T, [&](const Event &E, unsigned B, unsigned I) {
      if (!InSection.count(&E))
        judge(T, E, B, I);
    });
    InSection.clear();
  }

private:
  void judge(const FunctionTrace &T, const Event &E, unsigned Block,
             unsigned Index) {
    StringRef Name = E.ApiName;
    bool BeforeAtomic = Name.ends_with("mb__before_atomic");
    bool AfterAtomic = Name.ends_with("mb__after_atomic");
    if (BeforeAtomic || AfterAtomic) {
      judgeAtomicHelper(T, E, Block, Index, BeforeAtomic);
      return;
    }
    if (E.Bits == OrdFull)
      return;
    BarrierSide Before = scanBarrierSide(T, Block, Index, /*Forward=*/false);
    if (!Before.known())
      return;
    BarrierSide After = scanBarrierSide(T, Block, Index, /*Forward=*/true);
    if ((E.Bits & OrdSS) && !(E.Bits & OrdSL) &&
        judgeStoreThenLoad(T, E, Block, Index, Before, After))
      return;
    if (!After.known())
      return;
    // Before the function was called, the caller accessed memory that the
    // barrier orders too: ptr_ring's smp_wmb() after a few loads orders the
    // caller's stores of the data being queued. The caller's accesses after
    // the return are not counted: a barrier placed before accesses of this
    // function is meant for them.
    unsigned BeforeKinds = Before.Kinds;
    if (Before.ReachedBoundary)
      BeforeKinds |= AccLoad | AccStore;
    unsigned Need = neededPairs(BeforeKinds, After.Kinds);
    if (!Need || (Need & E.Bits))
      return;
    // Right kind in the wrong place: barrier-misplaced reports it.
    if (misplacedWriteBarrier(T, E, Block, Index) ||
        misplacedReadBarrier(T, E, Block, Index))
      return;
    // Messages and suggestions speak of the accesses the function shows.
    report(T, E, Before, After, neededPairs(Before.Kinds, After.Kinds));
  }

  /// smp_mb__before_atomic() must be followed, smp_mb__after_atomic()
  /// preceded, by an atomic RMW: on architectures whose atomics are fully
  /// ordered (x86) they compile to nothing.
  void judgeAtomicHelper(const FunctionTrace &T, const Event &E, unsigned Block,
                         unsigned Index, bool BeforeAtomic) {
    BarrierSide S = scanBarrierSide(T, Block, Index, /*Forward=*/BeforeAtomic);
    if (S.NearestUnknown || S.Nearest.empty() || S.unknown())
      return;
    // The RMW may come a few accesses later (net/core/dev.c reads q->flags
    // between smp_mb__before_atomic() and clear_bit()): any atomic RMW up to
    // the next barrier will do. smp_mb__after_atomic() may rely on an RMW
    // in the caller ("rely on refcount_sub from sock_wfree()").
    if (!BeforeAtomic && S.ReachedBoundary)
      return;
    for (const BarrierAccess &A : S.All)
      if (A.AtomicRMW)
        return;
    const BarrierAccess &A = S.Nearest.front();
    std::string What = describe(T, A);
    std::string Msg =
        (spelling(E) + " is " +
         (BeforeAtomic ? "followed by " : "preceded by ") + What +
         ", not by an atomic read-modify-write (atomic_inc(), "
         "set_bit(), ...): it only orders such an operation and is a "
         "no-op on x86; use smp_mb() to order this access");
    Finding F = make(E, Msg);
    F.Notes.push_back({A.E->Loc, std::string("the ") +
                                     (BeforeAtomic ? "next" : "previous") +
                                     " access is " + What + " here"});
    if (auto Fix = renameBarrier(E, "smp_mb"))
      F.FixIts.push_back(*Fix);
    emit(F);
  }

  void report(const FunctionTrace &T, const Event &E, const BarrierSide &Before,
              const BarrierSide &After, unsigned Need) {
    std::string Barrier = barrierSpelling(E);
    const BarrierAccess &BA =
        pick(Before, Need & (OrdSL | OrdSS) ? AccStore : AccLoad);
    const BarrierAccess &AA =
        pick(After, Need & (OrdSL | OrdLL) ? AccLoad : AccStore);
    std::string Msg;
    StringRef Use;
    bool C11 = spelledAsFence(E);
    if (Need & OrdSL) {
      Msg = Barrier + " does not order " + describe(T, BA) +
            " before it against " + describe(T, AA) +
            " after it: only a full barrier orders a store "
            "against a later load";
      Use = C11 ? "atomic_thread_fence(memory_order_seq_cst)" : "smp_mb";
    } else if (Need == OrdLL) {
      Msg = Barrier +
            " does not order loads, and the accesses on both sides are "
            "loads (" +
            describe(T, BA) + " before it, " + describe(T, AA) + " after it)";
      Use = C11 ? "atomic_thread_fence(memory_order_acquire)" : "smp_rmb";
    } else if (Need == OrdSS) {
      Msg = Barrier +
            " does not order stores, and the accesses on both sides are "
            "stores (" +
            describe(T, BA) + " before it, " + describe(T, AA) + " after it)";
      Use = C11 ? "atomic_thread_fence(memory_order_release)" : "smp_wmb";
    } else {
      Msg = Barrier + " does not order " + describe(T, BA) +
            " before it against " + describe(T, AA) + " after it";
      Use = C11 ? (Need & OrdSS ? "atomic_thread_fence(memory_order_acq_rel)"
                                : "atomic_thread_fence(memory_order_acquire)")
                : "smp_mb";
    }
    bool Call = !Use.starts_with("atomic_thread_fence");
    Msg += "; use " + Use.str() + (Call ? "()" : "");
    Finding F = make(E, Msg);
    F.Notes.push_back(
        {BA.E->Loc, "the access before the barrier is " + describe(T, BA)});
    F.Notes.push_back(
        {AA.E->Loc, "the access after the barrier is " + describe(T, AA)});
    if (Call)
      if (auto Fix = renameBarrier(E, Use))
        F.FixIts.push_back(*Fix);
    emit(F);
  }

  /// A partial barrier between a store and the load the code is written
  /// around: the nearest access before it on every path is a store, and the
  /// first marked load after it (past plain loads such as a loop bound) is
  /// of another location that other CPUs write. Two shapes:
  ///  - publish, then wait: nothing after the barrier is stored before the
  ///    next barrier, so it orders nothing (xt_replace_table(): store the
  ///    new table, then read every CPU's sequence; an unknown call after
  ///    that load, cond_resched(), does not hide it);
  ///  - bump, then read: the store is a sequence increment and the marked
  ///    load comes first, though stores follow (xt_write_recseq_begin(),
  ///    then READ_ONCE(table->private)).
  bool judgeStoreThenLoad(const FunctionTrace &T, const Event &E, unsigned Block,
                          unsigned Index, const BarrierSide &Before,
                          const BarrierSide &After) {
    if (Before.NearestUnknown || Before.Nearest.empty())
      return false;
    bool Bump = true;
    for (const BarrierAccess &A : Before.Nearest) {
      if (!(A.Bits & AccStore))
        return false;
      Bump &= A.E->Kind == EventKind::CounterInc || A.E->Increment;
    }
    if (!Bump && ((After.Kinds & AccStore) || After.UnknownLock))
      return false;
    FirstLoads First = firstMarkedLoadsAfter(T, Block, Index);
    if (First.Blocked || First.Loads.empty())
      return false;
    for (const BarrierAccess &L : First.Loads) {
      AccessIdentity Id = accessIdentity(T, *L.E);
      for (const BarrierAccess &S : Before.Nearest)
        if (!Id.valid() || Id.same(accessIdentity(T, *S.E)))
          return false;
    }
    // A publication followed by the barrier: barrier-misplaced reports it.
    if (misplacedWriteBarrier(T, E, Block, Index))
      return false;
    BarrierSide B1, A1;
    B1.Nearest = B1.All = {Before.Nearest.front()};
    A1.Nearest = A1.All = {First.Loads.front()};
    report(T, E, B1, A1, OrdSL);
    return true;
  }

  static const BarrierAccess &pick(const BarrierSide &S, unsigned Bits) {
    for (const BarrierAccess &A : S.Nearest)
      if (A.Bits & Bits)
        return A;
    for (const BarrierAccess &A : S.All)
      if (A.Bits & Bits)
        return A;
    return S.All.front();
  }

  static std::string describe(const FunctionTrace &T, const BarrierAccess &A) {
    std::string N = "'" + accessName(T, *A.E) + "'";
    if (A.Bits == (AccLoad | AccStore))
      return "the read-modify-write of " + N;
    if (A.Bits == AccLoad)
      return "the load of " + N;
    return "the store to " + N;
  }

  llvm::DenseSet<const Event *> InSection;

  /// A C11/GNU fence (or a fence call with no API name): fixes are spelled
  /// as atomic_thread_fence(), not as kernel barriers.
  static bool spelledAsFence(const Event &E) {
    return E.ApiName.empty() || E.Api->F == Family::C11 || E.Api->F == Family::GNU;
  }

  static std::string barrierSpelling(const Event &E) {
    if (!E.ApiName.empty())
      return spelling(E);
    switch (E.Bits) {
    case OrdLL | OrdLS:
      return "the acquire fence";
    case OrdLS | OrdSS:
      return "the release fence";
    case OrdLL | OrdLS | OrdSS:
      return "the acq_rel fence";
    default:
      return "the fence";
    }
  }

  /// Replaces the barrier's macro name (smp_wmb -> smp_mb) when the name is
  /// written right there in the file.
  std::optional<FixItHint> renameBarrier(const Event &E, StringRef To) const {
    if (!isLinuxBarrierName(E.ApiName) || !E.Loc.isFileID())
      return std::nullopt;
    const SourceManager &SM = Ctx->Ctx->getSourceManager();
    const LangOptions &LO = Ctx->Ctx->getLangOpts();
    unsigned Len = Lexer::MeasureTokenLength(E.Loc, SM, LO);
    StringRef Text(SM.getCharacterData(E.Loc), Len);
    if (Text != E.ApiName)
      return std::nullopt;
    return FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(E.Loc, E.Loc.getLocWithOffset(Len)), To);
  }
};

} // namespace

std::unique_ptr<Check> createBarrierWrongKindCheck() {
  return std::make_unique<BarrierWrongKindCheck>();
}

} // namespace seqlint
