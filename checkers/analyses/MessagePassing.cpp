//===- MessagePassing.cpp -------------------------------------------------===//
#include "analyses/MessagePassing.h"
#include "analyses/OneSided.h"
#include "analyses/UnitAnalyses.h"
#include "core/AstQueries.h"
#include "core/BarrierScan.h"
#include "core/FunctionAnalyses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/CFGReachabilityAnalysis.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

bool isAcquire(Order O) {
  return O == Order::Acquire || O == Order::AcqRel || O == Order::SeqCst;
}
bool isRelease(Order O) {
  return O == Order::Release || O == Order::AcqRel || O == Order::SeqCst;
}

MpCollector &MessagePassingCheck::mp() const { return Ctx->Unit->messagePassing(); }

void MessagePassingCheck::functionDone(const FunctionTrace &T, Classifier &C) {
  MpCollector &Mp = mp();
  if (!Mp.hasSpellings())
    Mp.setSpellings(fixSpellings());
  std::optional<FunctionAnalyses> Local;
  Mp.collect(analysesOf(T, Local), C,
             [this](const FunctionTrace &T, const Event &E, bool Writer) {
    return Writer ? insertBeforeStatement(T, E.S, writeBarrierSpelling())
                  : insertAfterStatement(T, E.S, readBarrierSpelling());
  });
}

MpSpellings MessagePassingCheck::fixSpellings() const {
  MpSpellings S;
  const Dialect &F = family();
  S.Wmb = F.Wmb; // "smp_wmb();"
  S.Rmb = F.Rmb;
  S.Wmb.pop_back();
  S.Rmb.pop_back();
  // Messages say "use <Release> for this store": a family without release
  // stores (Concurrency Kit, PostgreSQL) gets its fence, placed.
  S.Release = !F.Release.empty() ? F.Release : "a store after " + F.ReleaseFence;
  S.Acquire = !F.Acquire.empty() ? F.Acquire : "a load followed by " + F.AcquireFence;
  return S;
}

void MessagePassingCheck::noteConfigurations(Finding &F, const MpMatch &M) const {
  std::string File = mp().configurationsApart(M);
  if (File.empty())
    return;
  F.Notes.push_back(
      {F.Loc, "'" + M.W->FnName + "()' and '" + M.R->FnName +
                  "()' are never compiled together: they are in two configurations (other "
                  "flags) of '" +
                  File +
                  "'; they are paired as parts of one program, which holds only if the "
                  "two builds run together and share this memory"});
}

std::string MessagePassingCheck::fnName(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() ? FD->getName().str() : std::string("?");
}

namespace {

std::string spellingOf(const Event &E) {
  if (!E.ApiName.empty())
    return (E.ApiName + "()").str();
  if (E.Kind == EventKind::Barrier)
    return "the barrier";
  // C11 and __atomic accesses have no API name.
  if (E.Kind == EventKind::Load && isAcquire(E.Ord))
    return "an acquire load";
  if (E.Kind == EventKind::Store && isRelease(E.Ord))
    return "a store-release";
  return "";
}

/// A pointer member to the record that declares it (through anonymous
/// structs and unions): a link of a list or a tree.
bool isLinkField(const ValueDecl *D) {
  const auto *PT = D ? D->getType()->getAs<PointerType>() : nullptr;
  const RecordDecl *Pointee =
      PT ? PT->getPointeeType()->getAsRecordDecl() : nullptr;
  const RecordDecl *Holder = osOuterRecord(D);
  return Pointee && Holder &&
         Pointee->getCanonicalDecl() == Holder->getCanonicalDecl();
}

/// A flag-like value: a constant, a boolean or a pointer (publication); not
/// a computed number (sizes, times, indexes are data of their own).
bool isFlagValue(const Expr *V, ASTContext &Ctx) {
  if (!V)
    return false;
  V = V->IgnoreParenImpCasts();
  if (V->isValueDependent())
    return false;
  // Storing 0/NULL/false clears a flag: readers that see it do not go on to
  // read data, so it publishes nothing.
  if (isZeroValue(V, Ctx))
    return false;
  Expr::EvalResult R;
  if (V->EvaluateAsInt(R, Ctx))
    return !R.Val.getInt().isZero();
  QualType T = V->getType();
  return T->isPointerType() || T->isBooleanType();
}

/// The value the store F writes, as its function sees it. A store in a
/// helper seen through at its call (`io_mark_done(r)`) writes the value of
/// the helper's body, and a parameter of the helper there stands for the
/// call's argument (`config_install(c)` publishes the caller's `c`).
const Expr *storedValueHere(const Event &F) {
  if (!F.Via || !F.InnerS)
    return storedValue(F.S);
  const Expr *V = storedValue(F.InnerS);
  const auto *DR = V ? dyn_cast<DeclRefExpr>(V->IgnoreParenImpCasts())
                     : nullptr;
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  const auto *CE = dyn_cast_or_null<CallExpr>(F.S);
  if (!P || !CE)
    return V;
  const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
  const FunctionDecl *Callee = CE->getDirectCallee();
  unsigned I = P->getFunctionScopeIndex();
  if (Owner && Callee &&
      Owner->getCanonicalDecl() == F.Via->getCanonicalDecl() &&
      Callee->getCanonicalDecl() == F.Via->getCanonicalDecl() &&
      I < CE->getNumArgs())
    return CE->getArg(I);
  return V;
}

bool isPointerValued(const Event &E) {
  const auto *X = dyn_cast_or_null<Expr>(E.S);
  return X && X->getType()->isPointerType();
}

/// How the data met so far on one side are ordered against the flag access:
/// by the flag access itself (a release/acquire), else by the first barrier
/// of the side's kind between them.
struct Ordering {
  Ordering(bool FlagOrders, SourceLocation FlagLoc, std::string FlagSpelling)
      : By(FlagOrders ? MpOrder::Access : MpOrder::None), ByLoc(FlagLoc),
        BySpelling(std::move(FlagSpelling)) {}

  /// Is E a barrier that orders this side (a fence with Bits, or a
  /// read-modify-write with a memory order IsOrdering accepts)? The first
  /// one becomes the ordering of the data met after it.
  bool note(const Event &E, unsigned Bits, bool (*IsOrdering)(Order)) {
    if (!(E.Kind == EventKind::Barrier && (E.Bits & Bits)) &&
        !(E.Kind == EventKind::RMW && IsOrdering(E.Ord))) {
      // A real barrier that does not order this side (not a compiler
      // barrier, which orders nothing for another CPU).
      if (E.Kind == EventKind::Barrier && E.Bits)
        OtherBarrier = true;
      return false;
    }
    if (By == MpOrder::None) {
      By = MpOrder::Barrier;
      ByLoc = E.Loc;
      BySpelling = spellingOf(E);
    }
    return true;
  }

  MpOrder By;
  SourceLocation ByLoc;
  std::string BySpelling;
  bool OtherBarrier = false; // a barrier of another kind was met
};

/// Is S inside a loop of Body (its condition or its body)?
bool inLoop(const Stmt *S, const Stmt *Body) {
  ParentMap PM(const_cast<Stmt *>(Body));
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P))
    if (isa<WhileStmt, DoStmt, ForStmt>(P))
      return true;
  return false;
}

} // namespace

void MpCollector::setSpellings(MpSpellings S) {
  if (Units.empty())
    Units.push_back(std::move(S));
  else
    Units[0] = std::move(S);
}

const MpSpellings &MpCollector::spellings(const MpSide &S) const {
  static const MpSpellings Generic{"a write barrier", "a read barrier",
                                   "a store-release", "a load-acquire"};
  return S.Unit < Units.size() ? Units[S.Unit] : Generic;
}

const ValueDecl *MpCollector::identity(const LocationKey &K) {
  if (K.Field)
    return K.Field;
  if (K.Storage == LocationKey::Global && K.Base && !K.ViaPointer)
    return K.Base;
  return nullptr;
}

MpLoc MpCollector::loc(const LocationKey &K) {
  MpLoc L;
  L.Leaf = identity(K);
  if (L.Leaf && K.Field)
    L.Outer = K.Outer;
  return L;
}

void MpCollector::collect(FunctionAnalyses &FA, Classifier &C,
                          const FixMaker &Fix) {
  const FunctionTrace &T = FA.trace();
  if (T.FD == LastCollected)
    return; // the other message-passing check collected it
  LastCollected = T.FD;
  // TU-wide: counters and read-modify-write targets are not flags or data
  // of a message-passing pair.
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &E : BE.Events)
      if (E.Key >= 0 && (E.Kind == EventKind::RMW ||
                         E.Kind == EventKind::CounterInc || E.Counter))
        if (const ValueDecl *Id = identity(T.key(E.Key)))
          Excluded.insert(Id);
  for (int K : T.Counters)
    if (const ValueDecl *Id = identity(T.key(K)))
      Excluded.insert(Id);
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &E : BE.Events)
      if (E.Key >= 0 && ((E.Kind == EventKind::Store && isRelease(E.Ord)) ||
                         (E.Kind == EventKind::Load &&
                          (isAcquire(E.Ord) || isRcuAccessorName(E.ApiName)))))
        if (const ValueDecl *Id = identity(T.key(E.Key)))
          OrderedIds.insert(Id);
  Quiet.add(T);
  // A seqcount reader or writer is not message passing.
  if (!T.Counters.empty())
    return;

  std::vector<const Event *> Seq;
  std::vector<const CFGBlock *> BlockOf; // the block of each event of Seq
  for (const CFGBlock *B : reversePostOrder(*T.Cfg))
    for (const Event &E : T.Blocks[B->getBlockID()].Events) {
      Seq.push_back(&E);
      BlockOf.push_back(B);
    }
  if (Seq.size() > 4000)
    return;
  // The sequence is in reverse post-order: an earlier event need not come
  // before a later one on any path (the two arms of a branch; a store after
  // a loop and a flag stored in its body). Is there a path from event From
  // to event To (the same block: From comes first in it)?
  CFGReverseBlockReachabilityAnalysis Reach(*T.Cfg);
  auto OnPath = [&](size_t From, size_t To) {
    return BlockOf[From] == BlockOf[To] ||
           Reach.isReachable(BlockOf[From], BlockOf[To]);
  };
  // Whether a lock may be held before each event (the access checks' view,
  // core/AccessContext: a trylock's lock on its successful edge, a guard in
  // its scope); an unlock with no lock held on any path means the caller
  // holds it: nothing in this function is lockless.
  llvm::DenseMap<const Event *, bool> MayLocked;
  bool CallerLocked = false;
  FA.accessContexts([&](const Event &E, const AccessContext &Ctx) {
    MayLocked[&E] = Ctx.MayLocked;
    CallerLocked |= E.Kind == EventKind::Unlock && !Ctx.MayLocked;
  });
  if (CallerLocked)
    return;
  std::vector<int> Depth(Seq.size());
  for (size_t I = 0; I != Seq.size(); ++I)
    Depth[I] = MayLocked.lookup(Seq[I]) ? 1 : 0;

  // Where each field or global is stored last in the sequence.
  llvm::DenseMap<MpId, size_t> LastStore;
  for (size_t I = 0; I != Seq.size(); ++I)
    if ((Seq[I]->Kind == EventKind::Store || Seq[I]->Kind == EventKind::RMW) &&
        Seq[I]->Key >= 0)
      if (const ValueDecl *Id = identity(T.key(Seq[I]->Key)))
        LastStore[Id] = I;

  // Does a store of OwnStores[Key] come before event J on every path to it
  // (earlier in J's block, or in a block that dominates J's)?
  std::optional<CFGDomTree> Dom;
  auto ownStoreBefore =
      [&](const llvm::DenseMap<int, llvm::SmallVector<size_t, 2>> &Own,
          int Key, size_t J) {
        auto It = Own.find(Key);
        if (It == Own.end())
          return false;
        for (size_t S : It->second) {
          if (S >= J)
            continue;
          if (BlockOf[S] == BlockOf[J])
            return true;
          if (!Dom)
            Dom.emplace(T.Cfg.get());
          if (Dom->dominates(BlockOf[S], BlockOf[J]))
            return true;
        }
        return false;
      };

  BranchTests Conds;
  Conds.walk(T.FD->getBody());
  ASTContext &Ctx = C.context();
  // An initialisation path (the notion the one-sided rules use) fills an
  // object that no other thread can reach yet.
  bool Setup = setupFunction(T.FD);

  for (size_t I = 0; I != Seq.size(); ++I) {
    const Event &F = *Seq[I];
    if (F.Key < 0 || F.Counter || Depth[I] > 0 || isCounterAccessorName(F.ApiName))
      continue;
    const LocationKey &FK = T.key(F.Key);
    if (FK.isLocal())
      continue;
    MpLoc Id = loc(FK);
    if (!Id.Leaf)
      continue;
    // A link of a linked structure (a pointer to the record that holds it:
    // `e->next`, `e->prev`) says where the next node is; the holder's other
    // fields are announced by whatever made the holder reachable, not by
    // its own link. Only the node it points to is its data.
    bool LinkFlag = isLinkField(FK.Field);
    // A side of this function around flag access F.
    auto sideAt = [&](bool Writer) {
      MpSide S;
      S.Writer = Writer;
      S.Fn = T.FD;
      S.FnName = MessagePassingCheck::fnName(T.FD);
      S.Flag = Id;
      S.FlagLoc = F.Loc;
      if (F.Via)
        S.Origin = F.InnerLoc;
      S.FlagName = FK.displayName();
      S.FlagSpelling = spellingOf(F);
      // Volatile by declaration, accessed plainly (not READ_ONCE(), not a
      // volatile cast); a reader that waits for it in a loop shows another
      // agent sets it, whatever else the file does.
      S.DeclVolatileOnly = QuietRecords::declVolatileOnly(F, identity(FK)) &&
                           (Writer || !inLoop(F.S, T.FD->getBody()));
      return S;
    };

    // The flag store is marked (WRITE_ONCE, release, atomic) and writes a
    // constant, a boolean or a pointer.
    if (F.Kind == EventKind::Store && !F.Increment && F.Ord != Order::Plain &&
        isFlagValue(storedValueHere(F), Ctx)) {
      // A flag in the object being set up (reached through a parameter or a
      // local, not a global) publishes nothing yet: whatever later hands the
      // object to other threads orders its initialisation (Concurrency Kit's
      // ck_barrier_tournament_init()). A global is reachable by threads that
      // already run: still a publication.
      if (Setup && FK.Storage != LocationKey::Global)
        continue;
      // Writer: data stores before the flag store.
      MpSide S = sideAt(true);
      Ordering Ord(isRelease(F.Ord), F.Loc, S.FlagSpelling);
      bool Unknown = false;
      for (size_t J = I; J-- > 0;) {
        const Event &E = *Seq[J];
        if (E.Kind == EventKind::Lock || E.Kind == EventKind::Unlock)
          break; // an unlock orders what was stored under the lock
        if (Ord.note(E, OrdSS, isRelease))
          continue;
        if (mayOrderCall(E, C))
          Unknown = true;
        bool IsStore = E.Kind == EventKind::Store ||
                       (E.Kind == EventKind::RMW && E.Ord == Order::Plain);
        if (!IsStore || E.Key < 0 || Depth[J] > 0 || Unknown || !OnPath(J, I))
          continue;
        const LocationKey &DK = T.key(E.Key);
        MpLoc DId = loc(DK);
        if (DK.isLocal() || !DId.Leaf || DId.Leaf == Id.Leaf)
          continue;
        if (isRelease(E.Ord))
          continue; // a publication of its own
        unsigned Rel = 0;
        if (DK.Base && DK.Base == FK.Base && !LinkFlag &&
            LocationKey::onePointerChain(DK, FK))
          Rel |= RelSameObject;
        if (DK.Storage == LocationKey::Global &&
            FK.Storage == LocationKey::Global && !DK.ViaPointer &&
            !FK.ViaPointer)
          Rel |= RelGlobals;
        if (refersTo(storedValueHere(F), DK.Base))
          Rel |= RelPointee;
        if (!Rel)
          continue;
        if (llvm::any_of(S.Data, [&](const MpData &X) { return X.Id == DId; }))
          continue;
        // Stored again after the flag: the flag does not publish it.
        auto Last = LastStore.find(DId.Leaf);
        if (Last != LastStore.end() && Last->second > I)
          continue;
        S.Data.push_back({DId, Rel, E.Ord != Order::Plain, E.Loc,
                          DK.displayName(), Ord.By, Ord.ByLoc, Ord.BySpelling,
                          Ord.By == MpOrder::None && Ord.OtherBarrier});
      }
      if (!S.Data.empty()) {
        S.Fix = Fix(T, F, true);
        Sides.push_back(std::move(S));
      }
      continue;
    }

    // rcu_dereference_protected()/rcu_access_pointer(): the updater side
    // under its lock, or no dereference at all.
    if (F.Kind == EventKind::Load && (F.Api || F.Ord != Order::Plain) &&
        !isRcuUpdateSideAccess(F.ApiName)) {
      // Reader: a marked flag load, data loads after it.
      MpSide S = sideAt(false);
      S.Tested = Conds.Nodes.count(F.S) || (F.Use == ValueUse::Assigned &&
                                            F.Var && Conds.Vars.count(F.Var));
      if (!S.Tested)
        continue;
      Ordering Ord(isAcquire(F.Ord), F.Loc, S.FlagSpelling);
      const VarDecl *DepVar = F.Use == ValueUse::Assigned ? F.Var : nullptr;
      bool Unknown = false;
      // This function's own stores after the flag load, by key.
      llvm::DenseMap<int, llvm::SmallVector<size_t, 2>> OwnStores;
      for (size_t J = I + 1; J < Seq.size(); ++J) {
        const Event &E = *Seq[J];
        if (E.Kind == EventKind::Lock || E.Kind == EventKind::Unlock)
          break;
        if ((E.Kind == EventKind::Store || E.Kind == EventKind::RMW) &&
            E.Key >= 0 && OnPath(I, J))
          OwnStores[E.Key].push_back(J);
        if (Ord.note(E, OrdLL, isAcquire))
          continue;
        // `p = READ_ONCE(head)` defines p from the flag load itself; any
        // later assignment to p ends the dependency.
        if (E.Kind == EventKind::LocalDef && E.Var == DepVar &&
            !containsStmt(E.S, F.S))
          DepVar = nullptr;
        if (mayOrderCall(E, C))
          Unknown = true;
        if (E.Kind != EventKind::Load || E.Key < 0 || Depth[J] > 0 || !OnPath(I, J))
          continue;
        const LocationKey &DK = T.key(E.Key);
        MpLoc DId = loc(DK);
        if (DK.isLocal() || !DId.Leaf || DId.Leaf == Id.Leaf)
          continue;
        if (isAcquire(E.Ord) || isRcuAccessorName(E.ApiName))
          continue; // a flag of its own
        // Stored by this function on every path to the load: it reads its
        // own value (a walk's cursor takes the root it loaded), not the
        // writer's data.
        if (ownStoreBefore(OwnStores, E.Key, J))
          continue;
        bool Dep = DepVar && DK.Base == DepVar && DK.ViaPointer;
        // `if (READ_ONCE(e->next)) x = e->next->state;`: the datum is read
        // through the flag's pointer value (loaded again), in the object
        // the flag points to, not in the one that holds it.
        if (!Dep && LocationKey::reachedThrough(DK, FK))
          Dep = true;
        unsigned Rel = 0;
        if (Dep)
          Rel |= RelPointee;
        else if (DK.Base && DK.Base == FK.Base && !LinkFlag &&
                 LocationKey::onePointerChain(DK, FK))
          Rel |= RelSameObject;
        else if (DK.Storage == LocationKey::Global &&
                 FK.Storage == LocationKey::Global && !DK.ViaPointer &&
                 !FK.ViaPointer)
          Rel |= RelGlobals;
        if (!Rel)
          continue;
        if (Unknown && !Dep)
          continue;
        if (llvm::any_of(S.Data, [&](const MpData &X) { return X.Id == DId; }))
          continue;
        MpData Dt{DId,
                  Rel,
                  E.Ord != Order::Plain,
                  E.Loc,
                  DK.displayName(),
                  Ord.By,
                  Ord.ByLoc,
                  Ord.BySpelling,
                  Ord.By == MpOrder::None && Ord.OtherBarrier};
        if (Dep && Ord.By == MpOrder::None) {
          Dt.By = MpOrder::Dependency;
          Dt.ByLoc = F.Loc;
        }
        S.Data.push_back(std::move(Dt));
      }
      if (!S.Data.empty()) {
        S.Fix = Fix(T, F, false);
        Sides.push_back(std::move(S));
      }
    }
  }
}

void MpCollector::noteQuietFlags() {
  for (MpSide &S : Sides)
    if (S.DeclVolatileOnly)
      S.Quiet = Quiet.quiet(static_cast<const ValueDecl *>(S.Flag.Leaf));
}

void MpCollector::noteUnitFacts(ASTContext &Ctx) {
  if (Sides.empty())
    return; // nothing to pair: no walk of the TU
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::DenseSet<const FunctionDecl *> Handlers;
    void add(const Expr *E) {
      // A handler this TU defines: only those have sides.
      if (const FunctionDecl *FD = functionRef(E))
        Handlers.insert(FD->getCanonicalDecl());
    }
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee || !Callee->getIdentifier())
        return true;
      if (std::optional<unsigned> I = signalRegistrarArg(Callee->getName()))
        if (*I < CE->getNumArgs())
          add(CE->getArg(*I));
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Assign)
        return true;
      if (const auto *ME =
              dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const NamedDecl *M = ME->getMemberDecl();
            M->getIdentifier() && isSignalHandlerMemberName(M->getName()))
          add(BO->getRHS());
      return true;
    }
    bool VisitDesignatedInitExpr(DesignatedInitExpr *DIE) {
      for (const DesignatedInitExpr::Designator &D : DIE->designators())
        if (D.isFieldDesignator() && D.getFieldName() &&
            isSignalHandlerMemberName(D.getFieldName()->getName()))
          add(DIE->getInit());
      return true;
    }
    // The targets of atomic read-modify-writes in any function of the TU,
    // analysed or not: a header's inline helper that no analysed function
    // reaches still says what the location is (DPDK's mbuf reference
    // count, stepped by rte_mbuf_refcnt_update()'s __atomic_add_fetch(),
    // and set with rte_mbuf_refcnt_set() when a buffer is built: a count,
    // not a flag).
    llvm::DenseSet<const ValueDecl *> Updated;
    void updated(const Expr *Ptr) {
      Ptr = Ptr->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(Ptr);
          U && U->getOpcode() == UO_AddrOf)
        Ptr = U->getSubExpr();
      if (const ValueDecl *D = lvalueIdentity(Ptr))
        Updated.insert(D);
    }
    bool VisitAtomicExpr(AtomicExpr *AE) {
      if (atomicAccessKind(AE) == EventKind::RMW)
        updated(AE->getPtr());
      return true;
    }
  };
  Finder F;
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const ValueDecl *D : F.Updated)
    Excluded.insert(D);
  if (F.Handlers.empty())
    return;
  // Within a TU a side's Fn is its FunctionDecl.
  for (MpSide &S : Sides)
    if (const auto *FD = static_cast<const FunctionDecl *>(S.Fn))
      if (F.Handlers.count(FD->getCanonicalDecl()))
        S.SignalHandler = true;
}

std::vector<MpMatch> MpCollector::match(bool Ordered) const {
  std::vector<MpMatch> Out;
  for (const MpSide &W : Sides) {
    if (!W.Writer || Excluded.count(W.Flag.Leaf))
      continue;
    // Published in a helper that is a writer side of its own (a header's
    // msg_send(), judged in every TU that sees it with its readers): with a
    // reader the helper's side pairs with, the helper's side stands for
    // this call, which adds no ordering between the helper's data and its
    // flag.
    const MpSide *Own = nullptr;
    if (W.Origin.isValid())
      for (const MpSide &O : Sides)
        if (O.Writer && &O != &W && O.FlagLoc == W.Origin)
          Own = &O;
    for (const MpSide &R : Sides) {
      if (R.Writer || !R.Flag.mayAlias(W.Flag) || R.Fn == W.Fn)
        continue;
      if (Own && R.Fn != Own->Fn && R.Flag.mayAlias(Own->Flag) &&
          llvm::any_of(Own->Data, [&](const MpData &OD) {
            return llvm::any_of(R.Data, [&](const MpData &RD) {
              return OD.Id.mayAlias(RD.Id);
            });
          }))
        continue;
      // A signal handler and the thread it interrupts: one thread, program
      // order; no CPU barrier is needed on either side.
      if (W.SignalHandler || R.SignalHandler)
        continue;
      // A volatile flag whose files never order, lock or mark anything
      // around its record, tested once and never waited for: the only sign
      // of another agent is a qualifier (DPDK's malloc heap, whose callers
      // hold the heap lock in another file; a control API that is not
      // thread safe by contract).
      if (W.Quiet && R.Quiet)
        continue;
      // Join: a TU that saw both functions has judged the pair.
      if (llvm::any_of(W.SeenIn,
                       [&](unsigned U) { return is_contained(R.SeenIn, U); }))
        continue;
      MpMatch M;
      M.W = &W;
      M.R = &R;
      M.WriterOrdered = M.ReaderOrdered = true;
      bool Any = false;
      for (const MpData &WD : W.Data)
        for (const MpData &RD : R.Data) {
          if (!WD.Id.mayAlias(RD.Id) || !(WD.Rel & RD.Rel) ||
              Excluded.count(WD.Id.Leaf) || OrderedIds.count(WD.Id.Leaf))
            continue;
          bool WU = WD.By == MpOrder::None, RU = RD.By == MpOrder::None;
          // Marked on both sides and ordered on neither: an independent
          // lockless variable, not data behind the flag.
          if (WU && RU && WD.Marked && RD.Marked)
            continue;
          Any = true;
          if (WU)
            M.WriterOrdered = false;
          else if (!M.WOrd)
            M.WOrd = &WD;
          if (RU)
            M.ReaderOrdered = false;
          else if (!M.ROrd)
            M.ROrd = &RD;
          if ((WU || RU) && !M.WD) {
            M.WD = &WD;
            M.RD = &RD;
          }
        }
      if (!Any || (!Ordered && M.WriterOrdered && M.ReaderOrdered))
        continue;
      M.WriterBy = M.WOrd ? M.WOrd->By : MpOrder::None;
      M.ReaderBy = M.ROrd ? M.ROrd->By : MpOrder::None;
      Out.push_back(M);
    }
  }
  return Out;
}

bool hasExplicitPartner(const std::vector<MpMatch> &Matches, const MpSide *S) {
  auto Explicit = [](MpOrder O) {
    return O == MpOrder::Barrier || O == MpOrder::Access;
  };
  for (const MpMatch &M : Matches) {
    if (M.W == S && !M.WriterOrdered && M.ReaderOrdered && Explicit(M.ReaderBy))
      return true;
    if (M.R == S && !M.ReaderOrdered && M.WriterOrdered && Explicit(M.WriterBy))
      return true;
  }
  return false;
}

// --- pairing comments ------------------------------------------------------

namespace {

/// The text of the comment on Loc's line (after Loc) and of the comment
/// lines just above it.
std::string commentNear(const SourceManager &SM, SourceLocation Loc) {
  auto [FID, Off] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || Off > Buf.size())
    return "";
  auto LineStart = [&](size_t P) {
    size_t S = P == 0 ? StringRef::npos : Buf.rfind('\n', P - 1);
    return S == StringRef::npos ? 0 : S + 1;
  };
  auto LineEnd = [&](size_t P) {
    size_t E = Buf.find('\n', P);
    return E == StringRef::npos ? Buf.size() : E;
  };
  std::string Text;
  // Same line, after the barrier: "smp_wmb(); /* pairs with ... */".
  size_t LS = LineStart(Off), LE = LineEnd(Off);
  StringRef Rest = Buf.slice(Off, LE);
  size_t Block = Rest.find("/*"), Line = Rest.find("//");
  if (Line != StringRef::npos && (Block == StringRef::npos || Line < Block)) {
    Text += Rest.substr(Line).str();
  } else if (Block != StringRef::npos) {
    // Follow a block comment over at most 10 lines.
    size_t End = Buf.find("*/", Off + Block);
    if (End != StringRef::npos && End - (Off + Block) < 1000)
      Text += Buf.slice(Off + Block, End).str();
  }
  // Lines above, while they are comment lines.
  std::vector<StringRef> Above;
  bool InBlock = false;
  size_t P = LS;
  for (unsigned N = 0; N < 20 && P > 0; ++N) {
    size_t PS = LineStart(P - 1);
    StringRef L = Buf.slice(PS, P - 1).trim();
    P = PS;
    if (InBlock) {
      Above.push_back(L);
      size_t Open = L.find("/*");
      if (Open != StringRef::npos) {
        InBlock = false;
        if (!L.take_front(Open).trim().empty())
          break; // a comment that starts after code on that line
      }
      continue;
    }
    if (L.empty())
      break;
    if (L.starts_with("//")) {
      Above.push_back(L);
      continue;
    }
    if (L.ends_with("*/")) {
      if (L.starts_with("/*")) {
        Above.push_back(L);
        continue;
      }
      if (L.contains("/*"))
        break; // trailing comment of a code line
      InBlock = true;
      Above.push_back(L);
      continue;
    }
    break;
  }
  if (InBlock)
    return Text; // never found the start: not a comment after all
  std::string All;
  for (auto It = Above.rbegin(); It != Above.rend(); ++It)
    All += It->str() + " ";
  return All + Text;
}

bool isOrderingApi(const ApiEntry *E) {
  if (!E)
    return false;
  if (E->R == Role::Barrier)
    return E->Barrier != BarrierKind::Compiler;
  if (E->R == Role::Load)
    return E->Ord == Order::Acquire;
  if (E->R == Role::Store)
    return E->Ord == Order::Release || E->Ord == Order::SeqCst;
  return E->R == Role::RMW || E->R == Role::WriteBegin ||
         E->R == Role::WriteEnd || E->R == Role::ReadBegin ||
         E->R == Role::ReadRetry;
}

} // namespace

std::optional<PairingComment> scanPairingComment(const SourceManager &SM,
                                                 SourceLocation Loc,
                                                 const ApiModel &Model) {
  if (Loc.isInvalid() || !Loc.isFileID())
    return std::nullopt;
  std::string Text = commentNear(SM, Loc);
  if (Text.empty())
    return std::nullopt;
  std::string Lower = StringRef(Text).lower();
  StringRef Low = Lower;
  bool Pairing = Low.contains("pair") || Low.contains("match") ||
                 Low.contains("see ") || Low.contains("against") ||
                 Low.contains("counterpart") || Low.contains("partner");
  if (!Pairing)
    return std::nullopt;
  PairingComment PC;
  static const Regex Call("([A-Za-z_][A-Za-z0-9_]*)[ \t]*\\([ \t]*\\)");
  StringRef Cur = Text;
  SmallVector<StringRef, 2> M;
  static const Regex Word(
      "(^|[^a-z0-9_])(barriers?|acquire|release|ordering)([^a-z0-9_]|$)");
  bool BarrierWord = Word.match(Low);
  while (Call.match(Cur, &M)) {
    StringRef Name = M[1];
    size_t At = Cur.find(M[0]);
    StringRef Before = Cur.take_front(At).rtrim();
    Cur = Cur.drop_front(At + M[0].size());
    const ApiEntry *E = Model.lookup(Name);
    if (isOrderingApi(E)) {
      if (PC.PartnerBarrier.empty())
        PC.PartnerBarrier = (Name + "()").str();
      BarrierWord = true;
      continue;
    }
    if (E)
      continue;
    // "... in foo()": the partner function.
    if (Before.size() >= 2 && Before.take_back(2).equals_insensitive("in") &&
        (Before.size() == 2 || !isAlnum(Before[Before.size() - 3])))
      if (!llvm::is_contained(PC.Functions, Name.str()))
        PC.Functions.push_back(Name.str());
  }
  if (PC.Functions.empty() || !BarrierWord)
    return std::nullopt;
  return PC;
}

bool BarrierData::sharesDataWith(const BarrierData &O) const {
  for (const clang::ValueDecl *D : Data)
    if (llvm::is_contained(O.Data, D))
      return true;
  return false;
}

BarrierData barrierDataOf(const FunctionTrace &T, unsigned Block,
                          unsigned Index) {
  const Event &E = T.Blocks[Block].Events[Index];
  BarrierData BD;
  BD.Loc = E.Loc;
  BD.Spelling = E.ApiName.empty() ? "the fence" : E.ApiName.str() + "()";
  if (E.Bits & OrdSS)
    BD.Sides |= PairWrite;
  if (E.Bits & OrdLL)
    BD.Sides |= PairRead;
  BD.Complete = true;
  for (bool Forward : {false, true}) {
    BarrierSide Side = scanBarrierSide(T, Block, Index, Forward);
    if (Side.unknown())
      BD.Complete = false;
    for (const BarrierAccess &A : Side.All) {
      const ValueDecl *Id = nullptr;
      if (A.E->Key >= 0 && A.E->Kind != EventKind::Call)
        Id = MpCollector::identity(T.key(A.E->Key));
      else
        Id = accessIdentity(T, *A.E).Field;
      if (!Id) {
        BD.Complete = false; // `*p`, `a[i]`: cannot tell what it is
        continue;
      }
      if (!llvm::is_contained(BD.Data, Id))
        BD.Data.push_back(Id);
    }
  }
  return BD;
}

OrderingSummary orderingOf(const FunctionTrace &T, Classifier &C) {
  OrderingSummary S;
  for (unsigned B = 0; B != T.Blocks.size(); ++B)
    for (unsigned I = 0; I != T.Blocks[B].Events.size(); ++I) {
      const Event &E = T.Blocks[B].Events[I];
      unsigned Sides = 0;
      switch (E.Kind) {
      case EventKind::Barrier: {
        unsigned Bits = ((E.Bits & OrdSS) ? (unsigned)PairWrite : 0u) |
                        ((E.Bits & OrdLL) ? (unsigned)PairRead : 0u);
        S.Sides |= Bits;
        if (isJudgedBarrier(E))
          S.Barriers.push_back(barrierDataOf(T, B, I));
        else
          S.OtherSides |= Bits; // asm, a seqcount write step
        break;
      }
      case EventKind::Load:
        if (isAcquire(E.Ord))
          Sides |= PairRead;
        else if (E.Api && isPointerValued(E))
          Sides |= PairRead; // an address dependency
        break;
      case EventKind::Store:
        if (isRelease(E.Ord))
          Sides |= PairWrite;
        break;
      case EventKind::RMW:
        if (isRelease(E.Ord))
          Sides |= PairWrite;
        if (isAcquire(E.Ord))
          Sides |= PairRead;
        break;
      case EventKind::Lock:
      case EventKind::Unlock:
        Sides |= PairWrite | PairRead;
        break;
      case EventKind::WriteBegin:
      case EventKind::WriteEnd:
      case EventKind::CounterInc:
        Sides |= PairWrite;
        break;
      case EventKind::ReadBegin:
      case EventKind::ReadRetry:
      case EventKind::ReadBeginOrLock:
        Sides |= PairRead;
        break;
      case EventKind::Call:
        if (mayOrderCall(E, C))
          S.Unknown = true;
        break;
      default:
        break;
      }
      S.Sides |= Sides;
      S.OtherSides |= Sides;
    }
  return S;
}

} // namespace seqlint
