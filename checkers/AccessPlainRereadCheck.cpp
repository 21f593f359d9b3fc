//===- AccessPlainRereadCheck.cpp -----------------------------------------===//
//
// access-plain-reread: a location read with READ_ONCE()/smp_load_acquire()
// (or another marked load) and checked, then read again with a plain access
// in the same function, with no lock taken and no store to it in between.
// The marked load says the location changes concurrently; the plain re-read
// can see a different value than the one checked (a double fetch), and the
// compiler is free to re-load or tear it. Reuse the checked value.
//
// A check through one constant bit mask and a re-read through another,
// disjoint one (a descriptor's valid bit, then its error bits; a flag bit
// checked with an acquire, then a setup-time bit) uses no checked bit: not
// reported.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "core/AccessContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <deque>
#include <optional>

using namespace clang;

namespace seqlint {
namespace {

/// Checked loads by key, and the locks that may be held: while any is held
/// (on some path), plain accesses are protected and marked loads do not
/// start a check.
struct ReadState {
  llvm::DenseMap<int, const Event *> Checks; // key -> checked load
  LockSet Locks;
};

class AccessPlainRereadCheck : public Check {
public:
  AccessPlainRereadCheck() : Check("access-plain-reread") {}
  CheckScope scope() const override { return CheckScope::MarkedAccesses; }

  void functionDone(const FunctionTrace &T, Classifier &) override {
    if (!hasMarkedCheckedLoad(T))
      return;
    const CFG &G = *T.Cfg;
    std::vector<ReadState> In(G.getNumBlockIDs());
    std::vector<bool> Reached(G.getNumBlockIDs());
    // Reverse post-order numbers: an edge to a block not after its source
    // is a loop back edge; a read in the next iteration is a fresh read,
    // not a re-read of the value checked in this one.
    std::vector<unsigned> Rpo(G.getNumBlockIDs(), ~0u);
    {
      std::vector<const CFGBlock *> Order = reversePostOrder(G);
      for (unsigned I = 0; I != Order.size(); ++I)
        Rpo[Order[I]->getBlockID()] = I;
    }
    std::deque<const CFGBlock *> Work{&G.getEntry()};
    Reached[G.getEntry().getBlockID()] = true;
    unsigned Budget = 50 * G.getNumBlockIDs() + 100;
    while (!Work.empty() && Budget--) {
      const CFGBlock *B = Work.front();
      Work.pop_front();
      ReadState S = In[B->getBlockID()];
      transfer(T, *B, S, /*Report=*/false);
      for (const CFGBlock *Succ : B->succs()) {
        if (!Succ)
          continue;
        ReadState &SI = In[Succ->getBlockID()];
        bool Changed = !Reached[Succ->getBlockID()];
        Reached[Succ->getBlockID()] = true;
        bool BackEdge = Rpo[Succ->getBlockID()] <= Rpo[B->getBlockID()];
        if (!BackEdge)
          for (auto &[K, E] : S.Checks)
            if (SI.Checks.insert({K, E}).second)
              Changed = true;
        if (SI.Locks.join(S.Locks))
          Changed = true;
        if (Changed)
          Work.push_back(Succ);
      }
    }
    Reported.clear();
    for (const CFGBlock *B : G)
      if (Reached[B->getBlockID()]) {
        ReadState S = In[B->getBlockID()];
        transfer(T, *B, S, /*Report=*/true);
      }
  }

private:
  static bool isCheckedMarkedLoad(const FunctionTrace &T, const Event &E) {
    if (E.Kind != EventKind::Load || !E.Api || E.Key < 0 || E.Counter)
      return false;
    if (E.Ord != Order::Once && E.Ord != Order::Acquire)
      return false;
    if (E.ApiName.starts_with("rcu_") || E.ApiName.starts_with("srcu_"))
      return false; // pointers: re-reads go through the checked pointer
    if (T.key(E.Key).isLocal())
      return false;
    return E.Use == ValueUse::Condition || E.Use == ValueUse::Compared ||
           E.Use == ValueUse::Other;
  }

  static bool hasMarkedCheckedLoad(const FunctionTrace &T) {
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events)
        if (isCheckedMarkedLoad(T, E))
          return true;
    return false;
  }

  /// The constant mask E's value is and-ed with (`x & MASK`, `MASK & x`,
  /// through casts such as le32_to_cpu()), if that is all its value is used
  /// for.
  std::optional<llvm::APSInt> bitMask(const FunctionTrace &T,
                                      const Event &E) const {
    if (E.Via || !E.S || !T.PM)
      return std::nullopt;
    const Stmt *Cur = E.S;
    const Stmt *P = T.PM->getParent(Cur);
    for (unsigned Depth = 0; P && Depth != 8; ++Depth) {
      if (!isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr>(P))
        break;
      Cur = P;
      P = T.PM->getParent(Cur);
    }
    const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
    if (!BO || BO->getOpcode() != BO_And)
      return std::nullopt;
    const Expr *Other = BO->getLHS() == Cur ? BO->getRHS() : BO->getLHS();
    if (Other->isValueDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (!Other->EvaluateAsInt(R, *Ctx->Ctx))
      return std::nullopt;
    return R.Val.getInt();
  }

  /// Are Checked and Reread used through constant masks with no bit in
  /// common? Then the re-read uses nothing that was checked.
  bool disjointBits(const FunctionTrace &T, const Event &Checked,
                    const Event &Reread) const {
    std::optional<llvm::APSInt> A = bitMask(T, Checked);
    if (!A)
      return false;
    std::optional<llvm::APSInt> B = bitMask(T, Reread);
    if (!B)
      return false;
    unsigned Width = std::max(A->getBitWidth(), B->getBitWidth());
    return (A->extOrTrunc(Width) & B->extOrTrunc(Width)).isZero();
  }

  void transfer(const FunctionTrace &T, const CFGBlock &B, ReadState &S, bool Report) {
    for (const Event &E : T.Blocks[B.getBlockID()].Events) {
      switch (E.Kind) {
      case EventKind::Load:
        if (isCheckedMarkedLoad(T, E)) {
          if (!S.Locks.any())
            S.Checks[E.Key] = &E;
          break;
        }
        if (E.Ord == Order::Plain && !E.Api && E.Key >= 0 && !S.Locks.any()) {
          auto It = S.Checks.find(E.Key);
          if (It != S.Checks.end() && Report &&
              !disjointBits(T, *It->second, E) &&
              Reported.insert(It->second).second)
            report(T, *It->second, E);
        }
        break;
      case EventKind::Store:
      case EventKind::RMW:
      case EventKind::CounterInc:
        if (E.Key >= 0)
          S.Checks.erase(E.Key);
        else
          S.Checks.clear();
        break;
      case EventKind::Lock:
        S.Locks.lock(E.Key);
        S.Checks.clear(); // checks made before the lock are over
        break;
      case EventKind::Unlock:
        S.Locks.unlock(E.Key);
        break;
      case EventKind::LocalDef:
        for (auto It = S.Checks.begin(); It != S.Checks.end();) {
          auto Cur = It++;
          if (T.key(Cur->first).Base == E.Var)
            S.Checks.erase(Cur);
        }
        break;
      case EventKind::WriteBegin:
      case EventKind::ReadBegin:
      case EventKind::ReadBeginOrLock:
        S.Checks.clear(); // from here the data is protected or validated
        break;
      default:
        break;
      }
    }
  }

  void report(const FunctionTrace &T, const Event &Checked, const Event &Reread) {
    std::string N = name(T, Reread.Key);
    Finding F = make(Reread.Loc,
                     "plain re-read of '" + N + "', which was read with " +
                         spelling(Checked) +
                         " and checked above: a concurrent writer can change it in "
                         "between, so this code can use a value that was never "
                         "checked; reuse the value read by " + spelling(Checked));
    F.Notes.push_back({Checked.Loc, "'" + N + "' is read and checked here"});
    emit(F);
  }

  llvm::DenseSet<const Event *> Reported;
};

} // namespace

std::unique_ptr<Check> createAccessPlainRereadCheck() {
  return std::make_unique<AccessPlainRereadCheck>();
}

} // namespace seqlint
