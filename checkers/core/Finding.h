//===- Finding.h - what a check reports and where it goes -----------------===//
#ifndef SEQLINT_CORE_FINDING_H
#define SEQLINT_CORE_FINDING_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace seqlint {

struct Finding {
  std::string Check; // without the "seqlint-" prefix
  clang::SourceLocation Loc;
  std::string Message; // without the trailing [seqlint-<check>]
  llvm::SmallVector<std::pair<clang::SourceLocation, std::string>, 2> Notes;
  llvm::SmallVector<clang::FixItHint, 1> FixIts;
};

/// Where findings go: the plugin's DiagnosticsEngine, or clang-tidy.
class FindingSink {
public:
  virtual ~FindingSink() = default;
  virtual void report(const Finding &F) = 0;
};

} // namespace seqlint

#endif
