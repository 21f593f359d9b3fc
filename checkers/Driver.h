//===- Driver.h - runs the enabled checks over a translation unit ---------===//
//
// The one entry point both front ends (compiler plugin, clang-tidy module)
// call: classify every function defined in user code, run the section
// analysis with the enabled checks as observers, filter NOLINT, and hand
// the findings to the front end's sink.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_DRIVER_H
#define SEQLINT_DRIVER_H

#include "core/Finding.h"
#include "core/MacroIndex.h"
#include "core/Suppression.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace seqlint {

struct DataflowCut;

/// What seqlint recognised in one translation unit
/// (-fplugin-arg-seqlint-stats), counted from the final event traces the
/// driver analysed. Sections are counted where the section analysis sees them
/// begin: a helper seen through at its calls adds a section to each caller,
/// none of its own. Barriers, marked accesses and locks are counted once each,
/// in the function whose body holds them.
struct CoverageStats {
  unsigned Functions = 0; // definitions in user code this TU can reach
  unsigned Analysed = 0;  // classified into a trace and analysed
  unsigned WriteApi = 0;  // write sections begun by an API
  unsigned WriteOpen = 0; // ... by hand (a counter increment)
  unsigned ReadApi = 0;   // read sections begun by an API
  unsigned ReadOpen = 0;  // ... by hand (a counter load)
  // Barriers, by the orderings they provide (BarrierBits).
  unsigned Full = 0, AcqRel = 0, Acquire = 0, Release = 0, Write = 0, Read = 0,
           Compiler = 0;
  unsigned Atomics = 0; // marked or ordered accesses
  unsigned Locks = 0;   // lock acquisitions and assertions
  unsigned MpPairs = 0; // message-passing writer/reader pairs

  unsigned barriers() const {
    return Full + AcqRel + Acquire + Release + Write + Read + Compiler;
  }
  /// A section, a message-passing pair or a lock was recognised.
  bool protocol() const {
    return WriteApi + WriteOpen + ReadApi + ReadOpen + MpPairs + Locks > 0;
  }
  /// The one line the plugin prints (docs/integration.md, "Coverage"):
  /// seqlint-stats: functions=N analysed=N write-sections=N(api=N,open=N) ...
  void print(llvm::raw_ostream &OS) const;
};

struct DriverOptions {
  CheckFilter Filter;
  bool ApplyNolint = true;            // the tidy module lets clang-tidy do it
  llvm::raw_ostream *DumpEvents = nullptr; // debug: print the event traces
  /// Where to write this TU's message-passing summary ("" for nowhere; a
  /// directory: a file named after the main file in it). Written when a
  /// message-passing check (barrier-unpaired, mp-missing-barrier) is on.
  std::string SummaryPath;
  /// Join run: summaries (files, or directories of *.mp.json files) whose
  /// writers and readers are matched across TUs. The message-passing checks
  /// the summaries were written with are the ones that report.
  std::vector<std::string> JoinPaths;
  /// Counters across translation units (the runner's second round). Where
  /// to write this TU's counters and counter candidates ("" for nowhere),
  /// one per line: `counter<TAB>id<TAB>parity` or `candidate<TAB>id`, ids
  /// as programWideId().
  std::string CountersOut;
  /// A file of such lines from the other TUs of the program: its `counter`
  /// lines are counters here too (a writer that forgot every barrier whose
  /// reader is in another file).
  std::string KnownCountersIn;
  /// Where to count what was recognised (null: not counted, no cost). Not
  /// filled by a join run.
  CoverageStats *Stats = nullptr;
  /// Block visits every dataflow analysis may make (0: each its own
  /// budget); for tests (-fplugin-arg-seqlint-dataflow-budget=N).
  unsigned DataflowBudget = 0;
  /// Where to put the analyses that stopped at their budget before their
  /// fixpoint (null: only the event dump shows them).
  std::vector<DataflowCut> *DataflowCuts = nullptr;
};

/// Runs seqlint over the whole translation unit in Ctx. Returns "" or what
/// went wrong with the summary files (the findings are reported either way).
std::string runSeqlint(clang::ASTContext &Ctx, const MacroIndex &Macros,
                       FindingSink &Sink, const DriverOptions &Opts);

/// Names of the checks that Filter enables.
std::vector<std::string> enabledChecks(const CheckFilter &Filter);

/// Why Globs cannot be used as a check list: a glob that matches no check
/// (a typo would otherwise turn seqlint off in silence), with the nearest
/// glob that does match one and the list of valid checks. "" when usable.
std::string checkGlobsError(const CheckFilter &Filter);

/// Why Filter enables nothing ("" when it enables a check): an empty set
/// is an error, as in clang-tidy, not a run that cannot find anything.
std::string noCheckEnabledError(const CheckFilter &Filter);

} // namespace seqlint

#endif
