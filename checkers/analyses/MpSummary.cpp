//===- MpSummary.cpp - message-passing sides across translation units -----===//
//
// The summary of one TU is a small JSON file:
//
//   {"seqlint-summary": 1,
//    "checks": ["barrier-unpaired"],          // the message-passing checks on
//    "spellings": ["smp_wmb()", "smp_rmb()", "smp_store_release()",
//                  "smp_load_acquire()"],
//    "files": ["/abs/include/ev.h", "/abs/ev.c"],
//    "main": "/abs/ev.c",                     // the TU's main file
//    "excluded": [<id>...], "ordered": [<id>...],
//    "sides": [{"writer": true, "fn": <fn>, "fnName": "ev_post",
//               "flag": <id>, "flagName": "e->posted",
//               "flagLoc": [file, line, col], "flagSpelling": "WRITE_ONCE()",
//               "tested": false,
//               "signalHandler": true,    // only when set
//               "quiet": true,            // only when set: MpSide::Quiet
//               "originLoc": [...],       // a flag store in a helper
//               "data": [{"id": <id>, "rel": 1, "marked": false,
//                         "loc": [...], "name": "e->code", "by": 0,
//                         "byLoc": [...], "bySpelling": "WRITE_ONCE()",
//                         "otherBarrier": true}],     // only when set
//               "fix": {"begin": [file, line, col], "end": [line, col],
//                       "text": "smp_wmb();\n\t"}}]}
//
// <id> names a field by the record that declares it (its file and position,
// so two drivers' `struct priv` stay apart, and its name) or a global with
// external linkage by its name; <fn> names a function by its definition's
// position. Locations are file locations (where clang shows a diagnostic).
//
//===----------------------------------------------------------------------===//
#include "analyses/MessagePassing.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace {

constexpr int SummaryVersion = 1;

/// A file location: where clang shows a diagnostic at Loc.
struct Position {
  std::string Path; // absolute
  unsigned Line = 0, Col = 0;
};

/// Writes locations as [file index, line, column] against a file table that
/// holds the files of the locations written, in the order written.
class LocWriter {
public:
  explicit LocWriter(const SourceManager &SM) : SM(SM) {}

  /// [file, line, col], or null when Loc has no file.
  json::Value loc(SourceLocation Loc) {
    std::optional<Position> P = position(Loc);
    if (!P)
      return nullptr;
    return json::Array{fileIndex(P->Path), P->Line, P->Col};
  }

  unsigned fileIndex(const std::string &Path) {
    auto [It, New] = Index.try_emplace(Path, Files.size());
    if (New)
      Files.push_back(Path);
    return It->second;
  }

  std::optional<Position> position(SourceLocation Loc) const {
    if (Loc.isInvalid())
      return std::nullopt;
    Loc = SM.getFileLoc(Loc);
    auto [FID, Off] = SM.getDecomposedLoc(Loc);
    std::string Path = pathOf(FID);
    if (Path.empty())
      return std::nullopt;
    return Position{std::move(Path), SM.getLineNumber(FID, Off),
                    SM.getColumnNumber(FID, Off)};
  }

  /// The absolute path of FID's file ("" for <built-in>, <scratch space>).
  std::string pathOf(FileID FID) const {
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
    if (!FE)
      return "";
    StringRef Real = FE->getFileEntry().tryGetRealPathName();
    if (!Real.empty())
      return Real.str();
    SmallString<256> P(FE->getName());
    SM.getFileManager().makeAbsolutePath(P);
    sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  }

  std::vector<std::string> Files;

private:
  const SourceManager &SM;
  StringMap<unsigned> Index;
};

/// The program-wide identity of a field or global, "" if it has none: a
/// static global is a different object in every TU.
std::string declKey(const ValueDecl *D, const LocWriter &LW) {
  if (const auto *FD = dyn_cast<FieldDecl>(D)) {
    const RecordDecl *RD = FD->getParent();
    if (const RecordDecl *Def = RD->getDefinition())
      RD = Def;
    std::optional<Position> P = LW.position(RD->getLocation());
    if (!P)
      return "";
    std::string Name = RD->getName().str();
    if (Name.empty())
      if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
        Name = TD->getName().str();
    return formatv("F:{0}:{1}:{2}:{3}.{4}", P->Path, P->Line, P->Col, Name,
                   FD->getName())
        .str();
  }
  if (const auto *VD = dyn_cast<VarDecl>(D))
    if (VD->hasGlobalStorage() && !VD->isStaticLocal() &&
        VD->isExternallyVisible() && VD->getIdentifier())
      return ("G:" + VD->getName()).str();
  return "";
}

/// The program-wide identity of an MpId of this TU (a FieldDecl or a
/// VarDecl).
std::string idKey(MpId Id, const LocWriter &LW) {
  return declKey(static_cast<const ValueDecl *>(Id), LW);
}

std::string fnKey(const void *Fn, const LocWriter &LW) {
  const auto *FD = static_cast<const FunctionDecl *>(Fn);
  std::optional<Position> P =
      FD ? LW.position(FD->getLocation()) : std::nullopt;
  if (!P)
    return "";
  return formatv("{0}:{1}:{2}:{3}", P->Path, P->Line, P->Col,
                 FD->getNameAsString())
      .str();
}

} // namespace

bool MpCollector::writeSummary(StringRef Path, const SourceManager &SM,
                               ArrayRef<std::string> Checks,
                               std::string &Err) const {
  LocWriter LW(SM);
  const LangOptions LO;
  // Returned by value: a reference into the map would not survive the
  // next insertion.
  DenseMap<MpId, std::string> KeyCache;
  auto Key = [&](MpId Id) -> std::string {
    auto [It, New] = KeyCache.try_emplace(Id);
    if (New)
      It->second = idKey(Id, LW);
    return It->second;
  };

  json::Array SidesOut;
  for (const MpSide &S : Sides) {
    std::string Flag = Key(S.Flag.Leaf);
    // What holds the flag, when it has a program-wide identity: without
    // one (a static global), the flag may be any instance, as a field
    // reached through a pointer.
    std::string FlagHolder = S.Flag.Outer ? Key(S.Flag.Outer) : "";
    std::string Fn = fnKey(S.Fn, LW);
    json::Value FlagLoc = LW.loc(S.FlagLoc);
    if (Flag.empty() || Fn.empty() || FlagLoc.getAsNull())
      continue; // nothing another TU could match
    json::Array Data;
    for (const MpData &D : S.Data) {
      std::string Id = Key(D.Id.Leaf);
      std::string Holder = D.Id.Outer ? Key(D.Id.Outer) : "";
      json::Value Loc = LW.loc(D.Loc), ByLoc = LW.loc(D.ByLoc);
      if (Id.empty() || Loc.getAsNull() || ByLoc.getAsNull())
        continue;
      Data.push_back(json::Object{{"id", Id},
                                  {"rel", D.Rel},
                                  {"marked", D.Marked},
                                  {"loc", std::move(Loc)},
                                  {"name", D.Name},
                                  {"by", static_cast<unsigned>(D.By)},
                                  {"byLoc", std::move(ByLoc)},
                                  {"bySpelling", D.BySpelling}});
      if (D.OtherBarrier)
        Data.back().getAsObject()->try_emplace("otherBarrier", true);
      if (!Holder.empty())
        Data.back().getAsObject()->try_emplace("holder", Holder);
    }
    if (Data.empty())
      continue;
    json::Object Side{{"writer", S.Writer},
                      {"fn", Fn},
                      {"fnName", S.FnName},
                      {"flag", Flag},
                      {"flagName", S.FlagName},
                      {"flagLoc", std::move(FlagLoc)},
                      {"flagSpelling", S.FlagSpelling},
                      {"tested", S.Tested},
                      {"data", std::move(Data)}};
    if (S.SignalHandler)
      Side.try_emplace("signalHandler", true);
    if (S.Quiet)
      Side.try_emplace("quiet", true);
    if (S.Origin.isValid())
      if (json::Value O = LW.loc(S.Origin); !O.getAsNull())
        Side.try_emplace("originLoc", std::move(O));
    if (S.Fix) {
      CharSourceRange R = Lexer::makeFileCharRange(S.Fix->RemoveRange, SM, LO);
      std::optional<Position> B, E;
      if (R.isValid() && (B = LW.position(R.getBegin())) &&
          (E = LW.position(R.getEnd())) && B->Path == E->Path)
        Side["fix"] = json::Object{
            {"begin", json::Array{LW.fileIndex(B->Path), B->Line, B->Col}},
            {"end", json::Array{E->Line, E->Col}},
            {"text", S.Fix->CodeToInsert}};
    }
    if (!FlagHolder.empty())
      Side["flagHolder"] = FlagHolder;
    SidesOut.push_back(std::move(Side));
  }
  auto KeyList = [&](const DenseSet<MpId> &Ids) {
    std::vector<std::string> Keys;
    for (MpId Id : Ids)
      if (std::string K = Key(Id); !K.empty())
        Keys.push_back(K);
    llvm::sort(Keys);
    json::Array A;
    for (std::string &K : Keys)
      A.push_back(std::move(K));
    return A;
  };
  const MpSpellings &Sp = Units.empty() ? spellings(MpSide()) : Units.front();
  json::Object Out{
      {"seqlint-summary", SummaryVersion},
      {"checks", json::Array(Checks)},
      {"spellings", json::Array{Sp.Wmb, Sp.Rmb, Sp.Release, Sp.Acquire}},
      {"excluded", KeyList(Excluded)},
      {"ordered", KeyList(OrderedIds)},
      {"sides", std::move(SidesOut)}};
  Out["files"] = json::Array(LW.Files);
  Out["main"] = LW.pathOf(SM.getMainFileID());

  // A temporary file next to the summary, renamed over it: a reader never
  // sees half a summary.
  SmallString<256> Tmp;
  int FD;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Tmp)) {
    Err = "cannot write summary '" + Path.str() + "': " + EC.message();
    return false;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << json::Value(std::move(Out)) << "\n";
    OS.close();
    if (OS.has_error()) {
      Err =
          "cannot write summary '" + Path.str() + "': " + OS.error().message();
      OS.clear_error();
      sys::fs::remove(Tmp);
      return false;
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Path)) {
    Err = "cannot write summary '" + Path.str() + "': " + EC.message();
    sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

namespace {

/// Reads the summary's JSON into sides, with the errors of a malformed file.
class SummaryReader {
public:
  SummaryReader(SourceManager &SM, std::string &Err) : SM(SM), Err(Err) {}

  bool fail(const Twine &What) {
    Err = What.str();
    return false;
  }

  bool files(const json::Array *A) {
    if (!A)
      return fail("no \"files\" array");
    for (const json::Value &V : *A) {
      std::optional<StringRef> P = V.getAsString();
      if (!P)
        return fail("\"files\" holds a non-string");
      FileID FID;
      if (OptionalFileEntryRef FE = SM.getFileManager().getOptionalFileRef(*P))
        FID = SM.getOrCreateFileID(*FE, SrcMgr::C_User);
      Files.push_back(FID); // invalid: the file is gone
    }
    return true;
  }

  /// [file, line, col] (or [line, col] in File) to a location; Missing is
  /// set when the file no longer exists.
  bool loc(const json::Value *V, SourceLocation &Out, bool &Missing,
           std::optional<unsigned> File = std::nullopt) {
    const json::Array *A = V ? V->getAsArray() : nullptr;
    size_t N = File ? 2 : 3;
    if (!A || A->size() != N)
      return fail("a location is not [file, line, column]");
    std::optional<int64_t> X[3];
    for (size_t I = 0; I != N; ++I)
      if (!(X[I] = (*A)[I].getAsInteger()) || *X[I] < 0 || *X[I] > (1 << 30))
        return fail("a location holds a non-integer");
    int64_t F = File ? *File : *X[0];
    int64_t L = *X[N - 2], C = *X[N - 1];
    if (F >= (int64_t)Files.size())
      return fail("a location names file " + Twine(F) + " of " +
                  Twine(Files.size()));
    if (!L || !C)
      return fail("a location has line or column 0");
    LastFile = F;
    if (Files[F].isInvalid()) {
      Missing = true;
      return true;
    }
    Out = SM.translateLineCol(Files[F], L, C);
    return true;
  }

  static bool str(const json::Object &O, StringRef K, std::string &Out) {
    if (std::optional<StringRef> S = O.getString(K)) {
      Out = S->str();
      return true;
    }
    return false;
  }

  SourceManager &SM;
  std::string &Err;
  std::vector<FileID> Files;
  unsigned LastFile = 0;
};

} // namespace

bool MpCollector::readSummary(StringRef Path, SourceManager &SM,
                              std::vector<std::string> &Checks,
                              std::string &Err) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    Err =
        "cannot read summary '" + Path.str() + "': " + Buf.getError().message();
    return false;
  }
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V) {
    Err = "'" + Path.str() +
          "' is not a seqlint summary: " + toString(V.takeError());
    return false;
  }
  std::string Why;
  SummaryReader R(SM, Why);
  auto Bad = [&]() {
    Err = "'" + Path.str() + "' is not a seqlint summary: " + Why;
    return false;
  };
  const json::Object *Top = V->getAsObject();
  if (!Top)
    return R.fail("not a JSON object"), Bad();
  std::optional<int64_t> Ver = Top->getInteger("seqlint-summary");
  if (!Ver)
    return R.fail("no \"seqlint-summary\" version"), Bad();
  if (*Ver != SummaryVersion) {
    Err = "'" + Path.str() + "' is a summary of version " +
          std::to_string(*Ver) + "; this seqlint reads version " +
          std::to_string(SummaryVersion) +
          " (write the summaries again with this plugin)";
    return false;
  }
  if (!R.files(Top->getArray("files")))
    return Bad();

  MpSpellings Sp;
  const json::Array *SpA = Top->getArray("spellings");
  if (!SpA || SpA->size() != 4 ||
      llvm::any_of(*SpA, [](const json::Value &X) { return !X.getAsString(); }))
    return R.fail("\"spellings\" is not four strings"), Bad();
  Sp = {(*SpA)[0].getAsString()->str(), (*SpA)[1].getAsString()->str(),
        (*SpA)[2].getAsString()->str(), (*SpA)[3].getAsString()->str()};
  unsigned Unit = Units.size();

  auto Intern = [&](StringRef K) -> MpId {
    return Keys.insert(K).first->getKeyData();
  };
  std::vector<std::string> UnitChecks;
  for (StringRef ListName : {"checks", "excluded", "ordered"}) {
    const json::Array *A = Top->getArray(ListName);
    if (!A)
      return R.fail("no \"" + ListName + "\" array"), Bad();
    for (const json::Value &X : *A) {
      std::optional<StringRef> K = X.getAsString();
      if (!K || K->empty())
        return R.fail("\"" + ListName + "\" holds a non-string"), Bad();
      if (ListName == "checks")
        UnitChecks.push_back(K->str());
      else
        (ListName == "excluded" ? Excluded : OrderedIds).insert(Intern(*K));
    }
  }

  const json::Array *SidesIn = Top->getArray("sides");
  if (!SidesIn)
    return R.fail("no \"sides\" array"), Bad();
  std::vector<MpSide> New;
  for (const json::Value &SV : *SidesIn) {
    const json::Object *O = SV.getAsObject();
    if (!O)
      return R.fail("a side is not an object"), Bad();
    MpSide S;
    S.Unit = Unit;
    std::string Fn, Flag;
    std::optional<bool> W = O->getBoolean("writer"),
                        T = O->getBoolean("tested");
    if (!W || !T || !R.str(*O, "fn", Fn) || !R.str(*O, "fnName", S.FnName) ||
        !R.str(*O, "flag", Flag) || !R.str(*O, "flagName", S.FlagName) ||
        !R.str(*O, "flagSpelling", S.FlagSpelling))
      return R.fail("a side lacks writer, tested, fn, fnName, flag, flagName "
                    "or flagSpelling"),
             Bad();
    S.Writer = *W;
    S.Tested = *T;
    S.SignalHandler = O->getBoolean("signalHandler").value_or(false);
    S.Quiet = O->getBoolean("quiet").value_or(false);
    S.Fn = Intern(Fn);
    S.Flag.Leaf = Intern(Flag);
    if (std::optional<StringRef> H = O->getString("flagHolder"); H && !H->empty())
      S.Flag.Outer = Intern(*H);
    bool Missing = false;
    if (!R.loc(O->get("flagLoc"), S.FlagLoc, Missing))
      return Bad();
    if (const json::Value *OL = O->get("originLoc")) {
      bool OriginMissing = false;
      if (!R.loc(OL, S.Origin, OriginMissing))
        return Bad();
    }
    const json::Array *DA = O->getArray("data");
    if (!DA)
      return R.fail("a side has no \"data\" array"), Bad();
    for (const json::Value &DV : *DA) {
      const json::Object *DO = DV.getAsObject();
      MpData D;
      std::string Id;
      std::optional<int64_t> Rel = DO ? DO->getInteger("rel") : std::nullopt;
      std::optional<int64_t> By = DO ? DO->getInteger("by") : std::nullopt;
      std::optional<bool> Marked = DO ? DO->getBoolean("marked") : std::nullopt;
      if (!DO || !Rel || !By || !Marked || !R.str(*DO, "id", Id) ||
          !R.str(*DO, "name", D.Name) ||
          !R.str(*DO, "bySpelling", D.BySpelling))
        return R.fail("a datum lacks id, rel, marked, name, by or "
                      "bySpelling"),
               Bad();
      if (*Rel < 0 || *Rel > (RelSameObject | RelPointee | RelGlobals) ||
          *By < 0 || *By > static_cast<int64_t>(MpOrder::Dependency))
        return R.fail("a datum's \"rel\" or \"by\" is out of range"), Bad();
      D.Id.Leaf = Intern(Id);
      if (std::optional<StringRef> H = DO->getString("holder"); H && !H->empty())
        D.Id.Outer = Intern(*H);
      D.Rel = *Rel;
      D.Marked = *Marked;
      D.By = static_cast<MpOrder>(*By);
      D.OtherBarrier = DO->getBoolean("otherBarrier").value_or(false);
      if (!R.loc(DO->get("loc"), D.Loc, Missing) ||
          !R.loc(DO->get("byLoc"), D.ByLoc, Missing))
        return Bad();
      S.Data.push_back(std::move(D));
    }
    if (const json::Value *FV = O->get("fix")) {
      const json::Object *FO = FV->getAsObject();
      std::string Text;
      SourceLocation B, E;
      if (!FO || !R.str(*FO, "text", Text))
        return R.fail("a fix lacks its text"), Bad();
      bool FixMissing = false;
      if (!R.loc(FO->get("begin"), B, FixMissing) ||
          !R.loc(FO->get("end"), E, FixMissing, R.LastFile))
        return Bad();
      if (!FixMissing && B.isValid() && E.isValid())
        S.Fix = B == E ? FixItHint::CreateInsertion(B, Text)
                       : FixItHint::CreateReplacement(
                             CharSourceRange::getCharRange(B, E), Text);
    }
    if (!Missing && S.FlagLoc.isValid())
      New.push_back(std::move(S));
  }

  // Valid: take it in. A side of a header function comes from every TU
  // that analysed the function; keep one, and which TUs saw it.
  Units.push_back(std::move(Sp));
  UnitMains.resize(Unit); // indexed like Units
  UnitMains.push_back(Top->getString("main").value_or("").str());
  for (std::string &C : UnitChecks)
    if (!is_contained(Checks, C))
      Checks.push_back(std::move(C));
  for (MpSide &S : New) {
    std::string K = formatv("{0}|{1}|{2}", static_cast<const char *>(S.Fn),
                            S.FlagLoc.getRawEncoding(), S.Writer)
                        .str();
    auto [It, Fresh] = SideIndex.try_emplace(K, Sides.size());
    if (!Fresh) {
      if (!is_contained(Sides[It->second].SeenIn, Unit))
        Sides[It->second].SeenIn.push_back(Unit);
      Sides[It->second].SignalHandler |= S.SignalHandler;
      // Quiet only if every TU that saw it says so.
      Sides[It->second].Quiet &= S.Quiet;
      continue;
    }
    S.SeenIn.push_back(Unit);
    Sides.push_back(std::move(S));
  }
  return true;
}

std::string MpCollector::configurationsApart(const MpMatch &M) const {
  const auto &WU = M.W->SeenIn, &RU = M.R->SeenIn;
  if (WU.empty() || RU.empty())
    return "";
  StringRef Main;
  for (unsigned U : llvm::concat<const unsigned>(WU, RU)) {
    StringRef Mu = U < UnitMains.size() ? StringRef(UnitMains[U]) : "";
    if (Mu.empty() || (!Main.empty() && Mu != Main))
      return "";
    Main = Mu;
  }
  // (A unit that saw both sides judged the pair itself: match() leaves it.)
  return sys::path::filename(Main).str();
}

std::string programWideId(const ValueDecl *D, const SourceManager &SM) {
  LocWriter LW(SM);
  return declKey(D, LW);
}

} // namespace seqlint
