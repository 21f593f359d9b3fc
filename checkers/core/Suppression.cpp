//===- Suppression.cpp ----------------------------------------------------===//
#include "core/Suppression.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

bool globMatches(StringRef Pattern, StringRef Name) {
  // Iterative glob with backtracking on the last '*'.
  size_t P = 0, N = 0, Star = StringRef::npos, Mark = 0;
  while (N < Name.size()) {
    if (P < Pattern.size() && Pattern[P] == '*') {
      Star = P++;
      Mark = N;
    } else if (P < Pattern.size() && Pattern[P] == Name[N]) {
      ++P;
      ++N;
    } else if (Star != StringRef::npos) {
      P = Star + 1;
      N = ++Mark;
    } else {
      return false;
    }
  }
  while (P < Pattern.size() && Pattern[P] == '*')
    ++P;
  return P == Pattern.size();
}

static bool nameMatches(StringRef Glob, StringRef Check) {
  return globMatches(Glob, Check) || globMatches(Glob, ("seqlint-" + Check).str());
}

std::string CheckFilter::parse(StringRef Globs) {
  SmallVector<StringRef, 8> Parts;
  Globs.split(Parts, ',', -1, false);
  for (StringRef Part : Parts) {
    Part = Part.trim();
    if (Part.empty())
      continue;
    bool Positive = !Part.consume_front("-");
    Part = Part.trim();
    if (Part.empty())
      return "empty check name after '-'";
    for (char C : Part)
      if (!isAlnum(C) && C != '-' && C != '_' && C != '*' && C != '.')
        return ("invalid character '" + Twine(C) + "' in check glob '" + Part + "'").str();
    Entries.push_back({Positive, Part.str()});
  }
  return "";
}

bool CheckFilter::isEnabled(StringRef Check, bool DefaultOn) const {
  bool On = DefaultOn;
  for (const auto &[Positive, Glob] : Entries)
    if (nameMatches(Glob, Check))
      On = Positive;
  return On;
}

std::string CheckFilter::unmatchedGlob(ArrayRef<std::string> Known) const {
  for (const auto &Entry : Entries)
    if (llvm::none_of(Known, [&](const std::string &Name) {
          return nameMatches(Entry.second, Name);
        }))
      return Entry.second;
  return "";
}

bool nolintListCovers(StringRef List, StringRef Check) {
  SmallVector<StringRef, 4> Parts;
  List.split(Parts, ',', -1, false);
  for (StringRef Part : Parts)
    if (nameMatches(Part.trim(), Check))
      return true;
  return false;
}

/// Parses "NOLINT...(list)" at Text; returns true and the list ("" = all).
static bool parseNolint(StringRef After, std::string &List) {
  if (After.starts_with("(")) {
    size_t Close = After.find(')');
    if (Close == StringRef::npos)
      return false;
    List = After.substr(1, Close - 1).trim().str();
    if (List.empty())
      List = "*";
    return true;
  }
  List = "";
  return true;
}

const std::vector<Suppressions::Region> &Suppressions::regionsFor(FileID F) {
  auto It = Regions.find(F);
  if (It != Regions.end())
    return It->second;
  std::vector<Region> &Out = Regions[F];
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(F, &Invalid);
  if (Invalid)
    return Out;
  SmallVector<std::pair<unsigned, std::string>, 4> Open;
  unsigned Line = 1;
  size_t Pos = 0;
  while (Pos <= Buf.size()) {
    size_t NL = Buf.find('\n', Pos);
    StringRef L = Buf.slice(Pos, NL == StringRef::npos ? Buf.size() : NL);
    size_t At = 0;
    while ((At = L.find("NOLINT", At)) != StringRef::npos) {
      StringRef Rest = L.drop_front(At + 6);
      std::string List;
      if (Rest.starts_with("BEGIN")) {
        if (parseNolint(Rest.drop_front(5), List))
          Open.push_back({Line, List});
      } else if (Rest.starts_with("END")) {
        if (parseNolint(Rest.drop_front(3), List)) {
          for (size_t I = Open.size(); I-- > 0;)
            if (Open[I].second == List) {
              Out.push_back({Open[I].first, Line, List});
              Open.erase(Open.begin() + I);
              break;
            }
        }
      } else if (Rest.starts_with("NEXTLINE")) {
        if (parseNolint(Rest.drop_front(8), List))
          Out.push_back({Line + 1, Line + 1, List});
      } else if (parseNolint(Rest, List)) {
        Out.push_back({Line, Line, List});
      }
      At += 6;
    }
    if (NL == StringRef::npos)
      break;
    Pos = NL + 1;
    ++Line;
  }
  return Out;
}

bool Suppressions::isSuppressed(SourceLocation Loc, StringRef Check) {
  if (Loc.isInvalid())
    return false;
  Loc = SM.getFileLoc(Loc);
  FileID F = SM.getFileID(Loc);
  unsigned Line = SM.getSpellingLineNumber(Loc);
  for (const Region &R : regionsFor(F))
    if (Line >= R.Begin && Line <= R.End &&
        (R.Checks.empty() || nolintListCovers(R.Checks, Check)))
      return true;
  return false;
}

} // namespace seqlint
