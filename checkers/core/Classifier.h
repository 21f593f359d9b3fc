//===- Classifier.h - from a function body to an event trace --------------===//
//
// Builds the function's clang::CFG and turns every element into events
// (Events.h). Known macro instances (MacroIndex) become one event each,
// anchored at the instance's outermost node; nodes inside an instance emit
// nothing, so the trace is the same whatever the macro expands to.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_CLASSIFIER_H
#define SEQLINT_CORE_CLASSIFIER_H

#include "core/Dataflow.h" // reversePostOrder()
#include "core/Events.h"
#include "core/MacroIndex.h"
#include "core/Provenance.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include <functional>
#include <memory>
#include <optional>

namespace clang {
class ASTContext;
class ParentMap;
} // namespace clang

namespace seqlint {

/// The event trace of one function plus what the checks need to know
/// about its local variables and open-coded counters.
struct FunctionTrace {
  FunctionTrace();
  ~FunctionTrace();
  const clang::FunctionDecl *FD = nullptr;
  std::unique_ptr<clang::CFG> Cfg;
  std::vector<BlockEvents> Blocks; // indexed by CFGBlock::getBlockID()
  std::vector<LocationKey> Keys;
  llvm::StringMap<int> KeyIndex;
  /// Keys used as seqcount counters in this function (API or open-coded).
  llvm::DenseSet<int> Counters;
  /// Counters whose sections are open-coded: key -> begin variables.
  llvm::DenseMap<int, llvm::SmallVector<const clang::VarDecl *, 2>> OpenReaders;
  /// Local variable -> the key whose loaded value it holds.
  llvm::DenseMap<const clang::VarDecl *, int> VarSource;
  /// Local -> the count whose `(x + 1) & 1` it holds: the step that makes
  /// an even count odd and leaves a re-entered (odd) one alone, x_tables'
  /// xt_write_recseq_begin().
  llvm::DenseMap<const clang::VarDecl *, int> ParityStepOf;
  /// Local variables whose value leaves local arithmetic (returned,
  /// passed, stored, compared with a non-constant, address taken).
  llvm::DenseSet<const clang::VarDecl *> EscapingVars;
  /// Variables or keys whose low bit is tested or masked.
  llvm::DenseSet<const clang::VarDecl *> OddCheckedVars;
  llvm::DenseSet<int> OddCheckedKeys;
  /// Locations this function uses like a counter without the evidence to
  /// call it one (increments that bracket stores, or a load compared with
  /// an earlier one), for corroboration by other translation units.
  llvm::DenseSet<int> CounterCandidates;
  /// Counters whose writer brackets its section with compiler barriers
  /// only (`++pg->lock; barrier(); ... barrier(); ++pg->lock;`): the
  /// readers run on the writer's CPU, and barrier() is the ordering meant.
  llvm::DenseSet<int> CompilerOrderedCounters;
  /// Variables tested for a value of their own protocol (`if (!seq)`,
  /// `seq == INVALID`): Hyper-V's TSC page marks an update with 0, not odd.
  llvm::DenseSet<const clang::VarDecl *> ValueTestedVars;
  /// Parents of the body's statements (for fix-its and contexts).
  std::unique_ptr<clang::ParentMap> PM;

  const LocationKey &key(int I) const { return Keys[I]; }
};

/// What a TU function does, seen from its callers.
struct FunctionSummary {
  bool Computing = false;
  bool Done = false;
  bool WritesGlobal = false;   // stores to global variables (directly or in callees)
  bool MayOrder = false;       // barrier, lock, ordered RMW or unknown call
  bool MustOrder = false;      // ... on every path from its entry to its exit
  unsigned WritesParams = 0;   // bit i: stores through parameter i
  bool SideEffect = false;     // logs, allocates, frees, sleeps (directly or in callees)
};

/// What a helper does to sections, locks and ordering, seen from its
/// callers: the events that run on every path through it, in order, with
/// their locations still in the helper's terms (its parameters). A caller
/// splices them in at the call, with its arguments for the parameters.
struct HelperEffect {
  bool Computing = false;
  bool Done = false;
  bool Usable = false;
  bool GetterOnly = false; // only returns a marked load (READ_ONCE getter)
  int Level = -1;          // the driver's filter, once computed
  std::vector<Event> Events;     // Key indexes Keys
  std::vector<LocationKey> Keys; // the helper's keys the events use
  llvm::DenseSet<int> OddCheckedKeys;
  /// The value the helper returns is a load (or a begin) of Events: which
  /// local holds it, and whether the return masks or tests its low bit.
  const clang::VarDecl *ReturnVar = nullptr;
  bool ReturnMasked = false;
  bool ReturnOddChecked = false;
  /// The returned count is a sequence begin: masked, tested or acquired,
  /// and ordered before what follows (acquire, or a read barrier after it).
  bool BeginHelper = false;
  /// The helper returns the parity step of Keys[ReturnParityKey].
  int ReturnParityKey = -1;
  /// Local -> the parameter it is compared with (return t != start).
  llvm::DenseMap<const clang::VarDecl *, const clang::ParmVarDecl *> ComparedWithParam;
  /// Locals and loads compared with `==` (the helper answers "unchanged").
  llvm::DenseSet<const clang::VarDecl *> ComparedEqual;
  bool LoadComparedEqual = false;
  /// Parameters whose low bit the helper tests, or that it tests against a
  /// constant (an end helper that refuses an odd begin value:
  /// `if (before & 1) return false;`): the caller's argument is checked.
  llvm::SmallVector<const clang::ParmVarDecl *, 2> OddCheckedParams;
  llvm::SmallVector<const clang::ParmVarDecl *, 2> ValueTestedParams;
};

/// T's keys whose loads only compute a counter's address (`s` in `s->seq`,
/// `t->gen` in `t->gen[b]`): not data of a section.
llvm::DenseSet<int> counterAddressKeys(const FunctionTrace &T);

/// Begins a retry validates: {counter key, the variable that holds the
/// begin's value}.
using ValidatedBegins = llvm::DenseSet<std::pair<int, const clang::VarDecl *>>;
/// The begins the retries of T validate (a retry names its begin's variable).
ValidatedBegins validatedBegins(const FunctionTrace &T);

/// The declared type of the object K designates: the field's type, else the
/// base variable's (its pointee for `*(p)`).
clang::QualType declaredTypeOf(const LocationKey &K);
/// The type of what K accesses: declaredTypeOf(), with one element or
/// pointee level taken off for a subscripted key (`gen[]`).
clang::QualType accessedTypeOf(const LocationKey &K);

class Classifier {
public:
  Classifier(clang::ASTContext &Ctx, const MacroIndex &Index,
             const ApiModel &Model)
      : Ctx(Ctx), Index(Index), Model(Model) {}

  /// Trace of FD's body, or null if it has none or the CFG cannot be built.
  /// Kept for the TU: a function is asked for as itself, as a helper, for
  /// its summary and by checks that look into callees, and is classified
  /// again only when what its classification depended on has changed (a
  /// location of it became a known counter) or was not final (a helper
  /// refused by recursion or depth).
  std::shared_ptr<const FunctionTrace> classify(const clang::FunctionDecl *FD);

  /// Summary of a function defined in the TU (computed on first use).
  const FunctionSummary &summary(const clang::FunctionDecl *FD);

  /// True if a call event has effects a read section must not repeat.
  bool callHasSideEffects(const FunctionTrace &T, const Event &E,
                          int CounterKey);

  /// The effect of calling FD, when FD is a helper of the TU with
  /// something seqlint knows on every path through it and no complete
  /// section or critical section of its own; null otherwise. Helpers of
  /// helpers are seen through too, to a bounded depth.
  /// With Getters, a helper that only returns a marked load counts too
  /// (asked when a function being analysed calls it).
  const HelperEffect *helperEffect(const clang::FunctionDecl *FD, bool Getters = false);
  /// FD's effect was spliced into some caller the TU analysed: what it does
  /// is judged at those calls.
  bool seenThrough(const clang::FunctionDecl *FD) const {
    return FD && SeenThrough.count(FD->getCanonicalDecl());
  }
  void noteSeenThrough(const clang::FunctionDecl *FD) {
    SeenThrough.insert(FD->getCanonicalDecl());
  }
  /// Which functions may be seen through at all (the driver's choice: user
  /// code with something seqlint knows: 2; marked accesses only, worth a
  /// look from an analysed caller: 1; no: 0); none if unset.
  void setHelperFilter(std::function<int(const clang::FunctionDecl *)> F) {
    HelperFilter = std::move(F);
  }

  const MacroIndex &macros() const { return Index; }
  const ApiModel &model() const { return Model; }
  clang::ASTContext &context() { return Ctx; }
  /// Where the TU's memory shared with another process or a device comes
  /// from (core/Provenance.h; computed once, on first use).
  const SharedMemory &sharedMemory() {
    if (!Shared)
      Shared = std::make_unique<SharedMemory>(Ctx, Model);
    return *Shared;
  }

  /// Corroboration across the functions of the TU: the fields (or global
  /// variables) that some function uses as a seqcount counter, by API or by
  /// protocol. Another function's open-coded writer or reader of the same
  /// location needs no evidence of its own (the writer that forgot its
  /// barrier, the reader that forgot its smp_rmb()).
  void noteCounters(const FunctionTrace &T);
  bool isKnownCounter(const LocationKey &K) const;
  /// K is a generation number, not a seqcount: the TU bumps it, yet no
  /// function tests or masks its low bit and no increment of it is ordered
  /// after the stores before it (a closing step). Readers compare it and
  /// writers bump it once per update (Concurrency Kit's hash sets): it is
  /// never "odd inside a section".
  bool isGenerationCounter(const LocationKey &K) const;
  /// A counter some writer of the TU orders with compiler barriers only
  /// (FunctionTrace::CompilerOrderedCounters): its readers run on the
  /// writer's CPU, where barrier() orders and an odd count is never seen.
  bool isCompilerOrderedCounter(const LocationKey &K) const;
  /// K is no seqcount, whatever its increments look like:
  ///  - a message tag: some function of the TU keeps the value of an
  ///    increment of it in a local (`seq = ++sc->fw_seq`) and compares that
  ///    local with another value it loads (the reply that echoes the
  ///    request's number: bnx2x's firmware mailbox). A seqcount writer
  ///    never checks its new count against anything but its parity. (A
  ///    value copied elsewhere is no sign: pvclock's writer copies its
  ///    version into the guest's copy.)
  ///  - a count of things: some function steps it down (`list->cnt--`,
  ///    bnx2x's ECORE_LIST_REMOVE_ENTRY()); a sequence only goes up.
  /// Computed on first use, for the TU.
  bool isNotSequence(const LocationKey &K);
  /// T has a location that the TU knows as a counter and T does not treat
  /// as one: classifying it again may recognize more.
  bool mayRecognizeMore(const FunctionTrace &T) const;
  /// FD's body names a field or global that the TU knows as a counter.
  bool referencesKnownCounter(const clang::FunctionDecl *FD) const;

  /// Across translation units (the runner's second round): D is a counter
  /// in another TU of the program; Parity: its low bit is tested there.
  void addExternalCounter(const clang::ValueDecl *D, bool Parity);
  /// What this TU tells the others: its counters, and the locations it
  /// uses like one without the evidence (see FunctionTrace).
  const llvm::DenseSet<const clang::ValueDecl *> &knownCounters() const {
    return KnownCounters;
  }
  bool hasParity(const clang::ValueDecl *D) const { return ParityCounters.count(D); }
  const llvm::DenseSet<const clang::ValueDecl *> &counterCandidates() const {
    return CandidateCounters;
  }

private:
  std::unique_ptr<SharedMemory> Shared;
  /// How many of T's locations the TU knows as counters now.
  unsigned knownCounterKeys(const FunctionTrace &T) const;
  struct CachedTrace {
    std::shared_ptr<const FunctionTrace> Trace;
    unsigned KnownKeys = 0;
  };
  llvm::DenseMap<const clang::FunctionDecl *, CachedTrace> Traces;
  /// Helper lookups answered "not now" (recursion, depth bound): a trace
  /// classified while one happened is not kept.
  unsigned Refusals = 0;
  llvm::DenseSet<const clang::ValueDecl *> KnownCounters;
  std::optional<llvm::DenseSet<const clang::ValueDecl *>> NotSequences;
  llvm::DenseSet<const clang::ValueDecl *> ParityCounters;
  llvm::DenseSet<const clang::ValueDecl *> BumpedCounters;
  llvm::DenseSet<const clang::ValueDecl *> CompilerOrdered;
  llvm::DenseSet<const clang::ValueDecl *> CandidateCounters;
  clang::ASTContext &Ctx;
  const MacroIndex &Index;
  const ApiModel &Model;
  llvm::DenseMap<const clang::FunctionDecl *, FunctionSummary> Summaries;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<HelperEffect>> Helpers;
  std::function<int(const clang::FunctionDecl *)> HelperFilter;
  unsigned HelperDepth = 0;
  llvm::DenseSet<const clang::FunctionDecl *> SeenThrough;

public:
  /// The arguments of a macro instance under a root node, found by a walk
  /// of the expansion: the same for every classification of a function
  /// (a function is classified as a helper, for its summary and for
  /// itself), so kept for the TU.
  llvm::DenseMap<std::pair<const MacroInstance *, const clang::Stmt *>,
                 llvm::SmallVector<const clang::Expr *, 4>>
      ArgsCache;
};

/// Name of the callee of a call, looking through _Generic selection.
const clang::FunctionDecl *calleeOf(const clang::Expr *Call);

/// A for, while or do loop; `do { ... } while (0)`, a macro's statement
/// wrapper, is not one.
bool isLoop(const clang::Stmt *S);

} // namespace seqlint

#endif
