//===- Common.cpp - shared pieces of the metamorphic rewrites -------------===//
#include "Common.h"

#include "clang/Basic/IdentifierTable.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace llvm;

namespace metamorph {

namespace {
const char *const ApiLiterals[] = {
#include "ApiNames.inc"
};

const StringSet<> &apiNames() {
  static const StringSet<> Names = [] {
    StringSet<> S;
    for (const char *N : ApiLiterals)
      S.insert(N);
    return S;
  }();
  return Names;
}
} // namespace

bool isApiName(StringRef Name) {
  if (apiNames().contains(Name))
    return true;
  // Prefix tables ("atomic64_", "ck_pr_", "seqprop_"): the model classifies
  // any name that starts with them.
  for (const char *N : ApiLiterals) {
    StringRef P(N);
    if (P.size() > 1 && P.ends_with("_") && Name.starts_with(P))
      return true;
  }
  return false;
}

void MacroDefinitions::MacroDefined(const Token &MacroNameTok,
                                    const MacroDirective *MD) {
  const MacroInfo *MI = MD ? MD->getMacroInfo() : nullptr;
  if (!MI)
    return;
  SourceLocation B = MacroNameTok.getLocation();
  SourceLocation E = MI->getDefinitionEndLoc();
  if (B.isInvalid() || E.isInvalid() || !SM.isWrittenInMainFile(B))
    return;
  unsigned EOff =
      SM.getFileOffset(E) + Lexer::MeasureTokenLength(E, SM, LangOptions());
  Ranges.emplace_back(SM.getFileOffset(B), EOff);
}

bool MacroDefinitions::containsOffset(unsigned Offset) const {
  for (const auto &R : Ranges)
    if (Offset >= R.first && Offset <= R.second)
      return true;
  return false;
}

bool mainFileSpelling(const RewriteEnv &Env, SourceLocation Loc,
                      unsigned &Offset) {
  const SourceManager &SM = Env.Ctx.getSourceManager();
  if (Loc.isInvalid())
    return false;
  SourceLocation Spell = SM.getSpellingLoc(Loc);
  if (SM.getFileID(Spell) != SM.getMainFileID())
    return false;
  Offset = SM.getFileOffset(Spell);
  return !Env.Macros.containsOffset(Offset);
}

std::string freshName(const RewriteEnv &Env, StringRef Prefix,
                      unsigned &Counter) {
  const IdentifierTable &Idents = Env.Ctx.Idents;
  for (;;) {
    std::string Name = (Prefix + Twine(++Counter)).str();
    if (Idents.find(Name) == Idents.end())
      return Name;
  }
}

} // namespace metamorph
