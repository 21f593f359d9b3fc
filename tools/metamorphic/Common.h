//===- Common.h - shared pieces of the metamorphic rewrites -----*- C++ -*-===//
//
// What both rewrites need: the API names seqlint knows (never renamed, and the
// calls the helper rewrite moves), where the main file's #define bodies are
// (never rewritten), and small source-location helpers.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_METAMORPH_COMMON_H
#define SEQLINT_METAMORPH_COMMON_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace metamorph {

/// Is \p Name one the plugin's API model may recognise? Exact matches of the
/// string literals of checkers/core/ApiModel.cpp, and the families the model
/// recognises by prefix (atomic_*, ck_pr_*, ...): literals ending in '_' are
/// taken as prefixes, which is over-inclusive on purpose.
bool isApiName(llvm::StringRef Name);

/// Offsets of the main file's #define directives (name to end of body): a
/// token spelled there is part of a macro definition and is never rewritten.
class MacroDefinitions : public clang::PPCallbacks {
public:
  explicit MacroDefinitions(const clang::SourceManager &SM) : SM(SM) {}
  void MacroDefined(const clang::Token &MacroNameTok,
                    const clang::MacroDirective *MD) override;
  bool containsOffset(unsigned Offset) const;

private:
  const clang::SourceManager &SM;
  std::vector<std::pair<unsigned, unsigned>> Ranges; // [begin, end] offsets
};

/// Everything a rewrite needs; the rewrites only edit the main file.
struct RewriteEnv {
  clang::ASTContext &Ctx;
  clang::Rewriter &R;
  const MacroDefinitions &Macros;
  bool Verbose;
  llvm::raw_ostream &Log;
};

/// The offset in the main file where the token at \p Loc is written, if it
/// is written there and not inside a #define: for a token of a macro argument
/// that is the argument as typed at the invocation.
bool mainFileSpelling(const RewriteEnv &Env, clang::SourceLocation Loc,
                      unsigned &Offset);

/// A fresh identifier Prefix<N> (N >= Counter, Counter advanced past it) that
/// names nothing in the translation unit, headers included.
std::string freshName(const RewriteEnv &Env, llvm::StringRef Prefix,
                      unsigned &Counter);

bool runRename(RewriteEnv &Env);
bool runHelper(RewriteEnv &Env);

} // namespace metamorph

#endif
