//===- Suppression.h - NOLINT comments, as clang-tidy reads them ----------===//
#ifndef SEQLINT_CORE_SUPPRESSION_H
#define SEQLINT_CORE_SUPPRESSION_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang {
class SourceManager;
}

namespace seqlint {

/// True if Pattern (a clang-tidy glob, `*` wildcards) matches Name.
bool globMatches(llvm::StringRef Pattern, llvm::StringRef Name);

/// Clang-tidy style check list: "-*,seqcount-*,-seqcount-read-side-effect".
/// Later entries win. Names match with or without the "seqlint-" prefix.
class CheckFilter {
public:
  /// Parses Globs; returns an error message, or "" on success.
  std::string parse(llvm::StringRef Globs);
  bool isEnabled(llvm::StringRef Check, bool DefaultOn) const;
  /// The first glob that matches none of Known (check names without the
  /// "seqlint-" prefix), or "" when each one matches a check.
  std::string unmatchedGlob(llvm::ArrayRef<std::string> Known) const;
  bool empty() const { return Entries.empty(); }

private:
  std::vector<std::pair<bool, std::string>> Entries; // (positive, glob)
};

/// Answers "is a finding of Check at Loc suppressed by a NOLINT comment?":
/// `// NOLINT`, `// NOLINT(check,...)`, `// NOLINTNEXTLINE(...)`, and
/// `// NOLINTBEGIN(...)` ... `// NOLINTEND(...)` regions.
class Suppressions {
public:
  explicit Suppressions(const clang::SourceManager &SM) : SM(SM) {}
  bool isSuppressed(clang::SourceLocation Loc, llvm::StringRef Check);

private:
  struct Region {
    unsigned Begin, End; // line numbers, inclusive
    std::string Checks;  // "" = all
  };
  const std::vector<Region> &regionsFor(clang::FileID F);
  const clang::SourceManager &SM;
  llvm::DenseMap<clang::FileID, std::vector<Region>> Regions;
};

/// Does a NOLINT check list ("seqlint-foo, bar*") cover Check?
bool nolintListCovers(llvm::StringRef List, llvm::StringRef Check);

} // namespace seqlint

#endif
