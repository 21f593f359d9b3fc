//===- Events.h - the event trace of one function -------------------------===//
//
// The Classifier turns each CFG block of a function into a list of events:
// what the code does to memory, in the vocabulary of the memory model.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_EVENTS_H
#define SEQLINT_CORE_EVENTS_H

#include "core/ApiModel.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace clang {
class Stmt;
class Expr;
class VarDecl;
class ValueDecl;
class FunctionDecl;
class CFGBlock;
} // namespace clang

namespace seqlint {

/// Which orderings a barrier provides (bit set).
enum BarrierBits : unsigned {
  OrdLL = 1, // load -> load
  OrdLS = 2, // load -> store
  OrdSS = 4, // store -> store
  OrdSL = 8, // store -> load
  OrdFull = OrdLL | OrdLS | OrdSS | OrdSL,
};
unsigned barrierBits(BarrierKind K);
// asmBarrierBits(): what an inline-asm barrier orders, in core/ApiModel.h.

/// One step of a location's access path, in the order the code evaluates
/// them: `*(s->a[2].b)` is Var s, Arrow a, Index 2, Member b, Deref. Each
/// step knows where its spelling lies in LocationKey::Text, so a part of the
/// path can be shown or replaced without reading the text back.
struct KeyStep {
  enum StepKind : unsigned char {
    Var,      // the root: a variable (D)
    This,     // the root: C++ `this`
    Call,     // the root: memory a call returned (D: the callee, or null)
    StmtExpr, // the root: the value of a statement expression
    Member,   // `.f` (D: the member; unnamed: an anonymous struct or union)
    Arrow,    // `->f`
    Index,    // `[i]`: Element, or some element when !Constant
    Deref,    // `*(...)`: spelled around the steps before it
    AddrOf,   // `&...`
  };
  StepKind Kind = Var;
  bool Constant = false;               // Index: a constant index
  long long Element = 0;               // Index: which one, when Constant
  const clang::ValueDecl *D = nullptr; // Var, Member, Arrow
  const clang::FunctionDecl *Callee = nullptr; // Call
  const void *Node = nullptr;          // StmtExpr: the expression
  unsigned Begin = 0, End = 0;         // its spelling: Text[Begin, End)

  /// A member step (`.f` or `->f`).
  bool isMember() const { return Kind == Member || Kind == Arrow; }
};

/// A memory location as written in the source: `s->seq`, `x.y`, `*p`, `g`.
struct LocationKey {
  std::string Text;                       // canonical spelling, unique per base
  /// How the location is reached, root first (see KeyStep). Text is its
  /// spelling (spell()); nothing reads Text back to learn the path.
  llvm::SmallVector<KeyStep, 4> Path;
  /// Text and each step's place in it, from Path.
  void spell();
  const clang::VarDecl *Base = nullptr;   // root variable, if any
  const clang::ValueDecl *Field = nullptr; // last member, if any
  /// What holds Field when it is reached with '.': the member before it
  /// (`c->poll.first`: poll) or a global variable (`g.first`: g). Null
  /// after '->' (any object of the type) or without a member. Field alone
  /// names every instance of a member; with Outer, two list heads of one
  /// type in one structure are two locations.
  const clang::ValueDecl *Outer = nullptr;
  bool ViaPointer = false;                // reached through a dereference
  enum StorageKind { Local, Param, Global, Unknown } Storage = Unknown;

  /// Data only this invocation can see: a local variable or a by-value
  /// parameter, not reached through a pointer.
  bool isLocal() const {
    return !ViaPointer && (Storage == Local || Storage == Param);
  }
  /// The name of the last component (the field or the variable).
  std::string leafName() const;
  /// How to show it to users: `s->seq`, `*p`.
  std::string displayName() const { return displayName(Path.size()); }
  /// How to show its first Steps steps (`s` of `s->seq` with 1).
  std::string displayName(size_t Steps) const;
  /// A load of this location only computes Other's address: `t->gen` for
  /// `t->gen[b]`, `p->d_inode` for `p->d_inode->i_dir_seq`.
  bool addresses(const LocationKey &Other) const;
  /// The outermost step spelled around the others is a dereference:
  /// `*(p)`, `*(q->ptr)`, `*(p)[]`.
  bool isDeref() const;
  /// The location is an element of an array (`a[2]`, `q->ring[]`).
  bool isElement() const { return !Path.empty() && Path.back().Kind == KeyStep::Index; }
  /// Some element at a computed index lies on the path (`q->ring[].v`).
  bool hasSomeElement() const;
  /// What holds the last field when that field is reached with '.', from
  /// the member (or root) that names it: `wpos` in `q->wpos.v`, `a[2]` in
  /// `q->a[2].v`, `g` in `g.v`; empty otherwise.
  llvm::ArrayRef<KeyStep> holderSteps() const;
  static bool sameSteps(llvm::ArrayRef<KeyStep> A, llvm::ArrayRef<KeyStep> B);
  /// Do A and B (of one root) lie in objects on one chain of pointers: is
  /// the path to the object that holds one a prefix of the other's?
  /// `c->node` and `c->tree->root` do; `e->prev->next` and `e->next->prev`,
  /// fields of two neighbours, do not.
  static bool onePointerChain(const LocationKey &A, const LocationKey &B);
  /// Is Data reached through the pointer value of Ptr: Ptr's whole path,
  /// then a dereference (`e->next->state`, `*g->p`, `q->buf[i]` for a
  /// pointer `buf`)?
  static bool reachedThrough(const LocationKey &Data, const LocationKey &Ptr);
  /// The steps after the last '->' (all of them when there is none):
  /// `prod.tail` in `r->prod.tail`.
  llvm::ArrayRef<KeyStep> afterLastArrow() const;
  /// The spelling of the path after its root (`->stats.syncp` in
  /// `p->stats.syncp`); empty when there are no member or element steps.
  llvm::StringRef spellingAfterRoot() const;
};

enum class EventKind : unsigned char {
  ReadBegin,   // a read section starts (API or open-coded counter load)
  ReadRetry,   // validation of a read section (API or open-coded recheck)
  ReadBeginOrLock,
  ReadDone,
  WriteBegin,  // API write begin
  WriteEnd,    // API write end
  CounterInc,  // open-coded increment of a counter (odd or even by state)
  Barrier,     // a fence; with Counter set, a whole write step (isWriteStep())
  Load,
  Store,
  RMW,
  Lock,
  Unlock,
  Call,        // a call that is not an API
  Return,      // a return statement (for exits)
  LocalDef,    // a local variable is (re)assigned (Var): keys through it change
  LocalUpdate, // a local non-pointer variable (or a part of it) is written
               // (Var); Accumulates: its previous value flows in (+=, ++)
  Exclude,     // local_bh_disable(), preempt_enable() ...: Excludes, ExcludeEnds
};

/// How an expression's value is used by its context.
enum class ValueUse : unsigned char {
  Other,
  Discarded,  // expression statement, result ignored
  VoidCast,   // (void)expr
  Assigned,   // stored to a local variable (AssignedTo)
  Returned,
  Escapes,    // stored through a pointer, passed to a call
  Compared,   // compared (==, !=) with a local variable (ComparedWith)
  Condition,  // used directly as a branch condition
};

struct Event {
  EventKind Kind;
  const clang::Stmt *S = nullptr;   // the node (instance root or plain node)
  clang::SourceLocation Loc;        // where to report
  const ApiEntry *Api = nullptr;    // for API events
  llvm::StringRef ApiName;          // macro or function name of the API
  int Key = -1;                     // location / counter / lock key index
  Order Ord = Order::Plain;
  unsigned Bits = 0;                // Barrier: BarrierBits
  bool RetryHasBarrier = true;
  bool RetryTrueIfValid = false;    // ReadRetry: true means "not raced" (== start)
  bool HelperBegin = false;         // Load: the count a begin helper returned
  bool Claim = false;               // RMW: compare-and-swap increment (opens only)
  const clang::VarDecl *IncParam = nullptr; // Store: writes param + 1 (a helper's)
  bool StepParam = false; // RMW: IncParam is the step itself (count += step)
  bool Increment = false;           // Store/RMW: writes key + 1
  bool Masked = false;              // load value masked with ~1
  ValueUse Use = ValueUse::Other;
  const clang::VarDecl *Var = nullptr;  // AssignedTo / ComparedWith / retry value
  const clang::FunctionDecl *Callee = nullptr;
  bool SideEffect = false;          // Call: a known side-effect API
  bool Noreturn = false;
  unsigned char BitOp = 0;          // Call: 1 a bit test, 2 a bit RMW
  bool BitAtomic = false;           // ... not the __set_bit() variant
  unsigned char BitWordArg = 1;     // ... the argument pointing to the word
  bool Counter = false;             // access to a location used as a counter
  bool OpenCoded = false;           // a counter access written by hand
  bool Accumulates = false;         // LocalUpdate: the old value flows in
  unsigned char Excludes = 0;       // Exclude/Lock/Unlock/WriteBegin/End: ExcludeLevel
  bool ExcludeEnds = false;         // ... ended here (enable, unlock, end)
  /// An event of a helper the function calls, seen through at the call:
  /// S and Loc are the call's, Via is the helper whose body holds the
  /// access or barrier (the innermost one when helpers call helpers) and
  /// InnerLoc is where it is written there.
  const clang::FunctionDecl *Via = nullptr;
  clang::SourceLocation InnerLoc;
  const clang::Stmt *InnerS = nullptr; // the node in Via's body

  /// The node of the access itself: inside the helper it was seen through
  /// (InnerS), else S.
  const clang::Stmt *node() const { return Via && InnerS ? InnerS : S; }
  /// write_seqcount_invalidate(), a latch switch (Role::WriteOneShot): a
  /// complete write step on the counter Key. For ordering it is the write
  /// barrier it issues (Bits = OrdSS); the counter is not a section's, so
  /// it is not in FunctionTrace::Counters.
  bool isWriteStep() const { return Kind == EventKind::Barrier && Counter; }
};

struct BlockEvents {
  std::vector<Event> Events;
};

} // namespace seqlint

#endif
