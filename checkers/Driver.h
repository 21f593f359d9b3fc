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
};

/// Runs seqlint over the whole translation unit in Ctx. Returns "" or what
/// went wrong with the summary files (the findings are reported either way).
std::string runSeqlint(clang::ASTContext &Ctx, const MacroIndex &Macros,
                       FindingSink &Sink, const DriverOptions &Opts);

/// Names of the checks that Filter enables.
std::vector<std::string> enabledChecks(const CheckFilter &Filter);

} // namespace seqlint

#endif
