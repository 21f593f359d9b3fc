//===- MacroIndex.cpp -----------------------------------------------------===//
#include "core/MacroIndex.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"

using namespace clang;

namespace seqlint {

class MacroIndexCallbacks : public PPCallbacks {
public:
  explicit MacroIndexCallbacks(MacroIndex &Index) : Index(Index) {}

  void MacroExpands(const Token &NameTok, const MacroDefinition &MD,
                    SourceRange Range, const MacroArgs *Args) override {
    const IdentifierInfo *II = NameTok.getIdentifierInfo();
    if (!II)
      return;
    const ApiEntry *E = Index.Model.lookup(II->getName());
    if (!E)
      return;
    // A project's own macro with our name but another shape (object-like,
    // too few parameters) is not our API.
    if (const MacroInfo *MI = MD.getMacroInfo()) {
      int Needed = std::max(E->CounterArg, E->ValueArg) + 1;
      bool TakesArgs = E->R != Role::Barrier && E->R != Role::Pure &&
                       E->R != Role::SideEffect;
      if (TakesArgs && (!MI->isFunctionLike() ||
                        ((int)MI->getNumParams() < Needed && !MI->isVariadic())))
        return;
    }
    // <stdatomic.h> names (atomic_fetch_add…) collide with kernel atomics;
    // they expand to C11 atomic builtins, which are classified structurally.
    if (const MacroInfo *MI = MD.getMacroInfo())
      if (Index.SM.getFilename(Index.SM.getSpellingLoc(MI->getDefinitionLoc()))
              .ends_with("stdatomic.h"))
        return;
    auto I = std::make_unique<MacroInstance>();
    I->Name = Index.Model.entries().find(II->getName())->getKey();
    I->Entry = E;
    I->Loc = NameTok.getLocation();
    I->End = Range.getEnd();
    if (Args) {
      for (unsigned A = 0, N = Args->getNumMacroArguments(); A != N; ++A) {
        const Token *T = Args->getUnexpArgument(A);
        unsigned Len = MacroArgs::getArgLength(T);
        if (Len == 0) {
          I->Args.push_back({SourceLocation(), SourceLocation()});
          continue;
        }
        I->Args.push_back({T[0].getLocation(), T[Len - 1].getLocation()});
      }
    }
    Index.Instances[I->Loc] = std::move(I);
  }

  void MacroDefined(const Token &NameTok, const MacroDirective *MD) override {
    if (const IdentifierInfo *II = NameTok.getIdentifierInfo())
      if (Index.Model.lookup(II->getName()))
        Index.Defined.insert({II->getName(), true});
  }

private:
  MacroIndex &Index;
};

std::unique_ptr<PPCallbacks> MacroIndex::createCallbacks() {
  return std::make_unique<MacroIndexCallbacks>(*this);
}

const MacroInstance *MacroIndex::instanceAt(SourceLocation L) const {
  if (!L.isMacroID() || Instances.empty())
    return nullptr;
  auto C = Cache.find(L);
  if (C != Cache.end())
    return C->second;
  const MacroInstance *Found = nullptr;
  SourceLocation Cur = L;
  // Walk up the expansion chain. A token from a macro argument was written
  // by the caller: continue from where it was spelled. A token from a macro
  // body belongs to that macro: note it if known, continue from the use site.
  for (unsigned Steps = 0; Cur.isMacroID() && Steps < 64; ++Steps) {
    if (SM.isMacroArgExpansion(Cur)) {
      Cur = SM.getImmediateSpellingLoc(Cur);
      continue;
    }
    SourceLocation Use = SM.getImmediateExpansionRange(Cur).getBegin();
    auto It = Instances.find(Use);
    if (It != Instances.end())
      Found = It->second.get();
    Cur = Use;
  }
  Cache[L] = Found;
  return Found;
}

int MacroIndex::argumentIndex(const MacroInstance &I, SourceLocation L) const {
  // Every location on the way up from L: an argument token is one of them.
  SourceLocation Cur = L;
  for (unsigned Steps = 0; Cur.isValid() && Steps < 64; ++Steps) {
    for (unsigned A = 0; A != I.Args.size(); ++A) {
      auto [B, E] = I.Args[A];
      if (B.isInvalid())
        continue;
      if (Cur == B || Cur == E)
        return A;
      if (SM.getFileID(Cur) == SM.getFileID(B) && SM.getFileID(B) == SM.getFileID(E) &&
          SM.getFileOffset(Cur) >= SM.getFileOffset(B) &&
          SM.getFileOffset(Cur) <= SM.getFileOffset(E))
        return A;
    }
    if (!Cur.isMacroID())
      break;
    if (SM.isMacroArgExpansion(Cur))
      Cur = SM.getImmediateSpellingLoc(Cur);
    else
      Cur = SM.getImmediateExpansionRange(Cur).getBegin();
  }
  return -1;
}

} // namespace seqlint
