//===- SeqcountWriteUnlockedCheck.cpp -------------------------------------===//
//
// seqcount-write-unlocked: a seqcount has one writer at a time. Two writers
// that increment the count at once leave it even while data is half written
// (readers accept torn data), or odd forever (readers spin).
//
// - A counter that needs external writer exclusion (seqcount_t, the raw_ and
//   latch forms, open-coded counters, QEMU/DPDK/CK/runtime counters; not
//   seqlock_t, whose write_seqlock() takes its own lock, and not
//   u64_stats_sync, which is per-CPU by design): its write sections are
//   flagged when two concurrent entry points of the translation unit (work
//   items, timers, interrupt handlers, threads ... registered here) reach
//   them with no lock common to both paths.
// - A seqcount_LOCKNAME_t (seqcount_spinlock_t ...): a write section reached
//   from an entry point of the TU without the associated lock (given to
//   seqcount_LOCKNAME_init() or SEQCNT_LOCKNAME_ZERO()), or, when the
//   association is not in the TU, without any lock of that type.
//
// Precision: paths come from the TU's call graph among functions with
// bodies, with the must-held lock set at each call (core/LockAnalysis); a
// write whose callers are unknown (an exported function, a function only
// called through a pointer) belongs to no known context and is not flagged.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "core/AstQueries.h"
#include "core/Dataflow.h"
#include "core/LockAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace {

/// A held lock, as seen from another function.
struct GLock {
  const ValueDecl *Decl = nullptr; // null: a lock the model cannot name
  std::string Name;
  LockKind Kind = LockKind::Unknown;
  bool Shared = false;
};
using GSet = SmallVector<GLock, 2>;

GSet toGlobal(const LockSets &LS, const LockSet &S) {
  GSet Out;
  for (const HeldLock &H : S) {
    const LockDesc &D = LS.desc(H);
    Out.push_back({D.Decl, D.Name, D.Kind, H.Shared});
  }
  return Out;
}

bool sameG(const GLock &A, const GLock &B) {
  return A.Decl ? A.Decl == B.Decl : (!B.Decl && A.Name == B.Name);
}

void unite(GSet &Into, const GSet &From) {
  for (const GLock &L : From) {
    auto It = llvm::find_if(Into, [&](const GLock &X) { return sameG(X, L); });
    if (It == Into.end())
      Into.push_back(L);
    else
      It->Shared = It->Shared && L.Shared;
  }
}

/// Into = Into intersected with From; true if Into changed.
bool meet(GSet &Into, const GSet &From) {
  GSet Out;
  for (const GLock &L : Into) {
    auto It = llvm::find_if(From, [&](const GLock &X) { return sameG(X, L); });
    if (It == From.end())
      continue;
    GLock M = L;
    M.Shared = L.Shared || It->Shared;
    Out.push_back(M);
  }
  bool Changed = Out.size() != Into.size();
  for (unsigned I = 0; !Changed && I != Out.size(); ++I)
    Changed = Out[I].Shared != Into[I].Shared;
  Into = std::move(Out);
  return Changed;
}

/// The last name in a macro argument as written (`lock` in `&s->lock`):
/// seqcount_LOCKNAME_init()'s association lives in the source text, as the
/// expansion keeps it only under lockdep.
std::string leafOf(StringRef Text) {
  Text = Text.trim();
  while (Text.consume_front("&") || Text.consume_front("("))
    Text = Text.trim();
  while (Text.consume_back(")"))
    Text = Text.trim();
  size_t Arrow = Text.rfind("->"), Dot = Text.rfind('.');
  size_t Cut = StringRef::npos;
  if (Arrow != StringRef::npos)
    Cut = Arrow + 2;
  if (Dot != StringRef::npos && (Cut == StringRef::npos || Dot + 1 > Cut))
    Cut = Dot + 1;
  if (Cut != StringRef::npos)
    Text = Text.drop_front(Cut);
  return Text.trim().str();
}

/// What exclusion a counter's writers need.
enum class CounterClass {
  External, // seqcount_t, latch, open-coded, other families: TU-wide check
  Assoc,    // seqcount_LOCKNAME_t: its own lock
  None,     // seqlock_t, u64_stats_sync: nothing to check
};

struct WriteSite {
  const FunctionDecl *FD = nullptr;
  SourceLocation Loc;
  std::string Counter;           // `s->seq`
  std::string CounterLeaf;       // `seq`
  std::string CounterOwner;      // `s->`: what holds it, when a member
  const ValueDecl *Decl = nullptr;
  CounterClass Class = CounterClass::External;
  LockKind Needs = LockKind::Unknown; // Assoc: the lock type
  std::string TypeName;          // seqcount_spinlock_t
  bool GlobalCounter = false;    // one object program-wide
  bool Stats = false;            // u64_stats_sync: only the context rule
  bool PerCpu = false;           // a DEFINE_PER_CPU object: likewise
  std::string Object;            // Stats: the containing type and path
  unsigned char Level = ExclNone; // what the function keeps out at the write
  GSet Held;                     // held at the write in its function
};

struct CallSite {
  const FunctionDecl *Callee = nullptr;
  GSet Held;
  unsigned char Level = ExclNone; // what the caller keeps out at the call
};

/// `struct port::stats.syncp` for `p->stats.syncp` (p a struct port *): the
/// counter's place, independent of the variable that reaches it.
std::string objectPath(const LocationKey &K) {
  StringRef Path = K.spellingAfterRoot();
  if (!K.Base || Path.empty())
    return K.Text;
  QualType Ty = K.Base->getType();
  if (Ty->isPointerType())
    Ty = Ty->getPointeeType();
  return Ty.getUnqualifiedType().getAsString() + "::" + Path.str();
}

/// The global variable whose address every assignment to the local pointer
/// P takes (p = this_cpu_ptr(&pcnt_seq), p = &g), or null.
const VarDecl *addressedGlobal(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf)
    if (const auto *DR = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasGlobalStorage())
        return V;
  const VarDecl *Found = nullptr;
  for (const Stmt *C : S->children())
    if (const VarDecl *V = addressedGlobal(C)) {
      if (Found && Found != V)
        return nullptr;
      Found = V;
    }
  return Found;
}

const VarDecl *pointedGlobal(const FunctionTrace &T, const VarDecl *P) {
  const VarDecl *Found = nullptr;
  bool Bad = false;
  auto Note = [&](const Expr *Init) {
    const VarDecl *G = addressedGlobal(Init);
    if (!G || (Found && Found != G))
      Bad = true;
    else
      Found = G;
  };
  if (P->getInit())
    Note(P->getInit());
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *P;
    std::function<void(const Expr *)> Note;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Assign)
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (DR->getDecl() == P)
            Note(BO->getRHS());
      return true;
    }
  } F;
  F.P = P;
  F.Note = Note;
  F.TraverseStmt(const_cast<Stmt *>(T.FD->getBody()));
  return Bad ? nullptr : Found;
}

/// The exclusion depths (ExcludeLevel: how many times each level is
/// raised) on every path: a join keeps the least of each.
struct ExclusionFlow : DataflowPolicy<std::array<int, 4>> {
  using Depths = std::array<int, 4>;
  explicit ExclusionFlow(const FunctionTrace &T) : T(T) {}
  const FunctionTrace &T;

  static void apply(const Event &E, Depths &D) {
    if (!E.Excludes || E.Excludes > ExclIrq)
      return;
    int &X = D[E.Excludes];
    X = E.ExcludeEnds ? std::max(0, X - 1) : X + 1;
  }
  static unsigned char level(const Depths &D) {
    for (unsigned char L = ExclIrq; L > ExclNone; --L)
      if (D[L] > 0)
        return L;
    return ExclNone;
  }

  // The dataflow policy (core/Dataflow.h).
  void transfer(const CFGBlock &B, Depths &D) {
    for (const Event &E : T.Blocks[B.getBlockID()].Events)
      apply(E, D);
  }
  bool join(Depths &Into, const Depths &Out, const CFGBlock &, unsigned) {
    bool Changed = false;
    for (unsigned L = 1; L < 4; ++L)
      if (Out[L] < Into[L]) {
        Into[L] = Out[L]; // must: the least on any path
        Changed = true;
      }
    return Changed;
  }
};

/// What each event of T keeps out of the CPU (ExcludeLevel), on every path
/// reaching it: preempt_disable()/local_bh_disable()/local_irq_save(), the
/// _bh/_irq lock forms and u64_stats_update_begin_irqsave() raise it, their
/// partners lower it. For a write begin, the level inside the section.
DenseMap<const Event *, unsigned char> exclusionLevels(const FunctionTrace &T) {
  using Depths = ExclusionFlow::Depths;
  const CFG &G = *T.Cfg;
  ExclusionFlow A(T);
  ForwardDataflow<Depths, ExclusionFlow> Flow(G, A);
  // Depths only fall: this ends (the budget is a safety net).
  Flow.solve(Depths{}, 8 * G.getNumBlockIDs(), "exclusion-levels", T.FD);
  DenseMap<const Event *, unsigned char> Out;
  for (const CFGBlock *B : Flow.order()) {
    const Depths *In = Flow.in(*B);
    if (!In)
      continue;
    Depths D = *In;
    for (const Event &E : T.Blocks[B->getBlockID()].Events) {
      bool After = E.Kind == EventKind::WriteBegin;
      if (After)
        ExclusionFlow::apply(E, D);
      if (E.Kind == EventKind::WriteBegin || E.Kind == EventKind::CounterInc ||
          E.Kind == EventKind::Call || E.Kind == EventKind::Barrier)
        Out[&E] = ExclusionFlow::level(D);
      if (!After)
        ExclusionFlow::apply(E, D);
    }
  }
  return Out;
}

/// What running in an entry's context keeps out of the CPU: a softirq is not
/// interrupted by another softirq, a hard interrupt handler by nothing.
unsigned char contextLevel(EntryKind K) {
  switch (K) {
  case EntryKind::Irq:
  case EntryKind::IrqWork:
    return ExclIrq;
  case EntryKind::Timer:
  case EntryKind::HRTimer:
  case EntryKind::Tasklet:
  case EntryKind::Napi:
  case EntryKind::Xmit:
  case EntryKind::Hook:
  case EntryKind::RxHandler:
  case EntryKind::SoftIrq:
    return ExclBH;
  case EntryKind::Work:
  case EntryKind::IrqThread:
  case EntryKind::KThread:
  case EntryKind::Thread:
  case EntryKind::Syscall:
  case EntryKind::Process:
    return ExclNone;
  }
  return ExclNone;
}

const char *levelName(unsigned char L) {
  switch (L) {
  case ExclPreempt: return "only preemption disabled";
  case ExclBH: return "bottom halves disabled";
  case ExclIrq: return "interrupts disabled";
  default: return "nothing disabled";
  }
}

const char *entryKindName(EntryKind K) {
  switch (K) {
  case EntryKind::Work: return "a work item";
  case EntryKind::Timer: return "a timer callback";
  case EntryKind::HRTimer: return "an hrtimer callback";
  case EntryKind::Irq: return "an interrupt handler";
  case EntryKind::IrqThread: return "a threaded interrupt handler";
  case EntryKind::KThread: return "a kernel thread";
  case EntryKind::Thread: return "a thread";
  case EntryKind::Tasklet: return "a tasklet";
  case EntryKind::IrqWork: return "an irq_work callback";
  case EntryKind::Napi: return "a NAPI poll function (softirq)";
  case EntryKind::Xmit: return "an ndo_start_xmit method (bottom halves disabled)";
  case EntryKind::Hook: return "a netfilter hook (softirq)";
  case EntryKind::RxHandler: return "an rx handler (softirq)";
  case EntryKind::Syscall: return "a system call handler (process context)";
  case EntryKind::SoftIrq: return "a softirq callback";
  case EntryKind::Process: return "a process-context callback";
  }
  return "an entry point";
}

struct Entry {
  const FunctionDecl *FD = nullptr;
  EntryKind Kind = EntryKind::Work;
  SourceLocation Loc; // first registration
  unsigned Registrations = 0;
  bool InLoop = false;
  bool PerCpu = false;
  SmallVector<unsigned, 2> Groups; // registrations (threaded irq pairs share)
  /// Several instances of this entry can run at once (a thread function
  /// started twice or in a loop, a per-CPU interrupt).
  bool selfConcurrent() const {
    if (PerCpu)
      return true;
    return (Kind == EntryKind::Thread || Kind == EntryKind::KThread) &&
           (Registrations > 1 || InLoop);
  }
};

/// The record's name, or the typedef's of an anonymous one (`typedef
/// struct { ... } ops_t;`).
StringRef recordName(const RecordDecl *R) {
  if (!R)
    return StringRef();
  if (R->getIdentifier())
    return R->getName();
  if (const TypedefNameDecl *TD = R->getTypedefNameForAnonDecl())
    return TD->getName();
  return StringRef();
}

std::optional<EntryKind> memberEntryKind(const FieldDecl *F,
                                         const ApiModel &Model) {
  if (!F || !F->getIdentifier())
    return std::nullopt;
  return Model.entryMemberKind(recordName(F->getParent()), F->getName());
}

/// Call edges and entry-point registrations of the main file's functions.
class GraphBuilder : public RecursiveASTVisitor<GraphBuilder> {
public:
  GraphBuilder(MapVector<const FunctionDecl *, Entry> &Entries,
               DenseMap<const FunctionDecl *, SmallVector<const FunctionDecl *, 4>> &Edges,
               const ApiModel &Model)
      : Entries(Entries), Edges(Edges), Model(Model) {}

  const FunctionDecl *Cur = nullptr;
  unsigned LoopDepth = 0;
  unsigned NextGroup = 1;

  bool TraverseForStmt(ForStmt *S) { return loop([&] { return Base::TraverseForStmt(S); }); }
  bool TraverseWhileStmt(WhileStmt *S) {
    return loop([&] { return Base::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(DoStmt *S) {
    if (!isLoop(S)) // do { } while (0) from a macro
      return Base::TraverseDoStmt(S);
    return loop([&] { return Base::TraverseDoStmt(S); });
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = calleeOf(CE);
    if (!Callee)
      return true;
    if (Cur)
      if (const FunctionDecl *Def = Callee->getDefinition())
        Edges[Cur].push_back(Def);
    StringRef N = Callee->getIdentifier() ? Callee->getName() : StringRef();
    if (N.empty())
      return true;
    std::optional<EntryRegistrar> K = entryRegistrar(N);
    if (!K)
      if (const ApiEntry *E = Model.lookup(N); E && E->Starts)
        K = EntryRegistrar{*E->Starts};
    if (!K)
      return true;
    if (K->Threaded) {
      unsigned G = NextGroup++;
      if (CE->getNumArgs() > 2) {
        reg(functionRef(CE->getArg(1)), EntryKind::Irq, CE, G, false);
        reg(functionRef(CE->getArg(2)), EntryKind::IrqThread, CE, G, false);
      }
      return true;
    }
    unsigned G = NextGroup++;
    for (const Expr *A : CE->arguments())
      reg(functionRef(A), K->Kind, CE, G, K->PerCpu);
    return true;
  }

  /// `if (mode(obj)) a(); else b();`: a and b serve two configurations of
  /// the object the condition tests (forcedeth's nv_alloc_rx() and
  /// nv_alloc_rx_optimized(), chosen by nv_optimized(np) for a device's
  /// descriptor format). Only a test of a record counts: a condition on a
  /// context (in_irq()) or on a number (the CPU, a budget) chooses between
  /// calls that can run at the same time.
  bool VisitIfStmt(IfStmt *S) {
    if (!Cur || !S->getElse())
      return true;
    SmallPtrSet<const RecordDecl *, 2> Tested;
    testedRecords(S->getCond(), Tested);
    if (Tested.empty())
      return true;
    SmallPtrSet<const FunctionDecl *, 4> Then, Else;
    calleesIn(S->getThen(), Then);
    calleesIn(S->getElse(), Else);
    for (const FunctionDecl *A : Then)
      for (const FunctionDecl *B : Else)
        if (!Else.count(A) && !Then.count(B))
          for (const RecordDecl *R : Tested) {
            Alternatives[{A, B}].insert(R);
            Alternatives[{B, A}].insert(R);
          }
    return true;
  }

  /// Pairs of functions the TU calls on the two arms of one test of an
  /// object, with the record types of the objects tested.
  DenseMap<std::pair<const FunctionDecl *, const FunctionDecl *>,
           SmallPtrSet<const RecordDecl *, 2>>
      Alternatives;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() != BO_Assign)
      return true;
    const FunctionDecl *F = functionRef(BO->getRHS());
    if (!F)
      return true;
    if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (auto K = memberEntryKind(dyn_cast<FieldDecl>(ME->getMemberDecl()), Model))
        reg(F, *K, BO, NextGroup++, false);
    return true;
  }

  bool VisitInitListExpr(InitListExpr *ILE) {
    const InitListExpr *S = ILE->isSemanticForm() ? ILE : ILE->getSemanticForm();
    if (!S || !SeenInit.insert(S).second)
      return true;
    const auto *RT = S->getType()->getAs<RecordType>();
    if (!RT || RT->getDecl()->isUnion())
      return true;
    unsigned I = 0;
    for (const FieldDecl *F : RT->getDecl()->fields()) {
      if (I >= S->getNumInits())
        break;
      const Expr *Init = S->getInit(I++);
      if (const FunctionDecl *Fn = functionRef(Init))
        if (auto K = memberEntryKind(F, Model))
          reg(Fn, *K, Init, NextGroup++, false);
    }
    return true;
  }

private:
  using Base = RecursiveASTVisitor<GraphBuilder>;
  /// The record types of the variables S reads (`np` of `struct fe_priv *`).
  static void testedRecords(const Stmt *S, SmallPtrSetImpl<const RecordDecl *> &Out) {
    if (!S)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
        QualType Ty = V->getType();
        if (Ty->isPointerType())
          Ty = Ty->getPointeeType();
        if (const auto *RT = Ty->getAs<RecordType>())
          Out.insert(cast<RecordDecl>(RT->getDecl()->getCanonicalDecl()));
      }
    for (const Stmt *C : S->children())
      testedRecords(C, Out);
  }
  static void calleesIn(const Stmt *S, SmallPtrSetImpl<const FunctionDecl *> &Out) {
    if (!S)
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = calleeOf(CE))
        if (const FunctionDecl *Def = F->getDefinition())
          Out.insert(Def);
    for (const Stmt *C : S->children())
      calleesIn(C, Out);
  }
  template <typename Fn> bool loop(Fn F) {
    ++LoopDepth;
    bool R = F();
    --LoopDepth;
    return R;
  }
  void reg(const FunctionDecl *F, EntryKind K, const Stmt *At, unsigned Group, bool PerCpu) {
    if (!F)
      return;
    Entry &E = Entries[F];
    if (!E.FD) {
      E.FD = F;
      E.Kind = K;
      E.Loc = At->getBeginLoc();
    }
    ++E.Registrations;
    E.InLoop |= LoopDepth > 0;
    E.PerCpu |= PerCpu;
    E.Groups.push_back(Group);
  }

  MapVector<const FunctionDecl *, Entry> &Entries;
  DenseMap<const FunctionDecl *, SmallVector<const FunctionDecl *, 4>> &Edges;
  const ApiModel &Model;
  DenseSet<const InitListExpr *> SeenInit;
};

/// The counter's type decides what exclusion its writers need.
void classifyCounter(const LocationKey &K, WriteSite &W) {
  QualType Ty = declaredTypeOf(K);
  for (unsigned Depth = 0; Depth < 8 && !Ty.isNull(); ++Depth) {
    StringRef N;
    const auto *TT = Ty->getAs<TypedefType>();
    if (TT)
      N = TT->getDecl()->getName();
    else if (const auto *RT = Ty->getAs<RecordType>())
      N = RT->getDecl()->getName();
    N.consume_back("_t");
    LockKind LK = LockKind::Unknown;
    CounterTypeClass TC = counterTypeClass(N, LK);
    if (TC == CounterTypeClass::SelfLocked) {
      W.Class = CounterClass::None;
      return;
    }
    if (TC == CounterTypeClass::Associated) {
      W.Class = CounterClass::Assoc;
      W.Needs = LK;
      W.TypeName = (N + "_t").str();
      return;
    }
    if (!TT)
      break;
    Ty = TT->getDecl()->getUnderlyingType();
  }
  W.Class = CounterClass::External;
}

class SeqcountWriteUnlockedCheck : public Check {
public:
  SeqcountWriteUnlockedCheck() : Check("seqcount-write-unlocked") {}

  void functionDone(const FunctionTrace &T, Classifier &C) override {
    std::optional<FunctionAnalyses> Local;
    FunctionAnalyses &FA = analysesOf(T, Local);
    auto Locks = [&]() -> const LockSets & { return FA.locks(); };
    // The first write of each counter in source order (blocks are stored
    // in reverse order of their IDs).
    const SourceManager &SM = Check::Ctx->Ctx->getSourceManager();
    MapVector<int, const Event *> FirstWrite;
    std::optional<DenseMap<const Event *, unsigned char>> Levels;
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events) {
        bool Write = false;
        // write_seqlock() takes the seqlock's own lock: it excludes the
        // other writers itself.
        if (E.Kind == EventKind::WriteBegin && !isSeqlockWriteLock(E.ApiName))
          Write = true;
        // write_seqcount_invalidate, raw_write_seqcount_latch: one-shot steps.
        if (E.isWriteStep())
          Write = true;
        // (Not a generation number, which many writers may bump at once:
        // an atomic start-barrier count, a hash set's generation.)
        if (E.Kind == EventKind::CounterInc && E.Increment && E.Key >= 0 &&
            !C.isGenerationCounter(T.key(E.Key)))
          Write = true;
        if (!Write || E.Key < 0)
          continue;
        auto [It, New] = FirstWrite.insert({E.Key, &E});
        if (!New && SM.isBeforeInTranslationUnit(E.Loc, It->second->Loc))
          It->second = &E;
      }
    for (auto [Key, EP] : FirstWrite) {
        const Event &E = *EP;
        const LocationKey &K = T.key(E.Key);
        WriteSite W;
        W.FD = T.FD;
        W.Loc = E.Loc;
        W.Counter = K.displayName();
        W.CounterLeaf = K.leafName();
        if (!K.Path.empty() && K.Path.back().isMember() && K.Path.back().D)
          W.CounterOwner = K.displayName(K.Path.size() - 1) +
                           (K.Path.back().Kind == KeyStep::Arrow ? "->" : ".");
        W.Decl = K.Field ? K.Field : K.Base;
        // *p where p = this_cpu_ptr(&pcnt_seq): the per-CPU object itself.
        if (!K.Field && K.Base && K.ViaPointer && K.Storage == LocationKey::Local)
          if (const VarDecl *G = pointedGlobal(T, K.Base)) {
            W.Decl = G;
            if (const auto *SA = G->getAttr<SectionAttr>())
              W.PerCpu = isPerCpuSection(SA->getName());
          }
        // this_cpu_ptr(&x)->seq spelled as an address plus the CPU's offset
        // (the classifier keys it on x itself): the per-CPU object x.
        if (K.Base && K.Storage == LocationKey::Global && !K.ViaPointer)
          if (const auto *SA = K.Base->getAttr<SectionAttr>())
            if (isPerCpuSection(SA->getName())) {
              W.Decl = K.Base;
              W.PerCpu = true;
            }
        W.GlobalCounter = !K.ViaPointer && K.Storage == LocationKey::Global;
        classifyCounter(K, W);
        W.Stats = isStatsSyncApi(E.ApiName);
        if (W.Stats)
          W.Object = objectPath(K);
        if ((W.Class == CounterClass::None && !W.Stats) || !W.Decl)
          continue;
        if (!Levels)
          Levels = exclusionLevels(T);
        W.Level = Levels->lookup(&E);
        const LockSet *Held = Locks().before(E);
        if (!Held)
          continue; // unreachable
        W.Held = toGlobal(Locks(), *Held);
        Sites.push_back(std::move(W));
    }
    // Calls to functions defined in the TU, with the locks held there: kept
    // for every analysed function, the TU end needs them only if some
    // writer is found.
    auto &Calls = CallSites[T.FD];
    Analysed.insert(T.FD);
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events)
        if (E.Kind == EventKind::Call && E.Callee && E.Callee->getDefinition()) {
          const LockSet *Held = Locks().before(E);
          if (!Held)
            continue;
          if (!Levels)
            Levels = exclusionLevels(T);
          Calls.push_back({E.Callee->getDefinition(), toGlobal(Locks(), *Held),
                           Levels->lookup(&E)});
        }
  }

  void translationUnitDone(Classifier &C) override {
    if (Sites.empty())
      return;
    ASTContext &Ctx = C.context();
    const SourceManager &SM = Ctx.getSourceManager();
    collectAssociations(Ctx);

    // 1. Call edges and entry points of the main file (writers in headers
    //    are reached from it; header code registers nothing of ours).
    MapVector<const FunctionDecl *, Entry> Entries;
    DenseMap<const FunctionDecl *, SmallVector<const FunctionDecl *, 4>> Edges;
    GraphBuilder GB(Entries, Edges, C.model());
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      if (!SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        continue;
      if (auto *FD = dyn_cast<FunctionDecl>(D)) {
        if (!FD->doesThisDeclarationHaveABody())
          continue;
        GB.Cur = FD;
        GB.TraverseStmt(FD->getBody());
        GB.Cur = nullptr;
      } else if (auto *VD = dyn_cast<VarDecl>(D)) {
        if (VD->getInit())
          GB.TraverseStmt(VD->getInit());
      }
    }
    if (Entries.empty())
      return;

    // 2. Functions on a path from an entry to a writer.
    DenseMap<const FunctionDecl *, SmallVector<const FunctionDecl *, 4>> Callers;
    for (auto &[F, Cs] : Edges)
      for (const FunctionDecl *G : Cs)
        Callers[G].push_back(F);
    DenseSet<const FunctionDecl *> ToWriter;
    SmallVector<const FunctionDecl *, 16> Work;
    for (const WriteSite &W : Sites)
      if (ToWriter.insert(W.FD).second)
        Work.push_back(W.FD);
    while (!Work.empty()) {
      const FunctionDecl *F = Work.pop_back_val();
      for (const FunctionDecl *P : Callers.lookup(F))
        if (ToWriter.insert(P).second)
          Work.push_back(P);
    }

    // Two writers serve two configurations of one object when a function
    // the first is reached from (itself or a caller, two levels up) and one
    // the second is reached from sit on the two arms of one test of the
    // object, and neither leads to the other writer: the object runs one
    // or the other.
    auto Near = [](const DenseMap<const FunctionDecl *,
                                  SmallVector<const FunctionDecl *, 4>> &Step,
                   const FunctionDecl *F) {
      SmallPtrSet<const FunctionDecl *, 8> Out{F};
      for (const FunctionDecl *G : Step.lookup(F)) {
        Out.insert(G);
        for (const FunctionDecl *H : Step.lookup(G))
          Out.insert(H);
      }
      return Out;
    };
    // The test must be of the object that holds the counter (its record,
    // or one that has it as a member).
    auto Holds = [](const RecordDecl *R, const ValueDecl *Counter) {
      const auto *F = dyn_cast_or_null<FieldDecl>(Counter);
      if (!F)
        return false;
      const auto *P = cast<RecordDecl>(F->getParent()->getCanonicalDecl());
      if (P == R)
        return true;
      if (const RecordDecl *Def = R->getDefinition())
        for (const FieldDecl *M : Def->fields())
          if (const auto *RT = M->getType()->getAs<RecordType>())
            if (cast<RecordDecl>(RT->getDecl()->getCanonicalDecl()) == P)
              return true;
      return false;
    };
    auto Alternatives = [&](const WriteSite &WA, const WriteSite &WB) {
      const FunctionDecl *A = WA.FD, *B = WB.FD;
      if (A == B || GB.Alternatives.empty())
        return false;
      auto FromB = Near(Callers, B);
      for (const FunctionDecl *X : Near(Callers, A))
        for (const FunctionDecl *Y : FromB) {
          auto It = GB.Alternatives.find({X, Y});
          if (It == GB.Alternatives.end() || Near(Edges, Y).count(A) ||
              Near(Edges, X).count(B))
            continue;
          for (const RecordDecl *R : It->second)
            if (Holds(R, WA.Decl) && Holds(R, WB.Decl))
              return true;
        }
      return false;
    };

    // 3. Per entry, the locks held on entry to every function it reaches
    //    (intersection over the call sites: must-hold).
    DenseMap<const FunctionDecl *, DenseMap<const FunctionDecl *, GSet>> HeldIn; // entry -> fn -> set
    // entry -> fn -> what is kept out of the CPU on entry to fn (the least
    // over its call sites)
    DenseMap<const FunctionDecl *, DenseMap<const FunctionDecl *, unsigned char>> LevelIn;
    for (auto &[EF, E] : Entries) {
      if (!ToWriter.count(EF))
        continue;
      auto &H = HeldIn[EF];
      auto &LI = LevelIn[EF];
      H[EF] = GSet();
      LI[EF] = contextLevel(E.Kind);
      SmallVector<const FunctionDecl *, 16> WL{EF};
      unsigned Budget = 10000;
      while (!WL.empty() && Budget--) {
        const FunctionDecl *F = WL.pop_back_val();
        GSet Here = H[F];
        for (const CallSite &CS : callSitesOf(C, F, ToWriter)) {
          if (!ToWriter.count(CS.Callee))
            continue;
          GSet Cand = Here;
          unite(Cand, CS.Held);
          unsigned char CandLevel = std::max(LI.lookup(F), CS.Level);
          auto It = H.find(CS.Callee);
          if (It == H.end()) {
            H[CS.Callee] = Cand;
            LI[CS.Callee] = CandLevel;
            WL.push_back(CS.Callee);
          } else {
            bool Changed = meet(It->second, Cand);
            unsigned char &Cur = LI[CS.Callee];
            if (CandLevel < Cur) {
              Cur = CandLevel;
              Changed = true;
            }
            if (Changed)
              WL.push_back(CS.Callee);
          }
        }
      }
    }

    // 4. The write sites, per context.
    struct Ctx1 {
      const Entry *E;
      const WriteSite *W;
      GSet L;
      unsigned char Level; // what is kept out of the CPU at the write
    };
    // Shared counters by declaration; per-CPU ones by the object they sit
    // in (rx_stats::syncp inside struct port is not the one inside struct
    // cfg).
    MapVector<std::string, SmallVector<Ctx1, 4>, std::map<std::string, unsigned>>
        ByCounter;
    for (const WriteSite &W : Sites)
      for (auto &[EF, E] : Entries) {
        auto HI = HeldIn.find(EF);
        if (HI == HeldIn.end())
          continue;
        auto It = HI->second.find(W.FD);
        if (It == HI->second.end())
          continue;
        GSet L = It->second;
        unite(L, W.Held);
        unsigned char Level =
            std::max({LevelIn[EF].lookup(W.FD), W.Level, contextLevel(E.Kind)});
        std::string Id = W.Object.empty()
                             ? "decl:" + std::to_string(reinterpret_cast<uintptr_t>(W.Decl))
                             : "object:" + W.Object;
        ByCounter[Id].push_back({&E, &W, std::move(L), Level});
      }
    DenseSet<const WriteSite *> Reported;
    for (auto &[Counter, Cs] : ByCounter) {
      for (const Ctx1 &A : Cs) {
        if (Reported.count(A.W))
          continue;
        // Per-CPU data (u64_stats_sync, a DEFINE_PER_CPU seqcount) has one
        // writer per CPU by design, so writers race only on the same CPU:
        // one that another writer's context can interrupt (a softirq writer
        // against one with bottom halves enabled, a hard interrupt handler
        // against one with interrupts enabled). Shared counters need a
        // common lock (below), which covers this too.
        if (A.W->Stats || A.W->PerCpu) {
          const Ctx1 *Intr = nullptr;
          for (const Ctx1 &B : Cs)
            if (A.E != B.E && !sharesGroup(*A.E, *B.E) &&
                A.Level < contextLevel(B.E->Kind) && !commonLock(A.L, B.L) &&
                !Alternatives(*A.W, *B.W) &&
                (!Intr || contextLevel(B.E->Kind) > contextLevel(Intr->E->Kind)))
              Intr = &B;
          if (Intr) {
            reportInterrupted(*A.E, *A.W, A.Level, *Intr->E, *Intr->W);
            Reported.insert(A.W);
          }
          continue;
        }
        if (A.W->Class == CounterClass::Assoc) {
          if (checkAssoc(A.E, A.W, A.L, SM))
            Reported.insert(A.W);
          continue;
        }
        for (const Ctx1 &B : Cs) {
          if (!concurrent(*A.E, *B.E, *A.W))
            continue;
          if (commonLock(A.L, B.L) || Alternatives(*A.W, *B.W))
            continue;
          reportPair(*A.E, *A.W, A.L, *B.E, *B.W, B.L);
          Reported.insert(A.W);
          break;
        }
      }
    }
  }

private:
  /// Call sites of F (to functions on a path to a writer), from the
  /// driver's pass or, for a function it skipped, from a trace built here.
  const std::vector<CallSite> &callSitesOf(Classifier &C, const FunctionDecl *F,
                                           const DenseSet<const FunctionDecl *> &Rel) {
    if (Analysed.count(F))
      return CallSites[F];
    Analysed.insert(F);
    auto &Out = CallSites[F];
    std::shared_ptr<const FunctionTrace> T = C.classify(F);
    if (!T)
      return Out;
    LockSets LS = computeLocks(*T);
    DenseMap<const Event *, unsigned char> Levels = exclusionLevels(*T);
    for (const BlockEvents &BE : T->Blocks)
      for (const Event &E : BE.Events)
        if (E.Kind == EventKind::Call && E.Callee && E.Callee->getDefinition() &&
            Rel.count(E.Callee->getDefinition()))
          if (const LockSet *Held = LS.before(E))
            Out.push_back({E.Callee->getDefinition(), toGlobal(LS, *Held),
                           Levels.lookup(&E)});
    return Out;
  }

  static bool sharesGroup(const Entry &A, const Entry &B) {
    for (unsigned G : A.Groups)
      if (llvm::is_contained(B.Groups, G))
        return true;
    return false;
  }

  static bool concurrent(const Entry &A, const Entry &B, const WriteSite &W) {
    if (A.FD == B.FD)
      return A.selfConcurrent() && W.GlobalCounter;
    return !sharesGroup(A, B);
  }

  static bool commonLock(const GSet &A, const GSet &B) {
    for (const GLock &X : A) {
      if (!X.Decl)
        return true; // a lock we cannot name: assume it is the one
      for (const GLock &Y : B)
        if (sameG(X, Y) && !(X.Shared && Y.Shared))
          return true;
    }
    for (const GLock &Y : B)
      if (!Y.Decl)
        return true;
    return false;
  }

  struct Assoc {
    std::string Lock; // leaf name of the lock
    std::string Text; // the lock argument without '&'
    bool Member = false; // `&x->lock`, `&x.lock`: a member of some object
    SourceLocation Loc;
    bool Ambiguous = false;
  };

  void collectAssociations(ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    auto Text = [&](std::pair<SourceLocation, SourceLocation> R) -> std::string {
      if (R.first.isInvalid())
        return std::string();
      SourceLocation B = SM.getSpellingLoc(R.first), E = SM.getSpellingLoc(R.second);
      if (SM.getFileID(B) != SM.getFileID(E))
        return std::string();
      return Lexer::getSourceText(CharSourceRange::getTokenRange(B, E), SM,
                                  Ctx.getLangOpts())
          .str();
    };
    for (StringRef N : seqcountLockInitNames())
      Check::Ctx->Macros->forEachInstanceOf(N, [&](const MacroInstance &I) {
        if (I.Args.size() < 2)
          return;
        std::string C = leafOf(Text(I.Args[0])), L = leafOf(Text(I.Args[1]));
        if (C.empty() || L.empty())
          return;
        std::string Full = Text(I.Args[1]);
        StringRef FT = StringRef(Full).trim();
        while (FT.consume_front("&") || FT.consume_front("("))
          FT = FT.trim();
        while (FT.consume_back(")"))
          FT = FT.trim();
        bool Member = FT.contains("->") || FT.contains('.');
        auto [It, New] = Assocs.try_emplace(C, Assoc{L, FT.str(), Member, I.Loc, false});
        if (!New && It->second.Lock != L)
          It->second.Ambiguous = true;
      });
  }

  /// seqcount_LOCKNAME_t: the write must hold the associated lock.
  bool checkAssoc(const Entry *E, const WriteSite *W, const GSet &L,
                  const SourceManager &SM) {
    auto AI = Assocs.find(W->CounterLeaf);
    const Assoc *A = AI != Assocs.end() && !AI->second.Ambiguous ? &AI->second : nullptr;
    const GLock *Other = nullptr;
    for (const GLock &H : L) {
      if (!H.Decl)
        return false; // cannot tell: silent
      bool KindOk = H.Kind == W->Needs || H.Kind == LockKind::Unknown;
      if (W->Needs == LockKind::RwLock && H.Shared)
        KindOk = false;
      if (A) {
        if (H.Decl->getName() == A->Lock) // the lock's member or variable
          return false;
      } else if (KindOk) {
        return false;
      }
      if (H.Kind == W->Needs && !Other)
        Other = &H;
    }
    std::string Want = std::string("a ") + lockKindName(W->Needs);
    if (A) {
      // Spell the lock as the writer would: `c->seq` with `lock` -> `c->lock`
      // when the association names a member (`&c->lock`), else as given.
      std::string Lock = A->Text;
      if (A->Member && !W->CounterOwner.empty())
        Lock = W->CounterOwner + A->Lock;
      Want = "'" + Lock + "'";
    }
    std::string Msg = "write section of '" + W->Counter + "' (" + W->TypeName +
                      ") runs from '" + E->FD->getName().str() + "' without " +
                      (A ? "its associated lock " : "") + Want + " held";
    if (Other)
      Msg += " (holds '" + Other->Name + "' instead)";
    Msg += "; concurrent writers corrupt the count: take " + Want + " around it";
    Finding F = make(W->Loc, Msg);
    F.Notes.push_back({E->Loc, "'" + E->FD->getName().str() + "' runs as " +
                                   entryKindName(E->Kind) + ", registered here"});
    if (A)
      F.Notes.push_back({A->Loc, "'" + W->CounterLeaf + "' is associated with '" +
                                     A->Text + "' here"});
    emit(F);
    return true;
  }

  void reportInterrupted(const Entry &EA, const WriteSite &WA, unsigned char Level,
                         const Entry &EB, const WriteSite &WB) {
    std::string NA = EA.FD->getName().str(), NB = EB.FD->getName().str();
    unsigned char Need = contextLevel(EB.Kind);
    std::string Msg =
        "write section of '" + WA.Counter + "' runs with " + levelName(Level) +
        " when reached from '" + NA + "', but '" + NB + "' also writes it from " +
        (Need == ExclIrq ? "a hard interrupt" : "softirq context") +
        " and can interrupt this section on the same CPU: the count goes even "
        "mid-section (or readers spin) and the data tears; " +
        (Need == ExclIrq
             ? "disable interrupts around it (local_irq_save(), "
               "u64_stats_update_begin_irqsave(), spin_lock_irqsave())"
             : "disable bottom halves around it (local_bh_disable(), "
               "spin_lock_bh(), or u64_stats_update_begin_irqsave())");
    Finding F = make(WA.Loc, Msg);
    F.Notes.push_back({EA.Loc, "'" + NA + "' runs as " + entryKindName(EA.Kind) +
                                   ", registered here"});
    F.Notes.push_back({EB.Loc, "'" + NB + "' runs as " + entryKindName(EB.Kind) +
                                   ", registered here"});
    if (&WA != &WB)
      F.Notes.push_back({WB.Loc, "its write section of '" + WB.Counter + "' is here"});
    emit(F);
  }

  void reportPair(const Entry &EA, const WriteSite &WA, const GSet &LA, const Entry &EB,
                  const WriteSite &WB, const GSet &LB) {
    std::string NA = EA.FD->getName().str(), NB = EB.FD->getName().str();
    std::string Suggest;
    for (const GSet *S : {&LA, &LB})
      for (const GLock &G : *S)
        if (Suggest.empty() && G.Decl)
          Suggest = "'" + G.Name + "'";
    std::string Msg =
        "write section of '" + WA.Counter + "' can run concurrently from '" + NA +
        "' and '" + NB + "'" + (EA.FD == EB.FD ? " (two instances)" : "") +
        " with no common lock: concurrent writers corrupt the count and readers "
        "accept torn data; ";
    Msg += Suggest.empty() ? "serialize the writers with a lock (or use a seqlock_t)"
                           : "take " + Suggest + " around it in every writer";
    Finding F = make(WA.Loc, Msg);
    F.Notes.push_back({EA.Loc, "'" + NA + "' runs as " + entryKindName(EA.Kind) +
                                   ", registered here"});
    if (EA.FD != EB.FD)
      F.Notes.push_back({EB.Loc, "'" + NB + "' runs as " + entryKindName(EB.Kind) +
                                     ", registered here"});
    if (&WA != &WB)
      F.Notes.push_back({WB.Loc, "the other write section of '" + WB.Counter +
                                     "' is here"});
    emit(F);
  }

  std::vector<WriteSite> Sites;
  DenseMap<const FunctionDecl *, std::vector<CallSite>> CallSites;
  DenseSet<const FunctionDecl *> Analysed;
  StringMap<Assoc> Assocs;
};

} // namespace

std::unique_ptr<Check> createSeqcountWriteUnlockedCheck() {
  return std::make_unique<SeqcountWriteUnlockedCheck>();
}

} // namespace seqlint
