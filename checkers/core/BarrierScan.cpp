//===- BarrierScan.cpp - what a barrier orders inside one function --------===//
#include "core/BarrierScan.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

using namespace clang;

namespace seqlint {

namespace {

/// Bit operations (set_bit(), test_bit()) are calls that the classifier
/// marks from the ApiModel (ApiModel::bitOp()). For the barrier checks they
/// are accesses to the word an argument points to. Returns 0 (not a bit
/// op), 1 (a load) or 2 (an RMW).
int bitOp(const Event &E, bool &Atomic) {
  if (E.Kind != EventKind::Call || !E.Callee || !E.BitOp)
    return 0;
  Atomic = E.BitAtomic;
  return E.BitOp;
}

enum class StepKind {
  Skip,
  Access,
  AccessThenStop,
  Stop,
  Unknown,
  Lock,
  Unlock,
  End
};
struct Step {
  StepKind K = StepKind::Skip;
  BarrierAccess A;
};

Step access(const Event &E, unsigned Bits, bool Then = false) {
  Step S;
  S.K = Then ? StepKind::AccessThenStop : StepKind::Access;
  S.A.E = &E;
  S.A.Bits = Bits;
  S.A.Marked = E.Ord != Order::Plain;
  return S;
}

Step classify(const Event &E, bool Forward) {
  Step S;
  switch (E.Kind) {
  case EventKind::Barrier:
    S.K = E.Bits ? StepKind::Stop : StepKind::Skip;
    S.A.E = &E; // which barrier stops the walk
    return S;
  case EventKind::Load:
  case EventKind::ReadBegin:
    return access(E, AccLoad);
  case EventKind::Store:
    return access(E, AccStore);
  case EventKind::RMW: {
    S = access(E, AccLoad | AccStore);
    S.A.AtomicRMW = E.Api || (E.Via ? isa_and_nonnull<AtomicExpr>(E.InnerS)
                                    : (E.S && isa<AtomicExpr>(E.S))) ||
                    (E.Ord != Order::Plain && E.Ord != Order::Once);
    return S;
  }
  case EventKind::CounterInc:
    return access(E, AccLoad | AccStore);
  // Seqcount APIs: the barrier inside them ends the window on one side.
  case EventKind::ReadRetry: // smp_rmb(); load
    if (Forward) {
      S.K = StepKind::Stop;
      return S;
    }
    return access(E, AccLoad, /*Then=*/true);
  case EventKind::WriteBegin: // store; smp_wmb()
    if (!Forward) {
      S.K = StepKind::Stop;
      return S;
    }
    return access(E, AccStore, /*Then=*/true);
  case EventKind::WriteEnd: // smp_wmb(); store
    if (Forward) {
      S.K = StepKind::Stop;
      return S;
    }
    return access(E, AccStore, /*Then=*/true);
  case EventKind::ReadBeginOrLock:
  case EventKind::ReadDone:
    S.K = StepKind::Unknown;
    return S;
  case EventKind::Lock:
    S.K = StepKind::Lock;
    return S;
  case EventKind::Unlock:
    S.K = StepKind::Unlock;
    return S;
  case EventKind::Call: {
    if (E.Noreturn) {
      S.K = StepKind::End;
      return S;
    }
    bool Atomic = false;
    if (int B = bitOp(E, Atomic)) {
      S = access(E, B == 1 ? AccLoad : AccLoad | AccStore);
      S.A.AtomicRMW = B == 2 && Atomic;
      S.A.Marked = Atomic;
      return S;
    }
    S.K = StepKind::Unknown;
    return S;
  }
  case EventKind::Return:
  case EventKind::LocalDef:
  case EventKind::LocalUpdate:
  case EventKind::Exclude:
    return S;
  }
  return S;
}

std::vector<const CFGBlock *> blocksById(const CFG &G) {
  std::vector<const CFGBlock *> ById(G.getNumBlockIDs());
  for (const CFGBlock *B : G)
    ById[B->getBlockID()] = B;
  return ById;
}

/// Walks one side of a barrier. Visit(Step, Found) is called for every
/// access/stop event in path order; it returns false to end that path.
/// AtBoundary(Found) is called when a path reaches the entry or the exit.
/// With ThroughUnknown, a call seqlint does not know does not end a path:
/// OnCall sees it.
template <typename VisitFn, typename BoundaryFn>
void walk(const FunctionTrace &T, unsigned Block, unsigned Index, bool Forward,
          VisitFn Visit, BoundaryFn AtBoundary, bool NoBackEdges = false,
          bool ThroughUnlock = false, bool ThroughUnknown = false,
          llvm::function_ref<void(const Event &)> OnCall = nullptr) {
  const CFG &G = *T.Cfg;
  std::vector<const CFGBlock *> ById = blocksById(G);
  if (Block >= ById.size() || !ById[Block])
    return;
  std::vector<unsigned> Rpo;
  if (NoBackEdges) {
    Rpo.assign(ById.size(), ~0u);
    std::vector<const CFGBlock *> Order = reversePostOrder(G);
    for (unsigned I = 0; I != Order.size(); ++I)
      Rpo[Order[I]->getBlockID()] = I;
  }
  // Path state: (block, whether an access was found on the way there).
  std::vector<bool> Seen(2 * ById.size());
  struct Item {
    const CFGBlock *B;
    bool Found;
    bool Start;
  };
  std::vector<Item> Work{{ById[Block], false, true}};
  while (!Work.empty()) {
    Item It = Work.back();
    Work.pop_back();
    const std::vector<Event> &Ev = T.Blocks[It.B->getBlockID()].Events;
    bool Found = It.Found;
    bool Ended = false;
    bool Self = It.B->getBlockID() == Block;
    int N = (int)Ev.size();
    int I = It.Start ? (Forward ? (int)Index + 1 : (int)Index - 1)
                     : (Forward ? 0 : N - 1);
    for (; I >= 0 && I < N; I += Forward ? 1 : -1) {
      if (!It.Start && Self && I == (int)Index) {
        Ended = true; // around a loop back to the barrier itself
        break;
      }
      Step S = classify(Ev[I], Forward);
      if (S.K == StepKind::Skip || (ThroughUnlock && S.K == StepKind::Unlock))
        continue;
      if (ThroughUnknown && S.K == StepKind::Unknown) {
        if (OnCall && Ev[I].Kind == EventKind::Call)
          OnCall(Ev[I]);
        continue;
      }
      if (!Visit(S, Found)) {
        Ended = true;
        break;
      }
      if (S.K == StepKind::Access)
        Found = true;
      else {
        Ended = true;
        break;
      }
    }
    if (Ended)
      continue;
    bool Any = false;
    auto Push = [&](const CFGBlock *Next) {
      if (!Next)
        return;
      Any = true;
      unsigned Slot = 2 * Next->getBlockID() + (Found ? 1 : 0);
      if (Seen[Slot])
        return;
      Seen[Slot] = true;
      Work.push_back({Next, Found, false});
    };
    if (Forward) {
      for (const CFGBlock *S : It.B->succs()) {
        if (S && NoBackEdges &&
            Rpo[S->getBlockID()] <= Rpo[It.B->getBlockID()]) {
          Any = true;
          continue;
        }
        Push(S);
      }
    } else {
      for (const CFGBlock *P : It.B->preds()) {
        if (P && NoBackEdges &&
            Rpo[P->getBlockID()] >= Rpo[It.B->getBlockID()]) {
          Any = true; // a loop back edge: not followed, not the entry either
          continue;
        }
        Push(P);
      }
    }
    // A block with no predecessor that is not the entry is unreachable
    // code (the empty bodies of do { } while (0) macros): no path.
    if (!Any && It.B == (Forward ? &G.getExit() : &G.getEntry()))
      AtBoundary(Found);
  }
}

void addUnique(std::vector<BarrierAccess> &V, const BarrierAccess &A) {
  for (const BarrierAccess &X : V)
    if (X.E == A.E)
      return;
  V.push_back(A);
}

const Expr *bitOpAddress(const Event &E) {
  const auto *CE = E.Via ? nullptr : dyn_cast_or_null<CallExpr>(E.S);
  if (!CE || CE->getNumArgs() <= E.BitWordArg)
    return nullptr;
  const Expr *A = CE->getArg(E.BitWordArg)->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(A);
      U && U->getOpcode() == UO_AddrOf)
    A = U->getSubExpr()->IgnoreParenCasts();
  return A;
}

} // namespace

bool AccessIdentity::same(const AccessIdentity &O) const {
  if (Field || O.Field)
    return Field == O.Field && (!Base || !O.Base || Base == O.Base);
  return !Text.empty() && Text == O.Text;
}

AccessIdentity accessIdentity(const FunctionTrace &T, const Event &E) {
  AccessIdentity Id;
  if (E.Key >= 0 && E.Kind != EventKind::Call) {
    const LocationKey &K = T.key(E.Key);
    Id.Field = K.Field;
    Id.Base = K.Base;
    Id.Text = K.Text;
    return Id;
  }
  bool Atomic;
  if (!bitOp(E, Atomic))
    return Id;
  const Expr *A = bitOpAddress(E);
  if (!A)
    return Id;
  if (const auto *ME = dyn_cast<MemberExpr>(A)) {
    Id.Field = ME->getMemberDecl();
    const Expr *B = ME->getBase()->IgnoreParenCasts();
    while (const auto *M = dyn_cast<MemberExpr>(B))
      B = M->getBase()->IgnoreParenCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(B))
      Id.Base = dyn_cast<VarDecl>(DR->getDecl());
    Id.Text = Id.Field->getNameAsString();
  } else if (const auto *DR = dyn_cast<DeclRefExpr>(A)) {
    Id.Field = DR->getDecl();
    Id.Base = dyn_cast<VarDecl>(DR->getDecl());
    Id.Text = Id.Field->getNameAsString();
  }
  return Id;
}

std::string accessName(const FunctionTrace &T, const Event &E) {
  if (E.Key >= 0 && E.Kind != EventKind::Call)
    return T.key(E.Key).displayName();
  bool Atomic;
  if (bitOp(E, Atomic))
    if (const Expr *A = bitOpAddress(E)) {
      if (const auto *ME = dyn_cast<MemberExpr>(A)) {
        const Expr *B = ME->getBase()->IgnoreParenCasts();
        std::string Prefix;
        if (const auto *DR = dyn_cast<DeclRefExpr>(B))
          Prefix =
              DR->getDecl()->getNameAsString() + (ME->isArrow() ? "->" : ".");
        return Prefix + ME->getMemberDecl()->getNameAsString();
      }
      if (const auto *DR = dyn_cast<DeclRefExpr>(A))
        return DR->getDecl()->getNameAsString();
    }
  return "memory";
}

bool isJudgedBarrier(const Event &E) {
  if (E.Kind != EventKind::Barrier || !E.Bits)
    return false;
  if (E.Api)
    return E.Api->R == Role::Barrier;
  const Stmt *S = E.Via ? E.InnerS : E.S;
  // C11 / GNU thread fences; a project's barrier macro that is inline asm
  // here and says what it orders in another architecture's branch.
  return S && (isa<CallExpr>(S) || (isa<GCCAsmStmt>(S) && !E.ApiName.empty()));
}

BarrierSide scanBarrierSide(const FunctionTrace &T, unsigned Block,
                            unsigned Index, bool Forward, bool NoBackEdges,
                            bool ThroughUnlock) {
  BarrierSide R;
  walk(
      T, Block, Index, Forward,
      [&](const Step &S, bool Found) {
        switch (S.K) {
        case StepKind::Access:
        case StepKind::AccessThenStop:
          R.Kinds |= S.A.Bits;
          addUnique(R.All, S.A);
          if (!Found)
            addUnique(R.Nearest, S.A);
          return true;
        case StepKind::Unknown:
          R.UnknownCall = true;
          break;
        case StepKind::Lock:
        case StepKind::Unlock:
          R.UnknownLock = true;
          break;
        default:
          break;
        }
        if (!Found)
          R.NearestUnknown = true;
        return false;
      },
      [&](bool Found) {
        R.ReachedBoundary = true;
        if (!Found) {
          R.EmptyToBoundary = true;
          R.NearestUnknown = true;
        }
      },
      NoBackEdges, ThroughUnlock);
  return R;
}

BarrierWindow barrierWindow(const FunctionTrace &T, unsigned Block,
                            unsigned Index, bool Forward) {
  BarrierWindow R;
  walk(
      T, Block, Index, Forward,
      [&](const Step &S, bool) {
        switch (S.K) {
        case StepKind::Access:
        case StepKind::AccessThenStop:
          addUnique(R.Accesses, S.A);
          return true;
        case StepKind::Lock:
        case StepKind::Unlock:
          R.Lock = true;
          return false;
        default:
          return false;
        }
      },
      [&](bool) { R.ReachedBoundary = true; }, /*NoBackEdges=*/true,
      /*ThroughUnlock=*/false, /*ThroughUnknown=*/true,
      [&](const Event &Call) { R.Calls.push_back(&Call); });
  return R;
}

FirstLoads firstMarkedLoadsAfter(const FunctionTrace &T, unsigned Block,
                                 unsigned Index) {
  FirstLoads R;
  walk(
      T, Block, Index, /*Forward=*/true,
      [&](const Step &S, bool) {
        if (S.K != StepKind::Access && S.K != StepKind::AccessThenStop) {
          R.Blocked = true; // a lock, an unknown call, a barrier first
          return false;
        }
        if (S.A.Bits != AccLoad) {
          R.Blocked = true; // a store first: the barrier may be for it
          return false;
        }
        if (!S.A.Marked)
          return true; // a plain load (a loop bound): look further
        addUnique(R.Loads, S.A);
        return false;
      },
      [&](bool) {}, /*NoBackEdges=*/true);
  return R;
}

std::optional<MisplacedWrite> misplacedWriteBarrier(const FunctionTrace &T,
                                                    const Event &Barrier,
                                                    unsigned Block,
                                                    unsigned Index) {
  if (!(Barrier.Bits & OrdSS) || Barrier.Bits == OrdFull)
    return std::nullopt;
  // Nothing after it in this function that the barrier could order before:
  // no store, no unknown call, no lock; an unlock does not end the walk (a
  // store after it would still be ordered by the barrier, not by the unlock).
  BarrierSide After =
      scanBarrierSide(T, Block, Index, /*Forward=*/true,
                      /*NoBackEdges=*/false, /*ThroughUnlock=*/true);
  if ((After.Kinds & AccStore) || After.unknown())
    return std::nullopt;
  BarrierSide Before = scanBarrierSide(T, Block, Index, /*Forward=*/false);
  if (Before.NearestUnknown || Before.Nearest.empty())
    return std::nullopt;
  // The nearest access on every path is the same marked store: the
  // publication (WRITE_ONCE, a release or atomic store, a volatile flag).
  const Event *Publish = nullptr;
  AccessIdentity PubId;
  for (const BarrierAccess &A : Before.Nearest) {
    if (A.E->Kind != EventKind::Store || !A.Marked)
      return std::nullopt;
    AccessIdentity Id = accessIdentity(T, *A.E);
    if (!Id.valid())
      return std::nullopt;
    if (!Publish) {
      Publish = A.E;
      PubId = Id;
    } else if (!Id.same(PubId)) {
      return std::nullopt;
    }
  }
  // ... and before it, stores of other data that it was meant to publish.
  // A marked store or an atomic read-modify-write is a lockless variable
  // of its own, not data behind the flag: Concurrency Kit's
  // ck_hs_map_bound_set() stores probe_maximum and probe_bound[] with
  // ck_pr_store_*() and ends with ck_pr_fence_store() for its caller;
  // ck_stack_push_mpnc() links the node in with an exchange.
  // A helper that stores another field of the published record and then
  // the publication, and ends with the barrier, publishes a record of its
  // own (DPDK mlx5's timestamp cache: the timestamp and the word packing
  // the index with it, then rte_wmb() for what follows): the caller's
  // stores before the call are not what it publishes. A helper that only
  // sets the flag is still judged with its caller's data.
  bool OwnRecord = false;
  if (Barrier.Via && Publish->Via && Publish->S == Barrier.S) {
    const auto *PubField = dyn_cast_or_null<FieldDecl>(PubId.Field);
    for (const BarrierAccess &A : Before.All) {
      if (!(A.Bits & AccStore) || A.E == Publish || !A.E->Via || A.E->S != Barrier.S)
        continue;
      AccessIdentity Id = accessIdentity(T, *A.E);
      const auto *F = dyn_cast_or_null<FieldDecl>(Id.Field);
      if (PubField && F && F != PubField && F->getParent() == PubField->getParent() &&
          Id.Base == PubId.Base)
        OwnRecord = true;
    }
  }
  for (const BarrierAccess &A : Before.All) {
    if (!(A.Bits & AccStore) || A.E == Publish || A.AtomicRMW || A.Marked)
      continue;
    if (OwnRecord && A.E->S != Barrier.S)
      continue;
    AccessIdentity Id = accessIdentity(T, *A.E);
    if (Id.valid() && !Id.same(PubId))
      return MisplacedWrite{Publish, A.E};
  }
  return std::nullopt;
}

std::optional<MisplacedRead> misplacedReadBarrier(const FunctionTrace &T,
                                                  const Event &Barrier,
                                                  unsigned Block,
                                                  unsigned Index) {
  if (Barrier.Bits != OrdLL)
    return std::nullopt;
  // Loads of the previous loop iteration are not "before" in this sense.
  BarrierSide Before =
      scanBarrierSide(T, Block, Index, /*Forward=*/false, /*NoBackEdges=*/true);
  if (Before.NearestUnknown || Before.Nearest.empty())
    return std::nullopt;
  for (const BarrierAccess &A : Before.Nearest)
    if (A.Bits != AccLoad)
      return std::nullopt;
  std::vector<AccessIdentity> BeforeIds;
  for (const BarrierAccess &A : Before.All)
    if (A.Bits == AccLoad) {
      AccessIdentity Id = accessIdentity(T, *A.E);
      if (Id.valid())
        BeforeIds.push_back(Id);
    }
  auto LoadedBefore = [&](const AccessIdentity &Id) {
    for (const AccessIdentity &B : BeforeIds)
      if (B.same(Id))
        return true;
    return false;
  };
  // After it, on some path: first a load of a location not loaded before
  // (Y), then, with no barrier in between, a re-read of one that was (X),
  // of the same object. The barrier orders the old read of X before Y, but
  // not Y before the X the code now tests: it belongs between them.
  const Event *First = nullptr;
  std::optional<MisplacedRead> Result;
  bool FirstFresh = true; // every path's first load is fresh
  walk(
      T, Block, Index, /*Forward=*/true,
      [&](const Step &S, bool Found) {
        if (Result ||
            (S.K != StepKind::Access && S.K != StepKind::AccessThenStop))
          return false;
        if (S.A.Bits != AccLoad)
          return false;
        AccessIdentity Id = accessIdentity(T, *S.A.E);
        if (!Found) {
          if (!Id.valid() || LoadedBefore(Id)) {
            FirstFresh = false;
            return false;
          }
          First = S.A.E;
          return true;
        }
        if (First && Id.valid() && LoadedBefore(Id)) {
          AccessIdentity FId = accessIdentity(T, *First);
          if (FId.Base && FId.Base == Id.Base)
            Result = MisplacedRead{First, S.A.E};
          return false;
        }
        return true;
      },
      [](bool) {}, /*NoBackEdges=*/true);
  if (!FirstFresh || !Result)
    return std::nullopt;
  // The pair the code tests: the re-read of X is in a condition or a test
  // (btrfs: `if (root->last_trans == trans->transid ...)`); a re-read for
  // arithmetic (ring_buffer's next_event = iter->head + length) tests
  // nothing.
  if (T.PM && Result->Reread->S && !Result->Reread->Via) {
    bool InCond = false;
    const Stmt *Child = Result->Reread->S;
    for (const Stmt *P = T.PM->getParent(Child); P && !InCond;
         Child = P, P = T.PM->getParent(P)) {
      const Expr *Cond = nullptr;
      if (const auto *I = dyn_cast<IfStmt>(P))
        Cond = I->getCond();
      else if (const auto *W = dyn_cast<WhileStmt>(P))
        Cond = W->getCond();
      else if (const auto *D = dyn_cast<DoStmt>(P))
        Cond = D->getCond();
      else if (const auto *F = dyn_cast<ForStmt>(P))
        Cond = F->getCond();
      else if (const auto *C = dyn_cast<ConditionalOperator>(P))
        Cond = C->getCond();
      else if (isa<CompoundStmt>(P))
        break;
      else if (const auto *BO = dyn_cast<BinaryOperator>(P))
        InCond = BO->isLogicalOp() || BO->isComparisonOp();
      else if (const auto *U = dyn_cast<UnaryOperator>(P))
        InCond = U->getOpcode() == UO_LNot;
      InCond |= Cond && Child == Cond;
    }
    if (!InCond)
      return std::nullopt;
  }
  // A barrier after the re-read of X: that load is the next round's flag
  // (n_tty's echo_commit, read before each echo_buf() with its smp_rmb()),
  // not a recheck of this round.
  for (unsigned B = 0; B != T.Blocks.size(); ++B)
    for (unsigned I = 0; I != T.Blocks[B].Events.size(); ++I)
      if (&T.Blocks[B].Events[I] == Result->Reread) {
        bool Next = false;
        walk(
            T, B, I, /*Forward=*/true,
            [&](const Step &S, bool) {
              if (S.K == StepKind::Stop && S.A.E && S.A.E->Kind == EventKind::Barrier &&
                  (S.A.E->Bits & OrdLL))
                Next = true;
              return !Next && S.K != StepKind::End;
            },
            [](bool) {}, /*NoBackEdges=*/true);
        if (Next)
          return std::nullopt;
      }
  return Result;
}

} // namespace seqlint
