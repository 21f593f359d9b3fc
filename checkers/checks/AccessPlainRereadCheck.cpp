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
// The single writer of a location re-reads what it owns: a function that
// stores to the location itself (or through a helper it calls, seen
// through), claims it with no atomic read-modify-write, and is the only
// function of the TU that writes it, sees no other writer between its check
// and its re-read (Concurrency Kit's list macros: the mutator tests the head
// with ck_pr_load_ptr() and re-reads it plainly before ck_pr_store_ptr()).
// In an object the function allocated itself, functions that write only
// objects they allocated themselves do not count, and its own claims are
// fine (a thread's own ck_epoch record: ck_epoch_end() re-reads and stores
// record->active). Decided after the TU, when every writer is known.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "analyses/MessagePassing.h"
#include "core/AccessContext.h"
#include "core/AstQueries.h"
#include "core/Dataflow.h"
#include "core/Fresh.h"
#include "core/LockAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>

using namespace clang;

namespace seqlint {
namespace {

/// Checked loads by key. While a lock may be held (on some path: the
/// may-held part of the function's lock sets), plain accesses are protected
/// and marked loads do not start a check.
struct ReadState {
  llvm::DenseMap<int, const Event *> Checks; // key -> checked load
};

class AccessPlainRereadCheck : public Check {
public:
  AccessPlainRereadCheck() : Check("access-plain-reread") {}
  CheckScope scope() const override { return CheckScope::MarkedAccesses; }

  void functionDone(const FunctionTrace &T, Classifier &C) override {
    Model = &C.model();
    noteWriters(T);
    if (!hasMarkedCheckedLoad(T))
      return;
    const CFG &G = *T.Cfg;
    std::optional<FunctionAnalyses> Local;
    Held = &analysesOf(T, Local).locks();
    Flow F{*this, T, std::vector<unsigned>(G.getNumBlockIDs(), ~0u)};
    ForwardDataflow<ReadState, Flow> Solver(G, F);
    for (unsigned I = 0; I != Solver.order().size(); ++I)
      F.Rpo[Solver.order()[I]->getBlockID()] = I;
    Solver.solve(ReadState(), 50 * G.getNumBlockIDs() + 100, "reread", T.FD);
    Reported.clear();
    for (const CFGBlock *B : G)
      if (const ReadState *In = Solver.in(*B)) {
        ReadState S = *In;
        transfer(T, *B, S, /*Report=*/true);
      }
    Held = nullptr;
  }

  void translationUnitDone(Classifier &) override;

private:
  /// The dataflow policy (core/Dataflow.h). Checked loads flow along forward
  /// edges only: across a loop back edge (to a block not after its source in
  /// reverse post-order) a read in the next iteration is a fresh read, not a
  /// re-read of the value checked in this one. Where checked loads of one key meet, the one
  /// first in the source stands for them (the one checked on the then-branch
  /// of an if/else), whatever order the blocks are visited in.
  struct Flow {
    AccessPlainRereadCheck &Owner;
    const FunctionTrace &T;
    std::vector<unsigned> Rpo; // block ID -> reverse post-order number

    void transfer(const CFGBlock &B, ReadState &S) {
      Owner.transfer(T, B, S, /*Report=*/false);
    }
    void enter(ReadState &Into, const ReadState &Out, const CFGBlock &From,
               unsigned SuccIndex) {
      Into = ReadState();
      join(Into, Out, From, SuccIndex);
    }
    bool join(ReadState &Into, const ReadState &Out, const CFGBlock &From,
              unsigned SuccIndex) {
      bool Changed = false;
      const CFGBlock *Succ = From.succ_begin()[SuccIndex].getReachableBlock();
      if (Rpo[Succ->getBlockID()] > Rpo[From.getBlockID()])
        for (const auto &[K, E] : Out.Checks) {
          auto [It, New] = Into.Checks.try_emplace(K, E);
          if (!New && It->second != E &&
              Owner.Ctx->Ctx->getSourceManager().isBeforeInTranslationUnit(
                  E->Loc, It->second->Loc)) {
            It->second = E;
            New = true;
          }
          Changed |= New;
        }
      return Changed;
    }
  };

  static bool isCheckedMarkedLoad(const FunctionTrace &T, const Event &E) {
    if (E.Kind != EventKind::Load || !E.Api || E.Key < 0 || E.Counter)
      return false;
    if (E.Ord != Order::Once && E.Ord != Order::Acquire)
      return false;
    if (isRcuAccessorName(E.ApiName))
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
          if (!Held->mayHold(E))
            S.Checks[E.Key] = &E;
          break;
        }
        if (E.Ord == Order::Plain && !E.Api && E.Key >= 0 && !Held->mayHold(E)) {
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
        S.Checks.clear(); // checks made before the lock are over
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

  /// Is E an atomic read-modify-write (a compare-and-swap, an exchange, a
  /// fetch-and-op): a claim, the sign of writers that race?
  static bool isClaim(const Event &E) {
    return E.Kind == EventKind::RMW && (E.Api || E.Ord != Order::Plain);
  }

  /// Is K in an object T's function allocated itself (a local pointer to
  /// fresh memory)? Other functions reach it only through what it publishes.
  bool ownObject(const FunctionTrace &T, const LocationKey &K) {
    if (!K.ViaPointer || !K.Base || K.Storage != LocationKey::Local)
      return false;
    if (FreshOf != T.FD) {
      FreshFinder Finder(&FreshHelpers, 0, Model);
      Finder.TraverseStmt(const_cast<Stmt *>(T.FD->getBody()));
      Fresh = std::move(Finder.Fresh);
      FreshOf = T.FD;
    }
    return Fresh.count(K.Base) > 0;
  }

  /// Who writes what, TU-wide: the functions whose traces store to or
  /// read-modify-write each field or global (a helper's stores seen through
  /// count for the caller too), whether only to objects they allocated
  /// themselves, and whether they claim it (isClaim) on other objects.
  void noteWriters(const FunctionTrace &T) {
    const FunctionDecl *FD = T.FD->getCanonicalDecl();
    Traced.insert(FD);
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events) {
        if (E.Kind != EventKind::Store && E.Kind != EventKind::RMW &&
            E.Kind != EventKind::CounterInc)
          continue;
        if (E.Key < 0)
          continue;
        const LocationKey &K = T.key(E.Key);
        const ValueDecl *Id = MpCollector::identity(K);
        if (!Id)
          continue;
        WriterInfo &W = Writers[Id][FD];
        if (ownObject(T, K))
          continue;
        W.Shared = true;
        W.Claims |= isClaim(E);
      }
  }

  /// Does T write Key itself (a store, also in a helper seen through),
  /// claiming it (isClaim) only if AllowClaims?
  static bool writesKey(const FunctionTrace &T, int Key, bool AllowClaims) {
    bool Stores = false;
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events) {
        if (E.Key != Key)
          continue;
        if (isClaim(E) && !AllowClaims)
          return false;
        if (E.Kind == EventKind::Store || E.Kind == EventKind::RMW)
          Stores = true;
      }
    return Stores;
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
    // The function writes the location itself: if it is the only writer
    // in the TU, nothing changes it in between. Known after the TU.
    const ValueDecl *Id = MpCollector::identity(T.key(Reread.Key));
    bool Mine = ownObject(T, T.key(Reread.Key));
    if (Id && writesKey(T, Reread.Key, /*AllowClaims=*/Mine)) {
      Pending P{std::move(F), Id, Mine, {T.FD->getCanonicalDecl()}};
      addCallees(T.FD->getBody(), P.Own, 0);
      Deferred.push_back(std::move(P));
      return;
    }
    emit(F);
  }

  /// The functions S calls, directly or through them (three calls deep):
  /// what they write, they write for the caller.
  static void addCallees(const Stmt *S,
                         llvm::SmallPtrSetImpl<const FunctionDecl *> &Out,
                         unsigned Depth) {
    if (!S)
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = calleeOf(CE)) {
        const FunctionDecl *Def = nullptr;
        if (F->hasBody(Def) && Out.insert(Def->getCanonicalDecl()).second &&
            Depth < 3)
          addCallees(Def->getBody(), Out, Depth + 1);
      }
    for (const Stmt *C : S->children())
      addCallees(C, Out, Depth);
  }

  /// A re-read by a function that writes the location, decided after the TU.
  struct Pending {
    Finding F;
    const ValueDecl *Id;
    bool Mine; // the location is in an object the function allocated
    llvm::SmallPtrSet<const FunctionDecl *, 4> Own; // it and what it calls
  };
  /// How one function writes one field or global.
  struct WriterInfo {
    bool Shared = false; // also in objects it did not allocate itself
    bool Claims = false; // claims it there (isClaim)
  };
  /// Is P's function the only writer of its location? Every writer is it or
  /// something it calls (with no claim, unless the object is its own), or,
  /// for an object the function allocated, a function that writes only the
  /// objects it allocated itself (another thread's own record).
  bool singleWriter(const Pending &P) {
    for (const auto &[FD, W] : Writers[P.Id]) {
      if (P.Own.count(FD)) {
        if (W.Claims && !P.Mine)
          return false;
      } else if (!P.Mine || W.Shared) {
        return false;
      }
    }
    return true;
  }
  std::vector<Pending> Deferred;
  llvm::DenseMap<const ValueDecl *,
                 llvm::SmallDenseMap<const FunctionDecl *, WriterInfo, 2>>
      Writers;
  llvm::DenseSet<const FunctionDecl *> Traced;
  FreshFinder::Memo FreshHelpers;
  const ApiModel *Model = nullptr; // the APIs in force (allocators)
  /// The lock sets of the function being analysed (functionDone()).
  const LockSets *Held = nullptr;
  const FunctionDecl *FreshOf = nullptr; // whose fresh locals Fresh holds
  llvm::DenseSet<const VarDecl *> Fresh;
  void forgetUnit() {
    Writers.clear();
    Traced.clear();
    FreshHelpers.clear();
    FreshOf = nullptr;
    Fresh.clear();
  }
  llvm::DenseSet<const Event *> Reported;
};

/// Plain writes of some locations in the functions that have no trace.
class UntracedWriters : public RecursiveASTVisitor<UntracedWriters> {
public:
  UntracedWriters(const llvm::DenseSet<const FunctionDecl *> &Traced,
                  const llvm::DenseSet<const ValueDecl *> &Wanted)
      : Traced(Traced), Wanted(Wanted) {}
  llvm::DenseMap<const ValueDecl *, llvm::SmallPtrSet<const FunctionDecl *, 2>>
      Found;

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() ||
        Traced.count(FD->getCanonicalDecl()))
      return true;
    Cur = FD->getCanonicalDecl();
    TraverseStmt(FD->getBody());
    Cur = nullptr;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      note(U->getSubExpr());
    return true;
  }

private:
  void note(const Expr *LHS) {
    if (!Cur)
      return;
    if (const ValueDecl *Id = lvalueIdentity(LHS); Id && Wanted.count(Id))
      Found[Id].insert(Cur);
  }
  const llvm::DenseSet<const FunctionDecl *> &Traced;
  const llvm::DenseSet<const ValueDecl *> &Wanted;
  const FunctionDecl *Cur = nullptr;
};

void AccessPlainRereadCheck::translationUnitDone(Classifier &) {
  std::vector<Pending> Now = std::move(Deferred);
  Deferred.clear();
  if (Now.empty()) {
    forgetUnit();
    return;
  }
  llvm::DenseSet<const ValueDecl *> Wanted;
  for (const Pending &P : Now)
    Wanted.insert(P.Id);
  UntracedWriters W(Traced, Wanted);
  W.TraverseDecl(Ctx->Ctx->getTranslationUnitDecl());
  for (auto &[Id, Fns] : W.Found)
    for (const FunctionDecl *FD : Fns)
      Writers[Id][FD].Shared = true; // not looked at closely: any object
  for (Pending &P : Now)
    if (!singleWriter(P))
      emit(std::move(P.F));
  forgetUnit();
}

} // namespace

std::unique_ptr<Check> createAccessPlainRereadCheck() {
  return std::make_unique<AccessPlainRereadCheck>();
}

} // namespace seqlint
