//===- MessagePassing.h - TU-wide message-passing pairs ---------*- C++ -*-===//
//
// The analysis shared by mp-missing-barrier and barrier-unpaired.
//
// Per function (functionDone), on the events in reverse post-order:
//  - writer sides: a store to a flag F (WRITE_ONCE, plain, release) with the
//    stores to data D of the same object (or globals, or the object whose
//    address is published) before it, and how each D is ordered before F
//    (a write barrier in between, F a release, nothing);
//  - reader sides: a marked load of F (READ_ONCE, acquire, rcu_dereference)
//    with the loads of D after it, and how each is ordered after F (a read
//    barrier, F an acquire, an address dependency through the loaded
//    pointer, nothing).
// Accesses under a lock, functions with a seqcount section, flags that are
// counters or atomic read-modify-write targets anywhere in the TU, and
// stretches with a call that may order (a barrier we cannot see) are left
// out. At the end of the TU, writer and reader sides of different functions
// are matched by the identity of the flag and of the data (FieldDecl or
// global VarDecl).
//
// Program-wide (docs/integration.md, "Program-wide pairing"): a TU can
// write its sides to a summary file (writeSummary), and a join run reads the
// summaries of every TU into one collector (readSummary) and matches writers
// and readers that no single TU saw together. Identities are then strings: the
// record (by the header that defines it) and field, or the global's name.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_MESSAGEPASSING_H
#define SEQLINT_MESSAGEPASSING_H

#include "Check.h"
#include "analyses/QuietRecords.h"
#include "core/Classifier.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace seqlint {

/// How one data access is ordered against the flag access of its side.
enum class MpOrder : unsigned char {
  None,       // nothing orders it
  Barrier,    // an explicit barrier (smp_wmb/smp_rmb/smp_mb/fence) between
  Access,     // the flag access itself is a release / acquire
  Dependency, // reader: the data is reached through the loaded pointer
};

/// How a datum relates to the flag on its side; both sides of a match must
/// relate the same way.
enum MpRel : unsigned {
  RelSameObject = 1, // s->data and s->flag
  RelPointee = 2,    // writer: data in the object whose address is published;
                     // reader: data reached through the loaded pointer
  RelGlobals = 4,    // both global variables
};

/// An identity used across functions: in a TU, a FieldDecl or a global
/// VarDecl (MpCollector::identity()); in a join, an interned string key.
using MpId = const void *;

/// A flag or datum: the member (or global) and, when it is reached with
/// '.', what holds it (LocationKey::Outer). `c->poll.first` and
/// `c->deleted.first` are two lists' heads; `l->first`, reached through a
/// pointer, may be either.
struct MpLoc {
  MpId Outer = nullptr;
  MpId Leaf = nullptr;
  /// Can the two name the same memory?
  bool mayAlias(const MpLoc &O) const {
    return Leaf == O.Leaf && (!Outer || !O.Outer || Outer == O.Outer);
  }
  bool operator==(const MpLoc &O) const {
    return Leaf == O.Leaf && Outer == O.Outer;
  }
};

struct MpData {
  MpLoc Id;
  unsigned Rel = 0;    // MpRel bits
  bool Marked = false; // WRITE_ONCE/READ_ONCE or atomic, not plain
  clang::SourceLocation Loc;
  std::string Name;
  MpOrder By = MpOrder::None;
  clang::SourceLocation ByLoc; // the barrier or the ordered flag access
  std::string BySpelling;      // "smp_wmb()", "smp_load_acquire()"
  /// Unordered, but a barrier of another kind (smp_wmb() on a read side)
  /// stands between it and the flag access: barrier-wrong-kind's to report.
  bool OtherBarrier = false;
};

struct MpSide {
  bool Writer = false;
  const void *Fn = nullptr; // the function: its FunctionDecl, or a join key
  std::string FnName;       // for messages
  unsigned Unit = 0;        // the TU whose spellings the fix uses
  /// Join: the TUs that analysed the function (both sides seen in one TU
  /// were judged there). Empty within a TU.
  llvm::SmallVector<unsigned, 2> SeenIn;
  MpLoc Flag;
  clang::SourceLocation FlagLoc;
  /// A flag store in a helper seen through at the call: where the helper
  /// writes it. The helper's own side, if it has one, is the same
  /// publication.
  clang::SourceLocation Origin;
  std::string FlagName;
  std::string FlagSpelling; // "WRITE_ONCE()", "READ_ONCE()", "" for plain
  bool Tested = false;      // reader: the loaded flag value is tested
  /// The function is registered as a signal handler: it runs on the thread
  /// it interrupts, which sees its own stores in program order.
  bool SignalHandler = false;
  /// The flag is marked only by its declaration (a volatile field or
  /// global, accessed plainly) and, for a reader, not waited for in a
  /// loop: set in collect(), for noteQuietFlags().
  bool DeclVolatileOnly = false;
  /// ... nothing in the side's TU orders or locks around the flag's record
  /// (no barrier, lock, atomic or marked access in a function that touches
  /// it), and two or more functions of the TU store the flag, plainly: its
  /// writers are serialized by something outside the file (a caller's
  /// lock, a contract), or no barrier could make them correct. A pair of
  /// two quiet sides is not reported.
  bool Quiet = false;
  std::vector<MpData> Data;
  std::optional<clang::FixItHint> Fix; // barrier insertion on this side
};

/// One writer side and one reader side that pass data through one flag.
struct MpMatch {
  const MpSide *W = nullptr;
  const MpSide *R = nullptr;
  const MpData *WD = nullptr; // first shared datum unordered on some side
  const MpData *RD = nullptr;
  bool WriterOrdered = false; // every shared datum ordered on the writer
  bool ReaderOrdered = false;
  MpOrder WriterBy = MpOrder::None; // how, when ordered
  MpOrder ReaderBy = MpOrder::None;
  const MpData *WOrd = nullptr; // an ordered datum (for the note)
  const MpData *ROrd = nullptr;
};

/// How the fixes are spelled in messages: "smp_wmb()", "smp_rmb()",
/// "smp_store_release()", "smp_load_acquire()" in Linux code.
struct MpSpellings {
  std::string Wmb, Rmb, Release, Acquire;
};

class FunctionAnalyses;

class MpCollector {
public:
  /// Fix-it makers: the check supplies them (they need the trace).
  using FixMaker = std::function<std::optional<clang::FixItHint>(
      const FunctionTrace &, const Event &, bool Writer)>;

  /// Every message-passing check calls it for every function; a function
  /// is collected once.
  /// FA: the function's analyses (the locks that may be held come from
  /// there).
  void collect(FunctionAnalyses &FA, Classifier &C, const FixMaker &Fix);
  /// Writer/reader pairs of different functions that share flag and data,
  /// with some shared datum unordered on a side (with Ordered, the pairs
  /// ordered on both sides too).
  std::vector<MpMatch> match(bool Ordered = false) const;

  /// Identity of a location across functions: its field, or the global.
  static const clang::ValueDecl *identity(const LocationKey &K);
  /// The flag or datum at K: identity() and what holds it; no Leaf when
  /// K has no identity.
  static MpLoc loc(const LocationKey &K);

  /// The spellings of the TU (in a TU: set before the first collect()).
  void setSpellings(MpSpellings S);
  const MpSpellings &spellings(const MpSide &S) const;
  bool hasSpellings() const { return !Units.empty(); }
  /// Join: the file both sides of M come from when they were never
  /// compiled together, each only in other configurations (other flags:
  /// --all-configurations) of that one file; "" otherwise.
  std::string configurationsApart(const MpMatch &M) const;
  bool empty() const { return Sides.empty(); }
  /// One walk of the TU, when it has sides: marks the sides of the
  /// functions it registers as signal handlers (signal(), pqsignal(),
  /// sigaction's sa_handler), and excludes the targets of atomic
  /// read-modify-writes in any of its functions, analysed or not (a
  /// header's reference-count helper). Called at the end of the TU,
  /// before match().
  void noteUnitFacts(clang::ASTContext &Ctx);
  /// Sets the sides' Quiet from the records the TU orders or locks around.
  /// Called at the end of the TU, before match() and writeSummary().
  void noteQuietFlags();

  /// Writes the sides and the TU-wide exclusions as JSON (the summary of
  /// this TU). Only what has an identity outside the TU is written: fields
  /// of named records and globals with external linkage. Returns false with
  /// Err set if the file cannot be written (temp file + rename).
  /// Checks: the message-passing checks enabled in this TU.
  bool writeSummary(llvm::StringRef Path, const clang::SourceManager &SM,
                    llvm::ArrayRef<std::string> Checks, std::string &Err) const;
  /// Join: adds one TU's summary. Locations are mapped into SM (the files
  /// are opened); a side whose files are gone is left out. Returns false
  /// with Err set if the file cannot be read or is not a summary.
  /// The checks the TU had enabled are added to Checks.
  bool readSummary(llvm::StringRef Path, clang::SourceManager &SM,
                   std::vector<std::string> &Checks, std::string &Err);

private:
  std::vector<MpSide> Sides;
  llvm::DenseSet<MpId> Excluded; // counters, RMW targets (Leaf ids)
  /// Published or read with release/acquire somewhere: a flag of its own,
  /// not data of another flag.
  llvm::DenseSet<MpId> OrderedIds;
  /// What the TU orders or locks, and who stores what (noteQuietFlags()).
  QuietRecords Quiet;
  std::vector<MpSpellings> Units;
  /// Join: the main file of each TU ("" when its summary does not say).
  std::vector<std::string> UnitMains;
  const clang::FunctionDecl *LastCollected = nullptr;
  /// Join: string identities (MpId points at the key's characters), and
  /// the sides by (function, flag location, role), to merge duplicates.
  llvm::StringSet<> Keys;
  llvm::StringMap<unsigned> SideIndex;
};

/// The identity of a field (by the record that declares it: its file,
/// position and name) or of a global with external linkage (by its name)
/// that is the same in every translation unit of a program; "" for a
/// location that has none (a static global, a local).
std::string programWideId(const clang::ValueDecl *D, const clang::SourceManager &SM);

/// Does side S (unordered) have a partner in Matches that orders the shared
/// data with an explicit barrier, release or acquire? Then the partner's
/// ordering lost its pair (barrier-unpaired); otherwise nothing on either
/// side shows an intent to order (mp-missing-barrier).
bool hasExplicitPartner(const std::vector<MpMatch> &Matches, const MpSide *S);

/// Barrier-kind sides for pairing comments.
enum PairSide : unsigned { PairWrite = 1, PairRead = 2 };

/// A comment next to a barrier that names its partner: "pairs with
/// smp_wmb() in foo()".
struct PairingComment {
  clang::SourceLocation BarrierLoc;
  std::string BarrierSpelling;        // "smp_rmb()"
  unsigned Side = 0;                  // PairSide bits this barrier orders
  std::vector<std::string> Functions; // "in foo()" names
  std::string PartnerBarrier;         // "smp_wmb()" as named, may be empty
};

/// Reads the comment on the line of Loc or on the lines just above it and
/// returns it if it reads like a pairing comment naming a function.
std::optional<PairingComment> scanPairingComment(const clang::SourceManager &SM,
                                                 clang::SourceLocation Loc,
                                                 const ApiModel &Model);

/// What one explicit barrier (smp_wmb(), a fence…) orders in its function:
/// the data accessed on its two sides, up to the next barrier (fields and
/// globals, see BarrierScan).
struct BarrierData {
  clang::SourceLocation Loc;
  std::string Spelling;  // "smp_wmb()"
  unsigned Sides = 0;    // PairSide bits
  bool Complete = false; // both sides known, every access identified
  llvm::SmallVector<const clang::ValueDecl *, 8> Data;
  bool sharesDataWith(const BarrierData &O) const;
};
/// Data of the barrier Events[Index] of block Block.
BarrierData barrierDataOf(const FunctionTrace &T, unsigned Block,
                          unsigned Index);

/// Which sides a function's own events order (PairSide bits), and whether it
/// calls something that may order we cannot see into.
struct OrderingSummary {
  unsigned Sides = 0;
  /// Sides ordered by something other than an explicit barrier: a release,
  /// an acquire, a dependency, a lock, a seqcount operation.
  unsigned OtherSides = 0;
  bool Unknown = false;
  std::vector<BarrierData> Barriers; // the explicit barriers
};
OrderingSummary orderingOf(const FunctionTrace &T, Classifier &C);

/// Memory orders that order later / earlier accesses (acquire side, release
/// side), for message passing and pairing.
bool isAcquire(Order O);
bool isRelease(Order O);

/// The base of mp-missing-barrier and barrier-unpaired: both use the
/// message-passing sides of every function (with fix-its in the code base's
/// own barrier spelling), collected once into the TU's collector
/// (UnitAnalyses), and match them at the end of the TU.
class MessagePassingCheck : public Check {
public:
  using Check::Check;
  CheckScope scope() const override { return CheckScope::MarkedAccesses; }
  void functionDone(const FunctionTrace &T, Classifier &C) override;
  bool usesMessagePassing() const override { return true; }
  /// `foo` for messages, `?` for an unnamed function.
  static std::string fnName(const clang::FunctionDecl *FD);

protected:
  MpSpellings fixSpellings() const;
  /// This TU's sides, or every TU's in a join.
  MpCollector &mp() const;
  /// Join: the note of a pair whose two sides were never compiled together
  /// (two configurations of one file), at F's location.
  void noteConfigurations(Finding &F, const MpMatch &M) const;
};

} // namespace seqlint

#endif
