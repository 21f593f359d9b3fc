//===- SeqlintTidyModule.cpp - seqlint as a clang-tidy module -------------===//
//
// clang-tidy --load=seqlint-tidy.so --checks='-*,seqlint-*' file.c -- <flags>
//
// A thin adapter: one ClangTidyCheck per seqlint check (seqlint-<name>), all
// of them sharing one run of the seqlint driver per translation unit. The
// analysis itself lives in seqlint_checkers, the same code the compiler
// plugin runs; nothing here knows what a seqcount is.
//
//   registerPPCallbacks  the first seqlint check of a TU creates the shared
//                        TUState (the .seqlint.yaml APIs, as the plugin
//                        finds them, and the MacroIndex, which must see the
//                        whole preprocessing); the others join it.
//   registerMatchers     every check matches translationUnitDecl().
//   check()              the first check to be called runs runSeqlint once,
//                        with exactly the instantiated checks enabled, and
//                        routes each Finding to its owning check's diag().
//
// NOLINT, --checks, .clang-tidy, -warnings-as-errors, --export-fixes and
// header filtering are clang-tidy's own: the driver runs with ApplyNolint off.
// For the same reason the Checks: of .seqlint.yaml is not applied here (its
// APIs are): clang-tidy's --checks and .clang-tidy choose the checks.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "Driver.h"
#include "core/Compat.h"
#include "core/Config.h"
#include "core/MacroIndex.h"
#include "../HostVersion.h"

#include "ClangTidyCheck.h"
#include "ClangTidyModule.h"
#include SEQLINT_CLANG_TIDY_REGISTRY_HEADER // ClangTidyModuleRegistry
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <mutex>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy;

namespace seqlint {
namespace {

class SeqlintTidyCheck;

/// What the seqlint checks of one translation unit share. Owned jointly by
/// those checks (clang-tidy creates a fresh set of checks for every TU, so
/// the state dies with the TU).
struct TUState {
  TUState(const SourceManager &SM, std::unique_ptr<ApiModel> M,
          std::string ConfigError)
      : Model(std::move(M)), ConfigError(std::move(ConfigError)),
        Macros(SM, Model ? *Model : getApiModel()) {}

  std::unique_ptr<ApiModel> Model; // built-in + .seqlint.yaml APIs, if any
  std::string ConfigError;         // .seqlint.yaml could not be read
  MacroIndex Macros;
  /// Instantiated seqlint checks of this TU, by seqlint name (no prefix).
  llvm::StringMap<SeqlintTidyCheck *> Owners;
  /// The ASTContext the analysis ran on, once it has run.
  const ASTContext *Analysed = nullptr;
};

/// Finds the TUState of a preprocessor. Checks of one TU join the state of
/// their preprocessor; a later TU has another preprocessor (and the state of
/// an earlier one has expired with its checks).
class TUStateRegistry {
public:
  static std::shared_ptr<TUState> join(const Preprocessor *PP,
                                       const SourceManager &SM, bool &Created) {
    static TUStateRegistry R;
    std::lock_guard<std::mutex> Lock(R.M);
    // Drop the states of finished TUs.
    for (auto It = R.States.begin(); It != R.States.end();) {
      auto Cur = It++;
      if (Cur->second.expired())
        R.States.erase(Cur);
    }
    std::weak_ptr<TUState> &Slot = R.States[PP];
    if (std::shared_ptr<TUState> S = Slot.lock()) {
      Created = false;
      return S;
    }
    std::string ConfigError;
    std::unique_ptr<ApiModel> Model = loadModel(SM, ConfigError);
    auto S = std::make_shared<TUState>(SM, std::move(Model), std::move(ConfigError));
    Slot = S;
    Created = true;
    return S;
  }

private:
  /// The ApiModel with the APIs of the .seqlint.yaml nearest above the main
  /// file (null if there is none or it adds no API), as the plugin loads it.
  static std::unique_ptr<ApiModel> loadModel(const SourceManager &SM,
                                             std::string &Error) {
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    if (!Main)
      return nullptr;
    std::string Path = findConfig(Main->getName());
    if (Path.empty())
      return nullptr;
    Config Cfg;
    if (!loadConfig(Path, Cfg, Error))
      return nullptr;
    if (!Cfg.extendsModel())
      return nullptr;
    return std::make_unique<ApiModel>(Cfg.model());
  }

  std::mutex M;
  llvm::DenseMap<const Preprocessor *, std::weak_ptr<TUState>> States;
};

class SeqlintTidyCheck : public ClangTidyCheck {
public:
  SeqlintTidyCheck(StringRef TidyName, StringRef SeqlintName, bool DefaultOn,
                   ClangTidyContext *Context)
      : ClangTidyCheck(TidyName, Context), SeqlintName(SeqlintName.str()),
        Runs(DefaultOn || namedIn(Context->getOptions().Checks, TidyName)) {}

  /// The plugin's default set holds in clang-tidy too: `seqlint-*` (and any
  /// other wildcard) enables the checks that are on by default, and a check
  /// that is off by default runs only when the check list names it.
  /// clang-tidy drops a check that is not supported for the language, so an
  /// unnamed off-by-default check is never created.
  bool isLanguageVersionSupported(const LangOptions &) const override {
    return Runs;
  }

  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override {
    // The real preprocessor, as in the plugin: its locations are those of
    // the AST. (ModuleExpanderPP, used only when clang-tidy expands modular
    // C++ headers, has a SourceManager of its own.)
    Preprocessor *P = PP;
    bool Created = false;
    State = TUStateRegistry::join(P, SM, Created);
    if (Created)
      P->addPPCallbacks(State->Macros.createCallbacks());
    State->Owners[SeqlintName] = this;
  }

  void registerMatchers(MatchFinder *Finder) override {
    Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  }

  void check(const MatchFinder::MatchResult &Result) override {
    if (!State || !Result.Context)
      return;
    ASTContext &Ctx = *Result.Context;
    if (State->Analysed == &Ctx)
      return; // another seqlint check of this TU ran the analysis
    State->Analysed = &Ctx;
    // Code that does not compile has an incomplete AST: clang has already
    // said what is wrong, and a finding on it could be wrong.
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    // A broken .seqlint.yaml: say so (once per TU) rather than analyse
    // without the user's APIs and report wrong findings.
    if (!State->ConfigError.empty()) {
      configurationDiag("seqlint: %0", DiagnosticIDs::Error) << State->ConfigError;
      return;
    }

    DriverOptions Opts;
    std::string Globs = "-*";
    for (const auto &E : State->Owners)
      Globs += "," + E.getKey().str();
    if (!Opts.Filter.parse(Globs).empty())
      return;
    Opts.ApplyNolint = false; // clang-tidy applies NOLINT itself

    Router Sink(*State);
    runSeqlint(Ctx, State->Macros, Sink, Opts);
  }

private:
  /// Sends each finding to the check that owns it, so clang-tidy names,
  /// filters and counts it as that check's.
  class Router : public FindingSink {
  public:
    explicit Router(TUState &S) : S(S) {}
    void report(const Finding &F) override {
      auto It = S.Owners.find(F.Check);
      if (It == S.Owners.end())
        return;
      It->second->emit(F);
    }

  private:
    TUState &S;
  };

  void emit(const Finding &F) {
    {
      DiagnosticBuilder B = diag(F.Loc, "%0");
      B << F.Message;
      for (const FixItHint &H : F.FixIts)
        B << H;
    }
    for (const auto &[Loc, Text] : F.Notes)
      diag(Loc, "%0", DiagnosticIDs::Note) << Text;
  }

  /// Does the clang-tidy check list name Check itself, not through a
  /// wildcard, in a positive entry? (A later negative entry that matches it
  /// keeps clang-tidy from creating the check at all.)
  static bool namedIn(const std::optional<std::string> &Checks,
                      StringRef Check) {
    if (!Checks)
      return false;
    SmallVector<StringRef, 16> Parts;
    StringRef(*Checks).split(Parts, ',', -1, false);
    return llvm::any_of(Parts, [&](StringRef P) { return P.trim() == Check; });
  }

  std::string SeqlintName;
  bool Runs;
  std::shared_ptr<TUState> State;
};

class SeqlintTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    for (const CheckInfo &I : allChecks()) {
      std::string SeqlintName = I.Name;
      std::string TidyName = "seqlint-" + SeqlintName;
      bool DefaultOn = I.DefaultOn;
      CheckFactories.registerCheckFactory(
          TidyName, [TidyName, SeqlintName, DefaultOn](StringRef,
                                                       ClangTidyContext *Context) {
            return std::make_unique<SeqlintTidyCheck>(TidyName, SeqlintName,
                                                      DefaultOn, Context);
          });
    }
  }
};

} // namespace
} // namespace seqlint

// Before the registration below (initialised in declaration order): a
// module of another Clang major must not reach clang-tidy's registry.
static const bool HostChecked =
    (seqlint::checkHostVersion("clang-tidy module", "clang-tidy"), true);
static ClangTidyModuleRegistry::Add<seqlint::SeqlintTidyModule>
    X("seqlint-module", "seqcount and memory-barrier checks (seqlint-*)");
