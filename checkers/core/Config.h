//===- Config.h - .seqlint.yaml -------------------------------------------===//
//
// Project configuration, found by walking up from the main source file like
// .clang-tidy (or given with -fplugin-arg-seqlint-config=FILE):
//
//   Checks: '-*,seqcount-*'
//   APIs:
//     write-barrier: [my_wmb]
//     read-begin:    [my_seq_begin]
//     read-retry:    [my_seq_retry]
//     hardirq-entry: [my_request_irq, my_dev_ops.irq]
//   AsmBarriers:
//     write-barrier: ["dmb oshst"]
//
// Parsed with LLVM's YAML parser; errors carry file:line:column.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_CONFIG_H
#define SEQLINT_CORE_CONFIG_H

#include "core/ApiModel.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace seqlint {

struct Config {
  std::string Path;   // where it was read from ("" = none)
  std::string Checks; // the Checks: glob list ("" = none)
  std::vector<std::pair<std::string, ApiEntry>> Apis;
  /// AsmBarriers: asm spellings and what they order (Events.h's Ord* bits).
  std::vector<std::pair<std::string, unsigned>> AsmBarriers;

  /// Does the file add to the built-in model (APIs, AsmBarriers)?
  bool extendsModel() const { return !Apis.empty() || !AsmBarriers.empty(); }
  /// The built-in model plus this configuration's APIs.
  ApiModel model() const;
};

/// The roles a user API can have, as spelled in the file.
std::vector<llvm::StringRef> configRoleNames();

/// Reads and parses Path. On failure returns false and sets Error to a
/// complete message ("file:line:col: what was expected").
bool loadConfig(llvm::StringRef Path, Config &Out, std::string &Error);

/// Looks for .seqlint.yaml in the directory of SourceFile and its parents.
/// Returns "" if there is none.
std::string findConfig(llvm::StringRef SourceFile);

} // namespace seqlint

#endif
