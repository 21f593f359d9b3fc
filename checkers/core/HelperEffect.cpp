//===- HelperEffect.cpp - what a helper does on every path ------------------===//
//
// A helper's effect on sections, locks and ordering: the events that run
// on every path through it, in its own terms, when it has something
// seqlint knows and no complete section of its own (HelperSplice.cpp puts
// them in at each call).
//
//===----------------------------------------------------------------------===//
#include "core/Classifier.h"
#include "core/FunctionClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

using detail::isClearLowBitMask;

namespace {
/// The returns of a helper and the locals it compares with its parameters.
struct ReturnScan {
  const VarDecl *Var = nullptr;
  bool Masked = false;
  bool Ambiguous = false;
  DenseMap<const VarDecl *, const ParmVarDecl *> ComparedWithParam;
  DenseSet<const VarDecl *> ComparedEqual;
  bool AnyEqualWithParam = false;
  ASTContext &Ctx;
  explicit ReturnScan(ASTContext &Ctx) : Ctx(Ctx) {}

  static const VarDecl *localOf(const Expr *E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        if (V->hasLocalStorage() && !isa<ParmVarDecl>(V))
          return V;
    return nullptr;
  }
  static const ParmVarDecl *paramOf(const Expr *E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
      return dyn_cast<ParmVarDecl>(DR->getDecl());
    return nullptr;
  }
  void walk(const Stmt *S, unsigned Depth) {
    if (!S || Depth > 200)
      return;
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      if (const Expr *R = RS->getRetValue()) {
        const Expr *X = R->IgnoreParenCasts();
        bool M = false;
        if (const auto *BO = dyn_cast<BinaryOperator>(X); BO && BO->getOpcode() == BO_And) {
          if (isClearLowBitMask(BO->getRHS(), Ctx)) {
            X = BO->getLHS();
            M = true;
          } else if (isClearLowBitMask(BO->getLHS(), Ctx)) {
            X = BO->getRHS();
            M = true;
          }
        }
        if (const VarDecl *V = localOf(X)) {
          if (Var && Var != V)
            Ambiguous = true;
          Var = V;
          Masked |= M;
        }
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) {
        bool Eq = BO->getOpcode() == BO_EQ;
        for (int Side = 0; Side < 2; ++Side) {
          const Expr *A = Side ? BO->getRHS() : BO->getLHS();
          const Expr *Other = Side ? BO->getLHS() : BO->getRHS();
          const ParmVarDecl *P = paramOf(Other);
          if (!P)
            continue;
          if (const VarDecl *V = localOf(A)) {
            ComparedWithParam[V] = P;
            if (Eq)
              ComparedEqual.insert(V);
          } else if (Eq) {
            AnyEqualWithParam = true; // load == start
          }
        }
      }
    for (const Stmt *C : S->children())
      walk(C, Depth + 1);
  }
};
/// A helper's effect, built from its trace: the events on every path (the
/// blocks that dominate the exit), unless they make a section or critical
/// section of their own, and what its return value is.
class EffectBuilder {
public:
  EffectBuilder(const FunctionDecl *FD, const FunctionTrace &T, HelperEffect &H,
                ASTContext &Ctx)
      : FD(FD), T(T), H(H), RS(Ctx) {}
  /// Fills H; false when FD cannot be seen through.
  bool build();

private:
  struct Count {
    unsigned WB = 0, WE = 0, RB = 0, RR = 0, Inc = 0, Lock = 0, Unlock = 0;
  };
  struct Verdict {
    bool Relevant = false, Keep = true, IsAccess = false;
  };
  bool take(const Event &E, bool Every);
  bool judge(const Event &E, Verdict &V);
  void judgeLoad(const Event &E, Verdict &V) const;
  void count(const Event &E, bool Relevant);
  bool copy(const Event &E);
  bool complete() const;
  void noteReturn();

  const FunctionDecl *FD;
  const FunctionTrace &T;
  HelperEffect &H;
  ReturnScan RS;
  const VarDecl *RetVar = nullptr;
  DenseMap<int, Count> Counts;
  unsigned ExclBegin = 0, ExclEnd = 0;
  bool AnyRelevant = false, Accessor = false, PartialAccess = false, SideEffects = false;
};

bool EffectBuilder::build() {
  const CFG &G = *T.Cfg;
  CFGDomTree DT;
  DT.buildDominatorTree(const_cast<CFG *>(&G));
  // The paths that return to the caller: a block that ends in a noreturn
  // call (BUG() in BUG_ON()) reaches the exit in the CFG, but the caller
  // never sees what follows it, so it does not make an event partial.
  SmallVector<const CFGBlock *, 4> Returning;
  for (const CFGBlock *P : G.getExit().preds())
    if (P && !P->hasNoReturnElement() &&
        DT.getBase().getNode(const_cast<CFGBlock *>(P)))
      Returning.push_back(P);
  if (Returning.empty())
    return false; // never returns
  RS.walk(FD->getBody(), 0);
  RetVar = RS.Ambiguous ? nullptr : RS.Var;
  for (const CFGBlock *B : reversePostOrder(G)) {
    bool Every = llvm::all_of(Returning, [&](const CFGBlock *P) {
      return DT.dominates(B, P);
    });
    for (const Event &E : T.Blocks[B->getBlockID()].Events)
      if (!take(E, Every))
        return false;
  }
  if (complete())
    return false;
  // An accessor (marked loads and stores only) is seen through when all
  // of them run on every path.
  bool Wrapper = SideEffects && !PartialAccess && H.Events.size() <= 4;
  if (!AnyRelevant && !Wrapper && (!Accessor || PartialAccess))
    return false;
  H.GetterOnly = !AnyRelevant;
  noteReturn();
  for (const ParmVarDecl *P : FD->parameters()) {
    if (T.OddCheckedVars.count(P))
      H.OddCheckedParams.push_back(P);
    if (T.ValueTestedVars.count(P))
      H.ValueTestedParams.push_back(P);
  }
  H.ComparedWithParam = RS.ComparedWithParam;
  H.ComparedEqual = RS.ComparedEqual;
  H.LoadComparedEqual = RS.AnyEqualWithParam;
  return true;
}

/// E, an event of the helper (on every path through it when Every): into
/// the effect, or left out. False when the helper cannot be seen through.
bool EffectBuilder::take(const Event &E, bool Every) {
  Verdict V;
  if (!judge(E, V))
    return false;
  if (!V.Keep)
    return true;
  if (!Every) {
    if (V.Relevant)
      return false; // on some paths only: cannot be one event list
    PartialAccess |= V.IsAccess || (E.Kind == EventKind::Call && E.SideEffect);
    return true;
  }
  Accessor |= V.IsAccess;
  AnyRelevant |= V.Relevant;
  count(E, V.Relevant);
  return copy(E);
}

/// Whether E is something seqlint knows (Relevant), a marked access a
/// getter or setter leaves to its caller (IsAccess), or no part of an
/// effect (!Keep). False: the helper is no one event list (a trylock).
bool EffectBuilder::judge(const Event &E, Verdict &V) {
  bool Local = E.Key >= 0 && T.key(E.Key).isLocal();
  switch (E.Kind) {
  case EventKind::Return:
  case EventKind::LocalDef:
  case EventKind::LocalUpdate:
    V.Keep = false;
    break;
  case EventKind::Call:
    // A wrapper of a side effect (a logging or freeing helper) is seen
    // through when it is tiny; a bigger function that frees or logs
    // somewhere (dput()) is judged by its summary, as before.
    if (E.SideEffect)
      SideEffects = true;
    break;
  case EventKind::Barrier:
    // A compiler barrier counts too: a CPU-local count's writer brackets
    // its section with barrier(), and a helper may hold it.
    V.Relevant = E.Bits != 0 || E.Api;
    break;
  case EventKind::WriteBegin:
  case EventKind::WriteEnd:
  case EventKind::ReadBegin:
  case EventKind::ReadRetry:
  case EventKind::ReadBeginOrLock:
  case EventKind::ReadDone:
  case EventKind::CounterInc:
  case EventKind::Unlock:
  case EventKind::Exclude:
    V.Relevant = true;
    break;
  case EventKind::Lock:
    // A trylock holds the lock on one outcome only: not one event list.
    if (StringRef(E.ApiName).contains_insensitive("trylock"))
      return false;
    V.Relevant = true;
    break;
  case EventKind::Store:
  case EventKind::RMW:
    V.Relevant = (E.Increment || E.IncParam) && E.Key >= 0 && !Local;
    // A setter (WRITE_ONCE(*p, v)): its store is the caller's.
    V.IsAccess = !V.Relevant && !Local && E.Ord != Order::Plain;
    break;
  case EventKind::Load:
    if (Local || E.Key < 0) {
      V.Keep = false;
      break;
    }
    judgeLoad(E, V);
    break;
  }
  return true;
}

/// A load of shared memory: a begin or retry helper's, or a getter's.
void EffectBuilder::judgeLoad(const Event &E, Verdict &V) const {
  bool Returned = E.Use == ValueUse::Returned ||
                  (E.Use == ValueUse::Assigned && E.Var && E.Var == RetVar);
  // Compared with an integer parameter: a begin value (not a list
  // head compared with its own address, list_empty()).
  auto IntParam = [](const VarDecl *P) {
    return isa_and_nonnull<ParmVarDecl>(P) && P->getType()->isIntegerType();
  };
  bool Validates =
      (E.Use == ValueUse::Compared && IntParam(E.Var)) ||
      (E.Use == ValueUse::Assigned && E.Var && RS.ComparedWithParam.count(E.Var) &&
       IntParam(RS.ComparedWithParam.lookup(E.Var)));
  // A begin helper returns a count it tested or masked; a retry
  // helper compares with its argument. An acquire getter counts too:
  // a reader that validates its value later makes it a begin (one
  // that forgot the odd test).
  V.Relevant = Validates ||
               (Returned && (E.Masked || RS.Masked || T.OddCheckedVars.count(E.Var) ||
                             T.OddCheckedKeys.count(E.Key) || E.Ord == Order::Acquire));
  // A getter (return READ_ONCE(*p)): its load is the caller's. A
  // getter returns its marked load; a helper that tests one and
  // answers something else (list_empty(): READ_ONCE(head->next) ==
  // head) stays a call.
  V.IsAccess = !V.Relevant && E.Ord != Order::Plain && Returned;
}

/// Counts E's part in a section or critical section of E.Key.
void EffectBuilder::count(const Event &E, bool Relevant) {
  Count &N = Counts[E.Key];
  switch (E.Kind) {
  case EventKind::WriteBegin: ++N.WB; break;
  case EventKind::WriteEnd: ++N.WE; break;
  case EventKind::ReadBegin:
  case EventKind::ReadBeginOrLock: ++N.RB; break;
  case EventKind::ReadRetry: ++N.RR; break;
  case EventKind::CounterInc: ++N.Inc; break;
  case EventKind::Store:
  case EventKind::RMW:
    if (Relevant)
      ++N.Inc;
    break;
  case EventKind::Lock: ++N.Lock; break;
  case EventKind::Unlock: ++N.Unlock; break;
  case EventKind::Exclude:
    ++(E.ExcludeEnds ? ExclEnd : ExclBegin);
    break;
  default:
    break;
  }
}

/// E into the effect, its key re-numbered into the effect's own table.
/// False when the effect grows too long to be one event list.
bool EffectBuilder::copy(const Event &E) {
  int K = E.Key;
  Event Copy = E;
  if (K >= 0) {
    auto It = llvm::find_if(H.Keys, [&](const LocationKey &X) {
      return X.Text == T.key(K).Text;
    });
    Copy.Key = It - H.Keys.begin();
    if (It == H.Keys.end())
      H.Keys.push_back(T.key(K));
    if (T.OddCheckedKeys.count(K))
      H.OddCheckedKeys.insert(Copy.Key);
  }
  H.Events.push_back(Copy);
  return H.Events.size() <= 48;
}

/// A helper that opens and closes its own section (or critical section)
/// is complete: its callers see a call.
bool EffectBuilder::complete() const {
  for (auto &[K, N] : Counts)
    if ((N.WB && N.WE) || (N.RB && N.RR) || N.Inc >= 2 || (N.Lock && N.Unlock && K >= 0))
      return true;
  return ExclBegin && ExclEnd;
}

/// What the helper returns: which local, masked or tested, a parity step,
/// a sequence begin ordered before what follows.
void EffectBuilder::noteReturn() {
  H.ReturnVar = RetVar;
  if (RetVar) {
    auto P = T.ParityStepOf.find(RetVar);
    if (P != T.ParityStepOf.end()) {
      const std::string &Text = T.key(P->second).Text;
      auto It = llvm::find_if(H.Keys, [&](const LocationKey &X) { return X.Text == Text; });
      if (It != H.Keys.end())
        H.ReturnParityKey = It - H.Keys.begin();
    }
  }
  H.ReturnMasked = RS.Masked;
  H.ReturnOddChecked = RetVar && T.OddCheckedVars.count(RetVar);
  bool SawBegin = false;
  for (const Event &E : H.Events) {
    bool Returned = E.Use == ValueUse::Returned ||
                    (E.Use == ValueUse::Assigned && E.Var && E.Var == RetVar);
    if (E.Kind == EventKind::Load && Returned) {
      // The low bit is what makes it a sequence (an acquire alone is a
      // message-passing getter: inet_sk_state_load(), mnt_idmap()).
      bool Seq = E.Masked || RS.Masked || (RetVar && T.OddCheckedVars.count(RetVar)) ||
                 H.OddCheckedKeys.count(E.Key);
      SawBegin = Seq;
      if (Seq && E.Ord >= Order::Acquire && E.Ord != Order::Release)
        H.BeginHelper = true;
    } else if (SawBegin && E.Kind == EventKind::Barrier && (E.Bits & OrdLL)) {
      H.BeginHelper = true;
    }
  }
}

} // namespace

const HelperEffect *Classifier::helperEffect(const FunctionDecl *FD, bool Getters) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return nullptr;
  FD = Def;
  if (FD->getIdentifier() && Model.lookup(FD->getName()))
    return nullptr; // an API: the model says what it does
  std::unique_ptr<HelperEffect> &Slot = Helpers[FD];
  if (!Slot)
    Slot = std::make_unique<HelperEffect>();
  HelperEffect *H = Slot.get(); // stable across the recursion below
  if (H->Done)
    return H->Usable && (Getters || !H->GetterOnly) ? H : nullptr;
  if (!HelperFilter)
    return nullptr;
  if (H->Computing || HelperDepth >= 3) {
    ++Refusals;
    return nullptr;
  }
  H->Computing = true;
  ++HelperDepth;
  if (H->Level < 0)
    H->Level = HelperFilter(FD);
  // A function with marked accesses only is looked into from a function
  // being analysed (is it a getter?), not to decide whether to analyse one.
  if (H->Level == 1 && !Getters) {
    --HelperDepth;
    H->Computing = false;
    return nullptr;
  }
  std::shared_ptr<const FunctionTrace> T;
  if (H->Level > 0)
    T = classify(FD);
  --HelperDepth;
  H->Computing = false;
  H->Done = true;
  if (!T)
    return nullptr;

  EffectBuilder Builder(FD, *T, *H, Ctx);
  if (!Builder.build())
    return nullptr;
  H->Usable = true;
  return Getters || !H->GetterOnly ? H : nullptr;
}

} // namespace seqlint
