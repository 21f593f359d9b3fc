//===- SeqlintPlugin.cpp - seqlint as a clang -fplugin --------------------===//
//
// clang -fplugin=seqlint.so [-fplugin-arg-seqlint-checks=<globs>] ...
// Runs before the main action, so -c still produces the object file.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "Driver.h"
#include "core/MacroIndex.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace seqlint {
namespace {

const char *const ValidArgs =
    "checks=<globs>, help, no-werror, dump-events";

/// Reports findings through clang's DiagnosticsEngine. Custom diagnostics
/// ignore -Werror and -w on clang 19, so the level is chosen here from the
/// engine's state.
class DiagnosticSink : public FindingSink {
public:
  DiagnosticSink(DiagnosticsEngine &D, bool NoWerror) : D(D), NoWerror(NoWerror) {}

  void report(const Finding &F) override {
    if (D.getIgnoreAllWarnings())
      return;
    bool AsError = D.getWarningsAsErrors() && !NoWerror;
    unsigned ID = D.getCustomDiagID(
        AsError ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning, "%0");
    {
      DiagnosticBuilder B = D.Report(F.Loc, ID);
      B << (F.Message + " [seqlint-" + F.Check + "]");
      for (const FixItHint &H : F.FixIts)
        B << H;
    }
    unsigned Note = D.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    for (const auto &[Loc, Text] : F.Notes)
      D.Report(Loc, Note) << Text;
  }

private:
  DiagnosticsEngine &D;
  bool NoWerror;
};

class SeqlintConsumer : public ASTConsumer {
public:
  SeqlintConsumer(CompilerInstance &CI, DriverOptions Opts, bool NoWerror)
      : CI(CI), Opts(std::move(Opts)), NoWerror(NoWerror),
        Macros(CI.getSourceManager(), getApiModel()) {
    CI.getPreprocessor().addPPCallbacks(Macros.createCallbacks());
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    // Code that does not compile has an incomplete AST: clang has already
    // said what is wrong, and a finding on it could be wrong.
    if (D.hasErrorOccurred())
      return;
    DiagnosticSink Sink(D, NoWerror);
    runSeqlint(Ctx, Macros, Sink, Opts);
  }

private:
  CompilerInstance &CI;
  DriverOptions Opts;
  bool NoWerror;
  MacroIndex Macros;
};

class SeqlintAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    DriverOptions O;
    if (!O.Filter.parse(Checks).empty())
      return nullptr; // rejected in ParseArgs already
    O.DumpEvents = DumpEvents ? &llvm::errs() : nullptr;
    return std::make_unique<SeqlintConsumer>(CI, std::move(O), NoWerror);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &A : Args) {
      StringRef Arg(A);
      if (Arg.consume_front("checks=")) {
        CheckFilter F;
        std::string Err = F.parse(Arg);
        if (!Err.empty()) {
          D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                     "seqlint: invalid -fplugin-arg-seqlint-checks: %0"))
              << Err;
          return false;
        }
        if (!Checks.empty())
          Checks += ",";
        Checks += Arg.str();
      } else if (Arg == "help") {
        printHelp(llvm::outs());
      } else if (Arg == "no-werror") {
        NoWerror = true;
      } else if (Arg == "dump-events") {
        DumpEvents = true;
      } else {
        D.Report(D.getCustomDiagID(
            DiagnosticsEngine::Error,
            "seqlint: unknown plugin argument '%0'; valid arguments: %1"))
            << Arg << ValidArgs;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  static void printHelp(raw_ostream &OS) {
    OS << "seqlint: seqcount and memory-barrier checks for C\n"
          "usage: clang -fplugin=seqlint.so [-fplugin-arg-seqlint-<arg>] ...\n"
          "arguments:\n"
          "  checks=<globs>  clang-tidy style list, e.g. '-*,seqcount-read-*'\n"
          "  no-werror       keep seqlint findings warnings under -Werror\n"
          "  dump-events     print the event trace of every function (debug)\n"
          "  help            print this text\n"
          "checks (default on unless marked):\n";
    for (const CheckInfo &I : allChecks())
      OS << "  seqlint-" << I.Name << (I.DefaultOn ? "" : "  (off by default)")
         << "\n";
  }

  std::string Checks;
  bool NoWerror = false;
  bool DumpEvents = false;
};

} // namespace
} // namespace seqlint

static FrontendPluginRegistry::Add<seqlint::SeqlintAction>
    X("seqlint", "seqcount and memory-barrier checks");
