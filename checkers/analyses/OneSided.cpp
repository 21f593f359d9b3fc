//===- OneSided.cpp - one side of a ring or publication protocol ----------===//
#include "analyses/OneSided.h"
#include "analyses/MessagePassing.h"
#include "core/AstQueries.h"
#include "core/FunctionAnalyses.h"
#include "core/LockAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/CFGReachabilityAnalysis.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <deque>
#include <functional>
#include <optional>

using namespace clang;
using namespace llvm;

namespace seqlint {

const RecordDecl *osOuterRecord(const ValueDecl *Field) {
  const auto *F = dyn_cast_or_null<FieldDecl>(Field);
  if (!F)
    return nullptr;
  const RecordDecl *RD = F->getParent();
  while (RD && RD->isAnonymousStructOrUnion())
    RD = dyn_cast<RecordDecl>(RD->getParent());
  return RD;
}

const ValueDecl *osIdentity(const LocationKey &K) {
  return MpCollector::identity(K);
}

namespace {

bool releaseLike(Order O) {
  return O == Order::Release || O == Order::AcqRel || O == Order::SeqCst;
}
bool acquireLike(Order O) {
  return O == Order::Acquire || O == Order::AcqRel || O == Order::SeqCst;
}

/// A type that says "a device reads this": the kernel's endian-annotated
/// integers (__le32, __be16 ...: descriptor fields in DMA memory), or
/// volatile.
} // namespace

bool osDeviceTyped(QualType T) {
  if (T.isNull())
    return false;
  if (T.isVolatileQualified())
    return true;
  while (const auto *TT = T->getAs<TypedefType>()) {
    StringRef N = TT->getDecl()->getName();
    if (isDeviceEndianTypeName(N))
      return true;
    T = TT->getDecl()->getUnderlyingType();
  }
  return false;
}

namespace {

/// A field a device reads or writes: device-endian or volatile itself, or
/// a member of a record laid out for a device (one with such a field: a
/// completion entry's `u16 command_id` beside its `__le16 status`).
bool typedDeviceField(const LocationKey &K) {
  if (!K.Field)
    return false;
  if (osDeviceTyped(K.Field->getType()))
    return true;
  const auto *F = dyn_cast<FieldDecl>(K.Field);
  if (!F || F->getType()->isPointerType())
    return false;
  return llvm::any_of(F->getParent()->fields(), [](const FieldDecl *G) {
    return !G->getType()->isPointerType() && osDeviceTyped(G->getType());
  });
}

/// Do A and B name the same object (`vq->used` and `vq->used`): the same
/// chain of variables, members and dereferences.
bool sameObjectExpr(const Expr *A, const Expr *B, unsigned Depth = 0) {
  if (!A || !B || Depth > 16)
    return false;
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (const auto *DA = dyn_cast<DeclRefExpr>(A)) {
    const auto *DB = dyn_cast<DeclRefExpr>(B);
    return DB && DA->getDecl() == DB->getDecl();
  }
  if (const auto *MA = dyn_cast<MemberExpr>(A)) {
    const auto *MB = dyn_cast<MemberExpr>(B);
    return MB && MA->getMemberDecl() == MB->getMemberDecl() && MA->isArrow() == MB->isArrow() &&
           sameObjectExpr(MA->getBase(), MB->getBase(), Depth + 1);
  }
  if (const auto *UA = dyn_cast<UnaryOperator>(A)) {
    const auto *UB = dyn_cast<UnaryOperator>(B);
    return UB && UA->getOpcode() == UB->getOpcode() &&
           (UA->getOpcode() == UO_Deref || UA->getOpcode() == UO_AddrOf) &&
           sameObjectExpr(UA->getSubExpr(), UB->getSubExpr(), Depth + 1);
  }
  return false;
}

/// The member access of Field inside S (the first one found).
const MemberExpr *findMember(const Stmt *S, const ValueDecl *Field, unsigned Depth = 0) {
  if (!S || !Field || Depth > 24)
    return nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->getMemberDecl() == Field)
    return ME;
  for (const Stmt *C : S->children())
    if (const MemberExpr *ME = findMember(C, Field, Depth + 1))
      return ME;
  return nullptr;
}

/// The first slot access in S whose subscripted array is a member
/// (`vq->used->ring[i]` in `vq->used->ring[i].id`). With Pointers, a member
/// that points to the array counts too (`m->buckets[i]` with `struct node
/// **buckets`).
const ArraySubscriptExpr *ringSubscript(const Stmt *S, bool Pointers = false,
                                        unsigned Depth = 0) {
  if (!S || Depth > 24)
    return nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
    if (const auto *ME = dyn_cast<MemberExpr>(AS->getBase()->IgnoreParenImpCasts());
        ME && (ME->getType()->isArrayType() || (Pointers && ME->getType()->isPointerType())))
      return AS;
  for (const Stmt *C : S->children())
    if (const ArraySubscriptExpr *AS = ringSubscript(C, Pointers, Depth + 1))
      return AS;
  return nullptr;
}

/// The array member a slot access subscripts (`vq->used->ring` in
/// `vq->used->ring[i].id`): ringSubscript()'s base.
const MemberExpr *ringMember(const Stmt *S, bool Pointers = false) {
  const ArraySubscriptExpr *AS = ringSubscript(S, Pointers);
  return AS ? cast<MemberExpr>(AS->getBase()->IgnoreParenImpCasts()) : nullptr;
}

bool nonConstant(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return false;
  Expr::EvalResult R;
  return !E->EvaluateAsInt(R, Ctx);
}

/// Locals of a function that point into a ring (`desc = &ring->desc[i]`,
/// `slot = base + idx`) and locals that hold freshly allocated memory.
class LocalScan {
public:
  LocalScan(const Stmt *Body, ASTContext &Ctx) : Ctx(Ctx) { walk(Body, 0); }
  void merge(const Stmt *Body) { walk(Body, 0); }
  DenseSet<const VarDecl *> Slots, Fresh;
  DenseMap<const VarDecl *, const Expr *> SlotIndex;
  DenseMap<const VarDecl *, SmallVector<const Expr *, 2>> Defs; // V = expr

private:
  void note(const VarDecl *V, const Expr *Init) {
    if (!V || !Init || !V->hasLocalStorage())
      return;
    if (Defs[V].size() < 4)
      Defs[V].push_back(Init);
    if (!V->getType()->isPointerType())
      return;
    const Expr *X = Init->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf)
      if (const auto *AS =
              dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParenCasts()))
        if (nonConstant(AS->getIdx(), Ctx)) {
          Slots.insert(V);
          SlotIndex[V] = AS->getIdx();
        }
    // ring->desc + i, of the local's own type: `(struct hdr *)(buf + off)`
    // is a header inside a buffer, not a slot of a ring.
    if (const auto *BO = dyn_cast<BinaryOperator>(Init->IgnoreParenImpCasts()))
      if ((BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
          BO->getType()->isPointerType() &&
          Ctx.hasSameUnqualifiedType(BO->getType()->getPointeeType(),
                                     V->getType()->getPointeeType()))
        for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
          if (Side->getType()->isIntegerType() && nonConstant(Side, Ctx)) {
            Slots.insert(V);
            SlotIndex[V] = Side;
          }
    if (const auto *CE = dyn_cast<CallExpr>(X))
      if (const FunctionDecl *F = CE->getDirectCallee())
        if (F->getIdentifier()) {
          StringRef N = F->getName();
          if (isNewObjectName(N))
            Fresh.insert(V);
        }
  }
  void walk(const Stmt *S, unsigned Depth) {
    if (!S || Depth > 256)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          note(V, V->getInit());
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        note(dyn_cast<VarDecl>(DR->getDecl()), BO->getRHS());
    for (const Stmt *C : S->children())
      walk(C, Depth + 1);
  }
  ASTContext &Ctx;
};

/// Blocks in reverse post-order, a loop's body before the code after the
/// loop (the DFS takes a block's last successor first): what a loop body
/// stores comes before what follows the loop in the sequence.
std::vector<const CFGBlock *> bodyFirstOrder(const CFG &G) {
  std::vector<const CFGBlock *> Post;
  std::vector<char> Seen(G.getNumBlockIDs());
  std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
  Stack.push_back({&G.getEntry(), 0});
  Seen[G.getEntry().getBlockID()] = 1;
  while (!Stack.empty()) {
    auto &[B, I] = Stack.back();
    unsigned N = B->succ_size();
    if (I < N) {
      const CFGBlock *S = *(B->succ_begin() + (N - 1 - I));
      ++I;
      if (S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Post.push_back(B);
    Stack.pop_back();
  }
  return std::vector<const CFGBlock *>(Post.rbegin(), Post.rend());
}

struct Scan {
  const FunctionTrace &T;
  Classifier &C;
  OsEvidence &Tu;
  ASTContext &Ctx;
  std::vector<const Event *> Seq;
  std::vector<int> Depth;
  /// The block of this function each event of Seq lies in (an inlined
  /// helper's events: the block of its call).
  std::vector<const CFGBlock *> BlockOf;
  mutable std::optional<CFGReverseBlockReachabilityAnalysis> Reach;
  mutable std::optional<ParentMap> Parents; // of this function's body
  LocalScan Locals;
  BranchTests Conds{/*Answers=*/true};
  BranchTests Decisions; // branch conditions only (not answers returned)
  /// Events of small helpers, inlined at their calls (copies), and the
  /// trace each inlined event's key belongs to.
  std::deque<Event> Owned;
  DenseMap<const Event *, const FunctionTrace *> TraceOf;
  /// Inlined events -> the helper whose call in this function they replace
  /// (the outermost one, for a helper of a helper).
  DenseMap<const Event *, const FunctionDecl *> InlinedFrom;
  DenseMap<const VarDecl *, const Expr *> ArgOf; // inlined helper's parameters
  DenseMap<const Event *, const VarDecl *> CallBase; // ... resolved per call

  /// A field of device memory: device-endian (__le32), volatile, or a
  /// member of a record the TU allocates with dma_alloc_coherent().
  bool deviceField(const LocationKey &K) const {
    return typedDeviceField(K) || (K.Field && Tu.shared(C).deviceRecordField(K.Field));
  }
  /// A volatile integer field in a record with no device-endian field: a
  /// word shared with another agent, not a descriptor's.
  bool volatileWord(const LocationKey &K) const {
    const auto *F = dyn_cast_or_null<FieldDecl>(K.Field);
    if (!F || !F->getType().isVolatileQualified() || !F->getType()->isIntegerType())
      return false;
    return llvm::none_of(F->getParent()->fields(), [](const FieldDecl *G) {
      return !G->getType().isVolatileQualified() && osDeviceTyped(G->getType());
    });
  }
  /// The variable an inlined helper's pointer parameter stands for (`d` in
  /// `cmpl_gen(d)`), else V itself.
  const VarDecl *resolveBase(const VarDecl *V) const {
    for (unsigned Depth = 0; V && Depth < 4; ++Depth) {
      auto It = ArgOf.find(V);
      if (It == ArgOf.end())
        break;
      const auto *DR = dyn_cast<DeclRefExpr>(It->second->IgnoreParenCasts());
      const auto *A = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      if (!A || A == V)
        break;
      V = A;
    }
    return V;
  }
  /// The ring array member a descriptor access is in: subscripted directly
  /// (`vq->desc[i].flags`) or through a local slot pointer (`e =
  /// &cq->cqes[head]; e->status`), seeing helpers' parameters as their
  /// arguments.
  const ValueDecl *ringOf(const Event &E, const LocationKey &K) const {
    if (const MemberExpr *ME = ringMember(E.node(), /*Pointers=*/true))
      return ME->getMemberDecl();
    const VarDecl *B = resolveBase(K.Base);
    if (!B || !Locals.Slots.count(B))
      return nullptr;
    auto It = Locals.Defs.find(B);
    if (It != Locals.Defs.end())
      for (const Expr *D : It->second)
        if (const MemberExpr *ME = ringMember(D, /*Pointers=*/true))
          return ME->getMemberDecl();
    return nullptr;
  }
  /// Do two descriptor accesses name the same descriptor (one slot pointer)
  /// or, through helpers, slots of the same ring?
  const VarDecl *baseAt(const Event &E, const LocationKey &K) const {
    auto It = CallBase.find(&E);
    return It != CallBase.end() ? It->second : resolveBase(K.Base);
  }
  bool sameDescriptor(const Event &A, const LocationKey &AK, const Event &B,
                      const LocationKey &BK) const {
    if (AK.Base && baseAt(A, AK) == baseAt(B, BK)) {
      // An element of an array on B's path is the descriptor: A must lie
      // in it too (`c->mem[i]` and `c->total` share a base, not a slot).
      size_t Slot = 0;
      for (size_t I = 0; I != BK.Path.size(); ++I)
        if (BK.Path[I].Kind == KeyStep::Index)
          Slot = I + 1;
      if (!Slot || AK.Base != BK.Base)
        return true;
      return AK.Path.size() >= Slot &&
             LocationKey::sameSteps(
                 ArrayRef<KeyStep>(AK.Path).take_front(Slot),
                 ArrayRef<KeyStep>(BK.Path).take_front(Slot));
    }
    // The slot a helper tested and returned (`desc = vq_get_avail(vq)`).
    if (AK.Field && BK.Field && AK.Field->getDeclContext() == BK.Field->getDeclContext() &&
        (returnedSlot(AK, B) || returnedSlot(BK, A)))
      return true;
    const ValueDecl *RA = ringOf(A, AK);
    return RA && RA == ringOf(B, BK);
  }

  /// Is the slot E reads addressed by a ring position: a field that this
  /// function (or a helper it calls) moves on (`desc =
  /// &vq->desc_ring[vq->next_avail_idx]; ... ++vq->next_avail_idx`)? A
  /// per-CPU or per-object array indexed by a fixed number is no ring.
  bool ringPosition(const Event &E) const {
    const Expr *Idx = slotIndex(E);
    if (!Idx)
      return false;
    DenseSet<const VarDecl *> Vars;
    DenseSet<const ValueDecl *> Fields;
    names(Idx, Vars, Fields, 0);
    for (const VarDecl *V : Vars) {
      auto It = Locals.Defs.find(V);
      if (It != Locals.Defs.end())
        for (const Expr *D : It->second)
          names(D, Vars, Fields, 0);
    }
    if (Fields.empty())
      return false;
    for (const Event *X : Seq)
      if (X->Kind == EventKind::Store || X->Kind == EventKind::RMW)
        if (const LocationKey *XK = keyOf(*X); XK && XK->Field && Fields.count(XK->Field))
          return true;
    return false;
  }

  /// Is K's base a local set from a call of the inlined helper that holds
  /// Y (the helper tests a slot and returns it)?
  bool returnedSlot(const LocationKey &K, const Event &Y) const {
    return K.Base && Y.Via && definedByCall(K.Base, [&](const FunctionDecl *F) {
             return F->getCanonicalDecl() == Y.Via->getCanonicalDecl();
           });
  }
  /// Is V set from a call of a function that Pred accepts?
  bool definedByCall(const VarDecl *V,
                     llvm::function_ref<bool(const FunctionDecl *)> Pred) const {
    return callDefining(V, Pred) != nullptr;
  }
  /// The call of a function that Pred accepts that V is set from, if any.
  const CallExpr *callDefining(const VarDecl *V,
                               llvm::function_ref<bool(const FunctionDecl *)> Pred) const {
    auto It = Locals.Defs.find(V);
    if (It == Locals.Defs.end())
      return nullptr;
    for (const Expr *D : It->second)
      if (const auto *CE = dyn_cast<CallExpr>(D->IgnoreParenCasts()))
        if (const FunctionDecl *F = CE->getDirectCallee(); F && Pred(F))
          return CE;
    return nullptr;
  }

  /// The store of the same descriptor word to another slot of the same
  /// ring, earlier in the sequence: the chain's other descriptors, filled
  /// first, and this one written last (virtio's packed head flags,
  /// stmmac's first descriptor's OWN bit). Deferring one slot's word is a
  /// hand-over of the whole chain.
  const Event *deferredSibling(size_t I) const {
    const Event &P = *Seq[I];
    const LocationKey *PK = keyOf(P);
    if (!PK || !PK->Field)
      return nullptr;
    const ValueDecl *Ring = ringOf(P, *PK);
    if (!Ring)
      return nullptr;
    const Expr *PI = slotIndex(P);
    // The hand-over is the last store to its descriptor.
    for (size_t K = I + 1; K < Seq.size(); ++K) {
      const Event &L = *Seq[K];
      const LocationKey *LK = L.Kind == EventKind::Store || L.Kind == EventKind::RMW
                                  ? keyOf(L)
                                  : nullptr;
      if (!LK || ringOf(L, *LK) != Ring)
        continue;
      const Expr *LI = slotIndex(L);
      if (PI && LI ? Expr::isSameComparisonOperand(PI, LI)
                   : !PI && !LI && baseAt(L, *LK) == baseAt(P, *PK))
        return nullptr;
    }
    for (size_t J = 0; J != I; ++J) {
      const Event &D = *Seq[J];
      if (D.Kind != EventKind::Store)
        continue;
      const LocationKey *DK = keyOf(D);
      if (!DK || DK->Field != PK->Field || ringOf(D, *DK) != Ring)
        continue;
      const Expr *DI = slotIndex(D);
      bool Other = PI && DI ? !Expr::isSameComparisonOperand(PI, DI)
                            : (!PI && !DI && baseAt(D, *DK) != baseAt(P, *PK)) ||
                                  (!PI && !DI && D.Loc != P.Loc && D.Via && D.Via == P.Via);
      if (Other)
        return &D;
    }
    return nullptr;
  }

  /// What makes K a descriptor word, for the message.
  std::string deviceWhy(const LocationKey &K) const {
    if (typedDeviceField(K))
      return "a device-endian descriptor field";
    const SharedMemory::Source *Src = Tu.shared(C).of(K);
    return "a descriptor field in memory from " + (Src ? Src->Api : std::string("DMA")) +
           "()";
  }
  /// K lies in memory another process or a device sees, by where that
  /// memory came from: sets Cand's evidence.
  bool sharedByProvenance(const LocationKey &K, OsCandidate &Cand) const {
    const SharedMemory::Source *Src = Tu.shared(C).of(K);
    if (!Src)
      return false;
    Cand.SelfEvident = true;
    Cand.Why = SharedMemory::describe(*Src);
    return true;
  }

  /// refersTo(), seeing an inlined helper's parameter as the argument.
  bool mentions(const Stmt *S, const VarDecl *V, unsigned Depth = 0) const {
    if (!S || !V || Depth > 32)
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      if (DR->getDecl() == V)
        return true;
      if (const auto *P = dyn_cast<VarDecl>(DR->getDecl())) {
        auto It = ArgOf.find(P);
        return It != ArgOf.end() && mentions(It->second, V, Depth + 1);
      }
      return false;
    }
    for (const Stmt *Ch : S->children())
      if (mentions(Ch, V, Depth + 1))
        return true;
    return false;
  }

  /// Integer differences (`prod_tail - cons_head`) in the function and in
  /// the helpers whose events it holds: how a ring counts its entries.
  SmallVector<const BinaryOperator *, 8> Diffs;
  DenseSet<const FunctionDecl *> DiffBodies;

  void collectDiffs(const FunctionDecl *FD) {
    if (FD && FD->getBody() && DiffBodies.insert(FD->getCanonicalDecl()).second)
      collectDiffs(FD->getBody(), 0);
  }
  void collectDiffs(const Stmt *S, unsigned Depth) {
    if (!S || Depth > 256)
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(S))
      if (B->getOpcode() == BO_Sub && B->getLHS()->getType()->isIntegerType() &&
          B->getRHS()->getType()->isIntegerType())
        Diffs.push_back(B);
    for (const Stmt *Ch : S->children())
      collectDiffs(Ch, Depth + 1);
  }

  /// The other operands of the differences L's value takes part in: the
  /// position it is counted against (`entries = prod_tail - cons_head`).
  SmallVector<const Expr *, 2> countedAgainst(const Event &L) const {
    SmallVector<const Expr *, 2> Out;
    const Stmt *LS = L.node();
    const VarDecl *V = L.Use == ValueUse::Assigned ? L.Var : nullptr;
    for (const BinaryOperator *B : Diffs) {
      const Expr *Sides[2] = {B->getLHS(), B->getRHS()};
      for (int I = 0; I < 2; ++I)
        if (containsStmt(Sides[I], LS) || (V && refersTo(Sides[I], V))) {
          // A position is a local or a field; what a slot holds (a time
          // stamp compared with the clock) is no position.
          if (!hasSubscript(Sides[1 - I], 0))
            Out.push_back(Sides[1 - I]);
          break;
        }
    }
    return Out;
  }
  /// The locals S names outside the arguments of the calls in it.
  static void varsOutsideCalls(const Stmt *S, DenseSet<const VarDecl *> &Out,
                               unsigned Depth) {
    if (!S || Depth > 32 || isa<CallExpr>(S))
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        Out.insert(V);
    for (const Stmt *C : S->children())
      varsOutsideCalls(C, Out, Depth + 1);
  }
  static bool hasSubscript(const Stmt *S, unsigned Depth) {
    if (!S || Depth > 32)
      return false;
    if (isa<ArraySubscriptExpr>(S))
      return true;
    for (const Stmt *Ch : S->children())
      if (hasSubscript(Ch, Depth + 1))
        return true;
    return false;
  }

  Scan(FunctionAnalyses &FA, Classifier &C, OsEvidence &Tu)
      : T(FA.trace()), C(C), Tu(Tu), Ctx(C.context()),
        Locals(T.FD->getBody(), C.context()) {
    Conds.walk(T.FD->getBody());
    Decisions.walk(T.FD->getBody());
    collectDiffs(T.FD);
    for (const CFGBlock *B : bodyFirstOrder(*T.Cfg))
      for (const Event &E : T.Blocks[B->getBlockID()].Events) {
        append(E, T, 0);
        BlockOf.resize(Seq.size(), B);
      }
    Depth.resize(Seq.size());
    // Held locks: the function's own events by the must-held dataflow (an
    // unlock on an early-return path does not end the critical section of
    // the paths that go on, PostgreSQL's MaintainOldSnapshotTimeMapping());
    // a helper's events by counting its lock and unlock events in order.
    const LockSets &Held = FA.locks();
    int D = 0;
    bool OwnHeld = false;
    for (size_t I = 0; I != Seq.size(); ++I) {
      if (const LockSet *S = Held.before(*Seq[I]))
        OwnHeld = !S->empty();
      Depth[I] = std::max(D, OwnHeld ? 1 : 0);
      if (Seq[I]->Kind == EventKind::Lock)
        ++D;
      else if (Seq[I]->Kind == EventKind::Unlock && D > 0)
        --D;
    }
  }

  /// Appends E; a call of a small helper of the TU is replaced by the
  /// helper's events (two levels down), reported at the call.
  void append(const Event &E, const FunctionTrace &From, unsigned Level,
              const FunctionDecl *Top = nullptr) {
    if (E.Kind == EventKind::Call && !E.SideEffect && !E.Noreturn && E.Callee &&
        Level < 2 && Seq.size() < 4000)
      if (const FunctionTrace *H = Tu.helperTrace(C, E.Callee)) {
        // The helper's parameters stand for the call's arguments.
        const Stmt *CallS = E.Via ? E.InnerS : E.S;
        if (const auto *CE = dyn_cast_or_null<CallExpr>(CallS))
          for (unsigned A = 0; A < CE->getNumArgs() && A < H->FD->getNumParams(); ++A)
            ArgOf[H->FD->getParamDecl(A)] = CE->getArg(A);
        Locals.merge(H->FD->getBody());
        Conds.walk(H->FD->getBody());
        Decisions.walk(H->FD->getBody());
        collectDiffs(H->FD);
        for (const CFGBlock *B : bodyFirstOrder(*H->Cfg))
          for (const Event &X : H->Blocks[B->getBlockID()].Events) {
            if (X.Kind == EventKind::Return)
              continue;
            // A copy reported at this call, with a note inside the helper.
            Event Copy = X;
            if (!Copy.Via) {
              Copy.Via = H->FD;
              Copy.InnerLoc = X.Loc;
              Copy.InnerS = X.S;
            }
            Copy.Loc = E.Loc;
            Owned.push_back(Copy);
            InlinedFrom[&Owned.back()] = Top ? Top : H->FD;
            // The slot pointer a parameter stands for at this call (ArgOf
            // holds the last call's argument once the scan is built).
            if (X.Key >= 0)
              if (const VarDecl *B = H->key(X.Key).Base; B && ArgOf.count(B))
                CallBase[&Owned.back()] = resolveBase(B);
            if (X.Kind == EventKind::Call) {
              // A helper of the helper.
              append(Owned.back(), *H, Level + 1, Top ? Top : H->FD);
              continue;
            }
            Seq.push_back(&Owned.back());
            TraceOf[&Owned.back()] = H;
            // An accessor the classifier spliced into the helper (advance()
            // calls word_set()): its parameters stand for that call's
            // arguments, as for one spliced into this function.
            mapSplicedArgs(X);
          }
        return;
      }
    Seq.push_back(&E);
    if (&From != &T)
      TraceOf[&E] = &From;
    // An event the classifier spliced from a helper: its value is written
    // in the helper's terms.
    if (E.Via)
      collectDiffs(E.Via);
    mapSplicedArgs(E);
  }
  /// For an event the classifier spliced from a helper at a call (E.S),
  /// the helper's parameters stand for that call's arguments.
  void mapSplicedArgs(const Event &E) {
    if (E.Via)
      if (const auto *CE = dyn_cast_or_null<CallExpr>(E.S))
        if (CE->getDirectCallee() &&
            CE->getDirectCallee()->getCanonicalDecl() == E.Via->getCanonicalDecl())
          for (unsigned A = 0; A < CE->getNumArgs() && A < E.Via->getNumParams(); ++A)
            ArgOf[E.Via->getParamDecl(A)] = CE->getArg(A);
  }

  /// The value a store writes, in the helper that holds it if seen through.
  static const Expr *valueOf(const Event &E) {
    const Stmt *S = E.node();
    // A store API that is a function (`atomic_set(&r->head, v)`,
    // `pg_atomic_write_u64(&mq->bytes_written, v)`): its value argument.
    // (Not a device write: `writel(v, addr)` has its value first.)
    if (const auto *CE = dyn_cast_or_null<CallExpr>(S);
        CE && E.Api && !E.Api->Mmio && E.Kind == EventKind::Store && CE->getNumArgs() >= 2 &&
        !isa<AtomicExpr>(CE->getArg(1)->IgnoreParenImpCasts()))
      return CE->getArg(1);
    // A compare-and-swap stores its desired value, not the expected one.
    for (unsigned Depth = 0; S && Depth < 4; ++Depth) {
      if (const auto *AE = dyn_cast<AtomicExpr>(S)) {
        if (AE->isCmpXChg())
          return AE->getVal2();
        break;
      }
      const auto *X = dyn_cast<Expr>(S);
      if (!X || X->IgnoreParenImpCasts() == X)
        break;
      S = X->IgnoreParenImpCasts();
    }
    return storedValue(S, /*Compound=*/true);
  }

  /// The array member a local slot pointer points into (`bucket =
  /// &m->buckets[h & mask]`: m->buckets), for an access through it.
  const ValueDecl *slotArrayOf(const LocationKey &K) const {
    if (K.Field || !K.Base || !Locals.Slots.count(K.Base))
      return nullptr;
    auto It = Locals.Defs.find(K.Base);
    if (It == Locals.Defs.end())
      return nullptr;
    for (const Expr *D : It->second)
      if (const MemberExpr *ME = ringMember(D, /*Pointers=*/true))
        return ME->getMemberDecl();
    return nullptr;
  }

  /// Is there a path from Seq[From] to Seq[To]? The sequence is a block
  /// order, so an earlier event need not come before a later one on any
  /// path (a store on an early-return arm, then a load after the branch).
  bool onPath(size_t From, size_t To) const {
    if (BlockOf[From] == BlockOf[To])
      return true;
    if (!Reach)
      Reach.emplace(*T.Cfg);
    return Reach->isReachable(BlockOf[From], BlockOf[To]);
  }

  /// Does the value of E depend on the load at Load: E contains it, or
  /// names a local one of whose assignments does (through at most four
  /// locals)? A call's result is another value.
  bool derivesFrom(const Stmt *E, const Expr *Load, unsigned Hops = 0,
                   unsigned Depth = 0) const {
    if (!E || Depth > 32)
      return false;
    if (const auto *X = dyn_cast<Expr>(E)) {
      X = X->IgnoreParenImpCasts();
      if (X == Load)
        return true;
      if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
        const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        auto It = V && V->hasLocalStorage() && Hops < 4 ? Locals.Defs.find(V)
                                                        : Locals.Defs.end();
        return It != Locals.Defs.end() &&
               llvm::any_of(It->second, [&](const Expr *Def) {
                 return derivesFrom(Def, Load, Hops + 1, 0);
               });
      }
    }
    if (isa<CallExpr>(E))
      return false;
    return llvm::any_of(E->children(), [&](const Stmt *C) {
      return derivesFrom(C, Load, Hops, Depth + 1);
    });
  }

  /// The lvalue (or pointer) a store or read-modify-write writes through.
  static const Expr *storeTarget(const Event &S) {
    const Stmt *N = S.node();
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(N);
        BO && BO->isAssignmentOp())
      return BO->getLHS();
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(N);
        UO && UO->isIncrementDecrementOp())
      return UO->getSubExpr();
    if (const auto *AE = dyn_cast_or_null<AtomicExpr>(N))
      return AE->getPtr();
    if (const auto *CE = dyn_cast_or_null<CallExpr>(N); CE && CE->getNumArgs())
      return CE->getArg(0);
    return nullptr;
  }
  /// Is the store S ordered after the load D by a dependency, as every CPU
  /// keeps it (a store is never made visible before the loads its value or
  /// its execution depend on): S stores a value computed from D's (`head =
  /// slot[head].next`: a list walked, not a position moved past what was
  /// read), S lies in a branch of a test of D's value (the kernel's
  /// load-to-store control dependency), or S's address comes from D (an
  /// address dependency). Only for accesses of this function's own body.
  bool orderedByDependency(const Event &D, const Event &S) const {
    if (D.Via || S.Via || InlinedFrom.count(&D) || InlinedFrom.count(&S))
      return false;
    const auto *Load = dyn_cast_or_null<Expr>(D.node());
    if (!Load)
      return false;
    Load = Load->IgnoreParenImpCasts();
    if (derivesFrom(valueOf(S), Load))
      return true;
    // An address dependency: the store goes through the loaded pointer
    // (`__atomic_sub_fetch(&rxq->umem->refcnt, 1, ...)` after loading
    // `rxq->umem`); no CPU performs a store before its address is known.
    if (const Expr *Target = storeTarget(S))
      if (containsStmt(Target, Load) || derivesFrom(Target, Load))
        return true;
    if (!Parents)
      Parents.emplace(const_cast<Stmt *>(T.FD->getBody()));
    const SourceManager &SM = Ctx.getSourceManager();
    const Stmt *Cur = S.node();
    for (unsigned Up = 0; Cur && Up < 32; ++Up) {
      const Stmt *P = Parents->getParent(Cur);
      if (!P)
        break;
      const Expr *Cond = nullptr;
      if (const auto *If = dyn_cast<IfStmt>(P))
        Cond = Cur != If->getCond() ? If->getCond() : nullptr;
      else if (const auto *CO = dyn_cast<ConditionalOperator>(P))
        Cond = Cur != CO->getCond() ? CO->getCond() : nullptr;
      // ... a test made after the load (not of a value a later load in
      // its own branch gives the same local: memif's chain walk tests
      // the length left, then loads the next descriptor's).
      if (Cond &&
          !SM.isBeforeInTranslationUnit(
              SM.getExpansionLoc(Cond->getEndLoc()),
              SM.getExpansionLoc(Load->getBeginLoc())) &&
          derivesFrom(Cond, Load))
        return true;
      Cur = P;
    }
    return false;
  }

  const FunctionTrace &traceOf(const Event &E) const {
    auto It = TraceOf.find(&E);
    return It == TraceOf.end() ? T : *It->second;
  }
  const LocationKey *keyOf(const Event &E) const {
    if (E.Key < 0)
      return nullptr;
    const LocationKey &K = traceOf(E).key(E.Key);
    return K.isLocal() ? nullptr : &K;
  }
  bool counter(const Event &E) const {
    return E.Counter || traceOf(E).Counters.count(E.Key) ||
           E.Kind == EventKind::CounterInc;
  }
  /// A ring slot or descriptor: an element at a computed index, or memory
  /// reached through a local that points into a ring.
  bool slot(const LocationKey &K) const {
    if (K.hasSomeElement())
      return true;
    return K.Base && K.ViaPointer && Locals.Slots.count(resolveBase(K.Base));
  }
  bool tested(const Event &E) const {
    if (E.Use == ValueUse::Compared || E.Use == ValueUse::Condition ||
        E.Use == ValueUse::Returned)
      return true;
    return testedBy(Conds, E, E.S);
  }
  /// Is E's value (Node, the local it is assigned to, or a local computed
  /// from that one) among the tests B found? One step on: `flags =
  /// READ_ONCE(d->flags); used = flags & F_USED; return used == wrap`.
  bool testedBy(const BranchTests &B, const Event &E, const Stmt *Node) const {
    if (B.Nodes.count(Node))
      return true;
    if (E.Use != ValueUse::Assigned || !E.Var)
      return false;
    if (B.Vars.count(E.Var))
      return true;
    for (const auto &[V, Defs] : Locals.Defs)
      if (B.Vars.count(V))
        for (const Expr *D : Defs)
          if (refersTo(D, E.Var))
            return true;
    return false;
  }
  static bool integerTarget(const Event &E) {
    const auto *X = dyn_cast_or_null<Expr>(E.node());
    if (E.Kind == EventKind::RMW)
      return true; // ring->tail++, += n
    if (const Expr *V = valueOf(E))
      return V->getType()->isIntegerType();
    return X && X->getType()->isIntegerType();
  }
  bool volatileAccess(const Event &E) const {
    if (const LocationKey *K = keyOf(E))
      if (K->Field && K->Field->getType().isVolatileQualified())
        return true;
    const auto *X = dyn_cast_or_null<Expr>(E.node());
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(X))
      return BO->getLHS()->getType().isVolatileQualified();
    // An accessor declared on volatile memory (PostgreSQL's
    // `pg_atomic_write_u64(volatile pg_atomic_uint64 *ptr, uint64 val)`).
    if (const auto *CE = dyn_cast_or_null<CallExpr>(X); CE && E.Api)
      if (const FunctionDecl *F = CE->getDirectCallee(); F && F->getNumParams() > 0)
        if (const auto *PT = F->getParamDecl(0)->getType()->getAs<PointerType>())
          return PT->getPointeeType().isVolatileQualified();
    return false;
  }
  static bool c11Atomic(const Event &E) {
    const Stmt *S = E.Via ? E.InnerS : E.S;
    for (unsigned Depth = 0; S && Depth < 4; ++Depth) {
      if (isa<AtomicExpr>(S))
        return true;
      if (const auto *X = dyn_cast<Expr>(S); X && X->IgnoreParenImpCasts() != X) {
        S = X->IgnoreParenImpCasts();
        continue;
      }
      break;
    }
    return E.Api && (E.Api->F == Family::C11 || E.Api->F == Family::GNU);
  }
  bool marked(const Event &E) const {
    if (E.Ord != Order::Plain)
      return true;
    if (const LocationKey *K = keyOf(E))
      if (K->Field && K->Field->getType().isVolatileQualified())
        return true;
    return false;
  }

  /// D's location when it is shared data other than Id (not a local, not
  /// a counter), else null.
  const LocationKey *otherLocation(const Event &D, const ValueDecl *Id) const {
    const LocationKey *DK = keyOf(D);
    if (!DK || counter(D))
      return nullptr;
    const ValueDecl *DId = osIdentity(*DK);
    return DId && DId != Id ? DK : nullptr;
  }

  /// D ends the stretch a candidate is looked for in: a barrier (one that
  /// orders, or the wrong kind, which is barrier-wrong-kind's), an atomic
  /// read-modify-write with the ordering the side needs, or a call that
  /// may order.
  bool ends(const Event &D, bool (*Ordering)(Order)) const {
    if (D.Kind == EventKind::Barrier && D.Bits)
      return true;
    if (D.Kind == EventKind::RMW && Ordering(D.Ord))
      return true;
    return mayOrderCall(D, C);
  }
  /// ... when D orders on every path through it: a helper that orders only
  /// on some (rte_pktmbuf_alloc(): the mempool's ring on its slow path, its
  /// per-core cache on the fast one) leaves the others unordered. The
  /// events of a helper inlined here lie on the helper's paths: an ordering
  /// one ends a stretch that starts at From, outside that call, when the
  /// helper orders on every path. From inside the same call, the helper's
  /// own order counts (`if (!(st & USER)) return 0; smp_rmb(); return 1;`
  /// orders on the one path that goes on).
  bool endsEveryPath(const Event &D, bool (*Ordering)(Order), const Event &From) const {
    auto It = InlinedFrom.find(&D);
    if (It != InlinedFrom.end()) {
      auto Fr = InlinedFrom.find(&From);
      if (Fr != InlinedFrom.end() && Fr->second == It->second && From.Loc == D.Loc)
        return ends(D, Ordering);
    }
    bool Ends = D.Kind == EventKind::Call ? mustOrderCall(D, C) : ends(D, Ordering);
    if (Ends && It != InlinedFrom.end())
      return C.summary(It->second).MustOrder;
    return Ends;
  }

  /// The index expression a slot access is addressed by (the subscript,
  /// or the one the slot pointer was computed with).
  const Expr *slotIndex(const Event &E) const {
    const Stmt *S = E.Via ? E.InnerS : E.S;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S))
      S = BO->getLHS();
    else if (const auto *CE = dyn_cast_or_null<CallExpr>(S)) // memcpy(&slot, ...)
      S = CE->getNumArgs() ? CE->getArg(0) : nullptr;
    else if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(S))
      S = IC->getSubExpr();
    for (unsigned Depth = 0; S && Depth < 8; ++Depth) {
      const Expr *X = dyn_cast<Expr>(S);
      if (!X)
        break;
      X = X->IgnoreParenCasts();
      // The kernel's READ_ONCE() is a statement expression: its value is
      // its last statement (`*(const volatile T *)&(x)`).
      if (const auto *SE = dyn_cast<StmtExpr>(X)) {
        S = SE->getSubStmt()->body_empty() ? nullptr : SE->getSubStmt()->body_back();
        continue;
      }
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X))
        return AS->getIdx();
      if (const auto *ME = dyn_cast<MemberExpr>(X)) {
        S = ME->getBase();
        continue;
      }
      if (const auto *U = dyn_cast<UnaryOperator>(X)) {
        S = U->getSubExpr();
        continue;
      }
      break;
    }
    if (const LocationKey *K = keyOf(E))
      if (K->Base) {
        auto It = Locals.SlotIndex.find(K->Base);
        if (It != Locals.SlotIndex.end())
          return It->second;
      }
    return nullptr;
  }

  /// Is the slot at index Idx the one the index location Key (whose new
  /// value is Value) counts? They share a local (`ring[prod & m] = x;
  /// WRITE_ONCE(r->prod, prod + 1)`), or the subscript loads the index
  /// itself (`buf[r->tail & m] = x; r->tail++`).
  bool sameRing(const Expr *Idx, const Event &IndexEv, const Expr *Value,
                bool Strict = false) const {
    const LocationKey *IK = keyOf(IndexEv);
    if (!Idx || !IK)
      return false;
    DenseSet<const VarDecl *> Vars;
    bool LoadsKey = false;
    collect(Idx, IK->Field, Vars, LoadsKey, 0);
    if (LoadsKey)
      return true;
    const FunctionTrace &IT = traceOf(IndexEv);
    // A few steps through the locals' definitions (idx = w & mask; offset =
    // wb % size with wb = read(&mq->bytes_written) + pending).
    SmallVector<const VarDecl *, 8> Frontier(Vars.begin(), Vars.end());
    for (unsigned Step = 0; Step < 3 && !Frontier.empty() && !LoadsKey; ++Step) {
      SmallVector<const VarDecl *, 8> Next;
      for (const VarDecl *V : Frontier) {
        auto It = Locals.Defs.find(V);
        if (It == Locals.Defs.end())
          continue;
        for (const Expr *D : It->second) {
          DenseSet<const VarDecl *> Found;
          collect(D, IK->Field, Found, LoadsKey, 0);
          // A value read from a slot (`id = desc[last].id`) is data that
          // names another array's element: what addressed that slot is
          // not followed further (one step, as always, is).
          bool Data = hasSubscript(D, 0);
          // Nor is what a function returns for a local (`slotno =
          // lru_read_page(ctl, curpage)`: a buffer slot for a page number)
          // a position computed from it.
          DenseSet<const VarDecl *> Direct;
          varsOutsideCalls(D, Direct, 0);
          for (const VarDecl *W : Found)
            if (Vars.insert(W).second && !Data && Direct.count(W))
              Next.push_back(W);
        }
      }
      Frontier = std::move(Next);
    }
    if (LoadsKey)
      return true;
    for (const VarDecl *V : Vars) {
      for (const FunctionTrace *Tr : {&T, &IT}) {
        auto Src = Tr->VarSource.find(V);
        if (Src != Tr->VarSource.end() &&
            osIdentity(Tr->key(Src->second)) == osIdentity(*IK))
          return true;
      }
      if (!Strict && Value && mentions(Value, V))
        return true;
    }
    return false;
  }
  /// Two different fields of one record, reached through one pointer
  /// variable (`bdp->cbd_datlen`, `bdp->cbd_sc`).
  static bool siblings(const LocationKey &A, const LocationKey &B) {
    return A.Base && A.Base == B.Base && A.ViaPointer && B.ViaPointer && A.Field && B.Field &&
           A.Field != B.Field && A.Field->getDeclContext() == B.Field->getDeclContext() &&
           !A.hasSomeElement() && !B.hasSomeElement();
  }

  /// Is the array D stores into a flexible array member (`u16 ring[]`),
  /// addressed by a position that wraps (`& (num - 1)`, `% num`): a ring,
  /// not an array filled up to a count?
  bool flexibleRing(const Event &D) const {
    const MemberExpr *Ring = ringMember(D.node());
    if (!Ring ||
        !isa<IncompleteArrayType>(Ring->getMemberDecl()->getType()->getUnqualifiedDesugaredType()))
      return false;
    const Expr *Idx = slotIndex(D);
    if (!Idx)
      return false;
    if (wraps(Idx))
      return true;
    return llvm::any_of(defsOf(Idx), [&](const Expr *Def) { return wraps(Def); });
  }
  static bool wraps(const Stmt *S, unsigned Depth = 0) {
    if (!S || Depth > 12)
      return false;
    if (const auto *B = dyn_cast<BinaryOperator>(S))
      if (B->getOpcode() == BO_And || B->getOpcode() == BO_Rem)
        return true;
    for (const Stmt *C : S->children())
      if (wraps(C, Depth + 1))
        return true;
    return false;
  }

  /// Are the slot D stores and the index P stores members of one object,
  /// the ring's own header (`vq->used->ring[i].id = ...; vq->used->idx +=
  /// n`: a vring, a uapi ring laid out as header and slots)?
  bool sameObjectRing(const Event &D, const Event &P) const {
    const LocationKey *PK = keyOf(P);
    if (!PK || !PK->Field)
      return false;
    const MemberExpr *Ring = ringMember(D.node());
    const MemberExpr *Idx = findMember(P.node(), PK->Field);
    if (!Ring || !Idx ||
        Ring->getMemberDecl()->getDeclContext() !=
            Idx->getMemberDecl()->getDeclContext())
      return false;
    return sameObjectExpr(Ring->getBase(), Idx->getBase());
  }

  /// Does the index step at Seq[I] reserve a slot of another array than
  /// D's: its old value, kept in a local, addresses a slot stored after it
  /// (`n = fetch_add(&sw->n_poll, 1); sw->poll[n] = id;`)? That array is
  /// its ring; a slot of another array of the object (`sw->in_use[lcore]`,
  /// addressed by something else) is no data it publishes.
  bool reservesOther(size_t I, const Event &D) const {
    const Event &P = *Seq[I];
    const MemberExpr *Mine = ringMember(D.node());
    if (P.Kind != EventKind::RMW || !P.node() || !Mine)
      return false;
    // The locals that keep the step's old value.
    SmallVector<const VarDecl *, 2> Kept;
    for (const auto &[V, Defs] : Locals.Defs)
      if (llvm::any_of(
              Defs, [&](const Expr *X) { return containsStmt(X, P.node()); }))
        Kept.push_back(V);
    if (Kept.empty())
      return false;
    for (size_t J = I + 1; J < Seq.size(); ++J) {
      const Event &E = *Seq[J];
      if (E.Kind != EventKind::Store && E.Kind != EventKind::RMW)
        continue;
      const ArraySubscriptExpr *AS = ringSubscript(E.node());
      if (!AS || ringMember(AS)->getMemberDecl() == Mine->getMemberDecl())
        continue;
      if (llvm::any_of(Kept, [&](const VarDecl *V) {
            return refersTo(AS->getIdx(), V);
          }))
        return true;
    }
    return false;
  }

  void collect(const Stmt *S, const ValueDecl *Field, DenseSet<const VarDecl *> &Vars,
               bool &LoadsKey, unsigned Depth) const {
    if (!S || Depth > 32)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
        if (V->hasLocalStorage())
          Vars.insert(V);
        auto It = ArgOf.find(V); // an inlined helper's parameter
        if (It != ArgOf.end())
          collect(It->second, Field, Vars, LoadsKey, Depth + 1);
      }
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (Field && Field == ME->getMemberDecl())
        LoadsKey = true;
    for (const Stmt *C : S->children())
      collect(C, Field, Vars, LoadsKey, Depth + 1);
  }


  /// O is a local that starts at 0 (a loop over every slot, a dump or a
  /// teardown), not a consumer's position.
  bool scanFromZero(const Expr *O) const {
    return llvm::any_of(defsOf(O), [&](const Expr *D) { return isZeroValue(D, Ctx); });
  }

  /// What the local O names was assigned (nothing if O is no local).
  ArrayRef<const Expr *> defsOf(const Expr *O) const {
    const auto *DR = dyn_cast<DeclRefExpr>(O->IgnoreParenImpCasts());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    auto It = V ? Locals.Defs.find(V) : Locals.Defs.end();
    if (It == Locals.Defs.end())
      return {};
    return It->second;
  }

  /// O is a local defined from a marked load (READ_ONCE(), an atomic): the
  /// slot it addresses is reached through that load (a dependency).
  bool positionFromMarked(const Expr *O) const {
    return llvm::any_of(defsOf(O), [](const Expr *D) { return markedLoadIn(D, 0); });
  }
  static bool markedLoadIn(const Stmt *S, unsigned Depth) {
    if (!S || Depth > 24)
      return false;
    if (isa<AtomicExpr>(S))
      return true;
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(S))
      if (IC->getCastKind() == CK_LValueToRValue &&
          IC->getSubExpr()->getType().isVolatileQualified())
        return true;
    for (const Stmt *C : S->children())
      if (markedLoadIn(C, Depth + 1))
        return true;
    return false;
  }

  /// The other operands of the comparisons L's value takes part in.
  SmallVector<const Expr *, 2> comparedWith(const Event &L) const {
    SmallVector<const Expr *, 2> Out;
    const Stmt *LS = L.node();
    const VarDecl *V = L.Use == ValueUse::Assigned ? L.Var : nullptr;
    for (const BinaryOperator *B : Conds.Compares) {
      const Expr *Sides[2] = {B->getLHS(), B->getRHS()};
      for (int I = 0; I < 2; ++I)
        if (containsStmt(Sides[I], LS) || (V && refersTo(Sides[I], V))) {
          Out.push_back(Sides[1 - I]);
          break;
        }
    }
    return Out;
  }

  /// Do the slot index and the compared operand name a common local or
  /// field (one step through the locals' definitions)?
  bool sharesIndex(const Expr *Idx, const Expr *Other) const {
    if (!Idx || !Other)
      return false;
    DenseSet<const VarDecl *> IV, OV;
    DenseSet<const ValueDecl *> IF, OF;
    names(Idx, IV, IF, 0);
    names(Other, OV, OF, 0);
    for (auto *Set : {&IV, &OV}) {
      SmallVector<const VarDecl *, 8> Direct(Set->begin(), Set->end());
      for (const VarDecl *V : Direct) {
        auto It = Locals.Defs.find(V);
        if (It != Locals.Defs.end())
          for (const Expr *D : It->second)
            names(D, *Set, Set == &IV ? IF : OF, 0);
      }
    }
    for (const VarDecl *V : IV)
      if (OV.count(V))
        return true;
    for (const ValueDecl *F : IF)
      if (OF.count(F))
        return true;
    return false;
  }
  void names(const Stmt *S, DenseSet<const VarDecl *> &Vars,
             DenseSet<const ValueDecl *> &Fields, unsigned Depth) const {
    if (!S || Depth > 32)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
        // Positions are integers: a pointer local (cpu_buffer) names an
        // object, and sharing it says nothing about which slot.
        if (V->hasLocalStorage() && V->getType()->isIntegerType())
          Vars.insert(V);
        auto It = ArgOf.find(V);
        if (It != ArgOf.end())
          names(It->second, Vars, Fields, Depth + 1);
      }
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (ME->getType()->isIntegerType()) // a position, not the struct holding it
        Fields.insert(ME->getMemberDecl());
    // A position behind a pointer member (`*sq->ktail`: a ring's index in
    // memory mapped from the kernel) is named by that member, as its key.
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
      if (const auto *ME = dyn_cast<MemberExpr>(U->getSubExpr()->IgnoreParenCasts()))
        if (U->getType()->isIntegerType())
          Fields.insert(ME->getMemberDecl());
    // A position kept in a wrapper type and read by an accessor that takes
    // its address (`pg_atomic_read_u64(&mq->bytes_written)`, `atomic_read(
    // &r->head)`): the integer the call returns is that member's value.
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && CE->getType()->isIntegerType())
      for (const Expr *A : CE->arguments())
        if (const auto *U = dyn_cast<UnaryOperator>(A->IgnoreParenCasts());
            U && U->getOpcode() == UO_AddrOf)
          if (const auto *ME = dyn_cast<MemberExpr>(U->getSubExpr()->IgnoreParenCasts());
              ME && ME->getType()->isRecordType())
            Fields.insert(ME->getMemberDecl());
    for (const Stmt *C : S->children())
      names(C, Vars, Fields, Depth + 1);
  }

  /// P writes its location's old value plus something.
  bool stepsItself(const Event &P, const Expr *Value) const {
    if (P.Kind == EventKind::RMW)
      return true;
    const LocationKey *PK = keyOf(P);
    if (!PK || !Value)
      return false;
    DenseSet<const VarDecl *> Vars;
    DenseSet<const ValueDecl *> Fields;
    names(Value, Vars, Fields, 0);
    // One step through the locals' definitions (p = r->prod; ... p + 1).
    SmallVector<const VarDecl *, 8> Direct(Vars.begin(), Vars.end());
    for (const VarDecl *V : Direct) {
      auto It = Locals.Defs.find(V);
      if (It != Locals.Defs.end())
        for (const Expr *D : It->second)
          names(D, Vars, Fields, 0);
    }
    if (PK->Field && Fields.count(PK->Field))
      return true;
    // The word inside a wrapper read back by its accessor: `w->v = x` with
    // x = `word_get(&q->wpos) + n` stores `q->wpos.v`.
    if (const auto *PF = dyn_cast_or_null<FieldDecl>(PK->Field))
      for (const ValueDecl *F : Fields)
        if (const auto *RT = F->getType()->getAs<RecordType>();
            RT && RT->getDecl() == PF->getParent() && heldBy(*PK, F))
          return true;
    const ValueDecl *Id = osIdentity(*PK);
    const FunctionTrace &PT = traceOf(P);
    for (const VarDecl *V : Vars)
      for (const FunctionTrace *Tr : {&T, &PT}) {
        auto Src = Tr->VarSource.find(V);
        if (Src != Tr->VarSource.end() && osIdentity(Tr->key(Src->second)) == Id)
          return true;
      }
    return false;
  }

  /// Does an event before Seq[J] load the location of Like?
  bool loadedBefore(const LocationKey &Like, size_t J) const {
    const ValueDecl *Id = osIdentity(Like);
    for (size_t K = 0; K < J; ++K)
      if (Seq[K]->Kind == EventKind::Load || Seq[K]->Kind == EventKind::RMW)
        if (const LocationKey *KK = keyOf(*Seq[K]);
            KK && osIdentity(*KK) == Id &&
            LocationKey::sameSteps(wrapperOwner(*KK), wrapperOwner(Like)))
          return true;
    return false;
  }
  /// For the word of a one-field wrapper (`me->link.v`), the member that
  /// holds the wrapper (`link`): the wrapper's field alone names every
  /// word of that type.
  static ArrayRef<KeyStep> wrapperOwner(const LocationKey &K) {
    const auto *F = dyn_cast_or_null<FieldDecl>(K.Field);
    if (!F || std::distance(F->getParent()->field_begin(), F->getParent()->field_end()) != 1)
      return {};
    return K.holderSteps();
  }
  /// K's last field is held by the member F (`q->wpos.v`, F `wpos`).
  static bool heldBy(const LocationKey &K, const ValueDecl *F) {
    ArrayRef<KeyStep> H = K.holderSteps();
    return H.size() == 1 && H.front().isMember() && H.front().D &&
           H.front().D->getName() == F->getName();
  }

  /// Is the location stored in this function (the consumer's own index)?
  bool storedHere(const ValueDecl *Id,
                  const LocationKey *Like = nullptr) const {
    for (const Event *E : Seq)
      if (E->Kind == EventKind::Store || E->Kind == EventKind::RMW)
        if (const LocationKey *K = keyOf(*E))
          if (osIdentity(*K) == Id && (!Like || !otherMember(*K, *Like)))
            return true;
    return false;
  }

  /// One field of two different members of one object: `r->prod.tail` and
  /// `r->cons.tail` (a ring's two head/tail pairs share their type).
  static bool otherMember(const LocationKey &A, const LocationKey &B) {
    ArrayRef<KeyStep> PA = A.afterLastArrow(), PB = B.afterLastArrow();
    auto Dotted = [](ArrayRef<KeyStep> P) {
      return llvm::any_of(P, [](const KeyStep &S) { return S.Kind == KeyStep::Member; });
    };
    return Dotted(PA) && Dotted(PB) && !LocationKey::sameSteps(PA, PB);
  }

  void publish(size_t I, std::vector<OsCandidate> &Out) {
    const Event &P = *Seq[I];
    bool Doorbell = P.Api && P.Api->Mmio;
    if (Doorbell && releaseLike(P.Ord))
      return; // writel(): ordered after the ring stores
    const LocationKey *PK = keyOf(P);
    if (!Doorbell && (!PK || counter(P) || releaseLike(P.Ord)))
      return;
    const ValueDecl *Id = PK ? osIdentity(*PK) : nullptr;
    const Expr *Value = valueOf(P);
    bool PointerValue = Value && Value->getType()->isPointerType();
    // A pointer stored through a local that points into an array member
    // (a hash bucket: `*bucket = n`, a CAS on it): that member.
    const ValueDecl *Array = PK && !Id && PointerValue ? slotArrayOf(*PK) : nullptr;
    if (Array)
      Id = Array;
    if (!Doorbell && !Id)
      return;
    // A ring index moves on from its own value (`p + 1` with p loaded from
    // it, `r->tail++`, `+= n`): a value computed from elsewhere (a
    // sequence stored as a hint) is no ring index.
    // (A volatile word of its own, not a descriptor's field, can be an
    // index: `typedef struct { volatile u64 v; } word;` kept in shared
    // memory.)
    bool IndexLike = !Doorbell && !PointerValue && integerTarget(P) && !slot(*PK) &&
                     (!deviceField(*PK) || volatileWord(*PK));
    bool Index = IndexLike && stepsItself(P, Value);
    bool Header = false; // the slots are a flexible array beside the index
    if (Value && isZeroValue(Value, Ctx))
      return; // a reset (or a descriptor handed back to the CPU)
    // A descriptor's ownership word: a device-endian field that the file
    // also loads and tests (the clean or receive path polls it; checked
    // when the TU is done).
    // The word that hands a descriptor over is device-endian or volatile
    // itself, or in DMA memory: a host-order field beside a big-endian one
    // (an IPsec rule's port next to its __be32 salt) is no ownership word.
    bool Device = PK && slot(*PK) && PK->Field &&
                  (osDeviceTyped(PK->Field->getType()) || Tu.shared(C).deviceRecordField(PK->Field));
    // A doorbell record: a device-endian word outside the ring that gets
    // the producer position (mlx5's `*wq->db = cpu_to_be32(pc)`): the
    // device reads it to learn which slots are new.
    bool DbRecord = !Doorbell && !Index && PK && !slot(*PK) &&
                    PK->isDeref() && integerTarget(P) &&
                    deviceTypedTarget(P);
    bool Locked = Depth[I] > 0;
    bool PointerPublish = false;
    for (size_t J = I; J-- > 0;) {
      const Event &D = *Seq[J];
      if (D.Kind == EventKind::Lock || D.Kind == EventKind::Unlock) {
        Locked = true;
        // Taking a lock is an acquire: it does not keep the stores before
        // it from passing a pointer store inside the section, which a
        // reader that takes no lock can see (a params block filled, then
        // swapped in under the writers' lock: act_skbedit.c). An unlock
        // is a release and orders them.
        if (D.Kind == EventKind::Lock && PointerValue)
          continue;
        break;
      }
      if (ends(D, releaseLike))
        return;
      if (D.Kind != EventKind::Store && D.Kind != EventKind::RMW)
        continue;
      if (releaseLike(D.Ord) || (D.Api && D.Api->Mmio))
        continue;
      const LocationKey *DK = otherLocation(D, Id);
      if (!DK)
        continue;
      bool Related = false, Dma = false;
      if (slot(*DK) && Doorbell) {
        Related = true;
        Dma = deviceField(*DK);
      } else if (slot(*DK) && Index &&
                 (sameRing(slotIndex(D), P, Value) ||
                  (sameObjectRing(D, P) && !reservesOther(I, D)))) {
        Related = true;
        Dma = deviceField(*DK);
        // Self-evident only if the slot's position is this index's own
        // (its old value or its shadow): a statistic of the same object
        // (`fl->count++` after `fl->buckets[hash & m]++`) is no ring index.
        Header =
            flexibleRing(D) && sameObjectRing(D, P) &&
            (sameRing(slotIndex(D), P, Value, /*Strict=*/true) || sharesIndex(slotIndex(D), Value));
      } else if (slot(*DK) && DbRecord && deviceField(*DK) &&
                 (sameRing(slotIndex(D), P, Value) ||
                  sameRing(baseSlotIndex(*DK), P, Value))) {
        Related = true;
        Dma = true;
      } else if (slot(*DK) && IndexLike && sameObjectRing(D, P) &&
                 flexibleRing(D) && sharesIndex(slotIndex(D), Value)) {
        // The header's index set from the shadow position that addressed
        // the slot (`avail->ring[shadow & m] = h; avail->idx = ++shadow`).
        Related = true;
        Dma = deviceField(*DK);
        Header = flexibleRing(D);
      } else if (PointerValue && DK->Base && DK->ViaPointer &&
                 mentions(Value, DK->Base)) {
        // The object whose address is published. list_add() and friends
        // do this too, for lists that readers walk under a lock: only
        // lockless readers elsewhere (acquire, rcu_dereference()) make it
        // a publication.
        // A back link is no data of it: the object's field gets the
        // address of the very object whose field will point to it
        // (`next->prev = prev; WRITE_ONCE(prev->next, next)`, a list
        // unlink); a reader that arrives through `prev->next` knows it.
        const Expr *DV = valueOf(D);
        const auto *DR = DV ? dyn_cast<DeclRefExpr>(DV->IgnoreParenImpCasts()) : nullptr;
        if (DR && PK && PK->Base && DR->getDecl() == PK->Base && PK->ViaPointer &&
            !PK->isDeref())
          continue;
        Related = true;
        PointerPublish = true;
      } else if (Device && DK->Base && DK->Base == PK->Base &&
                 deviceField(*DK)) {
        Related = true; // a descriptor's fields, then its ownership word
        Dma = true;
      }
      if (!Related)
        continue;
      if (D.Kind == EventKind::Store && DK->Base && Locals.Fresh.count(DK->Base) &&
          !PointerValue)
        continue;
      if (PK && PK->Base && Locals.Fresh.count(PK->Base))
        return; // the publishing object itself is not reachable yet
      // Descriptors filled and then announced with an ordered doorbell
      // (writel()): the device looks only after the doorbell. Not when one
      // descriptor's word is deferred until the others are filled: that
      // hand-over is for a device that fetches on its own.
      const Event *Deferred = Device && !Doorbell ? deferredSibling(I) : nullptr;
      if (Device && !Doorbell && !Deferred)
        for (size_t K = I + 1; K < Seq.size(); ++K)
          if (Seq[K]->Api && Seq[K]->Api->Mmio && releaseLike(Seq[K]->Ord))
            return;
      OsCandidate Cand(OsKind::Publish, P, D, Id,
                       PK ? PK->displayName() : "", DK->displayName());
      Cand.Dma = Dma || Device;
      Cand.Doorbell = Doorbell;
      if (PointerPublish) {
        // ... of this file's own structure: the kernel's list_head and
        // hlist_node serve locked and RCU lists alike.
        const SourceManager &SM = Ctx.getSourceManager();
        const ValueDecl *F = Array ? Array : PK ? PK->Field : nullptr;
        if (!F || !SM.isInMainFile(SM.getExpansionLoc(F->getLocation())))
          return;
        Cand.LocklessReaders = true;
        Cand.AcquireReaders = true;
      } else if (Doorbell) {
        Cand.SelfEvident = true;
        Cand.Why = "a relaxed device write: the device reads the ring as soon "
                   "as it sees it";
      } else if (Device) {
        // A helper that fills one descriptor of a frame leaves the final
        // ownership hand-off (and its barrier) to its caller, as r8169's
        // rtl8169_tx_map() does: judged only where nothing calls it.
        Cand.Fn = T.FD;
        Cand.SelfEvident = !Locked;
        if (const Event *Other = Deferred) {
          Cand.Data = *Other;
          if (const LocationKey *OK = keyOf(*Other))
            Cand.DataName = OK->displayName();
          Cand.Why = deviceWhy(*PK) + ", stored in the other descriptors of the chain "
                                      "first: this store hands the chain to the device";
        } else {
          Cand.NeedsPolled = true;
          Cand.VolatileOnly = QuietRecords::declVolatileOnly(P, PK->Field) &&
                              !Tu.shared(C).deviceRecordField(PK->Field);
          Cand.Why = deviceWhy(*PK) + " that the file polls: the device reads the "
                                      "descriptor as soon as it sees this store";
        }
      } else if (DbRecord && !Locked) {
        Cand.SelfEvident = true;
        Cand.Why = "a device-endian word that gets the ring's producer position "
                   "(a doorbell record): the device reads it to find the new slots";
      } else if (Header && !Locked) {
        // struct vring_avail { u16 flags, idx; u16 ring[]; }: a ring whose
        // index and slots are one block, the layout of memory mapped by
        // another agent (a device, the host, another process).
        Cand.SelfEvident = true;
        if (const RecordDecl *RD = osOuterRecord(PK->Field))
          Cand.Block = RD;
        Cand.Why = "a ring laid out as its index and a flexible array of slots "
                   "in one block: memory the other side maps and polls";
      } else if (marked(P) && !Locked && (c11Atomic(P) || volatileAccess(P))) {
        // (WRITE_ONCE() alone often serves lockless readers of the index
        // itself, a hint or a statistic: the file must order it elsewhere.)
        Cand.SelfEvident = true;
        Cand.Why = "an atomic or volatile store: other threads read it without a lock";
      } else if (!Locked && PK && sharedByProvenance(*PK, Cand)) {
        // The index lives in memory another process maps or a device reads.
      } else if (Locked) {
        // Under a lock: only readers that take no lock and order what they
        // read after it (an acquire elsewhere in the file) make it a
        // publication; READ_ONCE() alone is often a hint read.
        Cand.AcquireReaders = true;
      }
      Out.push_back(std::move(Cand));
      return;
    }
    if (Doorbell && !Locked)
      doorbellIndex(P, Out);
  }

  /// A relaxed doorbell with nothing before it in the function (no barrier,
  /// no lock, no call that may order) that writes a ring index, which
  /// another function of the file stores after the slots with no barrier
  /// that orders them for a device (i40e's XDP ring: smp_wmb() for the
  /// clean path, then the tail written by writel_relaxed() elsewhere).
  /// Checked when the TU is done.
  void doorbellIndex(const Event &P, std::vector<OsCandidate> &Out) {
    // writel_relaxed(val, addr), rte_write32_relaxed(val, addr): the value
    // comes first.
    const auto *Call = dyn_cast_or_null<CallExpr>(P.node());
    const Expr *Value = Call && Call->getNumArgs() == 2 ? Call->getArg(0) : nullptr;
    const MemberExpr *ME = nullptr;
    for (unsigned Depth = 0; Value && Depth < 8; ++Depth) {
      const Expr *X = Value->IgnoreParenImpCasts();
      if ((ME = dyn_cast<MemberExpr>(X)))
        break;
      // A helper's parameter: the call's argument.
      const auto *DR = dyn_cast<DeclRefExpr>(X);
      const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      auto It = V ? ArgOf.find(V) : ArgOf.end();
      Value = It == ArgOf.end() ? nullptr : It->second;
    }
    if (!ME || !ME->getType()->isIntegerType())
      return;
    OsCandidate Cand;
    Cand.K = OsKind::Publish;
    Cand.At = P;
    Cand.Data = P;           // no slot here: the note cites the other function's
    Cand.Data.Via = nullptr; // (and the doorbell's helper is not "both ends")
    Cand.Id = ME->getMemberDecl();
    Cand.IdName = ME->getMemberDecl()->getName().str();
    if (const auto *B = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
      Cand.IdName = B->getDecl()->getName().str() + (ME->isArrow() ? "->" : ".") + Cand.IdName;
    Cand.Doorbell = true;
    Cand.DoorbellIndex = true;
    Cand.Fn = T.FD; // a helper of the file: judged at its callers
    Out.push_back(std::move(Cand));
  }

  /// A ring index stored after slot stores (sameRing), with no barrier that
  /// orders them for a device anywhere after the slot stores in the
  /// function (smp_wmb() and virt_wmb() order them for CPUs only): the
  /// doorbell that announces the index must be ordered itself.
  void deviceOrder(size_t I) {
    const Event &P = *Seq[I];
    const LocationKey *PK = keyOf(P);
    if (!PK || counter(P) || releaseLike(P.Ord) || (P.Api && P.Api->Mmio) || slot(*PK))
      return;
    const ValueDecl *Id = osIdentity(*PK);
    const Expr *Value = valueOf(P);
    if (!Id || !integerTarget(P) || !stepsItself(P, Value))
      return;
    auto DeviceBarrier = [](const Event &B) {
      if (B.Kind == EventKind::Barrier && (B.Bits & OrdSS)) {
        return !isCpuOnlyBarrierName(B.ApiName);
      }
      return (B.Api && B.Api->Mmio && releaseLike(B.Ord)) ||
             ((B.Kind == EventKind::Call) && !B.Callee);
    };
    for (size_t J = I; J-- > 0;) {
      const Event &D = *Seq[J];
      if (DeviceBarrier(D) || D.Kind == EventKind::Lock || D.Kind == EventKind::Unlock)
        return;
      if (D.Kind != EventKind::Store)
        continue;
      const LocationKey *DK = otherLocation(D, Id);
      if (!DK || !slot(*DK) || !sameRing(slotIndex(D), P, Value))
        continue;
      for (size_t K = J + 1; K < Seq.size(); ++K)
        if (DeviceBarrier(*Seq[K]))
          return;
      std::string Fn = T.FD->getIdentifier() ? T.FD->getName().str() : "?";
      Tu.markDeviceUnordered(Id, OsEvidence::Where{D.Loc, DK->displayName(), Fn});
      return;
    }
  }

  /// Double-checked initialisation: a pointer tested with no lock, the lock
  /// taken, the pointer set to a new object (a call's result) inside, the
  /// lock released. The release of the lock orders nothing for the CPUs
  /// that test the pointer without it and then read the object (riscv-pk's
  /// __vmr_alloc() before 4c64de3213e7): the store must be a release.
  void doubleChecked(size_t I, std::vector<OsCandidate> &Out) {
    const Event &P = *Seq[I];
    const LocationKey *PK = keyOf(P);
    if (!PK || P.Via || counter(P) || releaseLike(P.Ord) || (P.Api && P.Api->Mmio))
      return;
    const ValueDecl *Id = osIdentity(*PK);
    const Expr *Value = valueOf(P);
    if (!Id || !Value || !Value->getType()->isPointerType() || isZeroValue(Value, Ctx))
      return;
    const Expr *V = Value->IgnoreParenCasts();
    bool NewObject = isa<CallExpr>(V) || llvm::any_of(defsOf(V), [](const Expr *D) {
                       return isa<CallExpr>(D->IgnoreParenCasts());
                     });
    if (!NewObject)
      return;
    auto IsAcquire = [](const Event &E) {
      return E.Kind == EventKind::Lock || (E.Kind == EventKind::RMW && acquireLike(E.Ord));
    };
    auto IsRelease = [](const Event &E) {
      return E.Kind == EventKind::Unlock || (E.Kind == EventKind::Store && releaseLike(E.Ord));
    };
    // The same pointer (the same object path, in this function's own
    // code), tested.
    auto TestsId = [&](const Event &E) {
      const LocationKey *K = E.Kind == EventKind::Load && !E.Via ? keyOf(E) : nullptr;
      return K && K->Text == PK->Text && tested(E);
    };
    // Back from the store: the re-test under the lock, the lock taken (no
    // release in between), and before it the unlocked test.
    size_t J = I;
    bool Retested = false;
    while (J-- > 0) {
      const Event &D = *Seq[J];
      if (IsRelease(D) || (D.Kind == EventKind::Barrier && D.Bits))
        return;
      if (IsAcquire(D))
        break;
      Retested |= TestsId(D);
    }
    if (J == size_t(-1) || !Retested)
      return;
    const Event *Unlocked = nullptr;
    for (size_t K = J; K-- > 0;) {
      const Event &D = *Seq[K];
      if (IsAcquire(D) || IsRelease(D) || (D.Kind == EventKind::Barrier && D.Bits))
        return;
      if (TestsId(D)) {
        Unlocked = &D;
        break;
      }
    }
    // ... and the lock released after the store.
    bool Released = false;
    for (size_t K = I + 1; K < Seq.size() && !Released; ++K)
      Released = IsRelease(*Seq[K]);
    if (!Unlocked || !Released)
      return;
    OsCandidate Cand(OsKind::Publish, P, *Unlocked, Id,
                     PK->displayName(), PK->displayName());
    Cand.DoubleChecked = true;
    Cand.SelfEvident = true;
    Out.push_back(std::move(Cand));
  }

  /// Other fields of one object stored, then this one, with no barrier
  /// between: a candidate only if elsewhere in the file this field is
  /// stored after a write barrier that follows its siblings' stores (fec's
  /// skb path orders a BD's address and length before its READY status;
  /// its XDP path did not: 9025944fddfe). Checked when the TU is done.
  void publishSibling(size_t I, std::vector<OsCandidate> &Out) {
    const Event &P = *Seq[I];
    const LocationKey *PK = keyOf(P);
    if (!PK || Depth[I] > 0 || counter(P) || releaseLike(P.Ord) || (P.Api && P.Api->Mmio) ||
        (PK->Base && Locals.Fresh.count(PK->Base)))
      return;
    const ValueDecl *Id = osIdentity(*PK);
    const Expr *Value = valueOf(P);
    if (!Id || !Value || Value->getType()->isPointerType() || isZeroValue(Value, Ctx))
      return;
    for (size_t J = I; J-- > 0;) {
      const Event &D = *Seq[J];
      if (D.Kind == EventKind::Lock || D.Kind == EventKind::Unlock || ends(D, releaseLike))
        return;
      if (D.Kind != EventKind::Store || releaseLike(D.Ord) || (D.Api && D.Api->Mmio))
        continue;
      const LocationKey *DK = otherLocation(D, Id);
      if (!DK || !siblings(*DK, *PK))
        continue;
      OsCandidate Cand(OsKind::Publish, P, D, Id,
                       PK->displayName(), DK->displayName());
      // A flag flipped in place (`desc->flags ^= F_USED`) or set plainly
      // after the other fields, while elsewhere the file loads the same
      // field with an acquire (the other direction of the same descriptor
      // word: a synchronisation word): deviant ordering.
      // Only for a ring's slot (a descriptor): a header's two fields (a
      // ring's head and tail) are positions, not data and flag.
      bool Slots = slotObject(*PK) && slotObject(*DK);
      OsCandidate Acq = Cand;
      Acq.AcquireReaders = true;
      Acq.SiblingAcquire = true;
      Cand.Sibling = true;
      Out.push_back(std::move(Cand));
      if (Slots)
        Out.push_back(std::move(Acq));
      return;
    }
  }
  /// The position a slot pointer local was taken at (`wqe =
  /// &sq->wqes[pi]`: pi), for an access through it.
  const Expr *baseSlotIndex(const LocationKey &K) const {
    auto It = Locals.SlotIndex.find(resolveBase(K.Base));
    return It == Locals.SlotIndex.end() ? nullptr : It->second;
  }

  /// Is the stored-to lvalue itself device-endian or volatile (`*wq->db`
  /// with `__be32 *db`)?
  static bool deviceTypedTarget(const Event &E) {
    const auto *BO = dyn_cast_or_null<BinaryOperator>(E.node());
    return BO && BO->isAssignmentOp() && osDeviceTyped(BO->getLHS()->getType());
  }

  /// A slot of a ring, also one a helper found and returned (`d =
  /// take(q)` where take() returns `&q->ring[q->next]`).
  bool slotObject(const LocationKey &K) const {
    if (slot(K))
      return true;
    return K.Base && K.ViaPointer &&
           definedByCall(K.Base, [&](const FunctionDecl *F) { return returnsSlot(F); });
  }
  /// Does F return the address of an array element (a slot)? Asked per
  /// access by the ring rules: memoised per function.
  bool returnsSlot(const FunctionDecl *F) const {
    auto [It, New] = ReturnsSlot.try_emplace(F->getCanonicalDecl(), false);
    if (New)
      It->second = returnsElementAddress(F);
    return It->second;
  }
  mutable DenseMap<const FunctionDecl *, bool> ReturnsSlot;
  static bool returnsElementAddress(const FunctionDecl *F) {
    const FunctionDecl *Def = nullptr;
    if (!F->hasBody(Def) || !Def)
      return false;
    bool Found = false;
    std::function<void(const Stmt *, unsigned)> Walk = [&](const Stmt *S, unsigned Depth) {
      if (!S || Found || Depth > 64)
        return;
      if (const auto *RS = dyn_cast<ReturnStmt>(S); RS && RS->getRetValue()) {
        const Expr *V = RS->getRetValue()->IgnoreParenCasts();
        if (const auto *DR = dyn_cast<DeclRefExpr>(V))
          if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->getInit())
            V = VD->getInit()->IgnoreParenCasts();
        if (const auto *U = dyn_cast<UnaryOperator>(V);
            U && U->getOpcode() == UO_AddrOf &&
            isa<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParenCasts()))
          Found = true;
      }
      for (const Stmt *C : S->children())
        Walk(C, Depth + 1);
    };
    Walk(Def->getBody(), 0);
    return Found;
  }

  /// The call of a helper that returns a slot, which the access E goes
  /// through (`*comp_addr(c, i)`, or `d->len` after `d = rx_desc(rx, i)`).
  const CallExpr *slotCall(const Event &E, const LocationKey &K) const {
    auto Slot = [&](const FunctionDecl *F) { return returnsSlot(F); };
    auto Returns = [&](const Expr *X) -> const CallExpr * {
      const auto *CE = X ? dyn_cast<CallExpr>(X->IgnoreParenCasts()) : nullptr;
      const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
      return F && Slot(F) ? CE : nullptr;
    };
    if (K.Base && K.ViaPointer)
      if (const CallExpr *CE = callDefining(K.Base, Slot))
        return CE;
    const Stmt *S = E.node();
    if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(S))
      S = IC->getSubExpr();
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S); BO && BO->isAssignmentOp())
      S = BO->getLHS();
    for (unsigned Depth = 0; S && Depth < 4; ++Depth) {
      const auto *X = dyn_cast<Expr>(S);
      if (!X)
        break;
      X = X->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_Deref)
        return Returns(U->getSubExpr());
      if (const auto *ME = dyn_cast<MemberExpr>(X); ME && ME->isArrow())
        return Returns(ME->getBase());
      if (const auto *ME = dyn_cast<MemberExpr>(X)) {
        S = ME->getBase();
        continue;
      }
      break;
    }
    return nullptr;
  }
  /// The variable that holds the ring object a helper-returned slot lies in:
  /// the pointer argument of the helper's call (`rx` in `rx_desc(rx, i)`).
  const VarDecl *slotCallHolder(const CallExpr *CE) const {
    if (!CE)
      return nullptr;
    for (const Expr *A : CE->arguments())
      if (A->getType()->isPointerType())
        if (const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenCasts()))
          if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
            return resolveBase(V);
    return nullptr;
  }

  /// The variable an object expression starts from (`q` in
  /// `q->ring->slots`), as the caller names it.
  const VarDecl *rootVar(const Expr *E) const {
    for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
      E = E->IgnoreParenCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
        const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        return V ? resolveBase(V) : nullptr;
      }
      if (const auto *ME = dyn_cast<MemberExpr>(E))
        E = ME->getBase();
      else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase();
      else if (const auto *U = dyn_cast<UnaryOperator>(E))
        E = U->getSubExpr();
      else
        return nullptr;
    }
    return nullptr;
  }
  /// The variable holding the ring a slot access D reaches, if known: the
  /// array's holder (`pool->free[n]`: pool), through a slot local, or the
  /// ring a helper returned the slot from.
  const VarDecl *slotHolder(const Event &D, const LocationKey &K) const {
    if (const CallExpr *CE = slotCall(D, K))
      return slotCallHolder(CE);
    const Stmt *N = D.node();
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(N); BO && BO->isAssignmentOp())
      N = BO->getLHS();
    if (const MemberExpr *ME = ringMember(N, /*Pointers=*/true))
      return rootVar(ME->getBase());
    const VarDecl *B = resolveBase(K.Base);
    auto It = B && Locals.Slots.count(B) ? Locals.Defs.find(B) : Locals.Defs.end();
    if (It != Locals.Defs.end())
      for (const Expr *Def : It->second)
        if (const MemberExpr *ME = ringMember(Def, /*Pointers=*/true))
          return rootVar(ME->getBase());
    return nullptr;
  }

  /// A read-modify-write that sets, clears or flips bits (`|=`, `&=`,
  /// `^=`): a flag word, not a counter.
  static bool bitUpdate(const Event &E) {
    const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(E.node());
    return CA && (CA->getOpcode() == BO_XorAssign || CA->getOpcode() == BO_OrAssign ||
                  CA->getOpcode() == BO_AndAssign);
  }

  /// The expression an inlined helper returns that holds E's node
  /// (`return rq->rq_tail - *rq->khead;`), if E is in a helper.
  const Expr *returnedBy(const Event &E) const {
    auto It = TraceOf.find(&E);
    if (!E.Via || !E.InnerS || It == TraceOf.end() || !It->second->FD)
      return nullptr;
    const Expr *Found = nullptr;
    std::function<void(const Stmt *, unsigned)> Walk = [&](const Stmt *S, unsigned D) {
      if (!S || Found || D > 64)
        return;
      if (const auto *R = dyn_cast<ReturnStmt>(S))
        if (R->getRetValue() && containsStmt(R->getRetValue(), E.InnerS)) {
          Found = R->getRetValue();
          return;
        }
      for (const Stmt *C : S->children())
        Walk(C, D + 1);
    };
    Walk(It->second->FD->getBody(), 0);
    return Found;
  }

  /// A producer that checks for room: the other side's index loaded with
  /// a plain or relaxed load, tested, then the slots at the producer's own
  /// position overwritten, then the producer's index published with a C11
  /// release. In C11 a control dependency orders nothing: the slot stores
  /// can pass the load and overwrite what the consumer still reads
  /// (liburing examples/zcrx.c before 603f83e31761). Linux code is not
  /// judged here (READ_ONCE() and the control dependency order it).
  void reserve(size_t I, std::vector<OsCandidate> &Out) {
    const Event &L = *Seq[I];
    const LocationKey *LK = keyOf(L);
    if (!LK || counter(L) || acquireLike(L.Ord) || !tested(L) || Depth[I] > 0 || slot(*LK) ||
        !integerTarget(L))
      return;
    if (L.Ord != Order::Plain && !c11Atomic(L))
      return; // READ_ONCE(): Linux, ordered by the control dependency
    const ValueDecl *Id = osIdentity(*LK);
    if (!Id || storedHere(Id))
      return;
    // The index this one is measured against: the other operand of a
    // subtraction or comparison that has the load itself as one side, and
    // a plain position as the other (`rq_tail - *khead`, `head == tail`;
    // not `cap - (w - r)`: a capacity).
    const Stmt *LS = L.node();
    const auto *LE = dyn_cast_or_null<Expr>(LS);
    if (!LE)
      return;
    SmallVector<const Expr *, 4> Roots;
    for (const Expr *O : comparedWith(L))
      Roots.push_back(O);
    for (const BinaryOperator *B : Conds.Compares)
      Roots.push_back(B);
    if (const Expr *R = returnedBy(L))
      Roots.push_back(R);
    SmallVector<const Expr *, 2> Against;
    std::function<void(const Stmt *, unsigned)> Find = [&](const Stmt *S, unsigned D) {
      if (!S || D > 24)
        return;
      if (const auto *B = dyn_cast<BinaryOperator>(S))
        if (B->getOpcode() == BO_Sub || B->isComparisonOp()) {
          const Expr *Sides[2] = {B->getLHS()->IgnoreParenImpCasts(),
                                  B->getRHS()->IgnoreParenImpCasts()};
          for (int K = 0; K < 2; ++K)
            if (Sides[K] == LE->IgnoreParenImpCasts() &&
                (isa<DeclRefExpr>(Sides[1 - K]) || isa<MemberExpr>(Sides[1 - K])) &&
                Sides[1 - K]->getType()->isIntegerType())
              Against.push_back(Sides[1 - K]);
        }
      for (const Stmt *C : S->children())
        Find(C, D + 1);
    };
    for (const Expr *R : Roots)
      Find(R, 0);
    if (Against.empty())
      return;
    const Event *Slot = nullptr;
    for (size_t J = I + 1; J < Seq.size(); ++J) {
      const Event &D = *Seq[J];
      if (D.Kind == EventKind::Lock || D.Kind == EventKind::Unlock || ends(D, acquireLike))
        return;
      if (D.Kind == EventKind::Load && !Slot) {
        // The slot read first: a consumer, judged by consume().
        if (const LocationKey *DK = keyOf(D); DK && slot(*DK) && osIdentity(*DK) != Id)
          return;
        continue;
      }
      if (D.Kind != EventKind::Store && D.Kind != EventKind::RMW)
        continue;
      if (Slot) {
        // The producer's own index, published with a C11 release.
        if (D.Kind == EventKind::Store && releaseLike(D.Ord) && c11Atomic(D) &&
            llvm::any_of(Against, [&](const Expr *O) { return sharesIndex(valueOf(D), O); }))
          if (const LocationKey *PK = keyOf(D);
              PK && osIdentity(*PK) != Id && !slot(*PK) && PK->Field && LK->Field &&
              // The two sides' indexes are declared alike (`unsigned *khead,
              // *ktail`; `_Atomic size_t wr, rd`); a capacity is not
              // (`size_t cap` beside `_Atomic size_t wr`).
              Ctx.hasSameType(PK->Field->getType(), LK->Field->getType())) {
            if (L.Via && Slot->Via)
              return; // both ends in helpers: the nearest one that sees them
            OsCandidate Cand(OsKind::Reserve, L, *Slot, Id,
                             LK->displayName(), keyOf(*Slot)->displayName());
            Out.push_back(std::move(Cand));
            return;
          }
        continue;
      }
      const LocationKey *DK = otherLocation(D, Id);
      if (!DK || !slot(*DK) || D.Kind != EventKind::Store || releaseLike(D.Ord))
        continue;
      const Expr *Idx = slotIndex(D);
      for (const Expr *O : Against)
        if (sharesIndex(Idx, O))
          Slot = &D;
    }
  }

  /// The other side's index loaded with READ_ONCE() and cached in a field
  /// (`vq->avail_idx = READ_ONCE(vq->avail->idx)`). Where a read barrier
  /// follows in the same function, the cache promises its later users that
  /// the slots it covers are visible (vhost_get_vq_desc() skips both the
  /// load and its smp_rmb() while the cache is ahead); a function that
  /// refreshes the same cache with no read barrier breaks that promise
  /// (vhost_vq_avail_empty() before 22e1992cf7b0). Judged when the TU is
  /// done: only the pair (index, cache) fenced elsewhere is reported.
  void cacheLoad(size_t I, std::vector<OsCandidate> &Out) {
    const Event &L = *Seq[I];
    const LocationKey *LK = keyOf(L);
    // A ring's index is a field of the ring (a global such as jiffies is a
    // clock, and a field stamped from it no cache of an index).
    if (!LK || !LK->Field || counter(L) || L.Ord == Order::Plain || acquireLike(L.Ord) ||
        Depth[I] > 0 || slot(*LK) || !integerTarget(L))
      return;
    const ValueDecl *Id = osIdentity(*LK);
    if (!Id)
      return;
    size_t J = I + 1;
    while (J < Seq.size() &&
           (Seq[J]->Kind == EventKind::LocalDef || Seq[J]->Kind == EventKind::LocalUpdate))
      ++J;
    if (J == Seq.size() || Seq[J]->Kind != EventKind::Store || Depth[J] > 0)
      return;
    const Event &St = *Seq[J];
    const LocationKey *CK = keyOf(St);
    const Expr *V = storedValue(St.S);
    if (!CK || !CK->Field || slot(*CK) || counter(St) || !V ||
        !(containsStmt(V, L.S) || V->IgnoreParenImpCasts() == L.S))
      return;
    const ValueDecl *Cache = osIdentity(*CK);
    if (!Cache || Cache == Id)
      return;
    // Evidence: a read barrier later in the function, on any path (an
    // error path's call before it does not matter). A slot of the same
    // ring read before any barrier (libbpf's xsk peek without its
    // libbpf_smp_rmb(): the descriptors handed out by a helper that
    // returns them): the load orders nothing before it.
    const VarDecl *Holder = baseAt(L, *LK);
    const Event *SlotRead = nullptr;
    bool Call = false;
    for (size_t K = J + 1; K < Seq.size(); ++K) {
      const Event &B = *Seq[K];
      if (SlotRead && B.Kind == EventKind::Barrier)
        break;
      if (!SlotRead && !Call && Holder && B.Kind == EventKind::Load && !acquireLike(B.Ord))
        if (const LocationKey *RK = keyOf(B))
          if ((slot(*RK) || slotCall(B, *RK)) && slotHolder(B, *RK) == Holder) {
            SlotRead = &B;
            continue;
          }
      if (B.Kind == EventKind::Barrier && (B.Bits & OrdLL)) {
        // ... that orders the ring's slots read after it.
        for (size_t R = K + 1; R < Seq.size(); ++R)
          if (Seq[R]->Kind == EventKind::Load)
            if (const LocationKey *RK = keyOf(*Seq[R]); RK && slot(*RK)) {
              std::string Fn = T.FD->getIdentifier() ? T.FD->getName().str() : "?";
              Tu.markCacheFenced(Id, Cache, OsEvidence::Where{B.Loc, B.ApiName.str() + "()", Fn});
              break;
            }
        return;
      }
      if (B.Kind == EventKind::Barrier && B.Bits)
        return; // some other ordering: not judged
      Call |= mayOrderCall(B, C);
    }
    if (Call && !SlotRead)
      return; // may be ordered in a call: no candidate
    OsCandidate Cand;
    Cand.K = OsKind::Consume;
    Cand.At = L;
    Cand.Data = St;
    if (SlotRead) {
      Cand.CacheSlot = true;
      Cand.Slot = *SlotRead;
      if (const LocationKey *RK = keyOf(*SlotRead))
        Cand.SlotName = RK->displayName();
    }
    Cand.Id = Id;
    Cand.Cache = Cache;
    Cand.IdName = LK->displayName();
    Cand.DataName = CK->displayName();
    Out.push_back(std::move(Cand));
  }

  /// The expression of the word E accesses: the node, or what an
  /// assignment stores to.
  static const Expr *accessedExpr(const Event &E) {
    const auto *X = dyn_cast_or_null<Expr>(E.node());
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(X))
      return BO->getLHS();
    return X;
  }
  /// Is the word E accesses seen by another agent by its memory or its own
  /// type: memory another agent maps or a device reads (provenance), a
  /// volatile word, or a device-endian word reached through a pointer to
  /// it (`*q->shadow_db`, `__le32 *`). A device-endian field of a record is
  /// not enough: packet headers, on-disk superblocks and socket state are
  /// such records.
  bool sharedWord(const Event &E, const LocationKey &K) const {
    if (Tu.shared(C).of(K) || (K.Field && K.Field->getType().isVolatileQualified()))
      return true;
    const Expr *X = accessedExpr(E);
    if (!X)
      return false;
    if (X->getType().isVolatileQualified())
      return true;
    const auto *U = dyn_cast<UnaryOperator>(X->IgnoreParenImpCasts());
    return U && U->getOpcode() == UO_Deref && osDeviceTyped(U->getType());
  }
  /// Does E's value decide a branch (an if, loop or ?: condition, directly
  /// or through a local), rather than being a count or an answer returned?
  bool decides(const Event &E) const { return testedBy(Decisions, E, E.node()); }
  /// The objects an access expression goes through, in the caller's
  /// terms: pointer and record variables, an inlined helper's parameter
  /// seen as the call's argument, a local pointer as what it was set to
  /// (`sq = &ring->sq`: ring).
  void objectVars(const Stmt *S, SmallVectorImpl<const VarDecl *> &Out,
                  unsigned Depth = 0) const {
    if (!S || Depth > 24)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (!V || !(V->getType()->isPointerType() || V->getType()->isRecordType()))
        return;
      if (auto It = ArgOf.find(V); It != ArgOf.end()) {
        objectVars(It->second, Out, Depth + 1);
        return;
      }
      if (!is_contained(Out, V))
        Out.push_back(V);
      if (V->hasLocalStorage())
        if (auto It = Locals.Defs.find(V); It != Locals.Defs.end())
          for (const Expr *D : It->second)
            objectVars(D, Out, Depth + 8);
      return;
    }
    if (isa<CallExpr>(S))
      return; // a call's result is another object
    for (const Stmt *C : S->children())
      objectVars(C, Out, Depth + 1);
  }
  /// The wake-up after I of the object Bases name: a doorbell write, or a
  /// call of a function the TU does not define and the ApiModel does not
  /// know (a system call such as io_uring_enter(), a futex or eventfd
  /// wake, a kick), with that object among its arguments.
  const Event *kickAfter(size_t I, ArrayRef<const VarDecl *> Bases) const {
    for (size_t J = I + 1; J < Seq.size() && J <= I + 48; ++J) {
      const Event &K = *Seq[J];
      bool Mmio = K.Kind == EventKind::Store && K.Api && K.Api->Mmio;
      bool External = K.Kind == EventKind::Call && !K.Noreturn && !K.Api && K.Callee &&
                      !K.Callee->hasBody();
      if (!Mmio && !External)
        continue;
      for (const VarDecl *B : Bases)
        if (mentions(K.node(), B))
          return &K;
    }
    return nullptr;
  }

  /// Store buffering with one side in view (the Dekker shape of a ring
  /// that sleeps: io_uring's SQPOLL thread and IORING_SQ_NEED_WAKEUP, an
  /// NVMe controller's shadow doorbell and event index, virtio's
  /// used_event). This side stores its word (the tail, the shadow
  /// doorbell), then loads the other side's word (its "sleeping" flag, its
  /// event index) to decide whether to wake it. The other side does the
  /// mirror image, so unless both put a full barrier between their store
  /// and their load, each can read the other's old value and nobody wakes
  /// anybody. A release or a write barrier orders nothing here.
  void storeLoad(size_t I, std::vector<OsCandidate> &Out) {
    const Event &L = *Seq[I];
    const LocationKey *LK = keyOf(L);
    if (!LK || counter(L) || Depth[I] > 0 || slot(*LK) || !integerTarget(L) ||
        !(marked(L) || sharedWord(L, *LK)) || !decides(L))
      return;
    SmallVector<const VarDecl *, 4> Bases;
    objectVars(L.node(), Bases);
    const Event *Weak = nullptr; // a write barrier between: the wrong kind
    for (size_t J = I; J-- > 0 && I - J <= 48;) {
      const Event &X = *Seq[J];
      if (X.Kind == EventKind::Lock || X.Kind == EventKind::Unlock || Depth[J] > 0)
        return;
      if (X.Kind == EventKind::Barrier) {
        if (X.Bits & OrdSL)
          return; // a full barrier: ordered
        if ((X.Bits & OrdSS) && !Weak)
          Weak = &X;
        continue;
      }
      if (X.Kind == EventKind::RMW && X.Ord != Order::Plain && X.Ord != Order::Once)
        return; // an ordered read-modify-write: a full barrier in practice
      if (X.Kind == EventKind::Call && mayOrderCall(X, C))
        return;
      if (X.Kind != EventKind::Store)
        continue;
      const LocationKey *SK = keyOf(X);
      if (!SK || counter(X) || slot(*SK) || (X.Api && X.Api->Mmio) ||
          !onPath(J, I))
        continue;
      if (SK->Text == LK->Text ||
          (osIdentity(*SK) && osIdentity(*SK) == osIdentity(*LK)))
        return; // its own word read back
      // This side's word is published for another agent: a release, or a
      // word of device or mapped memory. A WRITE_ONCE() alone is how the
      // kernel marks data read locklessly (TCP's state under the socket
      // lock), no sign of a side that sleeps.
      if (!(releaseLike(X.Ord) || sharedWord(X, *SK)))
        continue; // private bookkeeping: look further back
      if (X.Ord == Order::SeqCst && L.Ord == Order::SeqCst)
        return; // C11: seq_cst store and load are ordered
      // The two words are of one object (a ring's control page, a queue),
      // and the wake-up is of that object: a clock read after a release
      // (a hang check) is no side of it.
      SmallVector<const VarDecl *, 4> StoreBases, Common;
      objectVars(X.node(), StoreBases);
      for (const VarDecl *V : Bases)
        if (is_contained(StoreBases, V))
          Common.push_back(V);
      if (Common.empty())
        continue;
      const Event *Kick = kickAfter(I, Common);
      if (!Kick)
        return;
      bool Release = releaseLike(X.Ord);
      OsCandidate Cand(Release || Weak ? OsKind::StoreLoadWrongKind : OsKind::StoreLoad,
                       Weak ? *Weak : Release ? X : L, X, osIdentity(*LK),
                       LK->displayName(), SK->displayName());
      Cand.Index = L;
      Cand.Kick = *Kick;
      Cand.SelfEvident = true;
      // A device on the other side: the words are device-endian or in
      // device memory.
      auto DeviceWord = [&](const Event &E, const LocationKey &K) {
        if (deviceField(K))
          return true;
        const Expr *W = accessedExpr(E);
        return W && osDeviceTyped(W->getType()) && !W->getType().isVolatileQualified();
      };
      Cand.Dma = DeviceWord(X, *SK) || DeviceWord(L, *LK);
      Out.push_back(std::move(Cand));
      return;
    }
  }

  void consume(size_t I, std::vector<OsCandidate> &Out) {
    const Event &L = *Seq[I];
    const LocationKey *LK = keyOf(L);
    if (!LK || counter(L) || acquireLike(L.Ord))
      return;
    // The index is tested, or counted against the consumer's position
    // (the count bounds how many slots are read: the same test).
    SmallVector<const Expr *, 2> Counted = countedAgainst(L);
    if (!tested(L) && Counted.empty())
      return;
    if (isRcuAccessorName(L.ApiName))
      return; // a pointer load ordered by its dependency
    const ValueDecl *Id = osIdentity(*LK);
    // The consumer's own index (a slot's flag word is handed back by the
    // consumer after the slot is read: not its own position).
    if (!Id || Depth[I] > 0 || (storedHere(Id, LK) && !(slot(*LK) && !deviceField(*LK))))
      return;
    // A descriptor in a ring (reached from a ring base by an index): a
    // device-endian word of an on-disk structure is no descriptor. The
    // word polled is device-endian or volatile itself: a host-order field
    // beside it (a command id) is data the device wrote before it.
    bool Device = slot(*LK) && deviceField(*LK) &&
                  (osDeviceTyped(LK->Field->getType()) || Tu.shared(C).of(*LK));
    // A slot's content is data (what it indexes depends on it), unless it
    // is a flag word in the slot (a packed ring's AVAIL/USED bits) that the
    // file stores with a release or after a write barrier elsewhere:
    // judged with that evidence, against the same slot's other fields.
    bool SlotFlag = slot(*LK) && !Device && !deviceField(*LK);
    // A slot reached after the ring's index was loaded with an acquire or
    // followed by a read barrier (io_uring's provided-buffer ring: tail,
    // then buf->len): that ordering covers the slot's words too.
    if (SlotFlag)
      for (size_t J = 0; J != I; ++J)
        if ((Seq[J]->Kind == EventKind::Load && acquireLike(Seq[J]->Ord)) ||
            (Seq[J]->Kind == EventKind::Barrier && (Seq[J]->Bits & OrdLL)))
          return;
    if (slot(*LK) && !Device && (!SlotFlag || !integerTarget(L) || !ringPosition(L)))
      return;
    // What the loaded index is compared with: the consumer's own position,
    // which addresses the slots (`if (READ_ONCE(r->prod) == c) ...
    // r->slot[c & mask]`). In C11 code the loaded value itself may address
    // them (no dependency ordering there).
    SmallVector<const Expr *, 2> Against = comparedWith(L);
    Against.append(Counted.begin(), Counted.end());
    // A descriptor is polled through its first word read: later reads of
    // the same descriptor come after that test (and its barrier).
    if (Device || SlotFlag)
      for (size_t J = 0; J != I; ++J)
        if (Seq[J]->Kind == EventKind::Load)
          if (const LocationKey *PK = keyOf(*Seq[J]))
            if ((SlotFlag || deviceField(*PK)) && PK->Field && slot(*PK) &&
                sameDescriptor(*Seq[J], *PK, L, *LK))
              return;
    // A barrier right before the load: the author orders it, on the wrong
    // side (the data loads after it are the ones to order).
    bool BarrierBefore = false;
    for (size_t J = I; J-- > 0;) {
      const Event &B = *Seq[J];
      if (B.Kind == EventKind::LocalDef || B.Kind == EventKind::LocalUpdate)
        continue;
      if (B.Kind == EventKind::Load && containsStmt(L.S, B.S))
        continue; // the load of the pointer this load goes through
      // A compiler barrier only (liburing's old read_barrier() on x86,
      // __sync_synchronize() in its other branch): ordering meant for this
      // load that the CPU does not provide here.
      BarrierBefore = B.Kind == EventKind::Barrier &&
                      (!B.Bits || (isa_and_nonnull<GCCAsmStmt>(B.node()) && !B.ApiName.empty()));
      break;
    }
    const VarDecl *DepVar = L.Use == ValueUse::Assigned ? L.Var : nullptr;
    for (size_t J = I + 1; J < Seq.size(); ++J) {
      const Event &D = *Seq[J];
      if (D.Kind == EventKind::Lock || D.Kind == EventKind::Unlock)
        return;
      if (ends(D, acquireLike))
        return;
      if (D.Kind == EventKind::Store || D.Kind == EventKind::RMW) {
        // The next round's publication (the consumer storing its head):
        // what follows belongs to another step.
        if (const LocationKey *SK = keyOf(D); SK && osIdentity(*SK) == Id)
          return;
        continue;
      }
      if (D.Kind != EventKind::Load || acquireLike(D.Ord))
        continue;
      const LocationKey *DK = otherLocation(D, Id);
      if (!DK)
        continue;
      // An address dependency: the slot or object is reached through the
      // loaded value.
      if (DepVar && DK->Base == DepVar)
        continue; // an address dependency through the loaded pointer
      // The slot is addressed by the loaded value. A plain load: the
      // consumer's own position (head), not the other side's index. A
      // READ_ONCE(): an address dependency, which orders the kernel's
      // loads. A C11 relaxed atomic: nothing orders it (C11 has no
      // dependency ordering short of memory_order_consume, which compilers
      // make an acquire).
      if (DepVar && (mentions(D.S, DepVar) || mentions(slotIndex(D), DepVar))) {
        if (L.Ord == Order::Plain)
          return;
        if (!c11Atomic(L))
          continue;
      }
      // A pointer loaded with READ_ONCE() from a slot is a publication of
      // its own (its data is reached through it).
      if (D.Ord != Order::Plain)
        if (const auto *X = dyn_cast_or_null<Expr>(D.S); X && X->getType()->isPointerType())
          continue;
      bool Related = false, Dma = false;
      if (Device) {
        // The status word orders the rest of the descriptor the device
        // wrote, not the driver's own bookkeeping.
        Related = deviceField(*DK) && sameDescriptor(D, *DK, L, *LK);
        Dma = true;
      } else if (SlotFlag) {
        Related = DK->Field && LK->Field && (slot(*DK) || returnedSlot(*DK, L)) &&
                  DK->Field->getDeclContext() == LK->Field->getDeclContext() &&
                  sameDescriptor(D, *DK, L, *LK);
      } else if (slot(*DK) && integerTarget(L)) {
        const Expr *Idx = slotIndex(D);
        const Stmt *DS = D.node();
        // Not: an operand that contains the slot (compared with the slot's
        // own content); a local from 0 (for (i = 0; i < n; i++): every
        // slot); a position loaded with READ_ONCE() (the slot depends on
        // that load), unless the index is counted against it (a count needs
        // the index load first).
        for (const Expr *O : Against)
          if (!containsStmt(O, DS) && !scanFromZero(O) &&
              (!positionFromMarked(O) || is_contained(Counted, O)))
            Related |= sharesIndex(Idx, O);
        if (DepVar && c11Atomic(L) && mentions(Idx, DepVar))
          Related = true;
        Dma = deviceField(*DK);
      } else if (Device && DK->Base && DK->Base == LK->Base && deviceField(*DK)) {
        Related = true;
        Dma = true;
      }
      if (!Related)
        continue;
      OsCandidate Cand(OsKind::Consume, L, D, Id,
                       LK->displayName(), DK->displayName());
      Cand.Dma = Dma;
      Cand.SlotFlag = SlotFlag;
      if (SlotFlag)
        if (const ValueDecl *R = ringOf(L, *LK))
          Cand.Ring = osOuterRecord(R);
      if (SlotFlag) {
        // Judged only by the deviant evidence (osSupported()).
      } else if (Device) {
        Cand.SelfEvident = true;
        Cand.VolatileOnly = QuietRecords::declVolatileOnly(L, LK->Field) &&
                            !Tu.shared(C).deviceRecordField(LK->Field);
        Cand.Descriptor = osOuterRecord(LK->Field);
        Cand.Why = deviceWhy(*LK) + ": the device writes the descriptor and then this word";
      } else if (marked(L)) {
        Cand.SelfEvident = true;
        Cand.Why = "a marked load: another agent stores it without a lock";
      } else if (BarrierBefore) {
        Cand.SelfEvident = true;
        Cand.Why = "the barrier right before it: this load is ordered on the "
                   "wrong side";
      } else {
        sharedByProvenance(*LK, Cand);
      }
      Out.push_back(std::move(Cand));
      return;
    }
  }

  /// The variable an access's object is reached from, seeing an inlined
  /// helper's pointer parameter as its argument's own root (`p->v` in
  /// `OPA_store_int(&pbox->flag.value, 1)`: pbox).
  const VarDecl *objectRoot(const Event &E, const LocationKey &K) const {
    const VarDecl *V = baseAt(E, K);
    for (unsigned Depth = 0; V && Depth < 4; ++Depth) {
      auto It = ArgOf.find(V);
      if (It == ArgOf.end())
        break;
      const VarDecl *R = rootVar(It->second);
      if (!R || R == V)
        break;
      V = R;
    }
    return V;
  }
  /// Is E a call into the C library (a function declared in a system
  /// header, with no body here): send(), poll(), ioctl()?
  bool libraryCall(const Event &E) const {
    if (E.Kind != EventKind::Call)
      return false;
    const auto *CE = dyn_cast_or_null<CallExpr>(E.node());
    const FunctionDecl *F = CE ? CE->getDirectCallee() : E.Callee;
    return F && !F->hasBody() && Ctx.getSourceManager().isInSystemHeader(F->getLocation());
  }
  /// A call through a function pointer.
  static bool indirectCall(const Event &E) {
    const auto *CE = E.Kind == EventKind::Call ? dyn_cast_or_null<CallExpr>(E.node()) : nullptr;
    return CE && !CE->getDirectCallee() && !E.SideEffect;
  }
  /// Where the record a field access K reaches through a pointer lies, when
  /// another process or the kernel shares it (not a pointer member's
  /// target, not device memory: descriptors are publish()'s and consume()'s).
  const SharedMemory::Source *sharedRecord(const LocationKey &K) const {
    const auto *F = dyn_cast_or_null<FieldDecl>(K.Field);
    if (!F || F->getType()->isPointerType() || !K.Base || !K.ViaPointer)
      return nullptr;
    const SharedMemory::Source *S = Tu.shared(C).of(K);
    return S && S->Kind != Sharing::Device ? S : nullptr;
  }

  /// Positions in Seq of the loads of shared locations, collected when
  /// first needed.
  std::optional<SmallVector<size_t, 16>> KeyedLoads;
  /// Is word Id of Root's record loaded before position I, by a load that
  /// Pred accepts?
  bool wordLoadedBefore(size_t I, const ValueDecl *Id, const VarDecl *Root,
                        function_ref<bool(const Event &)> Pred) {
    if (!KeyedLoads) {
      KeyedLoads.emplace();
      for (size_t J = 0; J != Seq.size(); ++J)
        if (Seq[J]->Kind == EventKind::Load && keyOf(*Seq[J]))
          KeyedLoads->push_back(J);
    }
    for (size_t J : *KeyedLoads) {
      if (J >= I)
        break;
      const Event &A = *Seq[J];
      const LocationKey *AK = keyOf(A);
      if (osIdentity(*AK) == Id && objectRoot(A, *AK) == Root && Pred(A))
        return true;
    }
    return false;
  }

  /// An ownership word: one field of a record that hands the whole record
  /// from one agent to the other and back (AF_PACKET's tp_status:
  /// TP_STATUS_USER, then TP_STATUS_KERNEL; an MPI fast box's flag). Its
  /// owner tests it, reads or fills the rest of the record, and stores it
  /// to hand the record over:
  ///  - a plain load tested, then the record read (Consume);
  ///  - the record filled, then the word stored (Publish);
  ///  - the record read, then the word stored (Retire).
  /// The other side is not in the file. It is there by the record's
  /// provenance (memory the kernel or another process maps), or, for the
  /// stores, because the function first takes the record by an acquire
  /// load of the word. Judged when the TU is done (osSupported()): the
  /// file tests and stores the word, accesses it marked, atomic or ordered
  /// somewhere, and accesses the record's field only plainly.
  void ownerWord(size_t I, std::vector<OsCandidate> &Out) {
    const Event &W = *Seq[I];
    const LocationKey *WK = keyOf(W);
    if (!WK || !WK->Field || !WK->ViaPointer || counter(W) || !integerTarget(W) ||
        Depth[I] > 0 || (W.Api && W.Api->Mmio))
      return;
    // A word of the record itself, not of one element of an array in it
    // (a per-thread counter slot).
    if (WK->hasSomeElement())
      return;
    const ValueDecl *Id = osIdentity(*WK);
    const VarDecl *Root = objectRoot(W, *WK);
    if (!Id || !Root)
      return;
    const SharedMemory::Source *Src = sharedRecord(*WK);
    bool Load = W.Kind == EventKind::Load;
    if (Load ? (!Src || acquireLike(W.Ord) || !tested(W)) : releaseLike(W.Ord))
      return;
    // With no provenance, the function takes the record by the same word
    // first: an acquire load of it, tested (MPICH's fast box: `if
    // (OPA_load_acquire_int(&box->flag) != 0) return; fill; flag = 1`). An
    // acquire of the word in another function says less: a kernel object's
    // state word (i_size, s_flags) is acquired in one place and set under
    // a lock in another.
    if (!Src && !wordLoadedBefore(I, Id, Root, [&](const Event &A) {
          return acquireLike(A.Ord) && tested(A);
        }))
      return;
    // Another field of the same record (of the shared record, when that is
    // the evidence).
    // (Plain data: a field accessed as a shared word itself, volatile or
    // atomic, is another index or flag: the record's own protocol is not
    // this word's.)
    auto Record = [&](const Event &D) -> const LocationKey * {
      const LocationKey *DK = otherLocation(D, Id);
      if (!DK || !DK->Field || !DK->ViaPointer || objectRoot(D, *DK) != Root ||
          marked(D) || volatileAccess(D))
        return nullptr;
      return !Src || sharedRecord(*DK) ? DK : nullptr;
    };
    auto Emit = [&](OsKind K, const Event &D, const LocationKey &DK) {
      OsCandidate Cand(K, W, D, Id, WK->displayName(), DK.displayName());
      Cand.Index = W;
      Cand.OwnerWord = true;
      Cand.DataId = osIdentity(DK);
      if (const ValueDecl *R = ringOf(W, *WK))
        Cand.Ring = osOuterRecord(R);
      if (Src) {
        Cand.SelfEvident = true;
        // The record laid over a mapping (the root itself holds an address
        // in it): shared whatever the file's accesses to the word say.
        Cand.OwnerMapped = !Src->Api.empty() && Tu.shared(C).holdsMapping(Root);
        Cand.Why = Tu.shared(C).describe(*Src, dyn_cast<FieldDecl>(WK->Field)) + "; '" +
                   WK->displayName() +
                   "' hands the record over";
      } else {
        Cand.OwnerAcquired = true;
      }
      Out.push_back(std::move(Cand));
    };
    if (Load) {
      // A word is tested against flags (`(st & TP_STATUS_USER) == ...`,
      // `!= 0`); a value compared with another position, or addressing
      // the slot read next, is a ring index (consume()'s).
      if (llvm::any_of(comparedWith(W), [&](const Expr *O) { return nonConstant(O, Ctx); }))
        return;
      // The record is taken by the first test of the word: a later test of
      // the same word (DPDK's VLAN flag in tp_status, after the
      // TP_STATUS_USER test) reads a record this side already owns.
      if (wordLoadedBefore(I, Id, Root, [](const Event &) { return true; }))
        return;
      const VarDecl *Pos = W.Use == ValueUse::Assigned ? W.Var : nullptr;
      for (size_t J = I + 1; J < Seq.size(); ++J) {
        const Event &D = *Seq[J];
        if (!onPath(I, J))
          continue; // another arm of a branch
        if (D.Kind == EventKind::Lock || D.Kind == EventKind::Unlock ||
            endsEveryPath(D, acquireLike, W))
          return;
        if (D.Kind == EventKind::Store || D.Kind == EventKind::RMW) {
          if (const LocationKey *SK = keyOf(D); SK && osIdentity(*SK) == Id)
            return; // handed back: what follows is another round
          continue;
        }
        if (D.Kind != EventKind::Load || acquireLike(D.Ord))
          continue;
        if (Pos && (mentions(D.S, Pos) || mentions(slotIndex(D), Pos)))
          return;
        if (const LocationKey *DK = Record(D))
          return Emit(OsKind::Consume, D, *DK);
      }
      return;
    }
    const Expr *Value = valueOf(W);
    bool Zero = Value && isZeroValue(Value, Ctx);
    // A callback handed the record's fields (libpcap's `callback(user, &hdr,
    // bp)` before the frame goes back): the record is read before it, and
    // what it does is not known to order anything. (Not between a fill and
    // the hand-over.)
    bool Callback = false;
    for (size_t J = I; J-- > 0;) {
      const Event &D = *Seq[J];
      if (!onPath(J, I))
        continue; // another arm of a branch
      if (indirectCall(D)) {
        Callback = true;
        continue;
      }
      if (D.Kind == EventKind::Lock || D.Kind == EventKind::Unlock ||
          endsEveryPath(D, releaseLike, W))
        return;
      if (D.Kind == EventKind::Barrier && (D.Bits & OrdLS))
        return;
      const LocationKey *DK = keyOf(D);
      if (D.Kind == EventKind::Store || D.Kind == EventKind::RMW) {
        if (!DK || osIdentity(*DK) == Id)
          continue;
        // The record filled, then handed over (a zero stored is a reset
        // or a hand-back, not a publication).
        const LocationKey *RK = Record(D);
        if (!RK || releaseLike(D.Ord))
          continue;
        Tu.markHandedOver(Id);
        if (Zero || Callback)
          return;
        // The kernel reads a frame handed to it in the system call that
        // follows (AF_PACKET's TX ring: send() after the frames), also
        // when the file maps the ring itself.
        const auto *WF = dyn_cast<FieldDecl>(WK->Field);
        if (Src && (Src->Api.empty() || (WF && Tu.shared(C).kernelRecordField(WF))))
          for (size_t K = I + 1; K < Seq.size(); ++K)
            if (libraryCall(*Seq[K]))
              return;
        return Emit(OsKind::Publish, D, *RK);
      }
      if (D.Kind != EventKind::Load || acquireLike(D.Ord))
        continue;
      // A load whose value is what gets stored (a token copied into the
      // word) is no read of the record's contents.
      if (D.Use == ValueUse::Assigned && D.Var && Value && mentions(Value, D.Var))
        continue;
      // ... nor is one the store depends on: ordered after it.
      if (orderedByDependency(D, W))
        continue;
      if (const LocationKey *RK = Record(D)) {
        Tu.markHandedOver(Id);
        return Emit(OsKind::Retire, D, *RK);
      }
    }
  }

  void retire(size_t I, std::vector<OsCandidate> &Out) {
    const Event &S = *Seq[I];
    if (S.Api && S.Api->Mmio)
      return;
    const LocationKey *SK = keyOf(S);
    if (!SK || counter(S) || releaseLike(S.Ord) || !integerTarget(S) || slot(*SK))
      return;
    const ValueDecl *Id = osIdentity(*SK);
    if (!Id || Depth[I] > 0)
      return;
    // A barrier right after the store (liburing's old io_uring_cq_advance():
    // `*khead += nr; write_barrier();`): the author orders this store for
    // another agent, on the wrong side of it. Such an author relies on that
    // barrier, not on a callback called through a pointer on the way.
    const Event *After = nullptr;
    for (size_t J = I + 1; J < Seq.size(); ++J) {
      const Event &B = *Seq[J];
      if (B.Kind == EventKind::LocalDef || B.Kind == EventKind::LocalUpdate)
        continue;
      // A write, full or compiler barrier (liburing's write_barrier() was
      // a compiler barrier on x86). A read-side fence after a private
      // index (Concurrency Kit's ck_barrier_dissemination(): the thread's
      // own `state->parity`, then ck_pr_fence_acquire()) publishes nothing.
      bool ReadSide = (B.Bits & (OrdLL | OrdLS)) && !(B.Bits & OrdSS);
      if (B.Kind == EventKind::Barrier && !ReadSide)
        After = &B;
      break;
    }
    const Event *Wmb = nullptr;
    for (size_t J = I; J-- > 0;) {
      const Event &D = *Seq[J];
      if (D.Kind == EventKind::Lock || D.Kind == EventKind::Unlock)
        return;
      if (After && D.Kind == EventKind::Call && !D.Callee && !D.SideEffect)
        continue; // req->complete(req)
      if (D.Kind == EventKind::Barrier) {
        if (D.Bits & OrdLS)
          return;
        if ((D.Bits & OrdSS) && !Wmb) {
          Wmb = &D;
          continue;
        }
        if (D.Bits)
          return;
        continue;
      }
      if (ends(D, releaseLike))
        return;
      const LocationKey *DK = keyOf(D);
      if (!DK || counter(D))
        continue;
      const ValueDecl *DId = osIdentity(*DK);
      if (D.Kind == EventKind::Store || D.Kind == EventKind::RMW) {
        // A producer: Publish judges it. (Not a store into an array of
        // another object: a free list the consumer pushes what it took.)
        if (slot(*DK) || slotCall(D, *DK)) {
          const VarDecl *H = slotHolder(D, *DK), *Own = baseAt(S, *SK);
          if (!H || !Own || H == Own)
            return;
        }
        continue;
      }
      if (D.Kind != EventKind::Load || DId == Id)
        continue;
      if (!slot(*DK)) {
        // A slot a helper returned (libbpf's xsk_ring_cons__comp_addr())
        // from the ring object whose index is stored here, and the store
        // moves that index on by itself (`*c->consumer + nb`): the
        // consumer handing back what it read.
        const VarDecl *Holder = slotCallHolder(slotCall(D, *DK));
        if (!Holder || Holder != baseAt(S, *SK) || !stepsItself(S, valueOf(S)))
          continue;
      } else {
        if (!DId)
          continue;
        // The slot is addressed by the index being stored (its old value):
        // the consumer's own position, handed back.
        if (!sameRing(slotIndex(D), S, valueOf(S), /*Strict=*/true))
          continue;
        // ... loaded before the slot: a local that gets the index only
        // later (PostgreSQL's clog group: `nextidx` first takes the list
        // head, addresses a slot, and only a later loop walks
        // `proc->clogGroupNext` through it) was another position when the
        // slot was read.
        if (!loadedBefore(*SK, J))
          continue;
      }
      // The store depends on what was read: ordered after it.
      if (orderedByDependency(D, S))
        continue;
      OsCandidate Cand;
      Cand.K = Wmb ? OsKind::RetireWrongKind : OsKind::Retire;
      Cand.At = Wmb ? *Wmb : S;
      Cand.Index = S;
      Cand.Data = D;
      Cand.Id = Id;
      Cand.IdName = SK->displayName();
      Cand.DataName = DK->displayName();
      Cand.Dma = deviceField(*DK);
      if (marked(S)) {
        Cand.SelfEvident = true;
        Cand.Why = "a marked store: the producer reads it without a lock";
      } else if (After) {
        Cand.SelfEvident = true;
        Cand.Why = "the barrier right after it: this store is ordered for "
                   "another agent, on the wrong side";
      } else {
        sharedByProvenance(*SK, Cand);
      }
      Out.push_back(std::move(Cand));
      return;
    }
    // No slot load here: a consumer split into calls (one reads the record
    // at a position kept in a field and moves it, a later one stores the
    // position into the shared index). With only a store->store barrier
    // before the marked index store, the author orders this store for the
    // other side, with the wrong kind; judged when the TU is done.
    if (Wmb && marked(S))
      if (const ValueDecl *P = positionField(valueOf(S), S, 0)) {
        OsCandidate Cand;
        Cand.K = OsKind::RetireWrongKind;
        Cand.At = *Wmb;
        Cand.Index = S;
        Cand.Id = Id;
        Cand.IdName = SK->displayName();
        Cand.Position = P;
        Out.push_back(std::move(Cand));
      }
  }

  /// The integer field a stored value is read from (`r->pos`), seeing an
  /// inlined helper's parameter as the call's argument.
  const ValueDecl *positionField(const Expr *V, const Event &At,
                                 unsigned Depth) const {
    if (!V || Depth > 4)
      return nullptr;
    V = V->IgnoreParenCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(V))
      return ME->getType()->isIntegerType() ? ME->getMemberDecl() : nullptr;
    if (const auto *DR = dyn_cast<DeclRefExpr>(V))
      if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl())) {
        auto It = ArgOf.find(P);
        if (It != ArgOf.end())
          return positionField(It->second, At, Depth + 1);
        // A helper of a helper: the argument the call chain from this
        // function's call passes for P.
        if (At.Via)
          if (const auto *CE = dyn_cast_or_null<CallExpr>(At.S))
            return positionField(argumentFor(P, CE, 0), At, Depth + 1);
      }
    return nullptr;
  }

  /// The expression the call Outer (of this function) passes down for the
  /// parameter P of a function it calls, directly or through one helper
  /// that calls it once.
  static const Expr *argumentFor(const ParmVarDecl *P, const CallExpr *Outer,
                                 unsigned Depth) {
    const FunctionDecl *Callee = Outer ? Outer->getDirectCallee() : nullptr;
    const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
    if (!Callee || !Owner || Depth > 2)
      return nullptr;
    if (Callee->getCanonicalDecl() == Owner->getCanonicalDecl())
      return P->getFunctionScopeIndex() < Outer->getNumArgs()
                 ? Outer->getArg(P->getFunctionScopeIndex())
                 : nullptr;
    const FunctionDecl *Def = nullptr;
    if (!Callee->hasBody(Def) || !Def)
      return nullptr;
    const CallExpr *Inner = nullptr;
    if (!findCallTo(Def->getBody(), Owner, Inner, 0) || !Inner)
      return nullptr;
    const Expr *A =
        P->getFunctionScopeIndex() < Inner->getNumArgs()
            ? Inner->getArg(P->getFunctionScopeIndex())->IgnoreParenCasts()
            : nullptr;
    // In the helper's terms: one of its own parameters, passed by Outer.
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(A))
      if (const auto *Q = dyn_cast<ParmVarDecl>(DR->getDecl()))
        return argumentFor(Q, Outer, Depth + 1);
    return A;
  }

  /// The one call to F in S (false if there are several).
  static bool findCallTo(const Stmt *S, const FunctionDecl *F,
                         const CallExpr *&Found, unsigned Depth) {
    if (!S || Depth > 64)
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *C = CE->getDirectCallee();
          C && C->getCanonicalDecl() == F->getCanonicalDecl()) {
        if (Found)
          return false;
        Found = CE;
      }
    for (const Stmt *Ch : S->children())
      if (!findCallTo(Ch, F, Found, Depth + 1))
        return false;
    return true;
  }
};

/// What one function does with slots at a position field: reads, stores,
/// and moves of the field.
class PositionUse {
public:
  explicit PositionUse(const ValueDecl *P) : P(P) {}
  void walk(const Stmt *S, bool Store, unsigned Depth) {
    if (!S || Depth > 256)
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp()) {
      Moves |= isField(B->getLHS());
      walk(B->getLHS(), true, Depth + 1);
      walk(B->getRHS(), false, Depth + 1);
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S);
        U && U->isIncrementDecrementOp()) {
      Moves |= isField(U->getSubExpr());
      walk(U->getSubExpr(), true, Depth + 1);
      return;
    }
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      // memcpy(&ring[i], src, n) and friends write their first argument.
      for (unsigned I = 0; I != C->getNumArgs(); ++I)
        walk(C->getArg(I), I == 0 && C->getNumArgs() == 3, Depth + 1);
      return;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
      if (names(A->getIdx())) {
        if (Store)
          Stores = true;
        else if (!Read)
          Read = A;
      }
      walk(A->getBase(), false, Depth + 1);
      walk(A->getIdx(), false, Depth + 1);
      return;
    }
    // `x[i].f = v` stores into the slot; `x[i].f` reads it.
    if (const auto *M = dyn_cast<MemberExpr>(S)) {
      walk(M->getBase(), Store, Depth + 1);
      return;
    }
    for (const Stmt *Ch : S->children())
      walk(Ch, Store && isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr>(S),
           Depth + 1);
  }

  const ArraySubscriptExpr *Read = nullptr;
  bool Stores = false, Moves = false;

private:
  bool isField(const Expr *E) const {
    const auto *M = dyn_cast<MemberExpr>(E->IgnoreParenCasts());
    return M && M->getMemberDecl() == P;
  }
  bool names(const Stmt *S, unsigned Depth = 0) const {
    if (!S || Depth > 32)
      return false;
    if (const auto *M = dyn_cast<MemberExpr>(S); M && M->getMemberDecl() == P)
      return true;
    for (const Stmt *Ch : S->children())
      if (names(Ch, Depth + 1))
        return true;
    return false;
  }
  const ValueDecl *P;
};

} // namespace

const Expr *osSlotsReadAt(ASTContext &Ctx, const ValueDecl *Position,
                          std::string &FnName) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody() ||
        SM.isInSystemHeader(FD->getLocation()))
      continue;
    PositionUse U(Position);
    U.walk(FD->getBody(), false, 0);
    if (U.Read && U.Moves && !U.Stores) {
      FnName = FD->getIdentifier() ? FD->getName().str() : "?";
      return U.Read;
    }
  }
  return nullptr;
}

const FunctionTrace *OsEvidence::helperTrace(Classifier &C, const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || (Def->getIdentifier() &&
                                    C.model().lookup(Def->getName())))
    return nullptr;
  auto [It, New] = Helpers.try_emplace(Def);
  if (!New)
    return It->second.get();
  std::shared_ptr<const FunctionTrace> H = C.classify(Def);
  if (!H)
    return nullptr;
  size_t N = 0;
  for (const BlockEvents &B : H->Blocks)
    N += B.Events.size();
  // Small helpers only: accessors, a doorbell wrapper, a "more used?" test.
  // (Counter events inside keep their role: the scan skips them.)
  if (N > 24)
    return nullptr;
  Helpers[Def] = std::move(H);
  return Helpers[Def].get();
}

std::vector<OsCandidate> scanOneSided(FunctionAnalyses &FA, Classifier &C,
                                      OsEvidence &Tu) {
  const FunctionTrace &T = FA.trace();
  std::vector<OsCandidate> Out;
  if (!T.Cfg || !T.FD || !T.FD->getBody())
    return Out;
  // A set-up function (by its name) works on a ring no one else sees yet;
  // only a double-checked initialisation shows the opposite by its shape.
  bool Setup = setupFunction(T.FD);
  // A seqcount reader or writer is judged by the seqcount checks.
  if (!T.Counters.empty())
    return Out;
  Scan S(FA, C, Tu);
  if (S.Seq.size() > 4000)
    return Out;
  auto Innermost = [](const Event &E) { return E.Via ? E.Via->getCanonicalDecl() : nullptr; };
  for (size_t I = 0; I != S.Seq.size(); ++I) {
    const Event &E = *S.Seq[I];
    size_t Before = Out.size();
    if (Setup) {
      if (E.Kind == EventKind::Store)
        S.doubleChecked(I, Out);
    } else if (E.Kind == EventKind::Store || E.Kind == EventKind::RMW) {
      S.publish(I, Out);
      if (Out.size() == Before)
        S.retire(I, Out);
      if (Out.size() == Before && (E.Kind == EventKind::Store || S.bitUpdate(E)))
        S.publishSibling(I, Out);
      if (Out.size() == Before && E.Kind == EventKind::Store)
        S.doubleChecked(I, Out);
      // (Also when another rule has a candidate here: that one may lack its
      // evidence; one finding per place is reported.)
      S.ownerWord(I, Out);
      if (E.Kind == EventKind::Store)
        S.deviceOrder(I);
    } else if (E.Kind == EventKind::Load) {
      S.storeLoad(I, Out);
      if (Out.size() == Before)
        S.consume(I, Out);
      if (Out.size() == Before)
        S.reserve(I, Out);
      if (Out.size() == Before)
        S.cacheLoad(I, Out);
      // (Also when another rule has a candidate here: that one may lack its
      // evidence; one finding per place is reported.)
      S.ownerWord(I, Out);
    }
    // Both ends inside one call of a helper (reported at that call, also
    // when they lie in different helpers of the helper): the helper's own
    // analysis reports it (once, not at every call).
    // (Not a store-then-load whose wake-up is out here: the helper alone
    // shows no wake-up; nor a cached index whose slot is read out here.)
    if (Out.size() > Before && Out.back().K == OsKind::Publish)
      if (const auto *F = dyn_cast_or_null<FieldDecl>(Out.back().Id))
        if (const MemberExpr *ME = findMember(Out.back().At.node(), F)) {
          Out.back().Object = ME->getBase();
          Out.back().ObjectFn = Out.back().At.Via ? Out.back().At.Via : T.FD;
        }
    while (Out.size() > Before && Out.back().K != OsKind::StoreLoad &&
           Out.back().K != OsKind::StoreLoadWrongKind && Innermost(Out.back().At) &&
           Innermost(Out.back().Data) && Out.back().At.Loc == Out.back().Data.Loc &&
           !(Out.back().CacheSlot && Out.back().Slot.Loc != Out.back().At.Loc))
      Out.pop_back();
  }
  return Out;
}

void OsEvidence::add(const FunctionTrace &T) {
  if (T.FD == Last)
    return;
  Last = T.FD;
  Quiet.add(T);
  BranchTests Conds{/*Answers=*/true};
  if (T.FD && T.FD->getBody())
    Conds.walk(T.FD->getBody());
  std::string Fn = T.FD && T.FD->getIdentifier() ? T.FD->getName().str() : "?";
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &E : BE.Events) {
      if (E.Kind == EventKind::Call && E.Callee)
        Called.insert(E.Callee->getCanonicalDecl());
      if (E.Via)
        Called.insert(E.Via->getCanonicalDecl());
      if (const auto *CE = dyn_cast_or_null<CallExpr>(E.S))
        if (const FunctionDecl *F = CE->getDirectCallee())
          Called.insert(F->getCanonicalDecl());
      // A lock that is a member of a record: that record's fields are
      // guarded by it.
      if ((E.Kind == EventKind::Lock || E.Kind == EventKind::Unlock) &&
          E.Key >= 0)
        if (const RecordDecl *RD = osOuterRecord(T.key(E.Key).Field))
          LockedRecords.insert(RD);
    }
  // In reverse post-order, as one sequence: a WRITE_ONCE() after a helper's
  // smp_wmb() is often in a block of its own.
  std::vector<const Event *> Ev;
  for (const CFGBlock *B : reversePostOrder(*T.Cfg))
    for (const Event &E : T.Blocks[B->getBlockID()].Events)
      Ev.push_back(&E);
  {
    for (size_t I = 0; I != Ev.size(); ++I) {
      const Event &E = *Ev[I];
      if (E.Key >= 0 &&
          (E.Kind == EventKind::RMW || E.Kind == EventKind::CounterInc))
        if (const ValueDecl *Id = osIdentity(T.key(E.Key)))
          Stepped.insert(Id); // a read-modify-write or a counter step
      if (E.Key < 0 || (E.Kind != EventKind::Load && E.Kind != EventKind::Store))
        continue;
      const LocationKey &K = T.key(E.Key);
      if (K.isLocal())
        continue;
      const ValueDecl *Id = osIdentity(K);
      if (!Id)
        continue;
      unsigned &Bt = Bits[Id];
      bool Volatile = K.Field && K.Field->getType().isVolatileQualified();
      std::string Sp = !E.ApiName.empty() ? (E.ApiName + "()").str() : "";
      if (E.Kind == EventKind::Load) {
        if (Conds.Nodes.count(E.S) || E.Use == ValueUse::Compared ||
            E.Use == ValueUse::Condition ||
            (E.Use == ValueUse::Assigned && E.Var && Conds.Vars.count(E.Var)))
          Bt |= EvTestedLoad;
        // A load that orders what follows it: its object, for
        // readersOnOtherInstances().
        bool Ordered = E.Ord != Order::Plain || Volatile;
        for (size_t J = I + 1; !Ordered && J < Ev.size() && J <= I + 16; ++J) {
          const Event &P = *Ev[J];
          if (P.Kind == EventKind::Barrier) {
            Ordered = P.Bits & OrdLL;
            break;
          }
          if (P.Kind != EventKind::Load && P.Kind != EventKind::LocalDef &&
              P.Kind != EventKind::LocalUpdate)
            break;
        }
        if (Ordered) {
          const auto *F = dyn_cast_or_null<FieldDecl>(Id);
          const MemberExpr *ME = F ? findMember(E.node(), F) : nullptr;
          if (ME)
            OrderedReaders[Id].push_back({E.Via ? E.Via : T.FD, ME->getBase()});
          else
            UnresolvedReaders.insert(Id);
        }
        if (acquireLike(E.Ord) || isRcuAccessorName(E.ApiName)) {
          Bt |= EvAcquireLoad;
          if (const RecordDecl *RD = osOuterRecord(K.Field)) {
            Acquired.insert(RD);
            if (K.Field->getType()->isIntegerType())
              AcquiredPosition.insert(RD);
          }
          Strong.try_emplace(Id, Where{E.Loc, Sp.empty() ? "an acquire load" : Sp, Fn});
        } else if (E.Ord != Order::Plain || Volatile) {
          Bt |= EvMarkedLoad;
        }
        continue;
      }
      // The values the file stores: one constant everywhere, or not.
      {
        std::optional<int64_t> V =
            integerConstant(storedValue(E.S), T.FD->getASTContext());
        auto [It, New] = StoredConstant.try_emplace(Id, V);
        if (!New && It->second != V)
          It->second.reset();
      }
      if (releaseLike(E.Ord)) {
        Bt |= EvReleaseStore;
        Strong[Id] = Where{E.Loc, Sp.empty() ? "a release store" : Sp, Fn};
        continue;
      }
      if (E.Ord != Order::Plain || Volatile)
        Bt |= EvMarkedStore;
      // Right after a write barrier?
      bool Fenced = false;
      for (size_t J = I; J-- > 0;) {
        const Event &P = *Ev[J];
        if (P.Kind == EventKind::Barrier && (P.Bits & OrdSS)) {
          // A CPU-to-CPU barrier (smp_wmb(), a fence): dma_wmb() and wmb()
          // before a driver's index often order the device's view for the
          // doorbell that follows.
          Fenced = isCpuToCpuBarrierName(P.ApiName);
          break;
        }
        if (P.Kind == EventKind::Store || P.Kind == EventKind::RMW ||
            P.Kind == EventKind::Call)
          break;
      }
      // After a write barrier (of any kind) that follows stores to other
      // fields of the same object: this field is the one that publishes
      // them (a descriptor's status word). A zero stored there is a reset
      // or a hand-back, which says nothing about how a set value must be
      // ordered (cpufreq_governor.c: `smp_wmb(); work_in_progress = false`).
      const Expr *SV = storedValue(E.S);
      bool Zero = !SV || isZeroValue(SV, T.FD->getASTContext());
      for (size_t J = I; !Zero && J-- > 0;) {
        const Event &P = *Ev[J];
        if (P.Kind == EventKind::LocalDef || P.Kind == EventKind::LocalUpdate)
          continue;
        if (P.Kind != EventKind::Barrier || !(P.Bits & OrdSS))
          break;
        for (size_t B = J; B-- > 0;) {
          const Event &D = *Ev[B];
          if (D.Kind == EventKind::Barrier || D.Kind == EventKind::Lock ||
              D.Kind == EventKind::Unlock)
            break;
          if (D.Kind != EventKind::Store || D.Key < 0)
            continue;
          const LocationKey &DK = T.key(D.Key);
          if (DK.Base && DK.Base == K.Base && DK.ViaPointer && K.ViaPointer && DK.Field &&
              K.Field && DK.Field != K.Field &&
              DK.Field->getDeclContext() == K.Field->getDeclContext()) {
            Bt |= EvSiblingFenced;
            Sibling.try_emplace(Id, Where{E.Loc, "a store after a write barrier", Fn});
            break;
          }
        }
        break;
      }
      if (Fenced) {
        Bt |= EvFencedStore;
        if (!Strong.count(Id))
          Strong[Id] = Where{E.Loc, "a store after a write barrier", Fn};
      } else {
        Bt |= EvPlainStore;
      }
    }
  }
}

bool OsEvidence::readersOnOtherInstances(const OsCandidate &Cand) const {
  if (!Cand.Id || !Cand.Object || !Cand.ObjectFn ||
      UnresolvedReaders.count(Cand.Id))
    return false;
  auto It = OrderedReaders.find(Cand.Id);
  if (It == OrderedReaders.end() || It->second.empty())
    return false; // the readers are elsewhere
  if (!Sites)
    Sites = std::make_unique<CallSites>(Cand.ObjectFn->getASTContext());
  SmallVector<Instance, 4> Stored;
  if (!instancesOf(*Sites, Cand.ObjectFn, Cand.Object, Stored))
    return false;
  unsigned Others = 0;
  for (const Reader &R : It->second) {
    // The storing function's own load of the object it stores to (the
    // relay reads ring 0's index to know where to put the next buffer).
    if (R.Fn == Cand.ObjectFn && sameObjectExpr(R.Object, Cand.Object))
      continue;
    SmallVector<Instance, 4> Read;
    if (!instancesOf(*Sites, R.Fn, R.Object, Read))
      return false;
    for (const Instance &S : Stored)
      for (const Instance &L : Read)
        if (!distinctInstances(S, L))
          return false;
    ++Others;
  }
  return Others > 0; // (only its own loads: the readers are elsewhere)
}

const OsEvidence::Where *OsEvidence::siblingFenced(const ValueDecl *Id) const {
  auto It = Sibling.find(Id);
  return It == Sibling.end() ? nullptr : &It->second;
}

const OsEvidence::Where *OsEvidence::strongest(const ValueDecl *Id) const {
  auto It = Strong.find(Id);
  return It == Strong.end() ? nullptr : &It->second;
}

bool osSupported(const OsCandidate &Cand, const OsEvidence &Ev) {
  unsigned B = Ev.of(Cand.Id);
  if (Cand.NeedsPolled && !(B & EvTestedLoad))
    return false;
  if (Cand.VolatileOnly && Ev.quiet(Cand.Id))
    return false;
  // An ownership word moves both ways: the file tests it and stores it (a
  // word only read is another agent's index or state). And the file treats
  // it as shared somewhere: a marked, atomic or ordered access (the
  // kernel's user-space ABI is mostly system call arguments, whose fields
  // are tested and set plainly: perf_event_attr's sample_type). Or the
  // record lies in memory the file maps shared and the file hands it over
  // with the word outside set-up (a magic number stored once when the
  // segment is made and tested when it is attached moves nothing:
  // PostgreSQL's PGShmemHeader).
  if (Cand.OwnerWord && (!(B & EvTestedLoad) || !(B & EvAnyStore) ||
                         (!(B & EvSharedAccess) &&
                          !(Cand.OwnerMapped && (B & EvHandedOver))) ||
                         (Cand.OwnerAcquired && !(B & EvAcquireLoad)) ||
                         (Ev.of(Cand.DataId) & EvSharedAccess)))
    return false;
  if (Cand.OwnerAcquired)
    return true;
  if (Cand.Fn && Ev.called(Cand.Fn))
    return false;
  if (Cand.Cache)
    // ... or the other side's index (this file never stores it) with the
    // ring's slots read after it and nothing between.
    return Ev.cacheFenced(Cand.Id, Cand.Cache) != nullptr ||
           (Cand.CacheSlot && !(B & EvAnyStore));
  if (Cand.Sibling)
    return B & EvSiblingFenced;
  if (Cand.DoorbellIndex)
    return B & EvDeviceUnordered;
  // The word loaded to decide the wake-up is the other side's: this file
  // never stores it.
  if (Cand.K == OsKind::StoreLoad || Cand.K == OsKind::StoreLoadWrongKind)
    return !Cand.Id || !(B & EvAnyStore);
  // A block of index and slots that holds a lock the file takes is guarded
  // by it (DPDK's IPsec replay window: the sequence number and its bitmap
  // beside an rte_rwlock_t), like a store under a lock: only a reader that
  // takes no lock and loads the index with an acquire makes it a
  // publication (a consumer outside a producers' lock).
  if (Cand.Block && Ev.lockedRecord(Cand.Block))
    return Ev.of(Cand.Id) & EvAcquireLoad;
  // The file loads another word of this descriptor type with an acquire:
  // that word hands the descriptor over, and this one is data it orders
  // (a virtio packed descriptor's flags, then its len and addr, also in
  // an indirect table the head's flags announced).
  if (Cand.Descriptor && Ev.acquiredRecord(Cand.Descriptor) &&
      !(Ev.of(Cand.Id) & EvAcquireLoad))
    return false;
  // An ownership word in a slot of a ring whose position the file loads
  // with an acquire: the ring hands its slots over by position, and the
  // slot's words are data that position orders (memif's descriptors'
  // flags and length, behind the acquired tail and the released head).
  if (Cand.OwnerWord && Cand.Ring && Ev.acquiredPosition(Cand.Ring))
    return false;
  // ... or read before the word is stored: a field the file only ever
  // sets to one constant (a ring's cookie, checked before a reconnect
  // resets the positions) is no content a producer reuses.
  if (Cand.OwnerWord && Cand.DataId && Ev.constantField(Cand.DataId))
    return false;
  if (Cand.SelfEvident)
    return true;
  switch (Cand.K) {
  case OsKind::Publish:
    if (Cand.AcquireReaders)
      return B & EvAcquireLoad;
    if (Cand.LocklessReaders)
      return B & (EvAcquireLoad | EvMarkedLoad);
    // Another agent reads it with an acquire, or this file publishes it
    // with a release or after smp_wmb() elsewhere (deviant ordering)...
    // unless every ordered reader of the file reads another object of the
    // type: a relay that moves the queues' buffers into ring 0 and
    // advances ring 0's index, which only its own caller reads (tg3's
    // tg3_rx_prodring_xfer(); the queues' indices are the ones stored
    // after smp_wmb() and read after smp_rmb()).
    return (B & (EvAcquireLoad | EvReleaseStore | EvFencedStore)) &&
           !Ev.readersOnOtherInstances(Cand);
  case OsKind::Retire:
  case OsKind::RetireWrongKind:
    return B & (EvAcquireLoad | EvMarkedLoad | EvReleaseStore | EvFencedStore);
  case OsKind::Consume:
    // A flag word inside a slot: stored with a release, or after a write
    // barrier, elsewhere (WRITE_ONCE() alone is how slots are filled).
    // ... in a ring with no index of its own that the file acquires (a
    // packed ring; io_uring's buffer ring publishes its slots by its tail).
    if (Cand.SlotFlag)
      return (B & EvReleaseStore) && !(Cand.Ring && Ev.acquiredRecord(Cand.Ring));
    // Stored with WRITE_ONCE() or a release elsewhere: a store after a
    // write barrier may be ordering something else (a device's view).
    return B & (EvReleaseStore | EvMarkedStore);
  case OsKind::StoreLoad:
  case OsKind::StoreLoadWrongKind:
    return false; // judged above
  case OsKind::Reserve:
    // The other side's index: this file never stores it.
    return !(B & EvAnyStore);
  }
  return false;
}

} // namespace seqlint
