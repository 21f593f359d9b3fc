//===- MacroIndex.cpp -----------------------------------------------------===//
#include "core/MacroIndex.h"
#include "core/Events.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"
#include <algorithm>
#include <cctype>

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
    for (auto [B, E] : I->Args) {
      MacroInstance::Range R;
      if (B.isValid()) {
        auto [FB, OB] = Index.SM.getDecomposedLoc(B);
        auto [FE, OE] = Index.SM.getDecomposedLoc(E);
        if (FB == FE) {
          R.File = FB;
          R.Begin = OB;
          R.End = OE;
        }
      }
      I->ArgRanges.push_back(R);
    }
    auto [F, Off] = Index.SM.getDecomposedLoc(Index.SM.getExpansionLoc(I->Loc));
    auto Record = [Off = Off](std::vector<unsigned> &Sites) {
      if (Sites.empty() || Sites.back() <= Off)
        Sites.push_back(Off);
      else
        Sites.insert(std::upper_bound(Sites.begin(), Sites.end(), Off), Off);
    };
    Record(Index.UseSites[F]);
    if (MacroIndex::isStrong(*E))
      Record(Index.StrongSites[F]);
    Index.Instances[I->Loc] = std::move(I);
  }

  /// A branch not compiled here (`#elif defined(__aarch64__)`): its
  /// barrier macros say what the active branch's compiler barrier stands for.
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    const SourceManager &SM = Index.SM;
    if (!Range.getBegin().isFileID() || !Range.getEnd().isFileID())
      return;
    auto [FB, OB] = SM.getDecomposedLoc(Range.getBegin());
    auto [FE, OE] = SM.getDecomposedLoc(Range.getEnd());
    if (FB != FE || OE <= OB)
      return;
    bool Invalid = false;
    StringRef Buf = SM.getBufferData(FB, &Invalid);
    if (Invalid || OE > Buf.size())
      return;
    Index.scanSkipped(Buf.slice(OB, OE));
  }

  void MacroDefined(const Token &NameTok, const MacroDirective *MD) override {
    if (const IdentifierInfo *II = NameTok.getIdentifierInfo())
      if (Index.Model.lookup(II->getName()))
        Index.Defined.insert({II->getName(), true});
  }

private:
  MacroIndex &Index;
};

void MacroIndex::scanSkipped(StringRef Text) {
  if (!Text.contains("define"))
    return;
  auto Define = [&](StringRef L) {
    L = L.ltrim();
    if (!L.consume_front("#"))
      return;
    L = L.ltrim();
    if (!L.consume_front("define") || L.empty() || !isspace((unsigned char)L[0]))
      return;
    L = L.ltrim();
    size_t N = 0;
    while (N < L.size() && (isalnum((unsigned char)L[N]) || L[N] == '_'))
      ++N;
    if (!N)
      return;
    StringRef Name = L.take_front(N);
    if (unsigned Bits = Model.macroBodyBits(L.drop_front(N))) {
      auto [It, New] = OtherArch.insert({Name, Bits});
      if (!New)
        It->second &= Bits; // the weakest architecture's barrier
    }
  };
  std::string Line; // a logical line continued with backslashes, so far
  while (!Text.empty()) {
    auto [L, Rest] = Text.split('\n');
    Text = Rest;
    L = L.rtrim("\r");
    if (L.ends_with("\\")) {
      Line += L.drop_back();
      Line += ' ';
      continue;
    }
    if (Line.empty()) { // most lines: no copy
      Define(L);
      continue;
    }
    Line += L;
    Define(Line);
    Line.clear();
  }
  if (!Line.empty())
    Define(Line);
}

std::unique_ptr<PPCallbacks> MacroIndex::createCallbacks() {
  return std::make_unique<MacroIndexCallbacks>(*this);
}

bool MacroIndex::isStrong(const ApiEntry &E) {
  if (E.Mmio)
    return false; // a doorbell makes no section: rings are for the MP checks
  switch (E.R) {
  case Role::Load:
  case Role::Store:
  case Role::RMW:
    return E.Ord != Order::Once && E.Ord != Order::Plain;
  case Role::Barrier:
    return E.Barrier != BarrierKind::Compiler;
  case Role::Pure:
  case Role::SideEffect:
  case Role::Lock:
  case Role::Unlock:
    return false;
  default:
    return true; // seqcount API
  }
}

bool MacroIndex::hasInstanceIn(SourceRange R, bool StrongOnly) const {
  if (R.isInvalid())
    return false;
  const auto &Map = StrongOnly ? StrongSites : UseSites;
  auto [FB, OB] = SM.getDecomposedLoc(SM.getExpansionLoc(R.getBegin()));
  auto [FE, OE] = SM.getDecomposedLoc(SM.getExpansionRange(R.getEnd()).getEnd());
  if (FB != FE)
    return true; // a body spread over files: do not guess
  auto It = Map.find(FB);
  if (It == Map.end())
    return false;
  auto L = std::lower_bound(It->second.begin(), It->second.end(), OB);
  return L != It->second.end() && *L <= OE;
}

const MacroInstance *MacroIndex::instanceAt(SourceLocation L) const {
  if (!L.isMacroID() || Instances.empty())
    return nullptr;
  // A token from a macro argument was written by the caller: continue from
  // where it was spelled (per token). A token from a macro body belongs to
  // that macro; every token of one body expansion shares the rest of the
  // chain, so that part is memoised per FileID. One FileID lookup per step.
  for (unsigned Steps = 0; L.isMacroID() && Steps < 64; ++Steps) {
    auto [F, Off] = SM.getDecomposedLoc(L);
    const SrcMgr::ExpansionInfo &X = SM.getSLocEntry(F).getExpansion();
    if (!X.isMacroArgExpansion())
      return bodyInstance(F);
    L = X.getSpellingLoc().getLocWithOffset(Off);
  }
  return nullptr;
}

const MacroInstance *MacroIndex::bodyInstance(FileID F) const {
  auto C = BodyCache.find(F);
  if (C != BodyCache.end())
    return C->second;
  SourceLocation Use = SM.getSLocEntry(F).getExpansion().getExpansionLocStart();
  // Outermost known instance wins: look further up first.
  const MacroInstance *Found = instanceAt(Use);
  if (!Found) {
    auto It = Instances.find(Use);
    if (It != Instances.end())
      Found = It->second.get();
  }
  BodyCache[F] = Found;
  return Found;
}

int MacroIndex::argumentIndex(const MacroInstance &I, SourceLocation L) const {
  // Every location on the way up from L: an argument token is one of them.
  SourceLocation Cur = L;
  for (unsigned Steps = 0; Cur.isValid() && Steps < 64; ++Steps) {
    auto [F, Off] = SM.getDecomposedLoc(Cur);
    for (unsigned A = 0; A != I.ArgRanges.size(); ++A) {
      const MacroInstance::Range &R = I.ArgRanges[A];
      if (R.File == F && Off >= R.Begin && Off <= R.End)
        return A;
    }
    if (!Cur.isMacroID())
      break;
    const SrcMgr::ExpansionInfo &X = SM.getSLocEntry(F).getExpansion();
    Cur = X.isMacroArgExpansion() ? X.getSpellingLoc().getLocWithOffset(Off)
                                  : X.getExpansionLocStart();
  }
  return -1;
}

} // namespace seqlint
