//===- Driver.cpp ---------------------------------------------------------===//
#include "Driver.h"
#include "analyses/OneSided.h"
#include "Check.h"
#include "analyses/MessagePassing.h"
#include "analyses/UnitAnalyses.h"
#include "core/Classifier.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "core/SectionAnalysis.h"
#include "core/Dataflow.h"
#include "core/FunctionAnalyses.h"
#include "core/LockAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <optional>

using namespace clang;
using namespace llvm;

namespace seqlint {

namespace {

/// The sections the section analysis saw begin in one trace.
struct SectionCount {
  unsigned WriteApi = 0, WriteOpen = 0, ReadApi = 0, ReadOpen = 0;
};

/// Fans one SectionObserver call out to every enabled check.
class Multiplexer : public SectionObserver {
public:
  explicit Multiplexer(std::vector<std::unique_ptr<Check>> &Checks) : Checks(Checks) {}
  /// Coverage statistics: where to count the sections of the trace being
  /// analysed (null: not counted).
  SectionCount *Sections = nullptr;
  void sectionBegins(const FunctionTrace &, int, const Event &Begin,
                     bool Write) override {
    if (!Sections)
      return;
    bool Open = Begin.OpenCoded || Begin.Kind == EventKind::CounterInc;
    ++(Write ? (Open ? Sections->WriteOpen : Sections->WriteApi)
             : (Open ? Sections->ReadOpen : Sections->ReadApi));
  }
#define FORWARD(Method, Params, Args)                                          \
  void Method Params override {                                                \
    for (auto &Chk : Checks)                                                   \
      Chk->Method Args;                                                        \
  }
  FORWARD(writeStoreBeforeBarrier,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(writeEndUnordered,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(writeExitOpen,
          (const FunctionTrace &T, int K, const Event &A, SourceLocation L), (T, K, A, L))
  FORWARD(writeEndWithoutBegin, (const FunctionTrace &T, int K, const Event &A),
          (T, K, A))
  FORWARD(writeEndSomePaths,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(writeBeginSomePaths,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(sectionBarrierWrongKind,
          (const FunctionTrace &T, int K, const Event &A, unsigned N, const Event &B),
          (T, K, A, N, B))
  FORWARD(readRetrySomePaths,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(writeBeginWhileOpen,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(readLoadBeforeBarrier,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(readRetryUnordered,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(readSideEffect,
          (const FunctionTrace &T, int K, const Event &A, const Event &B), (T, K, A, B))
  FORWARD(functionDone, (const FunctionTrace &T, Classifier &C), (T, C))
#undef FORWARD
private:
  std::vector<std::unique_ptr<Check>> &Checks;
};

/// Drops NOLINTed and duplicate findings before the front end sees them.
class FilteringSink : public FindingSink {
public:
  FilteringSink(FindingSink &Out, const SourceManager &SM, bool Nolint)
      : Out(Out), SM(SM), Nolint(SM), ApplyNolint(Nolint) {}
  void report(const Finding &F) override {
    if (F.Loc.isInvalid())
      return;
    SourceLocation L = SM.getFileLoc(F.Loc);
    if (SM.isInSystemHeader(L))
      return;
    std::string Key = F.Check + "@" + std::to_string(L.getRawEncoding()) + ":" + F.Message;
    if (!Seen.insert(Key).second)
      return;
    if (ApplyNolint && Nolint.isSuppressed(L, F.Check))
      return;
    Out.report(F);
  }

private:
  FindingSink &Out;
  const SourceManager &SM;
  Suppressions Nolint;
  bool ApplyNolint;
  StringSet<> Seen;
};

const char *kindName(EventKind K) {
  switch (K) {
  case EventKind::ReadBegin: return "read-begin";
  case EventKind::ReadRetry: return "read-retry";
  case EventKind::ReadBeginOrLock: return "read-begin-or-lock";
  case EventKind::ReadDone: return "read-done";
  case EventKind::WriteBegin: return "write-begin";
  case EventKind::WriteEnd: return "write-end";
  case EventKind::CounterInc: return "counter-inc";
  case EventKind::Barrier: return "barrier";
  case EventKind::Load: return "load";
  case EventKind::Store: return "store";
  case EventKind::RMW: return "rmw";
  case EventKind::Lock: return "lock";
  case EventKind::Unlock: return "unlock";
  case EventKind::Call: return "call";
  case EventKind::Return: return "return";
  case EventKind::LocalDef: return "local-def";
  case EventKind::LocalUpdate: return "local-update";
  case EventKind::Exclude: return "exclude";
  }
  return "?";
}

const char *orderName(Order O) {
  switch (O) {
  case Order::Plain: return "plain";
  case Order::Once: return "once";
  case Order::Acquire: return "acquire";
  case Order::Release: return "release";
  case Order::AcqRel: return "acq_rel";
  case Order::SeqCst: return "seq_cst";
  }
  return "?";
}

void dumpTrace(FunctionAnalyses &FA, const SourceManager &SM, raw_ostream &OS) {
  const FunctionTrace &T = FA.trace();
  OS << "function " << T.FD->getName() << "\n";
  const LockSets &Locks = FA.locks();
  // May-held locks and open sections, from the same hub the checks use.
  DenseMap<const Event *, AccessContext> Around;
  FA.accessContexts([&](const Event &E, const AccessContext &C) {
    Around.try_emplace(&E, C);
  });
  // Print blocks from the entry in ID order (descending IDs ~ source order).
  for (unsigned Id = T.Blocks.size(); Id-- > 0;) {
    for (const Event &E : T.Blocks[Id].Events) {
      OS << "  " << SM.getSpellingLineNumber(E.Loc) << ":"
         << SM.getSpellingColumnNumber(E.Loc) << " " << kindName(E.Kind);
      if (!E.ApiName.empty())
        OS << " api=" << E.ApiName;
      if (E.Key >= 0)
        OS << " key=" << T.key(E.Key).displayName();
      switch (E.Kind) {
      case EventKind::Load:
      case EventKind::Store:
      case EventKind::RMW:
      case EventKind::CounterInc:
      case EventKind::ReadBegin:
        OS << " order=" << orderName(E.Ord);
        break;
      default:
        break;
      }
      if (E.Kind == EventKind::Barrier) {
        OS << " orders=";
        if (!E.Bits)
          OS << "none";
        if (E.Bits & OrdLL) OS << "LL";
        if (E.Bits & OrdLS) OS << "LS";
        if (E.Bits & OrdSS) OS << "SS";
        if (E.Bits & OrdSL) OS << "SL";
      }
      if (E.Increment)
        OS << " increment";
      if (E.Masked)
        OS << " masked";
      if (E.Kind == EventKind::ReadRetry && !E.RetryHasBarrier)
        OS << " no-barrier";
      if (E.Kind == EventKind::Call && E.Callee)
        OS << " callee=" << E.Callee->getName();
      if (E.SideEffect)
        OS << " side-effect";
      const LockSet *Held = Locks.before(E);
      if (Held && !Held->empty())
        OS << " held=" << Locks.describe(*Held);
      if (auto It = Around.find(&E); It != Around.end()) {
        const AccessContext &C = It->second;
        // A lock some path holds (a must-held one implies it).
        if (C.MayLocked && !(Held && !Held->empty()))
          OS << " may-held";
        auto List = [&](const char *What, auto &&Keys) {
          bool First = true;
          for (int K : Keys) {
            OS << (First ? What : ",") << T.key(K).displayName();
            First = false;
          }
        };
        List(" write-open=", C.WriteSections);
        SmallVector<int, 1> Reads;
        for (const auto &RS : C.ReadSections)
          Reads.push_back(RS.first);
        List(" read-open=", Reads);
      }
      OS << "\n";
    }
  }
}

/// Which functions seqlint analyses at all: user code, not the APIs' own
/// implementation (system headers, the API headers, the APIs' internal
/// helpers). The file half is decided once per file: a kernel TU defines
/// thousands of inline functions in a few hundred headers.
class AnalysisFilter {
public:
  AnalysisFilter(const SourceManager &SM, const ApiModel &M) : SM(SM), M(M) {}
  bool shouldAnalyse(const FunctionDecl *FD) {
    bool InMainFile;
    return userCode(FD, InMainFile) && !apiImplementation(FD);
  }
  /// FD is defined in user code (the file half); InMainFile tells where.
  bool userCode(const FunctionDecl *FD, bool &InMainFile) {
    InMainFile = false;
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext())
      return false;
    SourceLocation L = SM.getExpansionLoc(FD->getLocation());
    if (L.isInvalid())
      return false;
    FileID F = SM.getFileID(L);
    InMainFile = F == SM.getMainFileID();
    auto [It, New] = UserFiles.try_emplace(F, false);
    if (New)
      It->second = userFile(L, F);
    return It->second;
  }
  /// FD is one of the APIs or their internal helpers (by name).
  bool apiImplementation(const FunctionDecl *FD) const {
    return FD->getIdentifier() && M.isImplementationFunction(FD->getName());
  }

private:
  bool userFile(SourceLocation L, FileID F) const {
    if (SM.isInSystemHeader(L))
      return false;
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(F))
      return !M.isApiHeader(FE->getName());
    return true;
  }
  const SourceManager &SM;
  const ApiModel &M;
  DenseMap<FileID, bool> UserFiles;
};

/// Cheap test before building a CFG: does the body use anything seqlint
/// recognises (a known macro, an API call, a C11/GNU atomic, a fence, an
/// asm barrier, an _Atomic object)? Most functions do not.
class EventFinder : public RecursiveASTVisitor<EventFinder> {
public:
  /// CountSteps: fill Steps (only the runner's counters file needs it).
  EventFinder(const MacroIndex &Macros, bool CountSteps, const SharedMemory *Shared)
      : Macros(Macros), CountSteps(CountSteps), Shared(Shared) {}
  // typeof()/sizeof(type) in the kernel's macros: nothing runs there
  // (LLVM 22 passes a second argument, TraverseQualifier).
  template <typename... More> bool TraverseTypeLoc(TypeLoc, More...) { return true; }
  bool Strong = false;      // can make a section on its own
  bool Weak = false;        // an unordered ONCE-style API function call
  bool CounterLike = false; // x++, x += 1, v + 1, v & 1, v & ~1, v % 2
  /// A low bit tested, and shared memory stepped: an open-coded writer that
  /// checks its own count, with no marked access at all.
  bool counterParity() const { return ParityTest && SharedStep; }
  bool IntParamCompare = false; // == or != with an integer parameter
  bool OnlineCpus = false;      // calls num_online_cpus(): maybe a one-CPU
                                // assertion, which holds a lock
  bool RingHeader = false;      // a store to a flexible array member's element
  bool SharedMem = false;       // an access to memory another process or a
                                // device maps (core/Provenance.h)
  llvm::SmallVector<const FunctionDecl *, 8> Callees; // defined, not APIs

  bool VisitStmt(Stmt *S) {
    if (isa<AtomicExpr>(S))
      return strong();
    if (auto *AS = dyn_cast<GCCAsmStmt>(S))
      for (unsigned I = 0; I != AS->getNumClobbers(); ++I)
        if (AS->getClobber(I) == "memory")
          return strong();
    if (auto *E = dyn_cast<Expr>(S))
      if ((isa<DeclRefExpr>(E) || isa<MemberExpr>(E)) && E->getType()->isAtomicType())
        return strong();
    if (auto *U = dyn_cast<UnaryOperator>(S))
      if (U->isIncrementDecrementOp()) {
        CounterLike = true;
        if (U->isIncrementOp() && isShared(U->getSubExpr())) {
          SharedStep = true;
          noteStep(U->getSubExpr());
        }
      }
    // A descriptor field a device reads or writes (__le32, volatile): an
    // access to shared memory, as marked as READ_ONCE().
    if (auto *ME = dyn_cast<MemberExpr>(S); ME && !Weak && osDeviceTyped(ME->getType()))
      Weak = true;
    if (auto *ME = dyn_cast<MemberExpr>(S); ME && !SharedMem && Shared && Shared->touches(ME))
      SharedMem = true;
    // `avail->ring[i & m] = x`: a slot of a flexible array beside its
    // ring's index (struct vring_avail): memory another agent maps.
    if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && !RingHeader)
      if (auto *AS = dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (auto *ME = dyn_cast<MemberExpr>(AS->getBase()->IgnoreParenImpCasts()))
          if (isa<IncompleteArrayType>(
                  ME->getMemberDecl()->getType()->getUnqualifiedDesugaredType()))
            RingHeader = true;
    // `*(volatile u16 *)&used->idx`: a hand-marked access, as READ_ONCE().
    if (auto *CE = dyn_cast<CStyleCastExpr>(S); CE && !Weak)
      if (const auto *PT = CE->getType()->getAs<PointerType>())
        if (PT->getPointeeType().isVolatileQualified())
          Weak = true;
    if (auto *BO = dyn_cast<BinaryOperator>(S)) {
      auto Op = BO->getOpcode();
      if (Op == BO_AddAssign || Op == BO_Add || Op == BO_And || Op == BO_Rem)
        if (isa<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts()) ||
            isa<UnaryOperator>(BO->getRHS()->IgnoreParenImpCasts())) {
          CounterLike = true;
          // `cnt & 1`: a hand-written seqcount with no marked access at all
          // (the bug itself: PostgreSQL's st_changecount before 2014), when
          // the function also steps shared memory (below).
          if ((Op == BO_And && isa<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts()) &&
               cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts())->getValue() == 1) ||
              Op == BO_Rem)
            ParityTest = true;
          if (Op == BO_AddAssign && isShared(BO->getLHS())) {
            SharedStep = true;
            noteStep(BO->getLHS());
          }
        }
    }
    if (auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)
        for (const Expr *E : {BO->getLHS(), BO->getRHS()})
          if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
            if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
              if (P->getType()->isIntegerType())
                IntParamCompare = true;
    if (auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = calleeOf(CE)) {
        const IdentifierInfo *II = F->getIdentifier();
        StringRef N = II ? II->getName() : StringRef();
        const ApiEntry *E = II ? Macros.model().lookup(N) : nullptr;
        if (isFenceLikeName(N))
          return strong();
        if (isOnlineCpuCount(N))
          OnlineCpus = true;
        if (E) {
          if (MacroIndex::isStrong(*E))
            return strong();
          Weak = true;
        } else if (F->hasBody() && !llvm::is_contained(Callees, F)) {
          Callees.push_back(F);
        }
      }
    return true;
  }

private:
  bool strong() {
    Strong = true;
    return true; // the callees are still wanted
  }
  /// A member, or a variable not local to the function.
  static bool isShared(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (isa<MemberExpr>(E))
      return true;
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        return V->hasGlobalStorage();
    return false;
  }
  void noteStep(const Expr *E) {
    if (!CountSteps)
      return;
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      ++Steps[ME->getMemberDecl()];
    else if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      ++Steps[DR->getDecl()];
  }

public:
  /// Fields and globals stepped (`++`, `+= k`), and how often: stepped
  /// twice, a candidate counter for the other TUs of the program.
  llvm::SmallDenseMap<const ValueDecl *, unsigned, 4> Steps;

private:
  bool ParityTest = false; // `x & 1`, `x % 2`
  bool SharedStep = false; // `s->n++`, `g += 1`
  const MacroIndex &Macros;
  bool CountSteps;
  const SharedMemory *Shared;
};

/// What one walk of a function body tells (cached: the driver asks for a
/// function itself, and for it as the callee of others).
class FunctionFacts {
public:
  FunctionFacts(const MacroIndex &Macros, bool CountSteps)
      : Macros(Macros), CountSteps(CountSteps) {}
  /// With the checks about marked accesses: where the TU's shared memory
  /// comes from (an access to it counts as a marked one).
  void setShared(const SharedMemory *S) { Shared = S; }
  const EventFinder &of(const FunctionDecl *FD) {
    std::unique_ptr<EventFinder> &F = Cache[FD];
    if (!F) {
      F = std::make_unique<EventFinder>(Macros, CountSteps, Shared);
      F->TraverseStmt(FD->getBody());
    }
    return *F;
  }

  /// Does FD need a CFG? Only if it can hold a seqcount section (or, when a
  /// check about marked accesses is on, any marked access at all).
  bool worthAnalysing(const FunctionDecl *FD, CheckScope Scope) {
    if (Scope == CheckScope::AllFunctions)
      return true;
    bool AnyMarked = Scope == CheckScope::MarkedAccesses;
    SourceRange Body = FD->getBody()->getSourceRange();
    if (Macros.hasInstanceIn(Body, /*StrongOnly=*/!AnyMarked))
      return true;
    const EventFinder &Finder = of(FD);
    if (Finder.Strong)
      return true;
    bool Marked = Finder.Weak || Macros.hasInstanceIn(Body);
    // READ_ONCE/WRITE_ONCE only: an open-coded section also needs a counter
    // step or a low-bit test somewhere.
    return (Marked && (AnyMarked || Finder.CounterLike)) || Finder.counterParity() ||
           (AnyMarked && (Finder.RingHeader || Finder.SharedMem));
  }

  /// FD calls a helper of the TU with an effect on sections, locks or
  /// ordering (so FD is worth a CFG though it names nothing seqlint knows).
  bool callsHelper(const FunctionDecl *FD, Classifier &Cl) {
    auto [It, New] = Calls.try_emplace(FD, 0);
    if (!New)
      return It->second == 1;
    bool Found = false;
    // A setter or getter with a release or acquire of its own (not only
    // READ_ONCE) is a call with an ordering effect too: its summary is
    // computed anyway, as the helper can make sections.
    for (const FunctionDecl *F : of(FD).Callees)
      if (F != FD && (Cl.helperEffect(F) ||
                      (worthAnalysing(F, CheckScope::Sections) &&
                       Cl.helperEffect(F, /*Getters=*/true)))) {
        Found = true;
        break;
      }
    Calls[FD] = Found ? 1 : 2;
    return Found;
  }

  /// FD calls a function of the TU with marked accesses (a ring helper:
  /// the message-passing checks inline it into FD).
  bool callsMarked(const FunctionDecl *FD) {
    for (const FunctionDecl *F : of(FD).Callees)
      if (F != FD && worthAnalysing(F, CheckScope::MarkedAccesses))
        return true;
    return false;
  }

private:
  const MacroIndex &Macros;
  bool CountSteps;
  const SharedMemory *Shared = nullptr;
  DenseMap<const FunctionDecl *, std::unique_ptr<EventFinder>> Cache;
  DenseMap<const FunctionDecl *, char> Calls; // 1 yes, 2 no
};

/// Every function definition in the TU: C functions, C++ methods and
/// lambdas (templates are skipped as dependent; instantiations are not
/// visited, so each body is analysed once).
/// The function definitions of the TU, in order. C defines functions at
/// file scope only (records, enums and typedefs hold none), so the walk
/// looks at the declarations of the TU and of the contexts that can hold
/// definitions (extern "C" blocks, namespaces, C++ classes), not into
/// every type.
void collectFunctions(const DeclContext *DC, std::vector<const FunctionDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody())
        Out.push_back(FD);
    } else if (isa<LinkageSpecDecl>(D) || isa<NamespaceDecl>(D) ||
               isa<ExportDecl>(D) || isa<CXXRecordDecl>(D)) {
      collectFunctions(cast<DeclContext>(D), Out);
    }
  }
}

/// The inline and static functions of included files that this TU's own
/// code can reach: called, or whose address is taken, from the main file
/// (function bodies and initializers, e.g. an ops table), directly or
/// through other such functions. A header's inline functions are analysed
/// in the TUs that use them, as the compiler only emits them there; a kernel
/// TU includes hundreds of them and calls a few.
class ReachableFunctions : public RecursiveASTVisitor<ReachableFunctions> {
public:
  ReachableFunctions(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        TraverseDecl(D);
    while (!Work.empty()) {
      const FunctionDecl *FD = Work.pop_back_val();
      TraverseStmt(FD->getBody());
    }
  }
  bool contains(const FunctionDecl *FD) const {
    return Reached.count(FD->getCanonicalDecl());
  }
  // typeof()/sizeof(type) in the kernel's macros name no function.
  // (LLVM 22 passes a second argument, TraverseQualifier.)
  template <typename... More> bool TraverseTypeLoc(TypeLoc, More...) { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
    if (!FD)
      return true;
    const FunctionDecl *Def = nullptr;
    if (FD->hasBody(Def) && Reached.insert(Def->getCanonicalDecl()).second &&
        !SM.isInMainFile(SM.getExpansionLoc(Def->getLocation())))
      Work.push_back(Def);
    return true;
  }

private:
  const SourceManager &SM;
  DenseSet<const FunctionDecl *> Reached;
  SmallVector<const FunctionDecl *, 64> Work;
};

/// A function of an included file that the compiler emits only where it
/// is used: inline, or static.
bool isEmittedOnUse(const FunctionDecl *FD) {
  return FD->isInlineSpecified() || FD->getStorageClass() == SC_Static;
}

} // namespace

std::vector<std::string> enabledChecks(const CheckFilter &Filter) {
  std::vector<std::string> Names;
  for (const CheckInfo &I : allChecks())
    if (Filter.isEnabled(I.Name, I.DefaultOn))
      Names.push_back(I.Name);
  return Names;
}

namespace {

/// The glob nearest to Glob (by edit distance) among the check names and
/// their "-"-bounded prefixes with a '*', if it is near enough to be a typo.
std::string nearestGlob(StringRef Glob) {
  Glob.consume_front("seqlint-");
  bool Star = Glob.ends_with("*");
  std::string Best;
  unsigned BestDist = ~0u;
  auto Consider = [&](const std::string &Candidate) {
    unsigned D = Glob.edit_distance(Candidate, /*AllowReplacements=*/true);
    if (D < BestDist) {
      BestDist = D;
      Best = Candidate;
    }
  };
  for (const CheckInfo &I : allChecks()) {
    StringRef Name(I.Name);
    if (!Star)
      Consider(Name.str());
    for (size_t Dash = Name.find('-'); Dash != StringRef::npos;
         Dash = Name.find('-', Dash + 1))
      Consider((Name.substr(0, Dash + 1) + "*").str());
  }
  // A typo: at most a third of the glob wrong, and not the whole of it.
  if (BestDist == 0 || BestDist > std::max<size_t>(2, Glob.size() / 3))
    return "";
  return Best;
}

std::string validChecksList() {
  std::string Out;
  for (const CheckInfo &I : allChecks())
    Out += std::string(Out.empty() ? "" : ", ") + I.Name;
  return Out;
}

} // namespace

std::string checkGlobsError(const CheckFilter &Filter) {
  std::vector<std::string> Names;
  for (const CheckInfo &I : allChecks())
    Names.push_back(I.Name);
  std::string Glob = Filter.unmatchedGlob(Names);
  if (Glob.empty())
    return "";
  std::string Msg = "'" + Glob + "' matches no seqlint check";
  std::string Near = nearestGlob(Glob);
  if (!Near.empty())
    Msg += std::string("; did you mean '") +
           (StringRef(Glob).starts_with("seqlint-") ? "seqlint-" : "") + Near +
           "'?";
  return Msg + " (valid checks: " + validChecksList() + ")";
}

std::string noCheckEnabledError(const CheckFilter &Filter) {
  if (!enabledChecks(Filter).empty())
    return "";
  return "no check is enabled; enable one by name or glob, e.g. "
         "'-*,seqcount-*' (valid checks: " +
         validChecksList() + ")";
}

namespace {

/// The summary files a join reads: the files named, and the *.mp.json files
/// of the directories named, in name order.
std::string summaryFiles(const std::vector<std::string> &Paths,
                         std::vector<std::string> &Out) {
  for (const std::string &P : Paths) {
    if (!llvm::sys::fs::is_directory(P)) {
      Out.push_back(P);
      continue;
    }
    std::vector<std::string> InDir;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(P, EC), End; It != End && !EC;
         It.increment(EC))
      if (llvm::StringRef(It->path()).ends_with(".mp.json"))
        InDir.push_back(It->path());
    if (EC)
      return "cannot read the summary directory '" + P + "': " + EC.message();
    llvm::sort(InDir);
    Out.insert(Out.end(), InDir.begin(), InDir.end());
  }
  return "";
}

/// Join run: every summary into one collector, then the TU-end reports of
/// the message-passing checks the summaries were written with.
std::string joinSummaries(ASTContext &Ctx, const MacroIndex &Macros,
                          FindingSink &Sink, const DriverOptions &Opts) {
  std::vector<std::string> Files;
  if (std::string Err = summaryFiles(Opts.JoinPaths, Files); !Err.empty())
    return Err;
  SourceManager &SM = Ctx.getSourceManager();
  UnitAnalyses Unit;
  MpCollector &Mp = Unit.messagePassing();
  std::vector<std::string> Enabled;
  for (const std::string &F : Files) {
    std::string Err;
    if (!Mp.readSummary(F, SM, Enabled, Err))
      return Err;
  }
  FilteringSink Filter(Sink, SM, Opts.ApplyNolint);
  CheckContext CC;
  CC.Ctx = &Ctx;
  CC.Macros = &Macros;
  CC.Sink = &Filter;
  CC.Unit = &Unit;
  Classifier Cl(Ctx, Macros, Macros.model());
  CC.Cl = &Cl;
  for (const CheckInfo &I : allChecks()) {
    if (!llvm::is_contained(Enabled, I.Name))
      continue;
    std::unique_ptr<Check> C = I.Create();
    if (!C->usesMessagePassing())
      continue;
    C->setContext(CC);
    C->translationUnitDone(Cl);
  }
  return "";
}

std::string summaryPathFor(const std::string &Path, const SourceManager &SM) {
  if (!llvm::sys::fs::is_directory(Path))
    return Path;
  // One file per main file: its name and a hash of its absolute path.
  std::string Main = "tu";
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID())) {
    llvm::SmallString<256> Abs(FE->getName());
    SM.getFileManager().makeAbsolutePath(Abs);
    Main = (llvm::sys::path::filename(Abs) + "-" +
            llvm::utohexstr(llvm::xxh3_64bits(Abs)))
               .str();
  }
  llvm::SmallString<256> Out(Path);
  llvm::sys::path::append(Out, Main + ".mp.json");
  return std::string(Out);
}

/// Counts one event of a final trace into S (CoverageStats).
void countEvent(const Event &E, CoverageStats &S) {
  switch (E.Kind) {
  case EventKind::Barrier: {
    unsigned B = E.Bits;
    if (!B)
      ++S.Compiler;
    else if (B & OrdSL)
      ++S.Full;
    else if ((B & (OrdLL | OrdSS)) == (OrdLL | OrdSS))
      ++S.AcqRel;
    else if (B & OrdLL)
      ++((B & OrdLS) ? S.Acquire : S.Read);
    else
      ++((B & OrdLS) ? S.Release : S.Write);
    break;
  }
  case EventKind::Load:
  case EventKind::Store:
  case EventKind::RMW:
    if (E.Ord != Order::Plain)
      ++S.Atomics;
    break;
  case EventKind::CounterInc:
  case EventKind::ReadBegin:
  case EventKind::ReadRetry:
    // A counter access written by hand is an access too (an API's is not).
    if (E.OpenCoded && E.Ord != Order::Plain)
      ++S.Atomics;
    break;
  default:
    break;
  }
  if (isLockAcquire(E))
    ++S.Locks;
}

using TraceList = std::vector<
    std::pair<const FunctionDecl *, std::shared_ptr<const FunctionTrace>>>;

/// Coverage statistics from the final traces (Sections[I]: what the section
/// analysis saw begin in Traces[I]).
void countCoverage(const TraceList &Traces, ArrayRef<SectionCount> Sections,
                   const Classifier &Cl, CoverageStats &S) {
  S.Analysed = Traces.size();
  DenseSet<const FunctionDecl *> Own;
  for (const auto &[FD, T] : Traces)
    Own.insert(FD->getCanonicalDecl());
  // The events of a helper with no trace of its own, spliced into several
  // callers (or into a helper and its callers): counted once.
  using InnerKey = std::pair<std::pair<const void *, const void *>, unsigned>;
  DenseSet<InnerKey> Inner;
  for (size_t I = 0; I != Traces.size(); ++I) {
    const auto &[FD, T] = Traces[I];
    // A helper seen through at its calls: its sections are its callers'.
    if (!Cl.seenThrough(FD)) {
      S.WriteApi += Sections[I].WriteApi;
      S.WriteOpen += Sections[I].WriteOpen;
      S.ReadApi += Sections[I].ReadApi;
      S.ReadOpen += Sections[I].ReadOpen;
    }
    for (const BlockEvents &BE : T->Blocks)
      for (const Event &E : BE.Events) {
        if (E.Via) {
          const FunctionDecl *Via = E.Via->getCanonicalDecl();
          if (Own.count(Via))
            continue; // counted in the helper's own trace
          const void *Where = E.InnerS
                                  ? static_cast<const void *>(E.InnerS)
                                  : reinterpret_cast<const void *>(
                                        uintptr_t(E.InnerLoc.getRawEncoding()));
          if (!Inner.insert({{Via, Where}, unsigned(E.Kind)}).second)
            continue;
        }
        countEvent(E, S);
      }
  }
}

} // namespace

void CoverageStats::print(raw_ostream &OS) const {
  OS << "seqlint-stats: functions=" << Functions << " analysed=" << Analysed
     << " write-sections=" << WriteApi + WriteOpen << "(api=" << WriteApi
     << ",open=" << WriteOpen << ") read-sections=" << ReadApi + ReadOpen
     << "(api=" << ReadApi << ",open=" << ReadOpen
     << ") barriers=" << barriers() << "(full=" << Full << ",acq-rel=" << AcqRel
     << ",acquire=" << Acquire << ",release=" << Release << ",write=" << Write
     << ",read=" << Read << ",compiler=" << Compiler << ") atomics=" << Atomics
     << " locks=" << Locks << " mp-pairs=" << MpPairs
     << " protocol=" << (protocol() ? "yes" : "no") << "\n";
}

namespace {

/// Reads the `counter` lines of Path and makes the fields and globals of
/// the TU they name counters of Cl.
std::string readExternalCounters(const std::string &Path, ASTContext &Ctx, Classifier &Cl) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return "cannot read the counters file '" + Path + "': " + Buf.getError().message();
  llvm::StringMap<bool> Ids; // id -> parity
  llvm::StringSet<> Names;    // their last components, to filter decls
  llvm::SmallVector<StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    llvm::SmallVector<StringRef, 3> F;
    L.split(F, '\t');
    if (F.size() != 3 || F[0] != "counter" || F[1].empty())
      continue;
    Ids[F[1]] = F[2] == "1";
    StringRef Name = F[1].starts_with("G:") ? F[1].drop_front(2) : F[1].rsplit('.').second;
    Names.insert(Name);
  }
  if (Ids.empty())
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  struct Finder : RecursiveASTVisitor<Finder> {
    std::function<void(const ValueDecl *)> Try;
    bool VisitFieldDecl(FieldDecl *FD) {
      Try(FD);
      return true;
    }
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->hasGlobalStorage() && !VD->isStaticLocal())
        Try(VD);
      return true;
    }
    bool TraverseStmt(Stmt *, DataRecursionQueue * = nullptr) { return true; } // declarations only
  } F;
  F.Try = [&](const ValueDecl *D) {
    if (!D->getIdentifier() || !Names.count(D->getName()))
      return;
    auto It = Ids.find(programWideId(D, SM));
    if (It != Ids.end())
      Cl.addExternalCounter(D, It->second);
  };
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return "";
}

/// Writes the TU's counters and candidates for the other TUs (sorted: the
/// file does not depend on the order functions were analysed in).
std::string writeCounters(const std::string &Path, const SourceManager &SM,
                          const Classifier &Cl,
                          const llvm::DenseSet<const ValueDecl *> &MoreCandidates) {
  std::vector<std::string> Lines;
  llvm::StringSet<> Counters;
  for (const ValueDecl *D : Cl.knownCounters())
    if (std::string Id = programWideId(D, SM); !Id.empty()) {
      Counters.insert(Id);
      Lines.push_back("counter\t" + Id + "\t" + (Cl.hasParity(D) ? "1" : "0"));
    }
  for (const auto *Set : {&Cl.counterCandidates(), &MoreCandidates})
    for (const ValueDecl *D : *Set)
      if (std::string Id = programWideId(D, SM); !Id.empty() && !Counters.count(Id))
        Lines.push_back("candidate\t" + Id);
  llvm::sort(Lines);
  Lines.erase(std::unique(Lines.begin(), Lines.end()), Lines.end());
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return "cannot write the counters file '" + Path + "': " + EC.message();
  for (const std::string &L : Lines)
    OS << L << "\n";
  return "";
}

/// The analyses that stopped at their budget: in the event dump (one line
/// each, none when all converged) and to the front end.
void reportDataflowCuts(const DataflowLog &Flow, const DriverOptions &Opts) {
  if (Opts.DumpEvents)
    for (const DataflowCut &C : Flow.Cuts)
      *Opts.DumpEvents << "dataflow-cut analysis=" << C.Analysis
                       << " function=" << C.FD->getName()
                       << " budget=" << C.Budget << "\n";
  if (Opts.DataflowCuts)
    *Opts.DataflowCuts = Flow.Cuts;
}

} // namespace

std::string runSeqlint(ASTContext &Ctx, const MacroIndex &Macros,
                       FindingSink &Sink, const DriverOptions &Opts) {
  if (!Opts.JoinPaths.empty())
    return joinSummaries(Ctx, Macros, Sink, Opts);
  const SourceManager &SM = Ctx.getSourceManager();
  FilteringSink Filter(Sink, SM, Opts.ApplyNolint);
  CheckContext CC;
  CC.Ctx = &Ctx;
  CC.Macros = &Macros;
  CC.Sink = &Filter;
  std::vector<std::unique_ptr<Check>> Checks;
  for (const CheckInfo &I : allChecks())
    if (Opts.Filter.isEnabled(I.Name, I.DefaultOn)) {
      Checks.push_back(I.Create());
      Checks.back()->setContext(CC);
    }
  if (Checks.empty() && !Opts.DumpEvents && !Opts.Stats)
    return "";
  // The TU-level analyses (the message-passing sides), made on demand.
  UnitAnalyses Unit;
  CC.Unit = &Unit;
  // Every analysis that stops at its budget is recorded here.
  DataflowLog Flow;
  Flow.BudgetOverride = Opts.DataflowBudget;
  DataflowLog::Scope FlowInForce(Flow);
  const ApiModel &Model = Macros.model();
  Classifier Cl(Ctx, Macros, Model);
  CC.Cl = &Cl;
  std::string CounterErr;
  if (!Opts.KnownCountersIn.empty())
    CounterErr = readExternalCounters(Opts.KnownCountersIn, Ctx, Cl);
  // Helpers are seen through at their calls when they are user code with
  // something seqlint knows (or a call to such a helper).
  FunctionFacts Facts(Macros, /*CountSteps=*/!Opts.CountersOut.empty());
  AnalysisFilter Analysed(SM, Model);
  Cl.setHelperFilter([&](const FunctionDecl *FD) -> int {
    if (!Analysed.shouldAnalyse(FD))
      return 0;
    if (Facts.worthAnalysing(FD, CheckScope::Sections))
      return 2;
    bool Marked = Facts.worthAnalysing(FD, CheckScope::MarkedAccesses);
    // READ_ONCE() alone: a retry helper (a load compared with an integer
    // parameter), or an assertion that one CPU is online
    // (BUG_ON(num_online_cpus() != 1), which holds the other CPUs off as a
    // lock does); otherwise maybe a getter, looked into only from a
    // function being analysed.
    if (Marked && (Facts.of(FD).IntParamCompare || Facts.of(FD).OnlineCpus))
      return 2;
    if (Facts.callsHelper(FD, Cl))
      return 2;
    return Marked ? 1 : 0;
  });
  Multiplexer Mux(Checks);
  // The widest scope any enabled check asks for (access-plain-reread looks
  // at READ_ONCE-only functions too; the event dump shows them all).
  CheckScope Scope =
      Opts.DumpEvents ? CheckScope::MarkedAccesses : CheckScope::Sections;
  for (auto &C : Checks)
    Scope = std::max(Scope, C->scope());
  if (Scope >= CheckScope::MarkedAccesses)
    Facts.setShared(&Cl.sharedMemory());
  std::vector<const FunctionDecl *> Functions;
  collectFunctions(Ctx.getTranslationUnitDecl(), Functions);
  std::optional<ReachableFunctions> Reachable;
  // Two passes: classify every function, so that the counters any of them
  // uses are known, then classify again those that touch such a location
  // without treating it as a counter (a writer or reader of a counter that
  // another function of the TU corroborates).
  TraceList Traces;
  std::vector<const FunctionDecl *> Skipped;
  unsigned Considered = 0;
  for (const FunctionDecl *FD : Functions) {
    // Cheapest first: the file (once per file), whether this TU can reach
    // it (most of a kernel TU's inline functions it does not), the name.
    bool InMainFile;
    if (!Analysed.userCode(FD, InMainFile))
      continue;
    if (!InMainFile && isEmittedOnUse(FD)) {
      if (!Reachable)
        Reachable.emplace(Ctx);
      if (!Reachable->contains(FD))
        continue;
    }
    if (Analysed.apiImplementation(FD))
      continue;
    ++Considered;
    // Known macros are found by position; API functions, atomics, fences
    // and asm by a walk that needs no source-location work.
    if (!Facts.worthAnalysing(FD, Scope) && !Facts.callsHelper(FD, Cl) &&
        !(Scope >= CheckScope::MarkedAccesses && Facts.callsMarked(FD))) {
      Skipped.push_back(FD);
      continue;
    }
    std::shared_ptr<const FunctionTrace> T = Cl.classify(FD);
    if (!T)
      continue;
    Cl.noteCounters(*T);
    Traces.emplace_back(FD, std::move(T));
  }
  // A function with nothing seqlint knows may still write or read a
  // counter that another function corroborates (plain increments, no
  // barrier: the bug itself).
  for (const FunctionDecl *FD : Skipped)
    if (Cl.referencesKnownCounter(FD))
      if (std::shared_ptr<const FunctionTrace> T = Cl.classify(FD))
        Traces.emplace_back(FD, std::move(T));
  // For the other TUs: a skipped function that steps a field twice (plain
  // increments around plain stores, the writer that forgot every barrier)
  // is a candidate, read from the walk the filter made anyway.
  llvm::DenseSet<const ValueDecl *> SkippedCandidates;
  if (!Opts.CountersOut.empty())
    for (const FunctionDecl *FD : Skipped)
      for (const auto &[D, N] : Facts.of(FD).Steps)
        if (N >= 2)
          SkippedCandidates.insert(D);
  std::vector<SectionCount> Sections(Opts.Stats ? Traces.size() : 0);
  for (size_t I = 0; I != Traces.size(); ++I) {
    auto &[FD, T] = Traces[I];
    if (Cl.mayRecognizeMore(*T))
      if (std::shared_ptr<const FunctionTrace> Again = Cl.classify(FD))
        T = std::move(Again);
    // The analyses of this function, shared by the section analysis, the
    // checks and the dump; each is worked out once, when first asked for.
    FunctionAnalyses FA(*T, Cl);
    CC.Function = &FA;
    if (Opts.DumpEvents && SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      dumpTrace(FA, SM, *Opts.DumpEvents);
    Mux.Sections = Opts.Stats ? &Sections[I] : nullptr;
    runSectionAnalysis(FA, Cl, Mux);
    Mux.functionDone(*T, Cl);
    CC.Function = nullptr;
  }
  if (llvm::any_of(Checks, [](auto &C) { return C->usesMessagePassing(); })) {
    Unit.messagePassing().noteUnitFacts(Ctx);
    Unit.messagePassing().noteQuietFlags();
  }
  for (auto &C : Checks)
    C->translationUnitDone(Cl);
  reportDataflowCuts(Flow, Opts);
  // The sides of the TU when a check uses them (even none: the summary of
  // a TU with no side still says so).
  MpCollector *Mp =
      llvm::any_of(Checks, [](auto &C) { return C->usesMessagePassing(); })
          ? &Unit.messagePassing()
          : nullptr;
  if (Opts.Stats) {
    Opts.Stats->Functions = Considered;
    countCoverage(Traces, Sections, Cl, *Opts.Stats);
    if (Mp)
      Opts.Stats->MpPairs = Mp->match(/*Ordered=*/true).size();
  }
  if (!Opts.CountersOut.empty() && CounterErr.empty())
    CounterErr = writeCounters(Opts.CountersOut, SM, Cl, SkippedCandidates);
  if (Opts.SummaryPath.empty() || !Mp)
    return CounterErr;
  std::vector<std::string> MpChecks;
  for (auto &C : Checks)
    if (C->usesMessagePassing())
      MpChecks.push_back(C->name());
  std::string Err;
  Mp->writeSummary(summaryPathFor(Opts.SummaryPath, SM), SM, MpChecks, Err);
  return Err.empty() ? CounterErr : Err;
}

} // namespace seqlint
