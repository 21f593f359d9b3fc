//===- SectionAnalysis.h - seqcount sections as a dataflow over the CFG ---===//
//
// A forward dataflow over the function's CFG, the sibling of Clang's
// thread-safety lockset analysis: at every program point, for every counter,
// whether a read or write section is open (definitely, maybe, not), and the
// ordering state since the last counter operation. Facts hold on every path
// ("must"): at merges, a missing barrier stays missing only if it is missing
// on both sides, so a report means "no path orders this".
//
// After the fixpoint one more pass replays each block from its entry state
// and tells the observer (the checks) what it finds.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_SECTIONANALYSIS_H
#define SEQLINT_CORE_SECTIONANALYSIS_H

#include "core/AccessContext.h"
#include "core/Classifier.h"
#include "core/LockAnalysis.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>

namespace seqlint {

/// Callbacks from the final pass; each check overrides what it needs.
class SectionObserver {
public:
  virtual ~SectionObserver() = default;
  /// Open-coded writer: a data store after the odd increment, no write
  /// barrier in between on any path.
  virtual void writeStoreBeforeBarrier(const FunctionTrace &T, int Counter,
                                       const Event &Inc, const Event &Store) {}
  /// Open-coded writer: the even increment is neither a release nor after a
  /// write barrier, and a data store precedes it.
  virtual void writeEndUnordered(const FunctionTrace &T, int Counter,
                                 const Event &End, const Event &Store) {}
  /// A path leaves the function with the write section definitely open.
  virtual void writeExitOpen(const FunctionTrace &T, int Counter,
                             const Event &Begin, clang::SourceLocation Exit) {}
  /// End with the section definitely closed on every path.
  virtual void writeEndWithoutBegin(const FunctionTrace &T, int Counter,
                                    const Event &End) {}
  /// End reached on every path from a begin, but some path reaching it
  /// skipped the begin: the section is open on some paths only.
  virtual void writeEndSomePaths(const FunctionTrace &T, int Counter,
                                 const Event &End, const Event &Begin) {}
  /// Begin reached, whatever the branches since Prev decided, with the
  /// section Prev opened still open on some path.
  virtual void writeBeginSomePaths(const FunctionTrace &T, int Counter,
                                   const Event &Begin, const Event &Prev) {}
  /// A retry reached on every path from the begin it validates, but some
  /// path reaching it skipped that begin: it validates a value no begin of
  /// this function produced.
  virtual void readRetrySomePaths(const FunctionTrace &T, int Counter,
                                  const Event &Retry, const Event &Begin) {}
  /// Begin with the section definitely open.
  virtual void writeBeginWhileOpen(const FunctionTrace &T, int Counter,
                                   const Event &Begin, const Event &Prev) {}
  /// Open-coded reader: a data load after a non-acquire begin load with no
  /// read barrier in between.
  virtual void readLoadBeforeBarrier(const FunctionTrace &T, int Counter,
                                     const Event &Begin, const Event &Load) {}
  /// A retry that does not order the data loads (open-coded recheck,
  /// __read_seqcount_retry) with a data load since the last read barrier.
  virtual void readRetryUnordered(const FunctionTrace &T, int Counter,
                                  const Event &Retry, const Event &Load) {}
  /// A barrier inside a section that does not provide the ordering the
  /// section needs there (Needed: OrdSS on the write side, OrdLL on the read
  /// side); Access is the store or load left unordered. Reported instead of
  /// the missing-barrier finding at the access.
  virtual void sectionBarrierWrongKind(const FunctionTrace &T, int Counter,
                                       const Event &Barrier, unsigned Needed,
                                       const Event &Access) {}
  /// A side effect inside a definitely open read section.
  virtual void readSideEffect(const FunctionTrace &T, int Counter,
                              const Event &Begin, const Event &Effect) {}
  /// Begin (a begin API, an open-coded counter load or increment) opens a
  /// write (Write) or read section of Counter on the paths that reach it
  /// (coverage statistics).
  virtual void sectionBegins(const FunctionTrace &T, int Counter,
                             const Event &Begin, bool Write) {}
  /// After the section analysis (the driver calls it, for every analysed
  /// function, sections or not): checks that look at the whole trace.
  virtual void functionDone(const FunctionTrace &T, Classifier &C) {}
};

class FunctionAnalyses;

/// The section dataflow of one function, solved once: the hub
/// (FunctionAnalyses::sections()) owns it, the driver replays it into the
/// checks (runSectionAnalysis()), and the access checks read their view of
/// the sections from the same states (FunctionAnalyses::accessContexts()).
class SectionFlow {
public:
  static std::unique_ptr<SectionFlow> solve(FunctionAnalyses &FA, Classifier &C);
  virtual ~SectionFlow();
  /// Replays the function, telling Obs what it finds.
  virtual void report(SectionObserver &Obs) = 0;
  /// Calls Visit for every event of every reachable block, in reverse
  /// post-order, with the access context before it (Locks: the function's
  /// lock sets, whose may-held part says whether a lock may be held).
  virtual void accessContexts(
      const LockSets &Locks,
      llvm::function_ref<void(const Event &, const AccessContext &)> Visit) = 0;
};

/// Runs the section analysis of FA's function (FA.sections()) and reports
/// to Obs.
void runSectionAnalysis(FunctionAnalyses &FA, Classifier &C,
                        SectionObserver &Obs);

} // namespace seqlint

#endif
