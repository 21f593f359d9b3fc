//===- LockAnalysis.cpp ---------------------------------------------------===//
#include "core/LockAnalysis.h"
#include "core/Dataflow.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/Type.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace seqlint {

const char *lockKindName(LockKind K) {
  switch (K) {
  case LockKind::Unknown: return "lock";
  case LockKind::Spin: return "spinlock_t";
  case LockKind::RawSpin: return "raw_spinlock_t";
  case LockKind::Mutex: return "mutex";
  case LockKind::RwLock: return "rwlock_t";
  case LockKind::RwSem: return "rw_semaphore";
  case LockKind::Seqlock: return "seqlock_t";
  case LockKind::Pthread: return "pthread lock";
  case LockKind::Other: return "lock";
  }
  return "lock";
}

LockKind lockKindOfType(QualType Ty) {
  if (Ty.isNull())
    return LockKind::Unknown;
  // Walk the typedef chain (spinlock_t -> struct spinlock): any name counts.
  for (unsigned Depth = 0; Depth < 8 && !Ty.isNull(); ++Depth) {
    StringRef Name;
    if (const auto *TT = Ty->getAs<TypedefType>())
      Name = TT->getDecl()->getName();
    else if (const auto *RT = Ty->getAs<RecordType>())
      Name = RT->getDecl()->getName();
    if (LockKind K = lockKindOfTypeName(Name); K != LockKind::Unknown)
      return K;
    const auto *TT = Ty->getAs<TypedefType>();
    if (!TT)
      break;
    Ty = TT->getDecl()->getUnderlyingType();
  }
  return LockKind::Unknown;
}

namespace {

/// The name of the API or callee that takes/releases the lock.
StringRef lockApiName(const Event &E) {
  if (!E.ApiName.empty())
    return E.ApiName;
  if (E.Callee && E.Callee->getIdentifier())
    return E.Callee->getName();
  return StringRef();
}


const Expr *stripCond(const Expr *E, bool &Negated) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot) {
      Negated = !Negated;
      E = U->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *F = CE->getDirectCallee())
        if (F->getBuiltinID() == Builtin::BI__builtin_expect && CE->getNumArgs() > 0) {
          E = CE->getArg(0);
          continue;
        }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      auto IsZero = [](const Expr *X) {
        const auto *IL = dyn_cast<IntegerLiteral>(X);
        return IL && IL->getValue() == 0;
      };
      const Expr *Other = IsZero(R) ? L : IsZero(L) ? R : nullptr;
      if (!Other)
        return E;
      if (BO->getOpcode() == BO_EQ)
        Negated = !Negated;
      E = Other;
      continue;
    }
    return E;
  }
  return E;
}

/// The lattice: the locks every path holds, and the locks some path holds.
struct LockState {
  LockSet Must;
  MayLockSet May;
};

class LockDataflow {
public:
  LockDataflow(const FunctionTrace &T, LockSets &R)
      : T(T), R(R), SM(T.FD->getASTContext().getSourceManager()) {}
  void run();

  // The dataflow policy (core/Dataflow.h). A trylock's lock flows along
  // one edge of the branch that tests it.
  void transfer(const CFGBlock &B, LockState &S) {
    Branch = transfer(B, S, /*Record=*/false);
  }
  void enter(LockState &Into, const LockState &Out, const CFGBlock &, unsigned I) {
    Into = Out;
    if (takenAlong(I)) {
      add(Into.Must, Branch.H);
      Into.May.lock(Branch.Key);
    }
  }
  bool join(LockState &Into, const LockState &Out, const CFGBlock &, unsigned I) {
    if (!takenAlong(I))
      return meet(Into.Must, Out.Must) | Into.May.join(Out.May);
    LockState Taken = Out;
    add(Taken.Must, Branch.H);
    Taken.May.lock(Branch.Key);
    return meet(Into.Must, Taken.Must) | Into.May.join(Taken.May);
  }

private:
  /// The trylock a block's branch tests: its lock, taken along one edge.
  struct Pending {
    HeldLock H;
    int Key = -1;       // its LocationKey, for the may-held set
    bool OnTrue = true; // held on the true successor only
    bool Valid = false;
  };
  /// Successor I of the block transfer() last went through takes the lock
  /// of the trylock its branch tests.
  bool takenAlong(unsigned I) const { return Branch.Valid && (I == 0) == Branch.OnTrue; }
  unsigned lockFor(const Event &E, StringRef Api);
  /// Applies the events of block B to S; records sets when Record.
  Pending transfer(const CFGBlock &B, LockState &S, bool Record);
  static void add(LockSet &S, const HeldLock &H);
  static bool meet(LockSet &Into, const LockSet &From); // intersection
  unsigned intern(const LockSet &S);
  unsigned intern(const MayLockSet &S);

  const FunctionTrace &T;
  LockSets &R;
  const SourceManager &SM;
  DenseMap<int, unsigned> ByKey; // LocationKey -> lock index
  int Unnamed = -1;
  Pending Branch; // of the block transfer() last went through
};

unsigned LockDataflow::lockFor(const Event &E, StringRef Api) {
  if (E.Key < 0) {
    R.HasUnnamedLock = true;
    if (Unnamed < 0) {
      Unnamed = R.Locks.size();
      LockDesc D;
      D.Name = "<unknown lock>";
      D.Kind = lockKindOfName(Api);
      R.Locks.push_back(D);
    }
    return Unnamed;
  }
  auto It = ByKey.find(E.Key);
  if (It != ByKey.end())
    return It->second;
  const LocationKey &K = T.key(E.Key);
  LockDesc D;
  D.Key = E.Key;
  D.Decl = K.Field ? K.Field : K.Base;
  D.Name = K.displayName();
  D.Kind = lockKindOfType(accessedTypeOf(K));
  if (D.Kind == LockKind::Unknown)
    D.Kind = lockKindOfName(Api);
  D.Global = !K.ViaPointer && K.Storage == LocationKey::Global;
  unsigned Idx = R.Locks.size();
  R.Locks.push_back(D);
  ByKey[E.Key] = Idx;
  return Idx;
}

void LockDataflow::add(LockSet &S, const HeldLock &H) {
  auto It = std::lower_bound(S.begin(), S.end(), H.Lock,
                             [](const HeldLock &A, unsigned L) { return A.Lock < L; });
  if (It != S.end() && It->Lock == H.Lock) {
    // Taken again (or asserted after taking it): the strongest mode wins.
    It->Shared = It->Shared && H.Shared;
    It->Asserted = It->Asserted && H.Asserted;
    return;
  }
  S.insert(It, H);
}

bool LockDataflow::meet(LockSet &Into, const LockSet &From) {
  bool Changed = false;
  LockSet Out;
  for (const HeldLock &H : Into) {
    auto It = std::find_if(From.begin(), From.end(),
                           [&](const HeldLock &X) { return X.Lock == H.Lock; });
    if (It == From.end()) {
      Changed = true;
      continue;
    }
    HeldLock M = H;
    if (It->Shared && !M.Shared) {
      M.Shared = true;
      Changed = true;
    }
    if (!It->Asserted && M.Asserted) {
      M.Asserted = false;
      Changed = true;
    }
    Out.push_back(M);
  }
  Into = std::move(Out);
  return Changed;
}

unsigned LockDataflow::intern(const LockSet &S) {
  auto Same = [](const LockSet &A, const LockSet &B) {
    if (A.size() != B.size())
      return false;
    for (unsigned I = 0; I != A.size(); ++I)
      if (A[I].Lock != B[I].Lock || A[I].Shared != B[I].Shared ||
          A[I].Asserted != B[I].Asserted || A[I].Scoped != B[I].Scoped ||
          A[I].ScopeEnd != B[I].ScopeEnd)
        return false;
    return true;
  };
  // Few distinct sets per function: a linear search is fine.
  for (unsigned I = 0; I != R.Pool.size(); ++I)
    if (Same(R.Pool[I], S))
      return I;
  R.Pool.push_back(S);
  return R.Pool.size() - 1;
}

unsigned LockDataflow::intern(const MayLockSet &S) {
  for (unsigned I = 0; I != R.MayPool.size(); ++I)
    if (R.MayPool[I] == S)
      return I;
  R.MayPool.push_back(S);
  return R.MayPool.size() - 1;
}

LockDataflow::Pending LockDataflow::transfer(const CFGBlock &B, LockState &State,
                                             bool Record) {
  Pending P;
  LockSet &S = State.Must;
  for (const Event &E : T.Blocks[B.getBlockID()].Events) {
    // A guard is released when control leaves its scope.
    State.May.leaveScopes(SM, E.Loc);
    if (E.Loc.isValid())
      S.erase(std::remove_if(S.begin(), S.end(),
                             [&](const HeldLock &H) {
                               return H.Scoped &&
                                      leftScope(SM,
                                                {H.ScopeBegin, H.ScopeEnd},
                                                E.Loc);
                             }),
              S.end());
    if (Record) {
      R.MayEventSet[&E] = intern(State.May);
      R.EventSet[&E] = intern(S);
    }
    // A trylock that the block's branch tests is taken along one edge.
    bool OnTrue = true;
    bool Tested = trylockTestedBy(E, B, OnTrue);
    SourceRange Scope = isLockAcquire(E) ? guardScope(T, E) : SourceRange();
    // The may-held part: lock events only (not write_seqlock()).
    if (E.Kind == EventKind::Lock && !Tested)
      State.May.lock(E.Key, Scope);
    else if (E.Kind == EventKind::Unlock)
      State.May.unlock(E.Key);
    if (isLockAcquire(E)) {
      StringRef Api = lockApiName(E);
      HeldLock H;
      H.Lock = lockFor(E, Api);
      H.Shared = lockIsShared(Api) || (E.Api && E.Api->SharedLock);
      H.Asserted = lockIsAssertion(Api);
      H.Scoped = lockIsScoped(Api);
      H.Loc = E.Loc;
      if (H.Scoped) {
        H.ScopeBegin = Scope.getBegin();
        H.ScopeEnd = Scope.getEnd();
      }
      if (Tested) {
        P.H = H;
        P.Key = E.Key;
        P.OnTrue = OnTrue;
        P.Valid = true;
        continue;
      }
      add(S, H);
      continue;
    }
    if (isLockRelease(E)) {
      auto It = E.Key >= 0 ? ByKey.find(E.Key) : ByKey.end();
      if (It != ByKey.end()) {
        unsigned L = It->second;
        S.erase(std::remove_if(S.begin(), S.end(),
                               [&](const HeldLock &H) { return H.Lock == L; }),
                S.end());
      } else if (E.Key < 0) {
        R.HasUnnamedLock = true;
      }
      // A lock released under another spelling than it was taken stays
      // held: over-approximating the held set keeps lock-needing checks
      // silent rather than wrong.
    }
  }
  return P;
}

void LockDataflow::run() {
  const CFG &G = *T.Cfg;
  unsigned N = G.getNumBlockIDs();
  // Must-held sets only shrink and may-held sets only grow (over the
  // function's lock keys), so this terminates; the budget is a safety net.
  ForwardDataflow<LockState, LockDataflow> Flow(G, *this);
  Flow.solve(LockState(), (2 * N + 4) * N, "locks", T.FD);
  R.BlockSet.assign(N, -1);
  for (const CFGBlock *B : Flow.order()) {
    const LockState *In = Flow.in(*B);
    if (!In)
      continue;
    R.BlockSet[B->getBlockID()] = intern(In->Must);
    LockState S = *In;
    transfer(*B, S, /*Record=*/true);
  }
}

} // namespace

bool isLockAcquire(const Event &E) {
  if (E.Kind == EventKind::Lock)
    return true;
  return E.Kind == EventKind::WriteBegin && isSeqlockWriteLock(E.ApiName);
}

bool trylockTestedBy(const Event &E, const CFGBlock &B, bool &HeldOnTrue) {
  if (!isLockAcquire(E) || !E.S)
    return false;
  StringRef Api = lockApiName(E);
  if (!lockIsTry(Api) && !(E.Api && E.Api->TryLock))
    return false;
  const Stmt *Term = B.getTerminatorStmt();
  if (!Term || !(isa<IfStmt>(Term) || isa<WhileStmt>(Term) ||
                 isa<DoStmt>(Term) || isa<ForStmt>(Term)))
    return false;
  const auto *Cond = dyn_cast_or_null<Expr>(B.getTerminatorCondition());
  bool Negated = false;
  const Expr *C = Cond ? stripCond(Cond, Negated) : nullptr;
  const auto *ES = dyn_cast<Expr>(E.S);
  if (!C || !ES || C->IgnoreParenImpCasts() != ES->IgnoreParenImpCasts())
    return false;
  // pthread_*_trylock() returns 0 on success.
  HeldOnTrue = Negated == tryLockZeroIsSuccess(Api);
  return true;
}

bool isLockRelease(const Event &E) {
  if (E.Kind == EventKind::Unlock)
    return true;
  return E.Kind == EventKind::WriteEnd && isSeqlockWriteUnlock(E.ApiName);
}

const LockSet *LockSets::before(const Event &E) const {
  auto It = EventSet.find(&E);
  return It == EventSet.end() ? nullptr : &Pool[It->second];
}

const MayLockSet *LockSets::mayBefore(const Event &E) const {
  auto It = MayEventSet.find(&E);
  return It == MayEventSet.end() ? nullptr : &MayPool[It->second];
}

const LockSet *LockSets::atBlockEntry(unsigned BlockID) const {
  if (BlockID >= BlockSet.size() || BlockSet[BlockID] < 0)
    return nullptr;
  return &Pool[BlockSet[BlockID]];
}

std::string LockSets::describe(const LockSet &S) const {
  std::string Out;
  for (const HeldLock &H : S) {
    if (!Out.empty())
      Out += ",";
    Out += Locks[H.Lock].Name;
    if (H.Shared)
      Out += "(shared)";
    if (H.Asserted)
      Out += "(asserted)";
    if (H.Scoped)
      Out += "(scoped)";
  }
  return Out;
}

SourceRange guardScope(const FunctionTrace &T, const Event &E) {
  if (!E.S || !T.PM || !lockIsScoped(lockApiName(E)))
    return {};
  const SourceManager &SM = T.FD->getASTContext().getSourceManager();
  const Stmt *Cur = E.S;
  bool SawDecl = false;
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    const Stmt *P = T.PM->getParent(Cur);
    if (!P)
      return {};
    if (isa<DeclStmt>(P))
      SawDecl = true;
    if (SawDecl && (isa<CompoundStmt>(P) || isa<ForStmt>(P))) {
      SourceLocation B = SM.getExpansionLoc(P->getBeginLoc());
      SourceLocation End = SM.getExpansionRange(P->getEndLoc()).getEnd();
      if (B.isValid() && End.isValid() && SM.getFileID(B) == SM.getFileID(End))
        return {B, End};
      return {};
    }
    Cur = P;
  }
  return {};
}

bool leftScope(const SourceManager &SM, SourceRange Scope, SourceLocation Loc) {
  return Scope.getEnd().isValid() && Loc.isValid() &&
         (SM.isBeforeInTranslationUnit(Loc, Scope.getBegin()) ||
          SM.isBeforeInTranslationUnit(Scope.getEnd(), Loc));
}

void MayLockSet::lock(int Key, SourceRange Scope) {
  if (Key < -1)
    Key = -1;
  Entry N{Key, Scope};
  auto It = std::lower_bound(Held.begin(), Held.end(), N);
  if (It == Held.end() || !(*It == N))
    Held.insert(It, N);
  Scoped |= Scope.isValid();
}

void MayLockSet::unlock(int Key) {
  if (Key < -1)
    Key = -1;
  auto It = std::lower_bound(Held.begin(), Held.end(), Entry{Key, {}});
  if (It != Held.end() && It->Key == Key) {
    Held.erase(It);
    return;
  }
  // Not seen taken: forget one, conservatively the unknown one first (it
  // sorts first).
  if (!Held.empty())
    Held.erase(Held.begin());
}

void MayLockSet::leaveScopes(const SourceManager &SM, SourceLocation Loc) {
  if (!Scoped)
    return;
  Held.erase(std::remove_if(Held.begin(), Held.end(),
                            [&](const Entry &E) {
                              return E.Scope.isValid() &&
                                     leftScope(SM, E.Scope, Loc);
                            }),
             Held.end());
}

bool MayLockSet::join(const MayLockSet &O) {
  bool Grew = false;
  for (const Entry &N : O.Held) {
    auto It = std::lower_bound(Held.begin(), Held.end(), N);
    if (It == Held.end() || !(*It == N)) {
      Held.insert(It, N);
      Grew = true;
    }
  }
  Scoped |= O.Scoped;
  return Grew;
}

LockSets computeLocks(const FunctionTrace &T) {
  LockSets R;
  if (!T.Cfg)
    return R;
  LockDataflow(T, R).run();
  return R;
}

} // namespace seqlint
