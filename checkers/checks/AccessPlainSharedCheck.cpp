//===- AccessPlainSharedCheck.cpp -----------------------------------------===//
//
// access-plain-shared (TU-wide): a plain store or read-modify-write of data
// that the rest of the translation unit treats as shared without a lock:
//   - written with WRITE_ONCE()/store-release/an atomic builtin elsewhere,
//   - read inside a seqcount read section, or
//   - written inside a seqcount write section (u64_stats included),
// done here outside any lock and outside any write section. The plain
// access races with the lockless readers (a data race under the LKMM and
// C11; a torn or half-updated value for a seqcount reader).
//
// Also, for seqcount data only: a marked (WRITE_ONCE/relaxed) store of data
// written inside write sections elsewhere, done outside one: readers of the
// seqcount cannot see the change, so they validate half-updated snapshots
// (HAMi-core: a slot reset that sets the count even, then clears the data).
//
// And for u64_stats: a 64-bit integer field of a structure whose other
// 64-bit statistics are updated inside u64_stats_update_begin() sections on
// a u64_stats_sync member, updated plainly outside one (the gve driver's
// tx->dropped_pkt++, fixed by 858b1d07e491).
//
// Not shared yet, or not any more: init/setup/alloc/create/probe and
// teardown functions by name, __init/__exit code, fresh objects from an
// allocator in a local pointer (also through an allocator hook, or from a
// helper that returns a fresh object). data_race() marks an intended race.
// A marked store of a write section's field that readers only read on its
// own (never inside a read section) is a lockless variable, not seqcount
// data. Static
// functions whose every call site in the TU holds a lock or a write section
// are protected by their callers.
//
// The functions that only write plainly have no trace (the driver builds a
// CFG only for functions with marked accesses or sections): after the TU, a
// cheap AST walk finds plain writes to the shared set and only those
// functions are classified.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <set>
#include "core/AccessContext.h"
#include "core/AstQueries.h"
#include "core/ChangedBits.h"
#include "core/Fresh.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/CFGReachabilityAnalysis.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace {

using Identity = const ValueDecl *;

/// The declaration that names a location across functions: the last field,
/// or a global variable.
Identity identityOf(const LocationKey &K) {
  if (K.Field)
    return K.Field;
  if (K.Storage == LocationKey::Global && K.Base)
    return K.Base;
  return nullptr;
}

/// What holds the member K names, when it is reached with '.'
/// (LocationKey::Outer): `p->rx.v` is rx's v; null for `c->v`, which may be
/// any counter's.
const ValueDecl *holderOf(const LocationKey &K) {
  if (!K.Field || !K.Outer)
    return nullptr;
  return cast<ValueDecl>(K.Outer->getCanonicalDecl());
}

/// Is L inside the argument of data_race() (an intended, marked race)?
bool insideDataRace(SourceLocation L, const SourceManager &SM,
                    const LangOptions &LO) {
  for (unsigned I = 0; I < 32 && L.isMacroID(); ++I) {
    if (isDataRaceMarker(Lexer::getImmediateMacroName(L, SM, LO)))
      return true;
    L = SM.getImmediateMacroCallerLoc(L);
  }
  return false;
}


/// Data that is only *read* in a read section (never written in a write
/// section or with a marked store in the TU) is not reported: on Linux 6.12
/// every such finding was an out-parameter or a key the reader computes
/// (blk-iocost ioc_now, dcache qstr hash, md badblocks), not seqcount data.
constexpr bool ReportReadOnlyEvidence = false;

struct Evidence {
  SourceLocation Loc;
  std::string How;  // "written with WRITE_ONCE() in foo()"
  std::string Note; // the note's text
  /// For data written inside write sections: the sections' counter.
  Identity Counter = nullptr;
};

/// Evidence about a member, kept per holder: `p->rx.v` and `p->tx.v` share
/// their FieldDecl, not their memory. A location whose holder is not known
/// (reached through a pointer to the inner type) may be any of them.
class EvidenceMap {
public:
  /// Keeps the first evidence for each holder.
  void add(Identity Id, const ValueDecl *Holder, Evidence Ev) {
    auto &V = Map[Id];
    for (const auto &H : V)
      if (H.first == Holder)
        return;
    V.push_back({Holder, std::move(Ev)});
  }
  /// The first evidence about a location that may be Id held by Holder.
  const Evidence *find(Identity Id, const ValueDecl *Holder) const {
    auto It = Map.find(Id);
    if (It == Map.end())
      return nullptr;
    for (const auto &[H, Ev] : It->second)
      if (!H || !Holder || H == Holder)
        return &Ev;
    return nullptr;
  }
  bool count(Identity Id) const { return Map.count(Id) > 0; }
  bool empty() const { return Map.empty(); }

private:
  DenseMap<Identity, SmallVector<std::pair<const ValueDecl *, Evidence>, 1>>
      Map;
};

struct Candidate {
  Identity Id;
  const FunctionDecl *FD;
  SourceLocation Loc;
  std::string Name;
  bool RMW;
  bool Marked;  // a WRITE_ONCE/relaxed store, not a plain one
  /// The function takes, releases or asserts a lock that may protect the
  /// location: one on an object computed from the same parameters or
  /// globals, or one whose object is not known (LockRelated in collect()).
  bool FnLocks;
  std::optional<uint64_t> Bits; // the bits it can change, when bounded
  /// The local pointer (or parameter) it writes through, if any.
  const VarDecl *Base = nullptr;
  const ValueDecl *Holder = nullptr; // holderOf() its location
  /// Every marked store of the location in this function lies on a path
  /// that never meets this one (set after the function's events are seen).
  bool MarkedApart = false;
};

/// A marked store of a location, while its function is collected.
struct MarkedStore {
  Identity Id;
  const ValueDecl *Holder;
  const Event *E;
};

struct CallSite {
  const FunctionDecl *Caller;
  bool Protected;
  bool FromAst;
  const CallExpr *Call; // null when the call is not a plain CallExpr
};

class AccessPlainSharedCheck : public Check {
public:
  AccessPlainSharedCheck() : Check("access-plain-shared") {}
  CheckScope scope() const override { return CheckScope::MarkedAccesses; }

  void functionDone(const FunctionTrace &T, Classifier &C) override {
    Model = &C.model();
    Traced.insert(T.FD->getCanonicalDecl());
    collect(T);
  }

  void translationUnitDone(Classifier &C) override;

private:
  bool inMainFile(const FunctionDecl *FD) const {
    const SourceManager &SM = Ctx->Ctx->getSourceManager();
    return SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()));
  }

  static std::string fnName(const FunctionDecl *FD) {
    return FD->getIdentifier() ? FD->getName().str() + "()"
                               : std::string("here");
  }

  void collect(const FunctionTrace &T);
  /// Sets MarkedApart on the candidates of T from First on, whose events
  /// are Events (in the same order).
  void markApart(const FunctionTrace &T, size_t First,
                 ArrayRef<const Event *> Events,
                 ArrayRef<MarkedStore> MarkedHere);
  /// The only marked stores of C's location are its own function's, each on
  /// a path that never meets C's: __call_srcu() overwrites a callback that
  /// is already queued with WRITE_ONCE() and returns, and sets it plainly
  /// when it is not queued yet. The function tells the two states apart;
  /// its marked store says nothing about the other path.
  bool onlyMarkedApart(const Candidate &C) const {
    if (!C.MarkedApart)
      return false;
    auto It = MarkedIn.find(C.Id);
    return It != MarkedIn.end() && It->second.size() == 1 &&
           It->second.count(C.FD->getCanonicalDecl());
  }
  bool excludedFunction(const FunctionDecl *FD) const;
  bool protectedByCallers(const FunctionDecl *FD);
  /// Parameters into whose object every call site of their function (static,
  /// its address not taken) passes a pointer into a fresh object:
  /// io_submit_one() allocates the request, __io_submit_one() hands it on,
  /// aio_poll() fills it in before anyone else can see it.
  bool freshParam(const ParmVarDecl *P, unsigned Level);
  /// FD's fresh locals, its fresh parameters included.
  FreshFinder freshIn(const FunctionDecl *Def, unsigned Level);
  /// Does C write through a pointer into a fresh object that a caller made?
  bool freshThroughCallers(const Candidate &C);
  DenseMap<const ParmVarDecl *, int> FreshParams; // 0 busy, 1 no, 2 yes
  bool interesting(Identity Id) const {
    return Marked.count(Id) || SeqWritten.count(Id) || SeqRead.count(Id) ||
           statsSibling(Id);
  }
  /// The u64_stats evidence for a 64-bit field of a structure whose other
  /// statistics are updated in u64_stats sections.
  const Evidence *statsSibling(Identity Id) const {
    const auto *FD = dyn_cast_or_null<FieldDecl>(Id);
    if (!FD || Counters.count(FD))
      return nullptr;
    auto It = StatsRecords.find(FD->getParent());
    if (It == StatsRecords.end())
      return nullptr;
    // u64/s64 (long long): the type u64_stats protects on 32-bit machines.
    // `unsigned long` is 64-bit only on 64-bit machines, where it needs no
    // seqcount (mac80211 keeps such counters next to its u64_stats_sync).
    const auto *BT = FD->getType().getCanonicalType()->getAs<BuiltinType>();
    if (!BT || (BT->getKind() != BuiltinType::ULongLong &&
                BT->getKind() != BuiltinType::LongLong))
      return nullptr;
    return &It->second;
  }
  void report(const Candidate &C);

  /// What the read sections of the TU read: the counters whose sections
  /// are here, the locations they load, and the helpers they call.
  void noteReader(const FunctionTrace &T, const Event &E, Identity Counter);
  /// Counters with read sections in this TU; true when some section calls
  /// a function this TU cannot see into with a pointer, so what it reads is
  /// not known.
  DenseMap<Identity, bool> ReadCounters;
  DenseSet<Identity> ReaderLoads;
  SetVector<const FunctionDecl *> ReaderHelpers;
  /// The fields and globals the reader helpers name (filled after the TU).
  DenseSet<Identity> ReaderHelperNames;
  void collectReaderHelperNames();
  /// The write sections of W's counter are the only evidence, the
  /// location is never accessed marked (no store or load made for a
  /// lockless reader), and the readers of that counter, all visible here,
  /// never read it: the writers' own book-keeping, kept under their lock
  /// (inetpeer's node count), not data a reader's retry validates.
  bool writerOnlyData(const Candidate &C, const Evidence &W) const {
    auto It = W.Counter ? ReadCounters.find(W.Counter) : ReadCounters.end();
    return It != ReadCounters.end() && !It->second && !Marked.count(C.Id) &&
           !ReaderLoads.count(C.Id) && !ReaderHelperNames.count(C.Id) &&
           !LoneReads.count(C.Id);
  }

  DenseSet<const FunctionDecl *> Traced;
  const ApiModel *Model = nullptr; // the APIs in force (allocators)
  EvidenceMap Marked, SeqWritten, SeqRead;
  /// The functions of the main file that store each location marked.
  DenseMap<Identity, SmallPtrSet<const FunctionDecl *, 2>> MarkedIn;
  /// The bits of a word that its write sections change (a masked field),
  /// and the words whose sections may change any bit.
  DenseMap<Identity, uint64_t> SectionBits;
  DenseSet<Identity> SectionAnyBit;
  /// Does the update C leave alone every bit the write sections of its
  /// word publish (a list-membership bit beside a type field)?
  bool disjointFromSections(const Candidate &C) const {
    if (!C.Bits || SectionAnyBit.count(C.Id))
      return false;
    auto It = SectionBits.find(C.Id);
    return It != SectionBits.end() && (*C.Bits & It->second) == 0;
  }
  /// Read with a marked load outside any read section, lock or write
  /// section: a lockless variable read on its own somewhere.
  DenseSet<Identity> LoneReads;
  FreshFinder::Memo FreshHelpers; // helpers that return fresh objects
  DenseSet<Identity> Counters;
  DenseMap<const RecordDecl *, Evidence> StatsRecords;
  std::vector<Candidate> Candidates;
  DenseMap<const FunctionDecl *, SmallVector<CallSite, 2>> Calls;
  DenseSet<const FunctionDecl *> Escaped;
  /// Callbacks: a function parameter called through (the function and the
  /// parameter's index), and whether each such call may hold a lock.
  using ParamRef = std::pair<const FunctionDecl *, unsigned>;
  DenseMap<ParamRef, SmallVector<bool, 2>> ParamCalls;
  /// Function parameters used other than by calling them (kept, handed on).
  DenseSet<ParamRef> ParamKept;
  /// Where a function's address is handed directly to a call: the callee
  /// and the argument's position.
  DenseMap<const FunctionDecl *, SmallVector<ParamRef, 2>> CallbackUses;
  /// Functions whose address is taken other than as such an argument.
  DenseSet<const FunctionDecl *> EscapedElsewhere;
  bool protectedAsCallback(const FunctionDecl *FD);
  DenseMap<const FunctionDecl *, int> ProtectedMemo; // 0 busy, 1 no, 2 yes
  /// Objects named directly (a global's member path, no pointer) whose
  /// address a main-file function hands to a function that reads a
  /// seqcount section: the reader's private snapshot, filled in there.
  llvm::StringSet<> Snapshots;
  /// The same through a local pointer to such an object, per function
  /// (`PgStat_ArchiverStats *stat_snap = &pgStatLocal.snapshot.archiver;`).
  std::set<std::pair<const FunctionDecl *, std::string>> LocalSnapshots;
  void findSnapshots(Classifier &Cl);
  bool inSnapshot(const Candidate &C) const {
    for (const auto &[FD, Var] : LocalSnapshots)
      if (FD == C.FD && StringRef(C.Name).starts_with(Var + "->"))
        return true;
    return inSnapshot(C.Name);
  }
  bool inSnapshot(StringRef Name) const {
    for (const auto &S : Snapshots) {
      StringRef Root = S.getKey();
      if (Name == Root || (Name.starts_with(Root) &&
                           (Name.substr(Root.size()).starts_with(".") ||
                            Name.substr(Root.size()).starts_with("["))))
        return true;
    }
    return false;
  }
};

/// The name CE calls through: `f` in `f(x)` and `(*f)(x)`; null when the
/// callee is any other expression.
const DeclRefExpr *calleeRef(const CallExpr *CE) {
  const Expr *E = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Deref)
      E = U->getSubExpr()->IgnoreParenImpCasts();
  return dyn_cast<DeclRefExpr>(E);
}

/// The callee of CE when it is a function parameter: `fn(x)`, `(*fn)(x)`.
const ParmVarDecl *calledParam(const CallExpr *CE) {
  if (!CE || CE->getDirectCallee())
    return nullptr;
  const DeclRefExpr *DR = calleeRef(CE);
  return DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
}

/// The function named by Arg, a function designator or its address.
const FunctionDecl *functionArg(const Expr *Arg, const DeclRefExpr **Ref) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  const auto *F = DR ? dyn_cast<FunctionDecl>(DR->getDecl()) : nullptr;
  if (F)
    *Ref = DR;
  return F;
}

/// `g.a.b` for `&g.a.b` with g a global variable and no pointer on the way;
/// empty otherwise.
std::string directObjectPath(const Expr *Arg) {
  SmallVector<StringRef, 4> Fields;
  const VarDecl *V = addressedObject(Arg, &Fields);
  if (!V || !V->hasGlobalStorage() || V->isStaticLocal())
    return "";
  std::string Path = V->getName().str();
  for (StringRef F : Fields)
    Path += "." + F.str();
  return Path;
}

/// A lock the function was handed as such: the object a parameter points
/// to, with no member on the way (`spin_lock(l)`, `mutex_lock(*m)`).
bool handedInLock(const LocationKey &K) {
  return K.Base && isa<ParmVarDecl>(K.Base) && !K.Field &&
         K.Base->getType()->isPointerType();
}

/// T reads a seqcount section of its own: a begin and its retry, or, with
/// the begin and end in helpers that are no API (PostgreSQL's
/// pgstat_begin_changecount_read()), a location loaded, a read barrier,
/// and the same location loaded again.
bool readsSection(const FunctionTrace &T) {
  bool Begin = false, Retry = false;
  DenseMap<int, int> Seen; // key -> 1 loaded, 2 loaded then a read barrier
  for (const CFGBlock *B : reversePostOrder(*T.Cfg))
    for (const Event &E : T.Blocks[B->getBlockID()].Events) {
      Begin |= E.Kind == EventKind::ReadBegin;
      Retry |= E.Kind == EventKind::ReadRetry;
      if (E.Kind == EventKind::Barrier && (E.Bits & OrdLL)) {
        for (auto &KV : Seen)
          KV.second = 2;
      } else if (E.Kind == EventKind::Load && E.Key >= 0 && !T.key(E.Key).isLocal()) {
        int &S = Seen[E.Key];
        if (S == 2)
          return true;
        S = std::max(S, 1);
      }
    }
  return Begin && Retry;
}

void AccessPlainSharedCheck::collect(const FunctionTrace &T) {
  const FunctionDecl *FD = T.FD;
  bool Main = inMainFile(FD);
  std::optional<FunctionAnalyses> Local;
  FunctionAnalyses &FA = analysesOf(T, Local);
  DenseSet<int> CounterKeys;
  const DenseSet<int> &AddressKeys = FA.addressKeys();
  for (int K : T.Counters) {
    CounterKeys.insert(K);
    if (Identity Id = identityOf(T.key(K)))
      Counters.insert(Id);
  }
  bool FnLocks = false, FnWriteStep = false;
  SmallVector<int, 4> LockKeys; // -1: a lock whose object is not known
  size_t FirstCandidate = Candidates.size();
  llvm::StringSet<> InSectionNames;
  SmallVector<MarkedStore, 4> MarkedHere;
  SmallVector<const Event *, 8> CandidateEvents; // from FirstCandidate on
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &E : BE.Events) {
      if (E.Kind == EventKind::Lock || E.Kind == EventKind::Unlock) {
        FnLocks = true;
        if (!is_contained(LockKeys, E.Key))
          LockKeys.push_back(E.Key);
      }
      // write_seqcount_invalidate(), latch switches: a one-shot write step
      // whose stores before it are part of the protocol (__d_drop).
      if (E.isWriteStep())
        FnWriteStep = true;
    }
  // The bits of its location a write event can change (core/ChangedBits.h);
  // a helper's parameters stand for the call's arguments.
  auto bitsOf = [&](const Event &E) {
    if (!E.Via)
      return changedBits(E.node(), FD, identityOf(T.key(E.Key)));
    return changedBits(E.node(), E.Via, identityOf(T.key(E.Key)),
                       dyn_cast_or_null<CallExpr>(E.S), FD);
  };
  std::optional<DenseSet<const VarDecl *>> Fresh;
  auto IsFresh = [&](const LocationKey &K) {
    if (K.Storage != LocationKey::Local || !K.Base)
      return false;
    if (!Fresh) {
      FreshFinder F(&FreshHelpers, 0, Model);
      F.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
      Fresh = std::move(F.Fresh);
    }
    return Fresh->count(K.Base) > 0;
  };

  // Does one of the function's own lock operations concern the object
  // of K? A lock on an object computed from other parameters (the root of
  // another structure: anon_vma_clone() locks the anon_vmas it walks from
  // `src`, then resets `dst->anon_vma`) says nothing about how K's object
  // is protected: the caller holds that lock, as for a function that takes
  // no lock at all. Globals, objects whose origin is not known, and a lock
  // handed in by pointer (`f(c, &lock)`: the caller names the lock that
  // guards the data) may be anything's lock.
  std::optional<ValueRoots> Roots;
  auto RootsOf = [&](const LocationKey &K,
                     SmallPtrSetImpl<const VarDecl *> &Out) {
    const VarDecl *B = K.Base;
    if (!B || B->hasGlobalStorage())
      return false;
    if (B->getDeclContext() != FD)
      return false; // a helper's variable, seen through
    if (!Roots)
      Roots.emplace(FD, *Ctx->Ctx);
    if (!Roots->roots(B, Out))
      return false;
    return llvm::none_of(
        Out, [](const VarDecl *V) { return V->hasGlobalStorage(); });
  };
  std::optional<SmallVector<SmallPtrSet<const VarDecl *, 4>, 2>> LockRoots;
  auto LockRelated = [&](const LocationKey &K) {
    if (!LockRoots) {
      LockRoots.emplace();
      for (int LK : LockKeys) {
        SmallPtrSet<const VarDecl *, 4> R;
        if (LK < 0 || handedInLock(T.key(LK)) || !RootsOf(T.key(LK), R)) {
          LockRoots->clear();
          LockRoots->emplace_back(); // unknown: related to everything
          break;
        }
        LockRoots->push_back(std::move(R));
      }
    }
    SmallPtrSet<const VarDecl *, 4> W;
    if (!RootsOf(K, W) || W.empty())
      return true;
    return llvm::any_of(
        *LockRoots, [&](const SmallPtrSet<const VarDecl *, 4> &R) {
          return R.empty() || llvm::any_of(W, [&](const VarDecl *V) {
                   return R.contains(V);
                 });
        });
  };

  // A read section split across functions (inet_getpeer() begins it,
  // lookup() validates it) is open in neither: its counter still has
  // readers here, and what they read is what this function reads outside
  // its locks and write sections.
  SmallVector<Identity, 2> SplitReaders, OpenedReaders;
  SmallVector<const Event *, 8> Unguarded;
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &E : BE.Events)
      if ((E.Kind == EventKind::ReadBegin ||
           E.Kind == EventKind::ReadRetry) &&
          E.Key >= 0)
        if (Identity Id = identityOf(T.key(E.Key)))
          if (!is_contained(SplitReaders, Id))
            SplitReaders.push_back(Id);
  FA.accessContexts([&](const Event &E, const AccessContext &C) {
    for (const auto &RS : C.ReadSections)
      if (Identity Id = identityOf(T.key(RS.first))) {
        noteReader(T, E, Id);
        if (!is_contained(OpenedReaders, Id))
          OpenedReaders.push_back(Id);
      }
    if (!SplitReaders.empty() && C.ReadSections.empty() && !C.MayLocked &&
        !C.MayInWriteSection)
      Unguarded.push_back(&E);
    if (E.Kind == EventKind::Call) {
      if (E.Callee)
        Calls[E.Callee->getCanonicalDecl()].push_back(
            {FD->getCanonicalDecl(), C.MayLocked || C.MayInWriteSection,
             false, dyn_cast_or_null<CallExpr>(E.S)});
      else if (const ParmVarDecl *P =
                   calledParam(dyn_cast_or_null<CallExpr>(E.S)))
        ParamCalls[{FD->getCanonicalDecl(), P->getFunctionScopeIndex()}]
            .push_back(C.MayLocked || C.MayInWriteSection);
      return;
    }
    if (E.Kind != EventKind::Load && E.Kind != EventKind::Store &&
        E.Kind != EventKind::RMW)
      return;
    if (E.Key < 0 || CounterKeys.count(E.Key) || AddressKeys.count(E.Key))
      return;
    const LocationKey &K = T.key(E.Key);
    if (K.isLocal())
      return;
    Identity Id = identityOf(K);
    if (!Id)
      return;
    std::string N = K.displayName();
    bool Write = E.Kind != EventKind::Load;
    // --- evidence (from the main file only: an inline helper of a shared
    // header says nothing about how this file's data is protected) ---
    if (Main) {
      if (E.Kind == EventKind::Load && C.ReadSections.empty() &&
          !C.MayLocked && !C.MayInWriteSection &&
          (E.Api || E.Ord != Order::Plain))
        LoneReads.insert(Id);
      if (E.Kind == EventKind::Load && !C.ReadSections.empty()) {
        const Event *Begin = C.ReadSections.front().second;
        SeqRead.add(
            Id, holderOf(K),
            Evidence{
                E.Loc, "read inside a seqcount read section in " + fnName(FD),
                "'" + N + "' is read inside the read section begun by " +
                    (Begin->ApiName.empty() ? std::string("the counter load")
                                            : spelling(*Begin)) +
                    " here"});
      }
      // A counter needs an identity: `(*seq)++` on a local pointer named
      // seq is not a seqcount (tcp_recvmsg_locked).
      // The counter must sit with the data: in the same object (tx->statss
      // and tx->bytes), or both global. A global seqlock used as a lock
      // around other objects' fields (rename_lock around dentry->d_flags)
      // does not make those fields its data.
      auto SameHome = [&](int Counter) {
        const LocationKey &CK = T.key(Counter);
        if (!identityOf(CK))
          return false;
        if (CK.Base && CK.Base == K.Base)
          return true;
        return CK.Storage == LocationKey::Global && !CK.ViaPointer &&
               K.Storage == LocationKey::Global && !K.ViaPointer;
      };
      if (Write && C.MayInWriteSection)
        InSectionNames.insert(N);
      if (Write && C.MayInWriteSection && SameHome(C.WriteSections.front())) {
        int Counter = C.WriteSections.front();
        if (std::optional<uint64_t> B = bitsOf(E))
          SectionBits[Id] |= *B;
        else
          SectionAnyBit.insert(Id);
        std::string CN = T.key(Counter).displayName();
        SeqWritten.add(
            Id, holderOf(K),
            Evidence{E.Loc,
                     "written inside write sections of '" + CN + "' in " +
                         fnName(FD),
                     "'" + N + "' is written inside a write section of '" +
                         CN + "' here",
                     identityOf(T.key(Counter))});
        // u64_stats: the other 64-bit fields of the same structure belong
        // to the same statistics.
        const auto *CF = dyn_cast_or_null<FieldDecl>(T.key(Counter).Field);
        const auto *DF = dyn_cast<FieldDecl>(Id);
        if (CF && DF && CF->getParent() == DF->getParent() &&
            isStatsSyncTypeSpelling(CF->getType().getAsString()))
          StatsRecords.try_emplace(
              DF->getParent(),
              Evidence{
                  E.Loc,
                  "other statistics of the structure are updated inside "
                  "u64_stats_update_begin(&" +
                      CN + ") sections, in " + fnName(FD),
                  "'" + N +
                      "' is updated inside a u64_stats write section of '" +
                      CN + "' here"});
      }
      if (Write && E.Ord != Order::Plain && !isRcuAccessorName(E.ApiName)) {
        MarkedIn[Id].insert(FD->getCanonicalDecl());
        MarkedHere.push_back({Id, holderOf(K), &E});
        std::string How =
            E.ApiName.empty() ? std::string("an atomic store") : spelling(E);
        Marked.add(Id, holderOf(K),
                   Evidence{E.Loc, "written with " + How + " in " + fnName(FD),
                            "'" + N + "' is written with " + How + " here"});
      }
    }
    // --- candidates ---
    // Inside a read section a store is seqcount-read-side-effect's finding.
    if (!Write || !Main || C.MayInWriteSection || C.MayLocked ||
        !C.ReadSections.empty() || FnWriteStep)
      return;
    bool Plain = E.Ord == Order::Plain && !E.Api;
    bool Relaxed =
        !Plain && E.Ord != Order::Plain && !isRcuAccessorName(E.ApiName);
    if (!Plain && !Relaxed)
      return;
    if (K.ViaPointer && IsFresh(K))
      return;
    if (E.S && insideDataRace(E.S->getBeginLoc(), Ctx->Ctx->getSourceManager(),
                              Ctx->Ctx->getLangOpts()))
      return;
    Candidates.push_back(
        {Id, FD, E.Loc, N, E.Kind == EventKind::RMW, !Plain,
         FnLocks && LockRelated(K), bitsOf(E),
         K.ViaPointer && K.Storage == LocationKey::Local && !E.Via ? K.Base
                                                                   : nullptr,
         holderOf(K)});
    CandidateEvents.push_back(&E);
  });
  for (Identity Counter : SplitReaders)
    if (!is_contained(OpenedReaders, Counter))
      for (const Event *E : Unguarded)
        noteReader(T, *E, Counter);
  // A function that marks a store of the location itself knows it is read
  // concurrently here: whatever it locks, a plain store races with those
  // readers.
  if (FnLocks)
    for (size_t I = FirstCandidate; I < Candidates.size(); ++I)
      if (!Candidates[I].FnLocks &&
          llvm::any_of(MarkedHere, [&](const MarkedStore &M) {
            return M.Id == Candidates[I].Id;
          }))
        Candidates[I].FnLocks = true;
  // MarkedApart only qualifies marked-store evidence, which report() uses
  // for a function that locks.
  if (FnLocks)
    markApart(T, FirstCandidate, CandidateEvents, MarkedHere);
  // A latch: this function writes one copy (d[1].x) outside its section and
  // the other (d[0].x) inside it; readers pick the copy by the count.
  auto Copyless = [](StringRef Name) {
    std::string Out;
    for (size_t I = 0; I < Name.size(); ++I) {
      Out += Name[I];
      if (Name[I] == '[')
        while (I + 1 < Name.size() && isdigit((unsigned char)Name[I + 1]))
          ++I;
    }
    return Out;
  };
  llvm::StringSet<> InSectionCopies;
  for (const auto &N : InSectionNames)
    InSectionCopies.insert(Copyless(N.getKey()));
  Candidates.erase(
      std::remove_if(Candidates.begin() + FirstCandidate, Candidates.end(),
                     [&](const Candidate &C) {
                       return !InSectionNames.count(C.Name) &&
                              InSectionCopies.count(Copyless(C.Name)) &&
                              Copyless(C.Name) != C.Name;
                     }),
      Candidates.end());
}

void AccessPlainSharedCheck::markApart(const FunctionTrace &T, size_t First,
                                       ArrayRef<const Event *> Events,
                                       ArrayRef<MarkedStore> MarkedHere) {
  if (First == Candidates.size() || MarkedHere.empty() || !T.Cfg)
    return;
  DenseMap<const Event *, const CFGBlock *> BlockOf;
  for (const CFGBlock *B : *T.Cfg)
    for (const Event &E : T.Blocks[B->getBlockID()].Events)
      BlockOf[&E] = B;
  std::optional<CFGReverseBlockReachabilityAnalysis> Reach;
  // Is there a path from one event to the other, either way?
  auto Meet = [&](const Event *A, const Event *B) {
    const CFGBlock *BA = BlockOf.lookup(A), *BB = BlockOf.lookup(B);
    if (!BA || !BB || BA == BB)
      return true;
    if (!Reach)
      Reach.emplace(*T.Cfg);
    return Reach->isReachable(BA, BB) || Reach->isReachable(BB, BA);
  };
  for (size_t I = First; I != Candidates.size(); ++I) {
    Candidate &C = Candidates[I];
    bool Any = false, Apart = true;
    for (const MarkedStore &M : MarkedHere) {
      if (M.Id != C.Id || (M.Holder && C.Holder && M.Holder != C.Holder))
        continue;
      Any = true;
      if (Meet(M.E, Events[I - First])) {
        Apart = false;
        break;
      }
    }
    C.MarkedApart = Any && Apart;
  }
}

bool AccessPlainSharedCheck::excludedFunction(const FunctionDecl *FD) const {
  if (FD->getIdentifier() && isLifecycleName(FD->getName()))
    return true;
  for (const FunctionDecl *R : FD->redecls())
    if (const auto *SA = R->getAttr<SectionAttr>()) {
      StringRef S = SA->getName();
      if (isInitOrExitSection(S))
        return true;
    }
  return false;
}

/// A static function whose every call site in the TU holds a lock or a
/// write section (or is in such a function), and whose address is not
/// taken. `_locked`/`_nolock` names say the caller holds the lock.
bool AccessPlainSharedCheck::protectedByCallers(const FunctionDecl *FD) {
  FD = FD->getCanonicalDecl();
  if (FD->getIdentifier()) {
    if (isCallerLockedName(FD->getName()))
      return true;
  }
  auto [It, New] = ProtectedMemo.try_emplace(FD, 0);
  if (!New)
    return It->second == 2;
  bool Result = false;
  auto CI = Calls.find(FD);
  bool Direct = CI != Calls.end() && !CI->second.empty();
  // A callback is called where its address went: every call through the
  // parameter it was handed to must hold a lock (d_walk()'s enter()).
  if (!FD->isExternallyVisible() &&
      (Escaped.count(FD) ? protectedAsCallback(FD) : Direct)) {
    Result = true;
    if (Direct)
      for (const CallSite &CS : CI->second)
        if (!CS.Protected &&
            !(CS.Caller != FD && protectedByCallers(CS.Caller))) {
          Result = false;
          break;
        }
  }
  ProtectedMemo[FD] = Result ? 2 : 1;
  return Result;
}

bool AccessPlainSharedCheck::protectedAsCallback(const FunctionDecl *FD) {
  auto It = CallbackUses.find(FD);
  if (EscapedElsewhere.count(FD) || It == CallbackUses.end())
    return false;
  for (const ParamRef &R : It->second) {
    // The function it is handed to must be here, and must only call the
    // parameter: kept or handed on, it may be called anywhere.
    const FunctionDecl *Def = nullptr;
    auto PC = ParamCalls.find(R);
    if (!R.first->hasBody(Def) || ParamKept.count(R) ||
        PC == ParamCalls.end() || PC->second.empty())
      return false;
    for (bool Protected : PC->second)
      if (!Protected)
        return false;
  }
  return !It->second.empty();
}

FreshFinder AccessPlainSharedCheck::freshIn(const FunctionDecl *Def,
                                            unsigned Level) {
  FreshFinder F(&FreshHelpers, 0, Model);
  for (const ParmVarDecl *P : Def->parameters())
    if (freshParam(P, Level + 1))
      F.Fresh.insert(P);
  F.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
  return F;
}

bool AccessPlainSharedCheck::freshParam(const ParmVarDecl *P, unsigned Level) {
  if (Level > 3 || !P->getType()->isPointerType())
    return false;
  auto [It, New] = FreshParams.try_emplace(P, 0);
  if (!New)
    return It->second == 2; // known, or being looked at (a cycle: no)
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  bool Result = false;
  auto CI = FD ? Calls.find(FD->getCanonicalDecl()) : Calls.end();
  if (FD && !FD->isExternallyVisible() &&
      !Escaped.count(FD->getCanonicalDecl()) && CI != Calls.end() &&
      !CI->second.empty()) {
    Result = true;
    unsigned I = P->getFunctionScopeIndex();
    // Calls may grow while callers are looked at: iterate over a copy.
    SmallVector<CallSite, 2> Sites(CI->second.begin(), CI->second.end());
    for (const CallSite &CS : Sites) {
      const FunctionDecl *Def = nullptr;
      if (!CS.Call || I >= CS.Call->getNumArgs() || !CS.Caller->hasBody(Def) ||
          !freshIn(Def, Level).isFreshCopy(CS.Call->getArg(I))) {
        Result = false;
        break;
      }
    }
  }
  FreshParams[P] = Result ? 2 : 1;
  return Result;
}

bool AccessPlainSharedCheck::freshThroughCallers(const Candidate &C) {
  const FunctionDecl *Def = nullptr;
  if (!C.Base || !C.FD->hasBody(Def) || Def->getNumParams() == 0)
    return false;
  return freshIn(Def, 0).Fresh.count(C.Base) > 0;
}

/// The AST walk after the TU: which functions take the address of which,
/// the call sites in functions without a trace, and which of those write
/// the shared set plainly.
class TuWalker : public RecursiveASTVisitor<TuWalker> {
public:
  TuWalker(const DenseSet<const FunctionDecl *> &Traced,
           function_ref<bool(Identity)> Interesting, const SourceManager &SM)
      : Traced(Traced), Interesting(Interesting), SM(SM) {}

  DenseSet<const FunctionDecl *> Escaped, Locking;
  // Addresses handed to a call, other escapes, parameters kept.
  DenseMap<const FunctionDecl *,
           SmallVector<std::pair<const FunctionDecl *, unsigned>, 2>>
      CallbackUses;
  DenseSet<const FunctionDecl *> EscapedElsewhere;
  DenseSet<std::pair<const FunctionDecl *, unsigned>> ParamKept;
  // Calls through a parameter in functions without a trace.
  MapVector<const FunctionDecl *, SmallVector<unsigned, 2>> UntracedParamCalls;
  // Walked in the order the functions were met: the candidates (and the
  // evidence kept first) follow it, so the findings must not depend on
  // pointer values.
  SetVector<const FunctionDecl *> NeedTrace;
  MapVector<const FunctionDecl *,
            SmallVector<std::pair<const FunctionDecl *, const CallExpr *>, 2>>
      UntracedCalls;

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Cur;
    bool SavedLocks = CurLocks;
    Cur = FD->doesThisDeclarationHaveABody() ? FD : nullptr;
    CurUntraced = Cur && !Traced.count(FD->getCanonicalDecl()) &&
                  SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()));
    CurLocks = false;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    if (Cur && CurLocks)
      Locking.insert(Cur); // takes a lock by a name we do not model: its
                           // call sites count as protected
    Cur = Saved;
    CurLocks = SavedLocks;
    CurUntraced = Cur && !Traced.count(Cur->getCanonicalDecl()) &&
                  SM.isInMainFile(SM.getExpansionLoc(Cur->getLocation()));
    return R;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (const DeclRefExpr *DR = calleeRef(CE))
      CalleeRefs.insert(DR);
    if (const ParmVarDecl *P = calledParam(CE))
      if (Cur && !Traced.count(Cur->getCanonicalDecl()))
        UntracedParamCalls[Cur].push_back(P->getFunctionScopeIndex());
    const FunctionDecl *F = calleeOf(CE);
    if (F && F == CE->getDirectCallee())
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        const DeclRefExpr *Ref = nullptr;
        if (const FunctionDecl *Fn = functionArg(CE->getArg(I), &Ref)) {
          CallbackRefs.insert(Ref);
          CallbackUses[Fn->getCanonicalDecl()].push_back(
              {F->getCanonicalDecl(), I});
        }
      }
    if (!F || !Cur)
      return true;
    StringRef N = F->getIdentifier() ? F->getName() : StringRef();
    if (mentionsLock(N))
      CurLocks = true;
    if (Cur && !Traced.count(Cur->getCanonicalDecl()))
      UntracedCalls[Cur].push_back({F->getCanonicalDecl(), CE});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (CalleeRefs.count(DR))
      return true;
    if (const auto *F = dyn_cast<FunctionDecl>(DR->getDecl())) {
      Escaped.insert(F->getCanonicalDecl());
      if (!CallbackRefs.count(DR))
        EscapedElsewhere.insert(F->getCanonicalDecl());
    } else if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl())) {
      const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
      if (Owner && P->getType()->isFunctionPointerType())
        ParamKept.insert(
            {Owner->getCanonicalDecl(), P->getFunctionScopeIndex()});
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (CurUntraced && BO->isAssignmentOp())
      noteWrite(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (CurUntraced && U->isIncrementDecrementOp())
      noteWrite(U->getSubExpr());
    return true;
  }

private:
  void noteWrite(const Expr *LHS) {
    if (Identity Id = lvalueIdentity(LHS))
      if (Interesting(Id))
        NeedTrace.insert(Cur);
  }
  const DenseSet<const FunctionDecl *> &Traced;
  function_ref<bool(Identity)> Interesting;
  const SourceManager &SM;
  const FunctionDecl *Cur = nullptr;
  bool CurUntraced = false, CurLocks = false;
  DenseSet<const DeclRefExpr *> CalleeRefs, CallbackRefs;
};

void AccessPlainSharedCheck::translationUnitDone(Classifier &Cl) {
  Model = &Cl.model();
  if (Marked.empty() && SeqWritten.empty() && SeqRead.empty())
    return; // nothing is shared in this TU: no walk
  ASTContext &AC = *Ctx->Ctx;
  auto Interesting = [this](Identity Id) { return interesting(Id); };
  TuWalker W(Traced, Interesting, AC.getSourceManager());
  W.TraverseDecl(AC.getTranslationUnitDecl());
  Escaped = std::move(W.Escaped);
  EscapedElsewhere = std::move(W.EscapedElsewhere);
  CallbackUses = std::move(W.CallbackUses);
  ParamKept = std::move(W.ParamKept);
  for (auto &[Caller, Params] : W.UntracedParamCalls) {
    if (W.NeedTrace.count(Caller))
      continue; // classified below, with its locks
    for (unsigned I : Params)
      ParamCalls[{Caller->getCanonicalDecl(), I}].push_back(
          W.Locking.count(Caller) > 0);
  }
  for (auto &[Caller, Callees] : W.UntracedCalls) {
    if (W.NeedTrace.count(Caller))
      continue; // classified below, with its locks
    for (const auto &[Callee, Call] : Callees)
      Calls[Callee].push_back(
          {Caller->getCanonicalDecl(), W.Locking.count(Caller) > 0, true,
           Call});
  }
  for (const FunctionDecl *FD : W.NeedTrace)
    if (std::shared_ptr<const FunctionTrace> T = Cl.classify(FD))
      collect(*T);
  if (!Candidates.empty()) {
    findSnapshots(Cl);
    collectReaderHelperNames();
  }

  // A helper seen through at its calls stores as part of each caller (the
  // callers are in MarkedIn for it); its own body is no other function.
  for (auto &Fns : MarkedIn)
    Fns.second.remove_if(
        [&](const FunctionDecl *F) { return Cl.seenThrough(F); });
  DenseSet<SourceLocation> Done;
  for (const Candidate &C : Candidates) {
    if (!Done.insert(C.Loc).second)
      continue;
    if (Counters.count(C.Id) || excludedFunction(C.FD) ||
        protectedByCallers(C.FD) || inSnapshot(C))
      continue;
    // A helper seen through at its calls: its stores are judged there, in
    // each caller's sections and locks.
    if (Cl.seenThrough(C.FD))
      continue;
    if (freshThroughCallers(C))
      continue;
    report(C);
  }
}

// PostgreSQL's pgstat_copy_changecounted_stats(&pgStatLocal.snapshot.x,
// &shmem->x, ...): the first object is this backend's copy, filled by a
// read section; its fields share names with the shared statistics only.
void AccessPlainSharedCheck::findSnapshots(Classifier &Cl) {
  struct CallFinder : RecursiveASTVisitor<CallFinder> {
    struct Target {
      const FunctionDecl *Callee;
      std::string Path;                     // g.a.b, or ...
      const FunctionDecl *In = nullptr;     // ... the local pointer of In
    };
    std::vector<Target> Targets;
    const FunctionDecl *Current = nullptr;
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee || !Callee->hasBody())
        return true;
      for (const Expr *A : CE->arguments()) {
        if (std::string P = directObjectPath(A); !P.empty()) {
          Targets.push_back({Callee, P});
          continue;
        }
        // A local pointer initialized with such an address.
        const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
        const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
        if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
            !directObjectPath(V->getInit()).empty())
          Targets.push_back({Callee, V->getName().str(), Current});
      }
      return true;
    }
  } F;
  const SourceManager &SM = Ctx->Ctx->getSourceManager();
  for (const Decl *D : Ctx->Ctx->getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      if (FD->doesThisDeclarationHaveABody() &&
          SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()))) {
        F.Current = FD;
        F.TraverseStmt(FD->getBody());
      }
  DenseMap<const FunctionDecl *, bool> Reads;
  for (const auto &Target : F.Targets) {
    auto [It, New] = Reads.try_emplace(Target.Callee, false);
    if (New)
      if (std::shared_ptr<const FunctionTrace> T = Cl.classify(Target.Callee))
        It->second = readsSection(*T);
    if (!It->second)
      continue;
    if (Target.In)
      LocalSnapshots.insert({Target.In, Target.Path});
    else
      Snapshots.insert(Target.Path);
  }
}

void AccessPlainSharedCheck::noteReader(const FunctionTrace &T,
                                        const Event &E, Identity Counter) {
  bool &Opaque = ReadCounters.try_emplace(Counter, false).first->second;
  if (E.Kind == EventKind::Load && E.Key >= 0) {
    if (Identity Id = identityOf(T.key(E.Key)))
      ReaderLoads.insert(Id);
  } else if (E.Kind == EventKind::Call) {
    const FunctionDecl *Def = nullptr;
    const auto *CE = dyn_cast_or_null<CallExpr>(E.S);
    if (E.Callee && E.Callee->hasBody(Def)) {
      ReaderHelpers.insert(Def);
    } else if (!CE || !E.Callee) {
      Opaque = true;
    } else {
      // An unseen callee handed a pointer may read anything through it.
      for (const Expr *A : CE->arguments())
        if (A->getType()->isPointerType() || A->getType()->isArrayType())
          Opaque = true;
    }
  }
}

void AccessPlainSharedCheck::collectReaderHelperNames() {
  // The helpers a read section calls, and theirs, three calls deep: every
  // field and global they name counts as read by the readers.
  struct Names : RecursiveASTVisitor<Names> {
    DenseSet<Identity> &Out;
    SmallVector<const FunctionDecl *, 4> Callees;
    explicit Names(DenseSet<Identity> &Out) : Out(Out) {}
    bool VisitMemberExpr(MemberExpr *ME) {
      Out.insert(ME->getMemberDecl());
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        if (VD->hasGlobalStorage())
          Out.insert(VD);
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Def = nullptr;
      if (const FunctionDecl *F = CE->getDirectCallee())
        if (F->hasBody(Def))
          Callees.push_back(Def);
      return true;
    }
  };
  // Breadth first, so that a helper is walked at the shallowest depth it
  // is called from, and its own callees within the bound.
  DenseSet<const FunctionDecl *> Seen;
  SmallVector<std::pair<const FunctionDecl *, unsigned>, 8> Work;
  for (const FunctionDecl *F : ReaderHelpers)
    if (Seen.insert(F).second)
      Work.push_back({F, 0});
  for (size_t I = 0; I != Work.size(); ++I) {
    auto [F, Depth] = Work[I];
    Names N(ReaderHelperNames);
    N.TraverseStmt(const_cast<Stmt *>(F->getBody()));
    if (Depth < 3)
      for (const FunctionDecl *G : N.Callees)
        if (Seen.insert(G).second)
          Work.push_back({G, Depth + 1});
  }
}

void AccessPlainSharedCheck::report(const Candidate &C) {
  std::string What = C.Marked ? "store to"
                     : C.RMW  ? "plain read-modify-write of"
                              : "plain store to";
  const Evidence *Ev = nullptr;
  std::string Msg;
  if (C.Marked) {
    // A marked store is fine for the LKMM; for a seqcount's data it still
    // has to be inside a write section, or readers validate a torn snapshot.
    const Evidence *Written = SeqWritten.find(C.Id, C.Holder);
    if (!Written || disjointFromSections(C))
      return;
    // Readers read it on its own with a marked load, and never inside a
    // read section: a lockless variable of its own that a write section
    // happens to contain, not data whose snapshot the count validates
    // (ck_ht's entry count next to its deletion version).
    if (LoneReads.count(C.Id) && !SeqRead.find(C.Id, C.Holder))
      return;
    Ev = Written;
    Msg =
        What + " '" + C.Name + "' outside a write section, but it is " +
        Ev->How +
        ": a reader can see this store with an unchanged even count and use a "
        "half-updated snapshot; make the store inside the write section (odd "
        "count before, even count after)";
  } else if (const Evidence *M = C.FnLocks && !onlyMarkedApart(C)
                                     ? Marked.find(C.Id, C.Holder)
                                     : nullptr) {
    // Only in a function that does its own locking: a helper without any
    // lock operation is, on the kernel, nearly always called with the lock
    // held by a caller the TU cannot show ("d_lock must be held").
    Ev = M;
    Msg = What + " '" + C.Name + "' outside any lock, but it is " + Ev->How +
          ", so it is accessed concurrently: this is a data race; use "
          "WRITE_ONCE() (or an atomic), take the lock that protects it, or "
          "mark an "
          "intended race with data_race()";
  } else if (const Evidence *W = SeqWritten.find(C.Id, C.Holder)) {
    // Bits the sections never change cannot tear what they publish.
    if (disjointFromSections(C) || writerOnlyData(C, *W))
      return;
    Ev = W;
    Msg = What + " '" + C.Name + "' outside any write section, but it is " +
          Ev->How +
          ": readers validated by that count can see a torn or half-updated "
          "value; "
          "move the update inside a write section";
  } else if (const Evidence *R = ReportReadOnlyEvidence
                                     ? SeqRead.find(C.Id, C.Holder)
                                     : nullptr) {
    Ev = R;
    Msg = What + " '" + C.Name +
          "' outside any lock or write section, but it is " + Ev->How +
          ": the reader's retry cannot see this change; make the update "
          "inside a write section";
  } else if ((Ev = statsSibling(C.Id))) {
    Msg = What + " '" + C.Name +
          "' outside a u64_stats write section, but the " + Ev->How +
          ": a 32-bit reader can see this 64-bit counter torn; wrap the "
          "update in u64_stats_update_begin()/u64_stats_update_end()";
  } else {
    return;
  }
  Finding F = make(C.Loc, Msg);
  F.Notes.push_back({Ev->Loc, Ev->Note});
  emit(F);
}

} // namespace

std::unique_ptr<Check> createAccessPlainSharedCheck() {
  return std::make_unique<AccessPlainSharedCheck>();
}

} // namespace seqlint
