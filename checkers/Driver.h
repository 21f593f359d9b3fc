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

namespace clang {
class ASTContext;
}

namespace seqlint {

struct DriverOptions {
  CheckFilter Filter;
  bool ApplyNolint = true;            // the tidy module lets clang-tidy do it
  llvm::raw_ostream *DumpEvents = nullptr; // debug: print the event traces
};

/// Runs seqlint over the whole translation unit in Ctx.
void runSeqlint(clang::ASTContext &Ctx, const MacroIndex &Macros,
                FindingSink &Sink, const DriverOptions &Opts);

/// Names of the checks that Filter enables.
std::vector<std::string> enabledChecks(const CheckFilter &Filter);

} // namespace seqlint

#endif
