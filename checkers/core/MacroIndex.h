//===- MacroIndex.h - where known API macros were expanded ----------------===//
//
// Recognition is by macro name at the outermost known expansion. The index
// records, through PPCallbacks, every expansion of a macro the ApiModel knows
// (with the token ranges of its arguments), and answers for any source
// location: which known expansion instance does this token belong to?
// Tokens that came from a macro argument belong to the caller, not to the
// macro, so `READ_ONCE(s->seq)` is a READ_ONCE instance whose argument
// `s->seq` is ordinary user code.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_MACROINDEX_H
#define SEQLINT_CORE_MACROINDEX_H

#include "core/ApiModel.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace clang {
class Preprocessor;
class SourceManager;
} // namespace clang

namespace seqlint {

/// One expansion of a known macro.
struct MacroInstance {
  llvm::StringRef Name;       // macro name (owned by the ApiModel)
  const ApiEntry *Entry;      // what the macro means
  clang::SourceLocation Loc;  // the macro name token at the use site
  clang::SourceLocation End;  // the closing parenthesis (or the name)
  // Unexpanded tokens of each argument: [first, last] token locations.
  llvm::SmallVector<std::pair<clang::SourceLocation, clang::SourceLocation>, 3>
      Args;
  /// The same ranges decomposed once: file (or expansion) and offsets.
  struct Range {
    clang::FileID File;
    unsigned Begin = 0, End = 0;
  };
  llvm::SmallVector<Range, 3> ArgRanges;
};

class MacroIndex {
public:
  MacroIndex(const clang::SourceManager &SM, const ApiModel &Model)
      : SM(SM), Model(Model) {}

  /// A PPCallbacks object that feeds this index; hand it to the Preprocessor.
  std::unique_ptr<clang::PPCallbacks> createCallbacks();

  /// The outermost known macro instance that token location L is part of
  /// (argument tokens are part of the caller), or null.
  const MacroInstance *instanceAt(clang::SourceLocation L) const;

  /// Which argument of instance I the token at L came from, or -1.
  int argumentIndex(const MacroInstance &I, clang::SourceLocation L) const;

  /// What the macro's definitions in skipped preprocessor branches order:
  /// the weakest barrier instruction among them, or 0 if none is one. A
  /// barrier macro that is a compiler barrier on x86 and `dmb ishst` on
  /// arm64 is a write barrier wherever it is compiled.
  unsigned otherArchBits(llvm::StringRef Name) const {
    auto It = OtherArch.find(Name);
    return It == OtherArch.end() ? 0 : It->second;
  }

  /// Every macro with such definitions, and what they order.
  const llvm::StringMap<unsigned> &otherArchMacros() const { return OtherArch; }

  /// True if a function-like macro of this name was defined in the TU.
  bool isDefined(llvm::StringRef Name) const { return Defined.count(Name); }


  /// Cheap test: did any known macro expand inside this range of a file
  /// (e.g. a function body)? Binary search over the recorded use sites.
  bool hasInstanceIn(clang::SourceRange R, bool StrongOnly = false) const;

  /// An API use that can make a seqcount section on its own: anything but
  /// READ_ONCE/WRITE_ONCE-style unordered accesses and pure helpers.
  static bool isStrong(const ApiEntry &E);
  const ApiModel &model() const { return Model; }

  /// Every recorded instance of the macro Name (unordered).
  template <typename Fn> void forEachInstanceOf(llvm::StringRef Name, Fn F) const {
    for (const auto &KV : Instances)
      if (KV.second->Name == Name)
        F(*KV.second);
  }

private:
  friend class MacroIndexCallbacks;
  const clang::SourceManager &SM;
  const ApiModel &Model;
  llvm::DenseMap<clang::SourceLocation, std::unique_ptr<MacroInstance>>
      Instances; // keyed by the macro name token location
  llvm::StringMap<bool> Defined;
  llvm::StringMap<unsigned> OtherArch;
  void scanSkipped(llvm::StringRef Text);
  /// File offsets of the use sites of known macros, per file, in order.
  llvm::DenseMap<clang::FileID, std::vector<unsigned>> UseSites;
  llvm::DenseMap<clang::FileID, std::vector<unsigned>> StrongSites;
  const MacroInstance *bodyInstance(clang::FileID F) const;
  mutable llvm::DenseMap<clang::FileID, const MacroInstance *> BodyCache;
};

} // namespace seqlint

#endif
