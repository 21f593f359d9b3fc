//===- Classifier.cpp -----------------------------------------------------===//
#include "core/Classifier.h"
#include "core/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include <deque>

using namespace clang;
using namespace llvm;

namespace seqlint {

unsigned barrierBits(BarrierKind K) {
  switch (K) {
  case BarrierKind::Compiler:
    return 0;
  case BarrierKind::Read:
    return OrdLL;
  case BarrierKind::Write:
    return OrdSS;
  case BarrierKind::Acquire:
    return OrdLL | OrdLS;
  case BarrierKind::Release:
    return OrdLS | OrdSS;
  case BarrierKind::Full:
    return OrdFull;
  }
  return 0;
}

bool LocationKey::addresses(const LocationKey &Other) const {
  StringRef O = Other.Text;
  if (O.size() <= Text.size() || !O.starts_with(Text))
    return false;
  StringRef Rest = O.substr(Text.size());
  return Rest.starts_with("->") || Rest.starts_with(".") || Rest.starts_with("[");
}

DenseSet<int> counterAddressKeys(const FunctionTrace &T) {
  DenseSet<int> Out;
  for (unsigned K = 0; K != T.Keys.size(); ++K)
    for (int C : T.Counters)
      if (T.Keys[K].addresses(T.Keys[C])) {
        Out.insert(K);
        break;
      }
  return Out;
}

std::string LocationKey::leafName() const {
  StringRef T = Text;
  // Text looks like "s@1->seq" or "g@7": the leaf is after the last -> or .
  size_t Arrow = T.rfind("->");
  size_t Dot = T.rfind('.');
  size_t Cut = StringRef::npos;
  if (Arrow != StringRef::npos)
    Cut = Arrow + 2;
  if (Dot != StringRef::npos && (Cut == StringRef::npos || Dot + 1 > Cut))
    Cut = Dot + 1;
  StringRef Leaf = Cut == StringRef::npos ? T : T.drop_front(Cut);
  Leaf = Leaf.take_until([](char C) { return C == '@' || C == '['; });
  Leaf = Leaf.ltrim("*(");
  return Leaf.str();
}

const FunctionDecl *calleeOf(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE)
    return nullptr;
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *GS = dyn_cast<GenericSelectionExpr>(Callee))
    if (!GS->isResultDependent())
      Callee = GS->getResultExpr()->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(Callee))
    return dyn_cast<FunctionDecl>(DR->getDecl());
  return CE->getDirectCallee();
}

namespace {

/// Constant value of a memory_order argument, seq_cst if unknown.
Order orderFromArg(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return Order::SeqCst;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return Order::SeqCst;
  switch (R.Val.getInt().getExtValue()) {
  case 0: // relaxed
    return Order::Once;
  case 1: // consume
  case 2: // acquire
    return Order::Acquire;
  case 3: // release
    return Order::Release;
  case 4: // acq_rel
    return Order::AcqRel;
  default:
    return Order::SeqCst;
  }
}

unsigned fenceBits(Order O) {
  switch (O) {
  case Order::Plain:
  case Order::Once:
    return 0;
  case Order::Acquire:
    return OrdLL | OrdLS;
  case Order::Release:
    return OrdLS | OrdSS;
  case Order::AcqRel:
    return OrdLL | OrdLS | OrdSS;
  case Order::SeqCst:
    return OrdFull;
  }
  return 0;
}

bool isIntLiteral(const Expr *E, ASTContext &Ctx, int64_t V) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent())
    return false;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return false;
  return R.Val.getInt().getSExtValue() == V;
}

/// ~1, ~1U, -2, 0xfffffffe ...: a mask clearing only the low bit.
/// E mentions the variable V.
bool refersTo(const Stmt *E, const VarDecl *V) {
  if (!E)
    return false;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    return DR->getDecl() == V;
  for (const Stmt *C : E->children())
    if (refersTo(C, V))
      return true;
  return false;
}

bool isClearLowBitMask(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Not)
      return isIntLiteral(U->getSubExpr(), Ctx, 1);
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
    APSInt V = R.Val.getInt();
    if (V.getBitWidth() >= 2 && !V[0] && V.countr_zero() == 1 &&
        (V.isAllOnes() || V.popcount() == V.getBitWidth() - 1 ||
         V.getSExtValue() == -2))
      return true;
  }
  return false;
}

/// +1 for a name that reads like taking a lock, -1 for releasing one.
int lockLikeName(StringRef Name) {
  if (Name.empty())
    return 0;
  if (Name.contains("unlock") || Name == "release_sock" || Name.starts_with("up_read") ||
      Name.starts_with("up_write"))
    return -1;
  if (Name.contains("is_locked") || Name.contains("lockdep") || Name.contains("lockref") ||
      Name.contains("lockless") || Name.contains("_locked") || Name.contains("block") ||
      Name.contains("clock") || Name.contains("flock"))
    return 0;
  if (Name.ends_with("_lock") || Name.contains("_lock_") || Name.starts_with("lock_") ||
      Name.ends_with("trylock") || Name.starts_with("down_read") ||
      Name.starts_with("down_write") || Name == "lock")
    return 1;
  return 0;
}

/// class_spinlock_irqsave_constructor, class_mutex_constructor ...: the
/// constructor of a lock guard class of <linux/cleanup.h>.
bool isLockGuardConstructor(StringRef Name) {
  if (!Name.consume_front("class_") || !Name.consume_back("_constructor"))
    return false;
  Name.consume_back("_try");
  Name.consume_back("_nested");
  static const char *Guards[] = {
      "raw_spinlock", "raw_spinlock_irq", "raw_spinlock_bh",
      "raw_spinlock_irqsave", "spinlock", "spinlock_irq", "spinlock_bh",
      "spinlock_irqsave", "read_lock", "read_lock_irq", "read_lock_irqsave",
      "write_lock", "write_lock_irq", "write_lock_irqsave", "mutex",
      "mutex_intr", "rwsem_read", "rwsem_write"};
  for (const char *G : Guards)
    if (Name == G)
      return true;
  return false;
}

class FunctionClassifier {
public:
  FunctionClassifier(Classifier &C, FunctionTrace &T)
      : C(C), T(T), Ctx(C.context()), SM(Ctx.getSourceManager()),
        Index(C.macros()), Model(C.model()) {}

  void run(const Stmt *Body);

private:
  // --- instances ---------------------------------------------------------
  const MacroInstance *wholeInstance(const Stmt *S) const;
  const Stmt *rootOf(const MacroInstance *I, const Stmt *S);
  const Stmt *anchorOf(const MacroInstance *I, const Stmt *S);
  SmallVector<const Expr *, 4> instanceArgs(const MacroInstance *I, const Stmt *Root);
  void emitInstance(const MacroInstance *I, const Stmt *Root, BlockEvents &B);

  // --- plain nodes -------------------------------------------------------
  void classifyPlain(const Stmt *S, BlockEvents &B);
  void emitApiCall(const ApiEntry &E, StringRef Name, const Stmt *Root,
                   ArrayRef<const Expr *> Args, BlockEvents &B);
  void classifyAtomic(const AtomicExpr *AE, BlockEvents &B);
  void classifyAsm(const GCCAsmStmt *AS, BlockEvents &B);
  void noteLocalAssign(const VarDecl *V, const Expr *Init);
  bool anyBeginLoad(int Key, const VarDecl *V,
                    llvm::function_ref<bool(const Event &)> P) const;
  bool beginIsSequenceLoad(int Key, const VarDecl *V) const;
  bool maskedBegin(int Key, const VarDecl *V) const;
  bool writes(int Key) const;
  bool beginFencedBeforeData(int Key, const VarDecl *V) const;
  bool recheckFencedAfterData(int Key, const VarDecl *V) const;
  bool isConstant(const Expr *E) const;
  /// Fenced: a write barrier runs between the two increments.
  bool bracketsStores(int Key, bool *Fenced = nullptr) const;
  bool opensWithRelease(int Key) const;
  bool storesBetween(int Key, const VarDecl *V) const;
  void emitLocalUpdate(const VarDecl *V, const Stmt *At, bool Accumulates,
                       BlockEvents &B);
  bool parityFix(const Event &Ev);
  // --- helpers seen through ----------------------------------------------
  void spliceHelper(const CallExpr *CE, const FunctionDecl *F, BlockEvents &B);
  int mapKey(const LocationKey &K, const CallExpr *CE, bool KeepLocal = false);
  int internKey(const LocationKey &K);

  // --- keys and contexts ---------------------------------------------------
  int keyOf(const Expr *E, bool IsPointer);
  bool buildKey(const Expr *E, LocationKey &K, std::string &Text, int Depth);
  void useOf(const Stmt *Node, Event &Ev);
  int loadedKey(const Expr *E);
  bool isIncrementOf(const Expr *Value, int Key);
  bool forcesOdd(const Expr *Value) const;
  bool isParityStep(const Expr *Value, int Key) const;
  bool holdsCount(const Expr *X, int Key);
  SourceLocation reportLoc(const Stmt *S) const;

  Classifier &C;
  FunctionTrace &T;
  ASTContext &Ctx;
  const SourceManager &SM;
  const MacroIndex &Index;
  const ApiModel &Model;
  ParentMap *PM = nullptr;
  DenseMap<const Stmt *, unsigned> Elements; // element -> block id
  DenseSet<int> CorroboratedReaders; // readers of a location the TU knows
  DenseMap<const VarDecl *, int> CopyOf; // local -> the location it copied
  DenseMap<const VarDecl *, int> IncCopyOf; // local -> the location, plus one
  std::vector<const CFGBlock *> Rpo;     // the CFG's blocks, reverse post-order
  DenseSet<const VarDecl *> Accumulated; // locals written with +=, ++
  /// A field given a count's new value in the same assignment -> the count.
  DenseMap<int, int> MirrorOf;
  /// (key, begin variable) of rechecks loaded into a local of their own.
  DenseSet<std::pair<int, const VarDecl *>> ConvertedRechecks;
  bool HasLocalUpdate = false;
  DenseMap<const MacroInstance *, const Stmt *> Roots;
  DenseMap<const MacroInstance *, const Stmt *> Anchors;
  DenseMap<const Stmt *, int> LoadNodes; // node -> key it loads
};

SourceLocation FunctionClassifier::reportLoc(const Stmt *S) const {
  SourceLocation L = S->getBeginLoc();
  if (const MacroInstance *I = Index.instanceAt(L))
    if (wholeInstance(S) == I)
      return I->Loc.isMacroID() ? SM.getFileLoc(I->Loc) : I->Loc;
  return L.isMacroID() ? SM.getFileLoc(L) : L;
}

const MacroInstance *FunctionClassifier::wholeInstance(const Stmt *S) const {
  const MacroInstance *B = Index.instanceAt(S->getBeginLoc());
  if (!B)
    return nullptr;
  return Index.instanceAt(S->getEndLoc()) == B ? B : nullptr;
}

const Stmt *FunctionClassifier::rootOf(const MacroInstance *I, const Stmt *S) {
  auto It = Roots.find(I);
  if (It != Roots.end())
    return It->second;
  const Stmt *Root = S;
  while (const Stmt *P = PM->getParent(Root)) {
    if (wholeInstance(P) != I)
      break;
    Root = P;
  }
  Roots[I] = Root;
  return Root;
}

const Stmt *FunctionClassifier::anchorOf(const MacroInstance *I, const Stmt *S) {
  auto It = Anchors.find(I);
  if (It != Anchors.end())
    return It->second;
  const Stmt *Root = rootOf(I, S);
  const Stmt *A = nullptr;
  const Stmt *R = Root;
  if (const auto *E = dyn_cast<Expr>(R))
    R = E->IgnoreParens();
  if (Elements.count(R))
    A = R;
  else if (const auto *DS = dyn_cast<DoStmt>(R)) {
    const Expr *Cond = DS->getCond()->IgnoreParens();
    if (Elements.count(Cond))
      A = Cond;
  }
  if (!A)
    A = S; // first element of the instance met in CFG order
  Anchors[I] = A;
  return A;
}

/// The outermost evaluated node of every argument of instance I, in one
/// pre-order walk of its root (unevaluated copies under sizeof/_Generic are
/// used only when nothing else is found).
SmallVector<const Expr *, 4> FunctionClassifier::instanceArgs(const MacroInstance *I,
                                                             const Stmt *Root) {
  // The walk goes through the whole expansion (READ_ONCE() is a large
  // statement expression) and loadedKey() asks again for every use of the
  // value: once per instance and root.
  auto Cached = C.ArgsCache.find({I, Root});
  if (Cached != C.ArgsCache.end())
    return Cached->second;
  unsigned N = I->Args.size();
  SmallVector<const Expr *, 4> Found(N, nullptr), Unevaluated(N, nullptr);
  if (N == 0)
    return Found;
  unsigned Missing = N;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool Uneval) {
    if (!S || Missing == 0)
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      int A = Index.argumentIndex(*I, E->getBeginLoc());
      if (A >= 0 && Index.argumentIndex(*I, E->getEndLoc()) == A) {
        if (!Uneval && !Found[A]) {
          Found[A] = E;
          --Missing;
        } else if (Uneval && !Unevaluated[A]) {
          Unevaluated[A] = E;
        }
        return;
      }
    }
    if (const auto *GS = dyn_cast<GenericSelectionExpr>(S)) {
      if (GS->isExprPredicate())
        Walk(GS->getControllingExpr(), true);
      if (!GS->isResultDependent())
        Walk(GS->getResultExpr(), Uneval);
      return;
    }
    if (isa<UnaryExprOrTypeTraitExpr>(S)) {
      for (const Stmt *Ch : S->children())
        Walk(Ch, true);
      return;
    }
    if (const auto *SE = dyn_cast<StmtExpr>(S)) {
      Walk(SE->getSubStmt(), Uneval);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Walk(V->getInit(), Uneval);
      return;
    }
    for (const Stmt *Ch : S->children())
      Walk(Ch, Uneval);
  };
  Walk(Root, false);
  for (unsigned A = 0; A != N; ++A)
    if (!Found[A])
      Found[A] = Unevaluated[A];
  C.ArgsCache[{I, Root}] = Found;
  return Found;
}

/// How the value of Node (an expression) is used; fills Use/Var/Masked.
void FunctionClassifier::useOf(const Stmt *Node, Event &Ev) {
  const Stmt *Cur = Node;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Stmt *P = PM->getParent(Cur);
    while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P))) {
      Cur = P;
      P = PM->getParent(P);
    }
    // A known wrapper macro around the value (unlikely(), likely()): look
    // through the nodes of that instance.
    if (P && !isa<CompoundStmt>(P)) {
      if (const MacroInstance *W = wholeInstance(P))
        if (W->Entry->R == Role::Pure && W != wholeInstance(Node)) {
          Cur = P;
          continue;
        }
    }
    if (!P) {
      Ev.Use = ValueUse::Discarded;
      return;
    }
    if (const auto *CS = dyn_cast<CStyleCastExpr>(P)) {
      if (CS->getType()->isVoidType()) {
        Ev.Use = ValueUse::VoidCast;
        return;
      }
      Cur = P;
      continue;
    }
    if (isa<CompoundStmt>(P) || isa<LabelStmt>(P) || isa<CaseStmt>(P) ||
        isa<DefaultStmt>(P)) {
      Ev.Use = ValueUse::Discarded;
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      const Expr *Other =
          BO->getLHS()->IgnoreParenImpCasts() == cast<Expr>(Cur)->IgnoreParenImpCasts()
              ? BO->getRHS()
              : BO->getLHS();
      if (BO->getOpcode() == BO_And && isClearLowBitMask(Other, Ctx)) {
        Ev.Masked = true;
        Cur = P;
        continue;
      }
      // seq >> 1 drops the low bit without checking it: look through.
      if (BO->getOpcode() == BO_Shr && BO->getLHS()->IgnoreParenImpCasts() ==
                                           cast<Expr>(Cur)->IgnoreParenImpCasts()) {
        Cur = P;
        continue;
      }
      if (BO->getOpcode() == BO_Assign && BO->getRHS()->IgnoreParenImpCasts() ==
                                              cast<Expr>(Cur)->IgnoreParenImpCasts()) {
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
            if (V->hasLocalStorage()) {
              Ev.Use = ValueUse::Assigned;
              Ev.Var = V;
              return;
            }
        Ev.Use = ValueUse::Escapes;
        return;
      }
      if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) {
        const Expr *O = Other->IgnoreParenImpCasts();
        if (const auto *DR = dyn_cast<DeclRefExpr>(O))
          if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
            if (V->hasLocalStorage()) {
              Ev.Use = ValueUse::Compared;
              Ev.Var = V;
              return;
            }
      }
      Ev.Use = ValueUse::Other;
      return;
    }
    if (isa<ReturnStmt>(P)) {
      Ev.Use = ValueUse::Returned;
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() && V->getInit()->IgnoreParenImpCasts() ==
                                  cast<Expr>(Cur)->IgnoreParenImpCasts() &&
              V->hasLocalStorage()) {
            Ev.Use = ValueUse::Assigned;
            Ev.Var = V;
            return;
          }
      Ev.Use = ValueUse::Other;
      return;
    }
    if (isa<CallExpr>(P)) {
      Ev.Use = ValueUse::Escapes;
      return;
    }
    if (isa<IfStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<ForStmt>(P)) {
      Ev.Use = ValueUse::Condition;
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P))
      if (U->getOpcode() == UO_LNot) {
        Ev.Use = ValueUse::Condition;
        return;
      }
    Ev.Use = ValueUse::Other;
    return;
  }
}

/// How a variable appears in a key's text: unique per declaration.
static std::string varTag(const VarDecl *V) {
  return V->getName().str() + "@" + utohexstr(reinterpret_cast<uintptr_t>(V) >> 4, true);
}

/// P when E is `(T *)((unsigned long)P + off)`: an address moved by an
/// integer offset, the way asm-generic and x86's this_cpu_ptr() reach this
/// CPU's copy of a per-CPU variable. The location is P's: every CPU's copy
/// follows the same protocol.
/// Offset, if given, is set to the other operand (this CPU's offset).
static const Expr *offsetAddressBase(const Expr *E, const Expr **Offset = nullptr) {
  const auto *CC = dyn_cast<CStyleCastExpr>(E->IgnoreParens());
  if (!CC || !CC->getType()->isPointerType())
    return nullptr;
  const auto *BO = dyn_cast<BinaryOperator>(CC->getSubExpr()->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Add || !BO->getType()->isIntegerType())
    return nullptr;
  for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
    const Expr *X = Side->IgnoreParenImpCasts();
    const auto *IC = dyn_cast<CStyleCastExpr>(X);
    if (!IC || !IC->getType()->isIntegerType())
      continue;
    const Expr *Ptr = IC->getSubExpr()->IgnoreParenImpCasts();
    if (Ptr->getType()->isPointerType()) {
      if (Offset)
        *Offset = Side == BO->getLHS() ? BO->getRHS() : BO->getLHS();
      return Ptr;
    }
  }
  return nullptr;
}

/// E is part of the offset added to a per-CPU address (the load of
/// __per_cpu_offset[cpu] or this_cpu_off): address arithmetic, not data.
static bool inAddressOffset(const Expr *E, const ParentMap *PM) {
  if (!PM)
    return false;
  SmallVector<const Stmt *, 8> Chain{E};
  const Stmt *Cur = E;
  for (int Up = 0; Up < 8; ++Up) {
    const Stmt *P = PM->getParent(Cur);
    if (!P || !isa<Expr>(P))
      return false;
    if (const auto *CC = dyn_cast<CStyleCastExpr>(P)) {
      const Expr *Offset = nullptr;
      if (offsetAddressBase(CC, &Offset))
        return llvm::is_contained(Chain, Offset);
    }
    Chain.push_back(P);
    Cur = P;
  }
  return false;
}

bool FunctionClassifier::buildKey(const Expr *E, LocationKey &K, std::string &Text,
                                  int Depth) {
  if (Depth > 16)
    return false;
  E = E->IgnoreParens();
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    return buildKey(IC->getSubExpr(), K, Text, Depth + 1);
  if (const Expr *Base = offsetAddressBase(E))
    return buildKey(Base, K, Text, Depth + 1);
  if (const auto *CC = dyn_cast<CStyleCastExpr>(E))
    return buildKey(CC->getSubExpr(), K, Text, Depth + 1);
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return false;
    K.Base = V;
    if (isa<ParmVarDecl>(V))
      K.Storage = LocationKey::Param;
    else if (V->hasLocalStorage())
      K.Storage = LocationKey::Local;
    else
      K.Storage = LocationKey::Global;
    Text += varTag(V);
    // A local or parameter that is a pointer: its pointee is not local.
    return true;
  }
  if (isa<CXXThisExpr>(E)) {
    // C++: members reached through `this` belong to the caller's object.
    Text += "this";
    K.Storage = LocationKey::Param;
    K.ViaPointer = true;
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!buildKey(ME->getBase(), K, Text, Depth + 1))
      return false;
    if (ME->isArrow())
      K.ViaPointer = true;
    StringRef Member = ME->getMemberDecl()->getName();
    if (!Member.empty()) { // anonymous struct/union members add nothing
      if (ME->isArrow() || !StringRef(Text).ends_with("->"))
        Text += ME->isArrow() ? "->" : ".";
      Text += Member.str();
    } else if (ME->isArrow()) {
      Text += "->";
    }
    K.Field = ME->getMemberDecl();
    return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref) {
      const Expr *Sub = U->getSubExpr()->IgnoreParenImpCasts();
      if (const Expr *Base = offsetAddressBase(Sub))
        Sub = Base->IgnoreParenImpCasts();
      if (const auto *A = dyn_cast<UnaryOperator>(Sub))
        if (A->getOpcode() == UO_AddrOf)
          return buildKey(A->getSubExpr(), K, Text, Depth + 1);
      Text += "*(";
      if (!buildKey(U->getSubExpr(), K, Text, Depth + 1))
        return false;
      Text += ")";
      K.ViaPointer = true;
      return true;
    }
    if (U->getOpcode() == UO_AddrOf) {
      Text += "&";
      return buildKey(U->getSubExpr(), K, Text, Depth + 1);
    }
    return false;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (!buildKey(AS->getBase(), K, Text, Depth + 1))
      return false;
    if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      K.ViaPointer = true;
    // A constant index names one element (cd[0].seq and cd[1].seq are two
    // counters); any other index, some element.
    Text += "[";
    Expr::EvalResult R;
    const Expr *Idx = AS->getIdx();
    if (!Idx->isValueDependent() && Idx->EvaluateAsInt(R, Ctx))
      Text += toString(R.Val.getInt(), 10);
    Text += "]";
    return true;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // this_cpu_ptr(x)->f, get_obj()->f: memory reached through a call.
    const FunctionDecl *F = calleeOf(CE);
    Text += "call:" + (F ? F->getName().str() : std::string("?")) + "()";
    K.Storage = LocationKey::Unknown;
    K.ViaPointer = true;
    return true;
  }
  if (const auto *SE = dyn_cast<StmtExpr>(E)) {
    // ({ ...; ptr; }) from a non-API macro such as per_cpu_ptr().
    Text += "stmtexpr@" + utohexstr(reinterpret_cast<uintptr_t>(SE) >> 4, true);
    K.Storage = LocationKey::Unknown;
    K.ViaPointer = true;
    return true;
  }
  return false;
}

int FunctionClassifier::keyOf(const Expr *E, bool IsPointer) {
  if (!E)
    return -1;
  LocationKey K;
  std::string Text;
  const Expr *X = E->IgnoreParenImpCasts();
  if (const Expr *Base = offsetAddressBase(X))
    X = Base->IgnoreParenImpCasts();
  if (IsPointer) {
    // p designates *p: `&s->seq` is s->seq, `sc` is *sc.
    if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf) {
      if (!buildKey(U->getSubExpr(), K, Text, 0))
        return -1;
    } else {
      Text = "*(";
      if (!buildKey(X, K, Text, 0))
        return -1;
      Text += ")";
      K.ViaPointer = true;
    }
  } else if (!buildKey(X, K, Text, 0)) {
    return -1;
  }
  K.Text = Text;
  return internKey(K);
}

/// If E (a value) is a load of some location, the key; -1 otherwise. Local
/// variables holding a loaded value count as that location.
int FunctionClassifier::loadedKey(const Expr *E) {
  if (!E)
    return -1;
  E = E->IgnoreParens();
  while (true) {
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      if (IC->getCastKind() == CK_LValueToRValue)
        break;
      E = IC->getSubExpr()->IgnoreParens();
      continue;
    }
    if (const auto *CC = dyn_cast<CStyleCastExpr>(E)) {
      E = CC->getSubExpr()->IgnoreParens();
      continue;
    }
    break;
  }
  auto It = LoadNodes.find(E);
  if (It != LoadNodes.end())
    return It->second;
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    if (IC->getCastKind() == CK_LValueToRValue) {
      const Expr *Sub = IC->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(Sub))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
          auto S = T.VarSource.find(V);
          if (S != T.VarSource.end())
            return S->second;
        }
      int K = keyOf(Sub, false);
      return K;
    }
  if (const MacroInstance *I = wholeInstance(E)) {
    if (I->Entry->R == Role::Load) {
      const Stmt *Root = rootOf(I, E);
      SmallVector<const Expr *, 4> Args = instanceArgs(I, Root);
      int A = I->Entry->CounterArg;
      return keyOf(A >= 0 && A < (int)Args.size() ? Args[A] : nullptr,
                   I->Entry->ArgIsPointer);
    }
  }
  if (const auto *AE = dyn_cast<AtomicExpr>(E))
    if (AE->getOp() == AtomicExpr::AO__c11_atomic_load ||
        AE->getOp() == AtomicExpr::AO__atomic_load_n)
      return keyOf(AE->getPtr(), true);
  return -1;
}

/// X when Value is `X + 1` or `X + 2` (either way round): a count's next
/// value, odd or even.
static const Expr *steppedFrom(const Expr *Value, ASTContext &Ctx) {
  if (!Value)
    return nullptr;
  const auto *BO = dyn_cast<BinaryOperator>(Value->IgnoreParenImpCasts());
  // `(X + 1) | 1`: the next odd value (KVM's pvclock update,
  // `(guest->version + 1) | 1`).
  if (BO && BO->getOpcode() == BO_Or && isIntLiteral(BO->getRHS(), Ctx, 1))
    BO = dyn_cast<BinaryOperator>(BO->getLHS()->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Add)
    return nullptr;
  for (int Step : {1, 2}) {
    if (isIntLiteral(BO->getRHS(), Ctx, Step))
      return BO->getLHS();
    if (isIntLiteral(BO->getLHS(), Ctx, Step))
      return BO->getRHS();
  }
  return nullptr;
}

/// The value an assignment chain stores: v for `m = v`, `x = m = v`.
static const Expr *assignedValue(const Expr *Value) {
  while (const auto *A = dyn_cast<BinaryOperator>(Value->IgnoreParenImpCasts())) {
    if (A->getOpcode() != BO_Assign)
      break;
    Value = A->getRHS();
  }
  return Value;
}

/// `++m` (through an assignment chain), else null.
static const UnaryOperator *preIncrement(const Expr *Value) {
  const auto *U = dyn_cast<UnaryOperator>(assignedValue(Value)->IgnoreParenImpCasts());
  return U && U->getOpcode() == UO_PreInc ? U : nullptr;
}

/// Value is `p + 1` or `p + 2` for an integer parameter p: an increment
/// when the caller passes a copy of the count (cal_bump(c, e) with
/// e = c->era).
static const VarDecl *incrementedParam(const Expr *Value, ASTContext &Ctx) {
  if (const Expr *X = steppedFrom(Value, Ctx))
    if (const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()))
      if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
        if (P->getType()->isIntegerType())
          return P;
  return nullptr;
}

/// X is the count Key itself, or a local that holds its value (w = hdr->w;
/// ... store(&hdr->w, w + 1); ... store(&hdr->w, w + 2)) or its next value.
bool FunctionClassifier::holdsCount(const Expr *X, int Key) {
  int L = loadedKey(X);
  if (L == Key)
    return true;
  // A field that was given the count's new value in the same assignment
  // (`g->v = h->v = (g->v + 1) | 1;`): a mirror of the count.
  if (L >= 0) {
    auto M = MirrorOf.find(L);
    if (M != MirrorOf.end() && M->second == Key)
      return true;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      auto It = CopyOf.find(V);
      if (It != CopyOf.end() && It->second == Key)
        return true;
      auto Inc = IncCopyOf.find(V);
      return Inc != IncCopyOf.end() && Inc->second == Key;
    }
  return false;
}

/// Value is `X + 1` (or 1 + X) where X holds the count Key; `X + 2` where X
/// was loaded before the odd increment closes the section.
bool FunctionClassifier::isIncrementOf(const Expr *Value, int Key) {
  if (!Value || Key < 0)
    return false;
  // `x = m = v`: the value stored is v.
  Value = assignedValue(Value);
  // `x = ++m`, with m a mirror of the count.
  if (const UnaryOperator *U = preIncrement(Value)) {
    int M = keyOf(U->getSubExpr(), false);
    auto It = M >= 0 ? MirrorOf.find(M) : MirrorOf.end();
    return It != MirrorOf.end() && It->second == Key;
  }
  // s = x + 1; store(&x, s): the local holds the incremented count.
  if (const auto *DR = dyn_cast<DeclRefExpr>(Value->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      auto Inc = IncCopyOf.find(V);
      return Inc != IncCopyOf.end() && Inc->second == Key;
    }
  const Expr *From = steppedFrom(Value, Ctx);
  return From && holdsCount(From, Key);
}

/// Value (through chained assignments) is `E | 1`.
bool FunctionClassifier::forcesOdd(const Expr *Value) const {
  const auto *A = dyn_cast<BinaryOperator>(assignedValue(Value)->IgnoreParenImpCasts());
  return A && A->getOpcode() == BO_Or && isIntLiteral(A->getRHS(), Ctx, 1);
}

bool FunctionClassifier::isParityStep(const Expr *Value, int Key) const {
  if (const auto *DR = dyn_cast<DeclRefExpr>(Value->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      auto It = T.ParityStepOf.find(V);
      return It != T.ParityStepOf.end() && It->second == Key;
    }
  return false;
}

bool FunctionClassifier::isConstant(const Expr *E) const {
  Expr::EvalResult R;
  return E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx);
}

void FunctionClassifier::emitLocalUpdate(const VarDecl *V, const Stmt *At,
                                         bool Accumulates, BlockEvents &B) {
  Event Ev;
  Ev.Kind = EventKind::LocalUpdate;
  Ev.S = At;
  Ev.Loc = reportLoc(At);
  Ev.Var = V;
  Ev.Accumulates = Accumulates;
  B.Events.push_back(Ev);
  HasLocalUpdate = true;
  if (Accumulates)
    Accumulated.insert(V);
}

/// Some load of Key into V satisfies P.
bool FunctionClassifier::anyBeginLoad(int Key, const VarDecl *V,
                                      function_ref<bool(const Event &)> P) const {
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &Ev : BE.Events)
      if (Ev.Kind == EventKind::Load && Ev.Key == Key && Ev.Var == V &&
          Ev.Use == ValueUse::Assigned && P(Ev))
        return true;
  return false;
}

/// A load of Key into V is a sequence begin: an acquire, or masked with ~1.
bool FunctionClassifier::beginIsSequenceLoad(int Key, const VarDecl *V) const {
  return anyBeginLoad(Key, V, [](const Event &Ev) {
    return Ev.Masked || Ev.Ord == Order::Acquire || Ev.Ord == Order::AcqRel;
  });
}

/// The load of Key into V is followed by a read barrier before any other
/// shared load: the open-coded read_seqcount_begin() of a reader whose
/// count is neither acquired nor masked (`s = READ_ONCE(t->gen[b]);
/// smp_rmb();`). A change detector does not order its snapshot before the
/// loads that follow it.
bool FunctionClassifier::beginFencedBeforeData(int Key, const VarDecl *V) const {
  bool In = false;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      if (!In) {
        In = Ev.Kind == EventKind::Load && Ev.Key == Key && Ev.Var == V &&
             Ev.Use == ValueUse::Assigned;
        continue;
      }
      if (Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdLL))
        return true;
      if ((Ev.Kind == EventKind::Load || Ev.Kind == EventKind::Store ||
           Ev.Kind == EventKind::RMW || Ev.Kind == EventKind::Call) &&
          (Ev.Key < 0 || !T.Keys[Ev.Key].isLocal()))
        return false;
    }
  return false;
}

/// A read barrier runs between the last shared load before the load of Key
/// compared with V and that load: the recheck half of the open-coded
/// reader that beginFencedBeforeData() describes.
bool FunctionClassifier::recheckFencedAfterData(int Key, const VarDecl *V) const {
  bool Fenced = false;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      if (Ev.Kind == EventKind::Load && Ev.Key == Key && Ev.Var == V &&
          Ev.Use == ValueUse::Compared)
        return Fenced;
      if (Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdLL))
        Fenced = true;
      else if (Ev.Kind == EventKind::Load && Ev.Key >= 0 && !T.Keys[Ev.Key].isLocal() &&
               !T.Keys[Ev.Key].addresses(T.Keys[Key]))
        Fenced = false;
    }
  return false;
}

/// The function stores to Key or modifies it (a CAS, an increment).
bool FunctionClassifier::writes(int Key) const {
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &Ev : BE.Events)
      if ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) && Ev.Key == Key)
        return true;
  return false;
}

/// A load of Key into V is masked with ~1 (its low bit cleared).
bool FunctionClassifier::maskedBegin(int Key, const VarDecl *V) const {
  return anyBeginLoad(Key, V, [](const Event &Ev) { return Ev.Masked; });
}

/// In reverse post-order between the load of Key into V and the load of
/// Key compared with V, a store or RMW of a global or of the object that
/// holds Key (the caller's out-parameters are a reader's copy).
bool FunctionClassifier::storesBetween(int Key, const VarDecl *V) const {
  bool In = false;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      if (Ev.Kind == EventKind::Load && Ev.Key == Key && Ev.Var == V) {
        if (Ev.Use == ValueUse::Assigned)
          In = true;
        else if (Ev.Use == ValueUse::Compared)
          return false;
      } else if (In && (Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) &&
                 Ev.Key != Key && Ev.Key >= 0) {
        const LocationKey &K = T.Keys[Ev.Key];
        if (K.Storage == LocationKey::Global ||
            (K.Base && K.Base == T.Keys[Key].Base))
          return true;
      }
    }
  return false;
}

/// The first increment of Key (in reverse post-order) is a release: it
/// publishes what came before it, as a ring producer's index store does; a
/// seqcount writer's opening increment orders nothing before it.
bool FunctionClassifier::opensWithRelease(int Key) const {
  // Or a store, then a write barrier, then the increment: the producer's
  // publication of what it stored (n_tty's add_echo_byte(): the byte,
  // smp_wmb(), echo_head++), twice in a row when a helper is called twice.
  bool Stored = false, Published = false;
  for (const CFGBlock *B : Rpo)
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      bool Write = Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW;
      if (Write && Ev.Key == Key && Ev.Increment)
        // An acq_rel (or seq_cst) RMW also orders what follows it after the
        // increment: the C11 spelling of a seqcount's opening step
        // (fetch_add(&s, 1, acq_rel)), not a publication.
        return Published || Ev.Ord == Order::Release;
      if (Write && Ev.Key != Key && (Ev.Key < 0 || !T.Keys[Ev.Key].isLocal()))
        Stored = true;
      else if (Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdSS) && Stored)
        Published = true;
    }
  return false;
}

/// Some path runs increment of Key, a store to other non-local data, and
/// another increment of Key, in that order (by reverse post-order).
bool FunctionClassifier::bracketsStores(int Key, bool *Fenced) const {
  // Over the CFG's paths (a loop's body may come after its exit in reverse
  // post-order): an increment, a store to other non-local data, and another
  // increment. State per block entry, joined by "on some path".
  struct St {
    bool Open = false, Stored = false, Fence = false;
    bool operator==(const St &O) const {
      return Open == O.Open && Stored == O.Stored && Fence == O.Fence;
    }
  };
  const CFG &G = *T.Cfg;
  std::vector<St> In(G.getNumBlockIDs());
  std::vector<bool> Queued(G.getNumBlockIDs());
  std::deque<const CFGBlock *> Work(Rpo.begin(), Rpo.end());
  for (const CFGBlock *B : Rpo)
    Queued[B->getBlockID()] = true;
  unsigned Steps = 0;
  while (!Work.empty() && ++Steps < 20000) {
    const CFGBlock *B = Work.front();
    Work.pop_front();
    Queued[B->getBlockID()] = false;
    St S = In[B->getBlockID()];
    for (const Event &Ev : T.Blocks[B->getBlockID()].Events) {
      bool Write = Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW;
      if (Write && Ev.Key == Key && Ev.Increment) {
        if (S.Stored) {
          if (Fenced)
            *Fenced = S.Fence;
          return true;
        }
        S = St{true, false, false};
      } else if (Write && S.Open && Ev.Key != Key &&
                 (Ev.Key < 0 || !T.Keys[Ev.Key].isLocal())) {
        S.Stored = true;
      } else if (Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdSS) && S.Open) {
        S.Fence = true;
      }
    }
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ)
        continue;
      St &N = In[Succ->getBlockID()];
      St J{N.Open || S.Open, N.Stored || S.Stored, N.Fence || S.Fence};
      if (!(J == N)) {
        N = J;
        if (!Queued[Succ->getBlockID()]) {
          Queued[Succ->getBlockID()] = true;
          Work.push_back(Succ);
        }
      }
    }
  }
  return false;
}

void FunctionClassifier::noteLocalAssign(const VarDecl *V, const Expr *Init) {
  if (!V || !Init || !V->hasLocalStorage())
    return;
  // w = hdr->w: w holds a copy of the count (for isIncrementOf).
  int Copy = loadedKey(Init);
  if (Copy >= 0 && !T.Keys[Copy].isLocal())
    CopyOf[V] = Copy;
  else
    CopyOf.erase(V);
  IncCopyOf.erase(V);
  T.ParityStepOf.erase(V);
  if (const auto *BO = dyn_cast<BinaryOperator>(Init->IgnoreParenImpCasts());
      BO && BO->getOpcode() == BO_And && isIntLiteral(BO->getRHS(), Ctx, 1))
    if (const Expr *From = steppedFrom(BO->getLHS(), Ctx)) {
      int K = loadedKey(From);
      if (K >= 0 && !T.Keys[K].isLocal())
        T.ParityStepOf[V] = K;
    }
  if (const Expr *From = steppedFrom(Init, Ctx)) {
    int K = loadedKey(From);
    if (K >= 0 && !T.Keys[K].isLocal())
      IncCopyOf[V] = K;
  }
  // addend = xt_write_recseq_begin(): the helper returns the parity step.
  if (const auto *CE = dyn_cast<CallExpr>(Init->IgnoreParenImpCasts()))
    if (const FunctionDecl *F = calleeOf(CE))
      if (const HelperEffect *H = C.helperEffect(F, /*Getters=*/true))
        if (H->ReturnParityKey >= 0) {
          int K = mapKey(H->Keys[H->ReturnParityKey], CE);
          if (K >= 0 && !T.Keys[K].isLocal())
            T.ParityStepOf[V] = K;
        }
  const Expr *X = Init->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(X))
    if (BO->getOpcode() == BO_And) {
      if (isClearLowBitMask(BO->getRHS(), Ctx))
        X = BO->getLHS();
      else if (isClearLowBitMask(BO->getLHS(), Ctx))
        X = BO->getRHS();
    }
  int K = loadedKey(X);
  if (K >= 0 && !T.Keys[K].isLocal())
    T.VarSource[V] = K;
}

void FunctionClassifier::emitApiCall(const ApiEntry &E, StringRef Name,
                                     const Stmt *Root,
                                     ArrayRef<const Expr *> Args,
                                     BlockEvents &B) {
  auto Arg = [&](int I) -> const Expr * {
    return I >= 0 && I < (int)Args.size() ? Args[I] : nullptr;
  };
  Event Ev;
  Ev.S = Root;
  Ev.Loc = reportLoc(Root);
  Ev.Api = &E;
  Ev.ApiName = Name;
  Ev.Ord = E.Ord;
  Ev.Excludes = E.Excludes;
  Ev.ExcludeEnds = E.ExcludeEnds;
  switch (E.R) {
  case Role::ReadBegin:
  case Role::ReadBeginOrLock:
  case Role::ReadRetry:
  case Role::ReadDone:
  case Role::WriteBegin:
  case Role::WriteEnd:
  case Role::WriteOneShot: {
    // A one-shot write step is the write barrier it issues, on its
    // counter (Event::isWriteStep()).
    Ev.Kind = E.R == Role::ReadBegin         ? EventKind::ReadBegin
              : E.R == Role::ReadBeginOrLock ? EventKind::ReadBeginOrLock
              : E.R == Role::ReadRetry       ? EventKind::ReadRetry
              : E.R == Role::ReadDone        ? EventKind::ReadDone
              : E.R == Role::WriteBegin      ? EventKind::WriteBegin
              : E.R == Role::WriteEnd        ? EventKind::WriteEnd
                                             : EventKind::Barrier;
    if (E.R == Role::WriteOneShot)
      Ev.Bits = OrdSS;
    Ev.Key = keyOf(Arg(E.CounterArg), true);
    if (Ev.Key >= 0 && E.R != Role::WriteOneShot)
      T.Counters.insert(Ev.Key);
    Ev.Counter = true;
    Ev.RetryHasBarrier = E.RetryHasBarrier;
    if (E.ValueArg >= 0) {
      if (const Expr *V = Arg(E.ValueArg)) {
        const Expr *X = V->IgnoreParenImpCasts();
        if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf)
          X = U->getSubExpr()->IgnoreParenImpCasts();
        if (const auto *DR = dyn_cast<DeclRefExpr>(X))
          Ev.Var = dyn_cast<VarDecl>(DR->getDecl());
      }
    }
    if (Ev.Kind == EventKind::ReadBegin || Ev.Kind == EventKind::ReadRetry) {
      const VarDecl *RetryVar = Ev.Var;
      useOf(Root, Ev);
      if (Ev.Kind == EventKind::ReadRetry)
        Ev.Var = RetryVar;
    }
    break;
  }
  case Role::Barrier:
    Ev.Kind = EventKind::Barrier;
    Ev.Bits = barrierBits(E.Barrier);
    break;
  case Role::Load:
    Ev.Kind = EventKind::Load;
    Ev.Key = keyOf(Arg(E.CounterArg), E.ArgIsPointer);
    if (Ev.Key >= 0 && T.Keys[Ev.Key].isLocal())
      return;
    LoadNodes[Root] = Ev.Key;
    useOf(Root, Ev);
    break;
  case Role::Store:
  case Role::RMW: {
    Ev.Kind = E.R == Role::Store ? EventKind::Store : EventKind::RMW;
    const Expr *Target = Arg(E.CounterArg);
    if (E.R == Role::RMW && E.ArgIsPointer && Target &&
        !Target->IgnoreParenImpCasts()->getType()->isPointerType()) {
      // atomic_add(i, v), atomic_fetch_add(i, v): the object is the
      // pointer argument, wherever it is.
      for (const Expr *A : Args)
        if (A && A->IgnoreParenImpCasts()->getType()->isPointerType()) {
          Target = A;
          break;
        }
    }
    // A device register is no memory location other CPUs read: the event
    // says "a doorbell is written here", ordered (writel) or not.
    Ev.Key = E.Mmio ? -1 : keyOf(Target, E.ArgIsPointer);
    if (Ev.Key >= 0 && T.Keys[Ev.Key].isLocal())
      return;
    if (E.Mmio)
      break;
    if (E.R == Role::Store) {
      Ev.Increment = isIncrementOf(Arg(1), Ev.Key);
      Ev.IncParam = Ev.Increment ? nullptr : incrementedParam(Arg(1), Ctx);
    } else
      Ev.Increment = Name.contains("inc") && !Name.contains("_not_zero") &&
                     !Name.contains("unless");
    break;
  }
  case Role::Lock:
  case Role::Unlock:
    Ev.Kind = E.R == Role::Lock ? EventKind::Lock : EventKind::Unlock;
    Ev.Key = keyOf(Arg(E.CounterArg), true);
    break;
  case Role::SideEffect:
    Ev.Kind = EventKind::Call;
    Ev.SideEffect = true;
    break;
  case Role::Pure:
    // memcpy(&ring->slot[i], src, n): a store to the slot (a ring filled
    // in bulk). Only an element's address counts: the other destinations
    // are the caller's buffers.
    if (E.F == Family::Libc && (Name.contains("memcpy") || Name.contains("memmove") ||
                                 Name.contains("memset"))) {
      const Expr *Dst = Arg(0);
      const auto *U = Dst ? dyn_cast<UnaryOperator>(Dst->IgnoreParenCasts()) : nullptr;
      if (U && U->getOpcode() == UO_AddrOf &&
          isa<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParenCasts())) {
        Ev.Kind = EventKind::Store;
        Ev.Ord = Order::Plain;
        Ev.Api = nullptr;
        Ev.ApiName = StringRef();
        Ev.Key = keyOf(Dst, true);
        if (Ev.Key < 0 || T.Keys[Ev.Key].isLocal())
          return;
        break;
      }
    }
    if (!E.Excludes)
      return;
    Ev.Kind = EventKind::Exclude;
    break;
  }
  B.Events.push_back(Ev);
}

void FunctionClassifier::emitInstance(const MacroInstance *I, const Stmt *Root,
                                      BlockEvents &B) {
  SmallVector<const Expr *, 4> Args = instanceArgs(I, Root);
  emitApiCall(*I->Entry, I->Name, Root, Args, B);
}

void FunctionClassifier::classifyAtomic(const AtomicExpr *AE, BlockEvents &B) {
  Event Ev;
  Ev.S = AE;
  Ev.Loc = reportLoc(AE);
  Ev.Ord = orderFromArg(AE->getOrder(), Ctx);
  Ev.Key = keyOf(AE->getPtr(), true);
  if (Ev.Key >= 0 && T.Keys[Ev.Key].isLocal())
    return;
  switch (AE->getOp()) {
  case AtomicExpr::AO__c11_atomic_load:
  case AtomicExpr::AO__atomic_load_n:
  case AtomicExpr::AO__atomic_load:
    Ev.Kind = EventKind::Load;
    LoadNodes[AE] = Ev.Key;
    useOf(AE, Ev);
    break;
  case AtomicExpr::AO__c11_atomic_store:
  case AtomicExpr::AO__atomic_store_n:
  case AtomicExpr::AO__atomic_store:
  case AtomicExpr::AO__c11_atomic_init:
    Ev.Kind = EventKind::Store;
    Ev.Increment = isIncrementOf(AE->getVal1(), Ev.Key);
    Ev.IncParam = Ev.Increment ? nullptr : incrementedParam(AE->getVal1(), Ctx);
    break;
  case AtomicExpr::AO__c11_atomic_fetch_add:
  case AtomicExpr::AO__atomic_fetch_add:
  case AtomicExpr::AO__atomic_add_fetch:
    Ev.Kind = EventKind::RMW;
    Ev.Increment = isIntLiteral(AE->getVal1(), Ctx, 1);
    break;
  case AtomicExpr::AO__c11_atomic_compare_exchange_strong:
  case AtomicExpr::AO__c11_atomic_compare_exchange_weak:
  case AtomicExpr::AO__atomic_compare_exchange_n:
    // cmpxchg(&x, old, old + 1) with old loaded from x: a claim of the
    // count, the writer's odd increment done atomically.
    Ev.Kind = EventKind::RMW;
    Ev.Increment = isIncrementOf(AE->getVal2(), Ev.Key);
    Ev.Claim = Ev.Increment;
    break;
  default:
    Ev.Kind = EventKind::RMW;
    break;
  }
  B.Events.push_back(Ev);
}

void FunctionClassifier::classifyAsm(const GCCAsmStmt *AS, BlockEvents &B) {
  bool Memory = false;
  for (unsigned I = 0; I != AS->getNumClobbers(); ++I)
    if (AS->getClobber(I) == "memory")
      Memory = true;
  if (!Memory)
    return;
  std::string Text = StringRef(compat::asmString(AS)).lower();
  unsigned Bits = 0;
  StringRef S = Text;
  if (S.contains("mfence") || S.contains("lock") || S.contains("dmb ish\"") ||
      S.contains("dmb sy") || S.contains("dsb") || S.contains("fence rw,rw") ||
      S.contains("hwsync") || S.contains("xchg") ||
      (S.contains("sync") && !S.contains("lwsync") && !S.contains("isync")))
    Bits = OrdFull;
  else if (S.contains("lwsync"))
    Bits = OrdLL | OrdLS | OrdSS;
  else if (S.contains("dmb ishld") || S.contains("fence r,rw"))
    Bits = OrdLL | OrdLS;
  else if (S.contains("dmb ishst") || S.contains("sfence") || S.contains("fence w,w"))
    Bits = OrdSS;
  else if (S.contains("lfence") || S.contains("fence r,r"))
    Bits = OrdLL;
  else if (S.trim().empty() || S.contains("dmb ish"))
    Bits = S.contains("dmb ish") ? (unsigned)OrdFull : 0u;
  Event Ev;
  Ev.Kind = EventKind::Barrier;
  Ev.S = AS;
  Ev.Loc = reportLoc(AS);
  Ev.Bits = Bits;
  B.Events.push_back(Ev);
}

void FunctionClassifier::classifyPlain(const Stmt *S, BlockEvents &B) {
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S)) {
    if (IC->getCastKind() != CK_LValueToRValue)
      return;
    const Expr *Sub = IC->getSubExpr();
    const auto *SubRef = dyn_cast<DeclRefExpr>(Sub->IgnoreParens());
    const auto *SubVar = SubRef ? dyn_cast<VarDecl>(SubRef->getDecl()) : nullptr;
    if (SubVar && SubVar->isLocalVarDeclOrParm() &&
        !Sub->getType().isVolatileQualified() && !Sub->getType()->isAtomicType())
      return; // reading a local or a parameter
    int K = keyOf(Sub, false);
    if (K < 0 || T.Keys[K].isLocal() || inAddressOffset(IC, PM))
      return;
    Event Ev;
    Ev.Kind = EventKind::Load;
    Ev.S = IC;
    Ev.Loc = reportLoc(Sub);
    Ev.Key = K;
    QualType Ty = Sub->getType();
    Ev.Ord = Ty->isAtomicType()             ? Order::SeqCst
             : Ty.isVolatileQualified()     ? Order::Once
                                            : Order::Plain;
    LoadNodes[IC] = K;
    useOf(IC, Ev);
    B.Events.push_back(Ev);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp())
      return;
    const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(L))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        if (V->hasLocalStorage()) {
          if (BO->getOpcode() == BO_Assign)
            noteLocalAssign(V, BO->getRHS());
          if (V->getType()->isPointerType()) {
            // p = next: what p->x designates changes from here on.
            Event Ev;
            Ev.Kind = EventKind::LocalDef;
            Ev.S = BO;
            Ev.Loc = reportLoc(BO);
            Ev.Var = V;
            B.Events.push_back(Ev);
          } else if (!(BO->isCompoundAssignmentOp() && isConstant(BO->getRHS()))) {
            // tries += 1 counts attempts, not data: no accumulation.
            emitLocalUpdate(V, BO,
                            BO->isCompoundAssignmentOp() || refersTo(BO->getRHS(), V),
                            B);
          }
          return;
        }
    int K = keyOf(BO->getLHS(), false);
    if (K < 0)
      return;
    if (T.Keys[K].isLocal()) {
      // A part of a local aggregate (tmp.rx += v, sums[i] += v): only an
      // accumulation matters; a partial store does not renew the whole.
      if (BO->isCompoundAssignmentOp() && T.Keys[K].Base && !isConstant(BO->getRHS()))
        emitLocalUpdate(T.Keys[K].Base, BO, /*Accumulates=*/true, B);
      return;
    }
    Event Ev;
    Ev.Kind = BO->getOpcode() == BO_Assign ? EventKind::Store : EventKind::RMW;
    Ev.S = BO;
    Ev.Loc = reportLoc(BO->getLHS());
    Ev.Key = K;
    Ev.Ord = BO->getLHS()->getType()->isAtomicType() ? Order::SeqCst
             : BO->getLHS()->getType().isVolatileQualified() ? Order::Once
                                                             : Order::Plain;
    if (BO->getOpcode() == BO_Assign) {
      // `g->v = h->v = (g->v + 1) | 1;`: h->v mirrors g->v's new value.
      if (const auto *Inner = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
          Inner && Inner->getOpcode() == BO_Assign)
        if (int M = keyOf(Inner->getLHS(), false); M >= 0 && M != K)
          MirrorOf[M] = K;
      Ev.Increment = isIncrementOf(BO->getRHS(), K);
      // `g->v = ++h->v;` with h->v a mirror: the mirror's step computes the
      // count's next value, it is no data store of the section.
      if (Ev.Increment)
        if (const UnaryOperator *U = preIncrement(BO->getRHS())) {
          int M = keyOf(U->getSubExpr(), false);
          auto It = llvm::find_if(llvm::reverse(B.Events), [&](const Event &E) {
            return E.Kind == EventKind::RMW && E.Key == M && E.S == U;
          });
          if (It != B.Events.rend())
            B.Events.erase(std::next(It).base());
        }
      // Forcing the low bit on is a parity step: the count is odd after it.
      if (Ev.Increment && forcesOdd(BO->getRHS()))
        T.OddCheckedKeys.insert(K);
      Ev.IncParam = Ev.Increment ? nullptr : incrementedParam(BO->getRHS(), Ctx);
    } else {
      Ev.Increment = BO->getOpcode() == BO_AddAssign &&
                     (isIntLiteral(BO->getRHS(), Ctx, 1) || isParityStep(BO->getRHS(), K));
      // count += step, with the step a parameter: the caller's increment
      // when it passes a parity step (xt_write_recseq_end(addend)).
      if (!Ev.Increment && BO->getOpcode() == BO_AddAssign)
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getRHS()->IgnoreParenImpCasts()))
          if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
              P && P->getType()->isIntegerType()) {
            Ev.IncParam = P;
            Ev.StepParam = true;
          }
    }
    B.Events.push_back(Ev);
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (!U->isIncrementDecrementOp())
      return;
    int K = keyOf(U->getSubExpr(), false);
    if (K < 0)
      return;
    if (T.Keys[K].isLocal())
      return; // tries++, i++: counts attempts or steps, not data

    Event Ev;
    Ev.Kind = EventKind::RMW;
    Ev.S = U;
    Ev.Loc = reportLoc(U);
    Ev.Key = K;
    Ev.Ord = U->getSubExpr()->getType()->isAtomicType() ? Order::SeqCst : Order::Plain;
    Ev.Increment = U->isIncrementOp();
    B.Events.push_back(Ev);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        noteLocalAssign(V, V->getInit());
        // A declaration inside a loop makes a new object every iteration.
        if (V->hasLocalStorage() && !V->getType()->isPointerType())
          emitLocalUpdate(V, DS, /*Accumulates=*/false, B);
      }
    return;
  }
  if (const auto *AE = dyn_cast<AtomicExpr>(S)) {
    classifyAtomic(AE, B);
    return;
  }
  if (const auto *AS = dyn_cast<GCCAsmStmt>(S)) {
    classifyAsm(AS, B);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    Event Ev;
    Ev.Kind = EventKind::Return;
    Ev.S = RS;
    Ev.Loc = reportLoc(RS);
    B.Events.push_back(Ev);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = calleeOf(CE);
    StringRef Name = F && F->getIdentifier() ? F->getName() : StringRef();
    if (!Name.empty()) {
      if (const ApiEntry *E = Model.lookup(Name)) {
        SmallVector<const Expr *, 4> Args(CE->arguments());
        emitApiCall(*E, Name, CE, Args, B);
        return;
      }
      if (Name == "__c11_atomic_signal_fence" || Name == "__atomic_signal_fence" ||
          Name == "atomic_signal_fence") {
        Event Ev; // orders nothing across threads
        Ev.Kind = EventKind::Barrier;
        Ev.S = CE;
        Ev.Loc = reportLoc(CE);
        B.Events.push_back(Ev);
        return;
      }
      if (Name == "__c11_atomic_thread_fence" || Name == "__atomic_thread_fence" ||
          Name == "atomic_thread_fence" || Name == "rte_atomic_thread_fence") {
        Event Ev;
        Ev.Kind = EventKind::Barrier;
        Ev.S = CE;
        Ev.Loc = reportLoc(CE);
        Ev.Bits = fenceBits(orderFromArg(CE->getNumArgs() ? CE->getArg(0) : nullptr, Ctx));
        B.Events.push_back(Ev);
        return;
      }
      if (Name.starts_with("__sync_") && Name != "__sync_synchronize") {
        Event Ev;
        Ev.Kind = EventKind::RMW;
        Ev.S = CE;
        Ev.Loc = reportLoc(CE);
        Ev.Ord = Order::SeqCst;
        Ev.Key = CE->getNumArgs() ? keyOf(CE->getArg(0), true) : -1;
        B.Events.push_back(Ev);
        return;
      }
      if (Name.starts_with("__builtin_") || Name.starts_with("__compiletime_assert") ||
          Name.starts_with("kcsan_") || Name.starts_with("__kcsan") ||
          Name.starts_with("instrument_") || Name.starts_with("__sanitizer"))
        return;
    }
    Event Ev;
    Ev.Kind = EventKind::Call;
    Ev.S = CE;
    Ev.Loc = reportLoc(CE);
    Ev.Callee = F;
    Ev.Noreturn = F && (F->isNoReturn() || F->hasAttr<NoReturnAttr>());
    // A helper of the TU: what it does to sections, locks and ordering
    // happens here, in this function's terms (and its name says nothing).
    if (F && !Ev.Noreturn && !isLockGuardConstructor(Name) &&
        C.helperEffect(F, /*Getters=*/true)) {
      spliceHelper(CE, F, B);
      return;
    }
    // Subsystem locks the model does not list by name (lock_sock,
    // raw_spin_lock_rcu_node, down_read_trylock, ...): by naming convention.
    if (int L = lockLikeName(Name)) {
      Ev.Kind = L > 0 ? EventKind::Lock : EventKind::Unlock;
      Ev.Key = CE->getNumArgs() ? keyOf(CE->getArg(0), true) : -1;
    }
    // guard(spinlock)(&s->lock), scoped_guard(mutex, &m): <linux/cleanup.h>
    // calls class_<guard>_constructor(lock); the release runs as a cleanup
    // at the end of the scope, which the CFG here does not show.
    if (isLockGuardConstructor(Name)) {
      Ev.Kind = EventKind::Lock;
      Ev.ApiName = Name;
      Ev.Key = CE->getNumArgs() ? keyOf(CE->getArg(0), true) : -1;
    }
    B.Events.push_back(Ev);
    return;
  }
}

int FunctionClassifier::internKey(const LocationKey &K) {
  auto It = T.KeyIndex.find(K.Text);
  if (It != T.KeyIndex.end())
    return It->second;
  int Idx = T.Keys.size();
  T.Keys.push_back(K);
  T.KeyIndex[K.Text] = Idx;
  return Idx;
}

/// The caller's key for the helper's key K at the call CE: the helper's
/// parameter replaced by the argument (`l->epoch` with `&ts->lk` is
/// `ts->lk.epoch`, with `cd` it is `cd->epoch`); globals stay what they
/// are. -1 if the location is the helper's own.
int FunctionClassifier::mapKey(const LocationKey &K, const CallExpr *CE,
                               bool KeepLocal) {
  if (!K.Base) {
    // this_cpu_ptr(&x)->f, per-CPU statement expressions: the same memory
    // whoever names it; `this` is the helper's object.
    if (StringRef(K.Text).contains("this"))
      return -1;
    return internKey(K);
  }
  const auto *P = dyn_cast<ParmVarDecl>(K.Base);
  if (!P)
    return K.Storage == LocationKey::Global ? internKey(K) : -1;
  if (!K.ViaPointer)
    return -1; // a by-value parameter is the helper's copy
  unsigned I = P->getFunctionScopeIndex();
  if (I >= CE->getNumArgs())
    return -1;
  std::string Tag = varTag(P);
  size_t Pos = K.Text.find(Tag);
  if (Pos == std::string::npos)
    return -1;
  StringRef Prefix = StringRef(K.Text).take_front(Pos);
  StringRef Rest = StringRef(K.Text).drop_front(Pos + Tag.size());
  const Expr *A = CE->getArg(I)->IgnoreParenImpCasts();
  bool AddrOf = false;
  if (const auto *U = dyn_cast<UnaryOperator>(A); U && U->getOpcode() == UO_AddrOf) {
    AddrOf = true;
    A = U->getSubExpr()->IgnoreParenImpCasts();
  }
  LocationKey N;
  std::string ArgText;
  if (!buildKey(A, N, ArgText, 0))
    return -1;
  std::string Text;
  if (AddrOf) {
    // p designates the argument's object itself.
    if (Prefix == "*(" && Rest.starts_with(")")) {
      Text = ArgText + Rest.drop_front(1).str();
    } else if (Rest.starts_with("->")) {
      Text = Prefix.str() + ArgText + "." + Rest.drop_front(2).str();
      Rest = Rest.drop_front(2);
    } else {
      return -1; // (&x)[i]
    }
  } else {
    Text = Prefix.str() + ArgText + Rest.str();
    N.ViaPointer = true;
  }
  if (!Prefix.empty() || Rest.contains("->") || Rest.contains("*("))
    N.ViaPointer = true;
  if (K.Field)
    N.Field = K.Field;
  N.Text = Text;
  if (N.isLocal() && !KeepLocal)
    return -1;
  return internKey(N);
}

void FunctionClassifier::spliceHelper(const CallExpr *CE, const FunctionDecl *F,
                                      BlockEvents &B) {
  const HelperEffect *H = C.helperEffect(F, /*Getters=*/true);
  if (!H)
    return;
  C.noteSeenThrough(F);
  // How this function uses the helper's value.
  Event CallUse;
  useOf(CE, CallUse);
  auto ArgVar = [&](const VarDecl *V) -> const VarDecl * {
    const auto *P = dyn_cast_or_null<ParmVarDecl>(V);
    if (!P || P->getFunctionScopeIndex() >= CE->getNumArgs())
      return nullptr;
    const Expr *A = CE->getArg(P->getFunctionScopeIndex())->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(A))
      if (const auto *X = dyn_cast<VarDecl>(DR->getDecl()))
        if (X->hasLocalStorage())
          return X;
    return nullptr;
  };
  SmallVector<int, 8> Map(H->Keys.size(), -2);
  auto Mapped = [&](int K) {
    if (K < 0)
      return -1;
    if (Map[K] == -2)
      Map[K] = mapKey(H->Keys[K], CE);
    return Map[K];
  };
  SourceLocation At = reportLoc(CE);
  for (const Event &E : H->Events) {
    Event Ev = E;
    Ev.S = CE;
    Ev.Loc = At;
    if (!E.Via) {
      Ev.Via = F;
      Ev.InnerLoc = E.Loc;
      Ev.InnerS = E.S;
    }
    if (E.Key >= 0) {
      Ev.Key = Mapped(E.Key);
      // A fully ordered RMW orders the caller's accesses whatever it
      // writes: on the caller's own object (a hazard pointer published
      // through a record on its stack) it stays, as a local access.
      if (Ev.Key < 0 && E.Kind == EventKind::RMW && E.Ord >= Order::AcqRel)
        Ev.Key = mapKey(H->Keys[E.Key], CE, /*KeepLocal=*/true);
      if (Ev.Key < 0 && E.Kind != EventKind::Lock && E.Kind != EventKind::Unlock)
        continue; // the helper's own memory (or through its own pointers)
    }
    bool Value = E.Kind == EventKind::Load || E.Kind == EventKind::ReadBegin ||
                 E.Kind == EventKind::ReadRetry || E.Kind == EventKind::ReadBeginOrLock;
    if (Value) {
      bool Returned = E.Use == ValueUse::Returned ||
                      (E.Use == ValueUse::Assigned && E.Var && E.Var == H->ReturnVar);
      if (E.Kind == EventKind::ReadRetry) {
        // The begin value it validates is an argument.
        Ev.Var = ArgVar(E.Var);
        if (E.Use == ValueUse::Returned)
          Ev.Use = CallUse.Use;
      } else if (Returned) {
        Ev.Use = CallUse.Use;
        Ev.Var = CallUse.Var;
        Ev.Masked = E.Masked || CallUse.Masked || H->ReturnMasked;
        if (H->ReturnOddChecked && Ev.Var)
          T.OddCheckedVars.insert(Ev.Var);
        Ev.HelperBegin = H->BeginHelper && E.Kind == EventKind::Load;
        if (E.Kind == EventKind::Load && Ev.Key >= 0)
          LoadNodes[CE] = Ev.Key;
      } else if (E.Use == ValueUse::Compared) {
        Ev.Var = ArgVar(E.Var);
        Ev.Use = Ev.Var ? ValueUse::Compared : ValueUse::Other;
        Ev.RetryTrueIfValid = H->LoadComparedEqual;
      } else if (E.Use == ValueUse::Assigned) {
        auto It = E.Var ? H->ComparedWithParam.find(E.Var) : H->ComparedWithParam.end();
        Ev.Var = It != H->ComparedWithParam.end() ? ArgVar(It->second) : nullptr;
        Ev.Use = Ev.Var ? ValueUse::Compared : ValueUse::Other;
        Ev.RetryTrueIfValid = E.Var && H->ComparedEqual.count(E.Var);
      }
    }
    // store(&c->era, e + 1) in the helper, with the caller's copy of the
    // count for e: the caller's increment.
    if (E.IncParam && Ev.Key >= 0 &&
        (E.Kind == EventKind::Store || E.Kind == EventKind::RMW)) {
      Ev.IncParam = nullptr;
      Ev.StepParam = false;
      const auto *P = cast<ParmVarDecl>(E.IncParam);
      if (P->getFunctionScopeIndex() < CE->getNumArgs()) {
        const Expr *A = CE->getArg(P->getFunctionScopeIndex());
        Ev.Increment = E.StepParam ? isParityStep(A, Ev.Key) : holdsCount(A, Ev.Key);
      }
    }
    if (Ev.Counter && Ev.Key >= 0 && !Ev.isWriteStep())
      T.Counters.insert(Ev.Key);
    B.Events.push_back(Ev);
  }
  for (int K : H->OddCheckedKeys)
    if (int M = Mapped(K); M >= 0)
      T.OddCheckedKeys.insert(M);
  for (const ParmVarDecl *P : H->OddCheckedParams)
    if (const VarDecl *V = ArgVar(P))
      T.OddCheckedVars.insert(V);
  for (const ParmVarDecl *P : H->ValueTestedParams)
    if (const VarDecl *V = ArgVar(P))
      T.ValueTestedVars.insert(V);
}

/// Collects which locals are read, and where the low bit is tested.
class UseCollector : public RecursiveASTVisitor<UseCollector> {
public:
  UseCollector(FunctionTrace &T, ASTContext &Ctx,
               std::function<int(const Expr *)> LoadedKey)
      : T(T), Ctx(Ctx), LoadedKey(std::move(LoadedKey)) {}

  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (!AssignTargets.count(DR)) {
        if (escapes(DR))
          T.EscapingVars.insert(V);
      }
    return true;
  }

  /// Does the value read here leave the function's own arithmetic: is it
  /// returned, passed, stored, compared with something that is not a
  /// constant, or its address taken?
  bool escapes(const DeclRefExpr *DR) {
    const Stmt *Cur = DR;
    const Stmt *P = T.PM->getParent(Cur);
    while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P) || isa<CStyleCastExpr>(P))) {
      Cur = P;
      P = T.PM->getParent(P);
    }
    if (!P)
      return false;
    if (isa<ReturnStmt>(P) || isa<CallExpr>(P) || isa<InitListExpr>(P) ||
        isa<DeclStmt>(P))
      return true;
    if (const auto *U = dyn_cast<UnaryOperator>(P))
      return U->getOpcode() == UO_AddrOf;
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp())
        return BO->getRHS()->IgnoreParenImpCasts() == cast<Expr>(Cur)->IgnoreParenImpCasts();
      if (BO->isComparisonOp()) {
        const Expr *Other = BO->getLHS()->IgnoreParenImpCasts() ==
                                    cast<Expr>(Cur)->IgnoreParenImpCasts()
                                ? BO->getRHS()
                                : BO->getLHS();
        Expr::EvalResult R;
        return Other->isValueDependent() || !Other->EvaluateAsInt(R, Ctx);
      }
      return false;
    }
    return false;
  }
  /// `if (!v)`, `if (v == C)`, `if (v != C)`: the condition tests a
  /// local against a constant of the protocol.
  bool VisitIfStmt(IfStmt *If) {
    const Expr *C = If->getCond() ? If->getCond()->IgnoreParenImpCasts() : nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(C); U && U->getOpcode() == UO_LNot)
      C = U->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(C);
             BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      Expr::EvalResult V;
      if (!R->isValueDependent() && R->EvaluateAsInt(V, Ctx))
        C = L;
      else if (!L->isValueDependent() && L->EvaluateAsInt(V, Ctx))
        C = R;
      else
        C = nullptr;
    }
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(C))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasLocalStorage())
        T.ValueTestedVars.insert(V);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) {
      const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
      const auto *R = dyn_cast<DeclRefExpr>(BO->getRHS()->IgnoreParenImpCasts());
      const auto *LV = L ? dyn_cast<VarDecl>(L->getDecl()) : nullptr;
      const auto *RV = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      if (LV && RV && LV != RV && LV->hasLocalStorage() && RV->hasLocalStorage()) {
        ComparedVars.insert({LV, RV});
        ComparedVars.insert({RV, LV});
      }
    }
    if (BO->getOpcode() == BO_Assign)
      if (auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        AssignTargets.insert(DR);
    auto Note = [&](const Expr *E) {
      const Expr *X = E->IgnoreParenImpCasts();
      // (seq = READ_ONCE(s->seq)) & 1
      if (const auto *A = dyn_cast<BinaryOperator>(X); A && A->getOpcode() == BO_Assign)
        X = A->getLHS()->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(X))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
          T.OddCheckedVars.insert(V);
      int K = LoadedKey(E);
      if (K >= 0)
        T.OddCheckedKeys.insert(K);
    };
    bool Odd = false;
    if (BO->getOpcode() == BO_And)
      Odd = isIntLiteral(BO->getRHS(), Ctx, 1) || isClearLowBitMask(BO->getRHS(), Ctx) ||
            isTopBit(BO->getRHS(), BO->getLHS());
    if (BO->getOpcode() == BO_Rem)
      Odd = isIntLiteral(BO->getRHS(), Ctx, 2);
    if (Odd)
      Note(BO->getLHS());
    if (BO->getOpcode() == BO_And &&
        (isIntLiteral(BO->getLHS(), Ctx, 1) || isClearLowBitMask(BO->getLHS(), Ctx)))
      Note(BO->getRHS());
    return true;
  }

private:
  /// M is the top bit of V's type: an update-in-progress flag where the
  /// odd bit would be (Xen's runstate: XEN_RUNSTATE_UPDATE, 1ULL << 63).
  bool isTopBit(const Expr *M, const Expr *V) const {
    if (!M || !V || M->isValueDependent())
      return false;
    Expr::EvalResult R;
    if (!M->EvaluateAsInt(R, Ctx))
      return false;
    QualType Ty = V->IgnoreParenImpCasts()->getType();
    if (!Ty->isIntegerType())
      return false;
    uint64_t Width = Ctx.getTypeSize(Ty);
    if (Width < 16 || Width > 64)
      return false;
    const llvm::APSInt &X = R.Val.getInt();
    return X.getActiveBits() == Width && X.popcount() == 1;
  }

public:
  /// Pairs of locals compared with each other (`before == after`).
  DenseSet<std::pair<const VarDecl *, const VarDecl *>> ComparedVars;

private:
  FunctionTrace &T;
  ASTContext &Ctx;
  std::function<int(const Expr *)> LoadedKey;
  DenseSet<const DeclRefExpr *> AssignTargets;
};

void FunctionClassifier::run(const Stmt *Body) {
  T.PM = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  PM = T.PM.get();
  const CFG &G = *T.Cfg;
  for (const CFGBlock *B : G)
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>())
        Elements[CS->getStmt()] = B->getBlockID();
  T.Blocks.resize(G.getNumBlockIDs());
  Rpo = reversePostOrder(G);
  const std::vector<const CFGBlock *> &Order = Rpo;
  for (const CFGBlock *B : Order) {
    BlockEvents &BE = T.Blocks[B->getBlockID()];
    for (const CFGElement &E : *B) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (const MacroInstance *I = wholeInstance(S)) {
        if (anchorOf(I, S) == S)
          emitInstance(I, rootOf(I, S), BE);
        continue;
      }
      classifyPlain(S, BE);
    }
  }
  // Writes to locals matter only for the locals something accumulates into
  // (total += v): keep the re-initializations of those, drop the rest.
  if (HasLocalUpdate)
    for (BlockEvents &BE : T.Blocks)
      llvm::erase_if(BE.Events, [&](const Event &Ev) {
        return Ev.Kind == EventKind::LocalUpdate && !Accumulated.count(Ev.Var);
      });
  UseCollector UC(T, Ctx, [this](const Expr *E) { return loadedKey(E); });
  UC.TraverseStmt(const_cast<Stmt *>(Body));

  // A recheck loaded into a local of its own and compared with the begin
  // value afterwards (PostgreSQL's pgstat_end_read_activity(): `after =
  // be->st_changecount;` ... `before == after`) is a compared load.
  if (!UC.ComparedVars.empty()) {
    DenseMap<int, SmallVector<const VarDecl *, 2>> Earlier;
    for (const CFGBlock *B : Rpo)
      for (Event &Ev : T.Blocks[B->getBlockID()].Events) {
        if (Ev.Kind != EventKind::Load || Ev.Key < 0 || Ev.Use != ValueUse::Assigned ||
            !Ev.Var)
          continue;
        SmallVector<const VarDecl *, 2> &Vars = Earlier[Ev.Key];
        auto It = llvm::find_if(Vars, [&](const VarDecl *V) {
          return V != Ev.Var && UC.ComparedVars.count({V, Ev.Var});
        });
        if (It != Vars.end()) {
          Ev.Use = ValueUse::Compared;
          Ev.Var = *It;
          ConvertedRechecks.insert({Ev.Key, Ev.Var});
        } else if (!is_contained(Vars, Ev.Var)) {
          Vars.push_back(Ev.Var);
        }
      }
  }

  // Open-coded counters. A reader: a load of a seqcount-like location kept
  // in a local, and later a load of the same location compared with it.
  DenseMap<int, SmallVector<const VarDecl *, 2>> Begins;
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events)
      if (Ev.Kind == EventKind::Load && Ev.Key >= 0 && Ev.Use == ValueUse::Assigned &&
          !T.Counters.count(Ev.Key))
        Begins[Ev.Key].push_back(Ev.Var);
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events) {
      if (Ev.Kind != EventKind::Load || Ev.Key < 0 || Ev.Use != ValueUse::Compared)
        continue;
      auto It = Begins.find(Ev.Key);
      if (It == Begins.end() || !is_contained(It->second, Ev.Var))
        continue;
      // A count is an integer: a pointer loaded until it stops changing
      // (QEMU's rr_kick_next_cpu(): kick the current vCPU, again if another
      // became current meanwhile) is not a section.
      QualType KeyTy = accessedTypeOf(T.Keys[Ev.Key]);
      if (!KeyTy.isNull() && KeyTy->isPointerType())
        continue;
      // Whatever its name (a name is no evidence either way), a location
      // read this way is a sequence when the reader treats it as one: the
      // begin value's low bit is tested or masked, the begin load is an
      // acquire, a read barrier orders the begin before the data and the
      // data before the recheck, or another function of the TU uses the
      // location as a count (the function-wide check below still applies).
      bool OddChecked = T.OddCheckedVars.count(Ev.Var) || T.OddCheckedKeys.count(Ev.Key);
      // A recheck loaded into a local of its own is the looser shape (two
      // snapshots compared): it needs evidence of its own reader, not only
      // a counter elsewhere in the file. Concurrency Kit's ck_ht compares
      // two snapshots of a deletion version that its gc brackets: its
      // readers order each slot themselves and never wait for parity.
      bool Converted = ConvertedRechecks.count({Ev.Key, Ev.Var});
      bool Known = C.isKnownCounter(T.Keys[Ev.Key]) && !Converted;
      // Read barriers on both sides make a reader only of a function that
      // does not write the location itself: ck_ring's multi-producer
      // enqueue reloads its head around the consumer's, then CASes it.
      bool Fenced = beginFencedBeforeData(Ev.Key, Ev.Var) &&
                    recheckFencedAfterData(Ev.Key, Ev.Var) && !writes(Ev.Key);
      if (!OddChecked && !Known && !beginIsSequenceLoad(Ev.Key, Ev.Var) && !Fenced) {
        T.CounterCandidates.insert(Ev.Key);
        continue;
      }
      // Nor may it write shared memory between the begin and the recheck:
      // a ring consumer that acquires the tail, releases its head and
      // re-reads the tail for more work is not a read section. A begin
      // whose low bit is tested or masked is a sequence's all the same: a
      // ring index is never taken modulo two.
      bool Parity = OddChecked || maskedBegin(Ev.Key, Ev.Var);
      if (!Parity && storesBetween(Ev.Key, Ev.Var))
        continue;
      if (Known)
        CorroboratedReaders.insert(Ev.Key);
      auto &Vars = T.OpenReaders[Ev.Key];
      if (!is_contained(Vars, Ev.Var))
        Vars.push_back(Ev.Var);
    }
  // Evidence that a "load, compare later" pair is a seqcount reader and not
  // a change detector (TCP sequence numbers, printk sequence numbers): the
  // function orders its loads somewhere (a read barrier, an acquire load).
  bool OrdersLoads = false;
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events)
      // A full barrier alone is a change detector's or Dekker's
      // (srcu_might_be_idle(): smp_mb() between two reads of gp_seq).
      if ((Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdLL) && Ev.Bits != OrdFull) ||
          (Ev.Kind == EventKind::Load && T.OpenReaders.count(Ev.Key) &&
           Ev.Ord >= Order::Acquire))
        OrdersLoads = true;
  // A mask or test of the low bit is seqcount-specific too.
  for (auto &[Key, Vars] : T.OpenReaders) {
    if (T.OddCheckedKeys.count(Key) || CorroboratedReaders.count(Key))
      OrdersLoads = true;
    for (const VarDecl *V : Vars)
      if (T.OddCheckedVars.count(V))
        OrdersLoads = true;
  }
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events)
      if (Ev.Kind == EventKind::Load && Ev.Masked && T.OpenReaders.count(Ev.Key))
        OrdersLoads = true;
  if (!OrdersLoads)
    T.OpenReaders.clear();
  for (auto &[Key, Vars] : T.OpenReaders) {
    T.Counters.insert(Key);
    for (BlockEvents &BE : T.Blocks)
      for (Event &Ev : BE.Events) {
        if (Ev.Kind != EventKind::Load || Ev.Key != Key)
          continue;
        if (Ev.Use == ValueUse::Assigned && is_contained(Vars, Ev.Var)) {
          Ev.Kind = EventKind::ReadBegin;
          Ev.Counter = true;
          Ev.OpenCoded = true;
        } else if (Ev.Use == ValueUse::Compared && is_contained(Vars, Ev.Var)) {
          Ev.Kind = EventKind::ReadRetry;
          Ev.RetryHasBarrier = false;
          Ev.Counter = true;
          Ev.OpenCoded = true;
        }
      }
  }
  // A writer: a seqcount-like location incremented at two or more sites,
  // with ONCE/atomic accesses to it or barriers in the function.
  DenseMap<int, unsigned> Incs;
  bool AnyBarrier = false, AnyWriteOrdering = false;
  DenseSet<int> Marked;
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events) {
      if ((Ev.Kind == EventKind::Barrier && (Ev.Bits & OrdSS)) ||
          ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) &&
           (Ev.Ord == Order::Release || Ev.Ord == Order::AcqRel ||
            Ev.Ord == Order::SeqCst)))
        AnyWriteOrdering = true;
      if ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) && Ev.Increment &&
          Ev.Key >= 0)
        ++Incs[Ev.Key];
      if (Ev.Kind == EventKind::Barrier && Ev.Bits)
        AnyBarrier = true;
      if ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::Load ||
           Ev.Kind == EventKind::RMW) &&
          Ev.Key >= 0 && Ev.Ord != Order::Plain)
        Marked.insert(Ev.Key);
    }
  for (auto &[Key, N] : Incs) {
    if (N < 2 || T.Counters.count(Key))
      continue;
    bool OddTested = T.OddCheckedKeys.count(Key);
    // Whatever its name: two increments of a marked (or odd-tested)
    // location that bracket stores to other shared data, in a function with
    // a write barrier or a release (the article's WRITE_ONCE(sc, sc + 1)
    // ... release(&sc); KVM's steal time: if (st->v & 1) ... st->v += 1).
    // Plain increments count when a write barrier runs between them (the
    // writer that ordered one side and forgot the other).
    bool Fenced = false;
    bool Brackets = bracketsStores(Key, &Fenced);
    bool Protocol = (Marked.count(Key) || OddTested || Fenced) && AnyWriteOrdering &&
                    Brackets && !opensWithRelease(Key);
    // A location another function of the TU uses as a counter needs only
    // the bracketing: this writer may be the one that forgot its barrier.
    bool Known = C.isKnownCounter(T.Keys[Key]) && bracketsStores(Key);
    if (!Protocol && !Known) {
      if (Brackets)
        T.CounterCandidates.insert(Key);
      continue;
    }
    // Evidence it is a seqcount and not a statistic: barriers or marked
    // accesses, or the writer asserting the count is even again.
    if (!AnyBarrier && !Marked.count(Key) && !OddTested && !Known)
      continue;
    T.Counters.insert(Key);
    for (BlockEvents &BE : T.Blocks)
      for (Event &Ev : BE.Events)
        if ((Ev.Kind == EventKind::Store || Ev.Kind == EventKind::RMW) &&
            Ev.Increment && Ev.Key == Key) {
          Ev.Counter = true;
          Ev.OpenCoded = true;
          // `if (st->v & 1) st->v += 1;` makes an odd count even before the
          // section (KVM's steal time, "first time write, random junk"): a
          // step of the count, not a begin or an end.
          if (!Ev.Via && parityFix(Ev))
            continue;
          Ev.Kind = EventKind::CounterInc;
        }
  }
  // A begin helper's count (masked or tested, then ordered: a begin API
  // in all but name) begins a read section even with no retry here: the
  // value escapes to a caller, or is never validated.
  for (BlockEvents &BE : T.Blocks)
    for (Event &Ev : BE.Events)
      if (Ev.Kind == EventKind::Load && Ev.HelperBegin && Ev.Key >= 0 &&
          (Ev.Use == ValueUse::Assigned || Ev.Use == ValueUse::Discarded)) {
        Ev.Kind = EventKind::ReadBegin;
        Ev.Counter = true;
        Ev.OpenCoded = true;
        T.Counters.insert(Ev.Key);
      }
}

/// Ev (an increment) runs only when the count it increments is odd.
bool FunctionClassifier::parityFix(const Event &Ev) {
  const Stmt *Child = Ev.S;
  const Stmt *P = PM->getParent(Child);
  for (unsigned I = 0; P && I < 3; ++I, Child = P, P = PM->getParent(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If)
      continue;
    if (Child != If->getThen())
      return false;
    const auto *BO = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
    if (!BO || BO->getOpcode() != BO_And)
      return false;
    const Expr *X = BO->getLHS(), *One = BO->getRHS();
    if (isIntLiteral(X, Ctx, 1))
      std::swap(X, One);
    return isIntLiteral(One, Ctx, 1) && loadedKey(X) == Ev.Key;
  }
  return false;
}

} // namespace

static const ValueDecl *counterIdentity(const LocationKey &K) {
  if (K.Field)
    return K.Field;
  if (K.Base && K.Storage == LocationKey::Global && !K.ViaPointer)
    return K.Base;
  return nullptr;
}

void Classifier::addExternalCounter(const ValueDecl *D, bool Parity) {
  KnownCounters.insert(D);
  if (Parity)
    ParityCounters.insert(D);
}

void Classifier::noteCounters(const FunctionTrace &T) {
  for (int K : T.CounterCandidates)
    if (const ValueDecl *D = counterIdentity(T.key(K)))
      CandidateCounters.insert(D);
  for (int K : T.Counters)
    if (const ValueDecl *D = counterIdentity(T.key(K))) {
      KnownCounters.insert(D);
      if (T.OddCheckedKeys.count(K))
        ParityCounters.insert(D);
    }
  auto Note = [&](int K) {
    if (const ValueDecl *D = counterIdentity(T.key(K)))
      ParityCounters.insert(D);
  };
  // An increment that a write barrier (or its own release) orders after
  // the stores before it closes a section: the count is odd in between.
  // The barrier may sit in an earlier block (a macro's do-while).
  // -2: unreachable; -1: not yet seen (a back edge); 0/1: fenced at exit.
  std::vector<signed char> FencedOut(T.Blocks.size(), -2);
  std::vector<const CFGBlock *> Order = reversePostOrder(*T.Cfg);
  for (const CFGBlock *B : Order)
    FencedOut[B->getBlockID()] = -1;
  for (const CFGBlock *B : Order) {
    bool Fenced = false, First = true;
    for (const CFGBlock *P : B->preds()) {
      if (!P || FencedOut[P->getBlockID()] == -2)
        continue;
      Fenced = (First || Fenced) && FencedOut[P->getBlockID()] == 1;
      First = false;
    }
    for (const Event &E : T.Blocks[B->getBlockID()].Events) {
      bool OnCounter = E.Key >= 0 && T.Counters.count(E.Key);
      if (OnCounter && (E.Masked || (E.Var && T.OddCheckedVars.count(E.Var))))
        Note(E.Key);
      if (E.Kind == EventKind::Barrier) {
        Fenced |= (E.Bits & OrdSS) != 0;
      } else if (E.Kind == EventKind::WriteEnd || E.Kind == EventKind::WriteBegin) {
        if (E.Key >= 0)
          Note(E.Key);
      } else if (E.Kind == EventKind::CounterInc || E.Kind == EventKind::Store ||
                 E.Kind == EventKind::RMW) {
        // Counted whether or not this function uses it as a counter: a
        // generation bump has nothing to be recognized by on its own.
        if ((E.Kind == EventKind::CounterInc || E.Increment) && E.Key >= 0 &&
            !T.key(E.Key).isLocal()) {
          if (const ValueDecl *D = counterIdentity(T.key(E.Key)))
            BumpedCounters.insert(D);
          if (OnCounter && (Fenced || E.Ord == Order::Release))
            Note(E.Key);
        }
        Fenced = false;
      }
    }
    FencedOut[B->getBlockID()] = Fenced;
  }
}

bool Classifier::isGenerationCounter(const LocationKey &K) const {
  const ValueDecl *D = counterIdentity(K);
  return D && BumpedCounters.count(D) && !ParityCounters.count(D);
}

bool Classifier::isKnownCounter(const LocationKey &K) const {
  const ValueDecl *D = counterIdentity(K);
  return D && KnownCounters.count(D);
}

bool Classifier::mayRecognizeMore(const FunctionTrace &T) const {
  if (KnownCounters.empty())
    return false;
  for (unsigned I = 0; I != T.Keys.size(); ++I)
    if (!T.Counters.count(I) && isKnownCounter(T.Keys[I]))
      return true;
  return false;
}

bool Classifier::referencesKnownCounter(const FunctionDecl *FD) const {
  if (KnownCounters.empty() || !FD || !FD->hasBody())
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const DenseSet<const ValueDecl *> *Known;
    bool Found = false;
    bool VisitMemberExpr(MemberExpr *ME) {
      Found |= Known->count(ME->getMemberDecl()) != 0;
      return !Found;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      Found |= Known->count(DR->getDecl()) != 0;
      return !Found;
    }
  } F;
  F.Known = &KnownCounters;
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

bool isLoop(const Stmt *S) {
  if (isa_and_nonnull<ForStmt, WhileStmt>(S))
    return true;
  const auto *Do = dyn_cast_or_null<DoStmt>(S);
  if (!Do)
    return false;
  const auto *IL = dyn_cast<IntegerLiteral>(Do->getCond()->IgnoreParenImpCasts());
  return !IL || IL->getValue() != 0;
}

FunctionTrace::FunctionTrace() = default;
FunctionTrace::~FunctionTrace() = default;

QualType declaredTypeOf(const LocationKey &K) {
  QualType Ty;
  if (K.Field)
    Ty = K.Field->getType();
  else if (K.Base) {
    Ty = K.Base->getType();
    if (StringRef(K.Text).starts_with("*(") && Ty->isPointerType())
      Ty = Ty->getPointeeType();
  }
  return Ty;
}

QualType accessedTypeOf(const LocationKey &K) {
  QualType Ty = declaredTypeOf(K);
  if (!Ty.isNull() && StringRef(K.Text).ends_with("[]"))
    if (const Type *E = Ty->getPointeeOrArrayElementType())
      Ty = QualType(E, 0);
  return Ty;
}

std::string LocationKey::displayName() const {
  static const Regex Marker("@[0-9a-f]+");
  std::string S = Text;
  while (Marker.match(S))
    S = Marker.sub("", S);
  // *(&x) never appears; *(p) reads better as *p.
  if (StringRef(S).starts_with("*(") && StringRef(S).ends_with(")") &&
      S.find_first_of("-.>[", 2) == std::string::npos)
    S = "*" + S.substr(2, S.size() - 3);
  return S;
}

unsigned Classifier::knownCounterKeys(const FunctionTrace &T) const {
  if (KnownCounters.empty())
    return 0;
  unsigned N = 0;
  for (const LocationKey &K : T.Keys)
    N += isKnownCounter(K);
  return N;
}

std::shared_ptr<const FunctionTrace> Classifier::classify(const FunctionDecl *FD) {
  if (!FD || !FD->hasBody())
    return nullptr;
  // Classification reads the TU's state in two places only: the helpers'
  // effects (final once computed; a refusal is counted) and the known
  // counters among the trace's own keys (a set that only grows, so an
  // unchanged count means an unchanged answer).
  if (auto It = Traces.find(FD); It != Traces.end() &&
      It->second.KnownKeys == knownCounterKeys(*It->second.Trace))
    return It->second.Trace;
  unsigned RefusalsBefore = Refusals;
  Stmt *Body = FD->getBody();
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Opts.AddImplicitDtors = false;
  Opts.AddInitializers = false;
  Opts.PruneTriviallyFalseEdges = true;
  auto T = std::make_unique<FunctionTrace>();
  T->FD = FD;
  T->Cfg = CFG::buildCFG(FD, Body, &Ctx, Opts);
  if (!T->Cfg)
    return nullptr;
  FunctionClassifier FC(*this, *T);
  FC.run(Body);
  std::shared_ptr<const FunctionTrace> Shared = std::move(T);
  if (Refusals == RefusalsBefore)
    Traces[FD] = {Shared, knownCounterKeys(*Shared)};
  return Shared;
}

const FunctionSummary &Classifier::summary(const FunctionDecl *FD) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  FunctionSummary &S = Summaries[FD];
  if (S.Done || S.Computing)
    return S;
  S.Computing = true;
  FunctionSummary R;
  if (auto T = classify(FD)) {
    for (const BlockEvents &BE : T->Blocks)
      for (const Event &Ev : BE.Events) {
        switch (Ev.Kind) {
        case EventKind::Store:
        case EventKind::RMW:
        case EventKind::CounterInc: {
          if (Ev.Key < 0) {
            // A helper's store through its own pointer, seen through: the
            // helper's summary (its Call) said what it writes before.
            if (!Ev.Via)
              R.WritesGlobal = true;
            break;
          }
          const LocationKey &K = T->key(Ev.Key);
          if (K.Storage == LocationKey::Param && K.ViaPointer) {
            if (const auto *P = dyn_cast<ParmVarDecl>(K.Base))
              R.WritesParams |= 1u << std::min(P->getFunctionScopeIndex(), 31u);
          } else if (K.Storage == LocationKey::Global) {
            R.WritesGlobal = true;
          }
          if (Ev.Kind != EventKind::Store && Ev.Ord >= Order::Acquire)
            R.MayOrder = true;
          break;
        }
        case EventKind::Call:
          if (Ev.SideEffect) {
            R.SideEffect = true;
            break;
          }
          if (Ev.Callee && Ev.Callee->hasBody()) {
            const FunctionSummary &C = summary(Ev.Callee);
            R.WritesGlobal |= C.WritesGlobal;
            R.MayOrder |= C.MayOrder;
            R.SideEffect |= C.SideEffect;
          } else {
            R.MayOrder = true; // cannot see inside
          }
          break;
        case EventKind::Lock:
        case EventKind::Unlock:
        case EventKind::WriteBegin:
        case EventKind::WriteEnd:
          R.MayOrder = true;
          break;
        case EventKind::Barrier:
          if (Ev.Bits)
            R.MayOrder = true;
          break;
        case EventKind::ReadRetry:
        case EventKind::ReadBegin:
          R.MayOrder = true;
          break;
        case EventKind::Load:
          if (Ev.Ord >= Order::Acquire)
            R.MayOrder = true;
          break;
        default:
          break;
        }
      }
  }
  FunctionSummary &Out = Summaries[FD];
  Out = R;
  Out.Done = true;
  return Out;
}

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

  const CFG &G = *T->Cfg;
  CFGDomTree DT;
  DT.buildDominatorTree(const_cast<CFG *>(&G));
  const CFGBlock *Exit = &G.getExit();
  if (!DT.getBase().getNode(const_cast<CFGBlock *>(Exit)))
    return nullptr; // never returns
  ReturnScan RS(Ctx);
  RS.walk(FD->getBody(), 0);
  const VarDecl *RetVar = RS.Ambiguous ? nullptr : RS.Var;

  struct Count {
    unsigned WB = 0, WE = 0, RB = 0, RR = 0, Inc = 0, Lock = 0, Unlock = 0;
  };
  DenseMap<int, Count> Counts;
  unsigned ExclBegin = 0, ExclEnd = 0;
  bool AnyRelevant = false, Accessor = false, PartialAccess = false, SideEffects = false;
  for (const CFGBlock *B : reversePostOrder(G)) {
    bool Every = DT.dominates(B, Exit);
    for (const Event &E : T->Blocks[B->getBlockID()].Events) {
      bool Relevant = false, Keep = true, IsAccess = false;
      bool Local = E.Key >= 0 && T->key(E.Key).isLocal();
      switch (E.Kind) {
      case EventKind::Return:
      case EventKind::LocalDef:
      case EventKind::LocalUpdate:
        Keep = false;
        break;
      case EventKind::Call:
        // A wrapper of a side effect (a logging or freeing helper) is seen
        // through when it is tiny; a bigger function that frees or logs
        // somewhere (dput()) is judged by its summary, as before.
        if (E.SideEffect)
          SideEffects = true;
        break;
      case EventKind::Barrier:
        Relevant = E.Bits != 0;
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
        Relevant = true;
        break;
      case EventKind::Lock:
        // A trylock holds the lock on one outcome only: not one event list.
        if (StringRef(E.ApiName).contains_insensitive("trylock"))
          return nullptr;
        Relevant = true;
        break;
      case EventKind::Store:
      case EventKind::RMW:
        Relevant = (E.Increment || E.IncParam) && E.Key >= 0 && !Local;
        // A setter (WRITE_ONCE(*p, v)): its store is the caller's.
        IsAccess = !Relevant && !Local && E.Ord != Order::Plain;
        break;
      case EventKind::Load: {
        if (Local || E.Key < 0) {
          Keep = false;
          break;
        }
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
        Relevant = Validates ||
                   (Returned && (E.Masked || RS.Masked || T->OddCheckedVars.count(E.Var) ||
                                 T->OddCheckedKeys.count(E.Key) ||
                                 E.Ord == Order::Acquire));
        // A getter (return READ_ONCE(*p)): its load is the caller's. A
        // getter returns its marked load; a helper that tests one and
        // answers something else (list_empty(): READ_ONCE(head->next) ==
        // head) stays a call.
        IsAccess = !Relevant && E.Ord != Order::Plain && Returned;
        break;
      }
      }
      if (!Keep)
        continue;
      if (!Every) {
        if (Relevant)
          return nullptr; // on some paths only: cannot be one event list
        PartialAccess |= IsAccess || (E.Kind == EventKind::Call && E.SideEffect);
        continue;
      }
      Accessor |= IsAccess;
      AnyRelevant |= Relevant;
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
      int K = E.Key;
      Event Copy = E;
      if (K >= 0) {
        // Keys are re-numbered into the effect's own table.
        auto It = llvm::find_if(H->Keys, [&](const LocationKey &X) {
          return X.Text == T->key(K).Text;
        });
        Copy.Key = It - H->Keys.begin();
        if (It == H->Keys.end())
          H->Keys.push_back(T->key(K));
        if (T->OddCheckedKeys.count(K))
          H->OddCheckedKeys.insert(Copy.Key);
      }
      H->Events.push_back(Copy);
      if (H->Events.size() > 48)
        return nullptr;
    }
  }
  // A helper that opens and closes its own section (or critical section)
  // is complete: its callers see a call.
  for (auto &[K, N] : Counts)
    if ((N.WB && N.WE) || (N.RB && N.RR) || N.Inc >= 2 || (N.Lock && N.Unlock && K >= 0))
      return nullptr;
  if (ExclBegin && ExclEnd)
    return nullptr;
  // An accessor (marked loads and stores only) is seen through when all
  // of them run on every path.
  bool Wrapper = SideEffects && !PartialAccess && H->Events.size() <= 4;
  if (!AnyRelevant && !Wrapper && (!Accessor || PartialAccess))
    return nullptr;
  H->GetterOnly = !AnyRelevant;
  H->ReturnVar = RetVar;
  if (RetVar) {
    auto P = T->ParityStepOf.find(RetVar);
    if (P != T->ParityStepOf.end()) {
      const std::string &Text = T->key(P->second).Text;
      auto It = llvm::find_if(H->Keys, [&](const LocationKey &X) { return X.Text == Text; });
      if (It != H->Keys.end())
        H->ReturnParityKey = It - H->Keys.begin();
    }
  }
  H->ReturnMasked = RS.Masked;
  H->ReturnOddChecked = RetVar && T->OddCheckedVars.count(RetVar);
  bool SawBegin = false;
  for (const Event &E : H->Events) {
    bool Returned = E.Use == ValueUse::Returned ||
                    (E.Use == ValueUse::Assigned && E.Var && E.Var == RetVar);
    if (E.Kind == EventKind::Load && Returned) {
      // The low bit is what makes it a sequence (an acquire alone is a
      // message-passing getter: inet_sk_state_load(), mnt_idmap()).
      bool Seq = E.Masked || RS.Masked || (RetVar && T->OddCheckedVars.count(RetVar)) ||
                 H->OddCheckedKeys.count(E.Key);
      SawBegin = Seq;
      if (Seq && E.Ord >= Order::Acquire && E.Ord != Order::Release)
        H->BeginHelper = true;
    } else if (SawBegin && E.Kind == EventKind::Barrier && (E.Bits & OrdLL)) {
      H->BeginHelper = true;
    }
  }
  for (const ParmVarDecl *P : FD->parameters()) {
    if (T->OddCheckedVars.count(P))
      H->OddCheckedParams.push_back(P);
    if (T->ValueTestedVars.count(P))
      H->ValueTestedParams.push_back(P);
  }
  H->ComparedWithParam = RS.ComparedWithParam;
  H->ComparedEqual = RS.ComparedEqual;
  H->LoadComparedEqual = RS.AnyEqualWithParam;
  H->Usable = true;
  return Getters || !H->GetterOnly ? H : nullptr;
}

bool Classifier::callHasSideEffects(const FunctionTrace &T, const Event &E,
                                    int CounterKey) {
  if (E.SideEffect)
    return true;
  if (!E.Callee || !E.Callee->hasBody())
    return false; // unknown: stay silent
  // A call inside a helper seen through: its arguments are the helper's,
  // so only what it does to globals is known here.
  if (E.Via)
    return summary(E.Callee).WritesGlobal;
  // Kernel read sections call helpers that take references, lock and
  // unlock around their own data: only writes to global variables count.
  const FunctionSummary &S = summary(E.Callee);
  if (S.WritesGlobal)
    return true;
  if (!S.WritesParams)
    return false;
  // Stores through a parameter matter when the argument is shared data:
  // the object the counter lives in, or a global.
  const auto *CE = cast<CallExpr>(E.S);
  const LocationKey *Counter = CounterKey >= 0 ? &T.key(CounterKey) : nullptr;
  for (unsigned I = 0; I < CE->getNumArgs() && I < 32; ++I) {
    if (!(S.WritesParams & (1u << I)))
      continue;
    const Expr *A = CE->getArg(I)->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(A); U && U->getOpcode() == UO_AddrOf)
      A = U->getSubExpr()->IgnoreParenImpCasts();
    while (const auto *ME = dyn_cast<MemberExpr>(A))
      A = ME->getBase()->IgnoreParenImpCasts();
    const auto *DR = dyn_cast<DeclRefExpr>(A);
    if (!DR)
      continue;
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      continue;
    if (V->hasGlobalStorage())
      return true;
    if (Counter && Counter->Base == V)
      return true;
  }
  return false;
}

} // namespace seqlint
