//===- SeqlintPlugin.cpp - seqlint as a clang -fplugin --------------------===//
//
// clang -fplugin=seqlint.so [-fplugin-arg-seqlint-checks=<globs>] ...
// Runs before the main action, so -c still produces the object file.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "Driver.h"
#include "HostVersion.h"
#include "core/Config.h"
#include "core/Dataflow.h"
#include "core/Compat.h"
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
    "checks=<globs>, config=<file>, summary=<file|dir>, join=<file|dir>, "
    "counters=<file>, known-counters=<file>, help, list-checks, no-werror, "
    "dump-events, stats, remarks, dataflow-budget=<n>";

/// Reports findings through clang's DiagnosticsEngine. Where clang can put a
/// custom diagnostic into a -W group (22), findings are warnings in
/// compat::FindingGroup and clang applies -Werror, -w, -Wno-<group>,
/// -Wno-error=<group> and pragmas itself. Elsewhere (19) custom diagnostics
/// ignore those flags, so the level is chosen here from the engine's state.
class DiagnosticSink : public FindingSink {
public:
  DiagnosticSink(DiagnosticsEngine &D, bool NoWerror) : D(D), NoWerror(NoWerror) {}

  /// The diagnostic ID for a finding at Loc; 0 if it is silenced.
  unsigned findingID(SourceLocation Loc) {
    if (unsigned Grouped = compat::getGroupedWarningID(D, "%0")) {
      DiagnosticsEngine::Level L = D.getDiagnosticLevel(Grouped, Loc);
      if (L == DiagnosticsEngine::Ignored)
        return 0;
      // no-werror: an ungrouped custom warning is never promoted by -Werror.
      if (L >= DiagnosticsEngine::Error && NoWerror)
        return D.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
      return Grouped;
    }
    if (D.getIgnoreAllWarnings())
      return 0;
    bool AsError = D.getWarningsAsErrors() && !NoWerror;
    return D.getCustomDiagID(
        AsError ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning, "%0");
  }

  void report(const Finding &F) override {
    unsigned ID = findingID(F.Loc);
    if (!ID)
      return;
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
  SeqlintConsumer(CompilerInstance &CI, DriverOptions Opts, bool NoWerror,
                  bool Stats, bool Remarks, std::unique_ptr<ApiModel> Model)
      : CI(CI), Opts(std::move(Opts)), NoWerror(NoWerror), Stats(Stats),
        Remarks(Remarks), Model(std::move(Model)),
        Macros(CI.getSourceManager(), this->Model ? *this->Model : getApiModel()) {
    CI.getPreprocessor().addPPCallbacks(Macros.createCallbacks());
    // Before parsing, so that the source's #pragma clang diagnostic applies.
    compat::registerGroupedWarning(CI.getDiagnostics(),
                                   CI.getDiagnosticOpts().Warnings, "%0");
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    // Code that does not compile has an incomplete AST: clang has already
    // said what is wrong, and a finding on it could be wrong.
    if (D.hasErrorOccurred())
      return;
    DiagnosticSink Sink(D, NoWerror);
    // A join run analyses no translation unit: nothing to count.
    CoverageStats Counted;
    if (Stats && Opts.JoinPaths.empty())
      Opts.Stats = &Counted;
    std::vector<DataflowCut> Cuts;
    if (Remarks)
      Opts.DataflowCuts = &Cuts;
    std::string Err = runSeqlint(Ctx, Macros, Sink, Opts);
    if (Opts.Stats)
      Counted.print(llvm::errs());
    Opts.Stats = nullptr;
    Opts.DataflowCuts = nullptr;
    unsigned Remark = Cuts.empty() ? 0 : D.getCustomDiagID(
        DiagnosticsEngine::Remark,
        "seqlint: the %0 analysis of '%1' stopped at its budget of %2 block "
        "visits before reaching a fixpoint; findings in it may be missing");
    for (const DataflowCut &C : Cuts)
      D.Report(C.FD->getLocation(), Remark)
          << C.Analysis << C.FD->getName() << C.Budget;
    if (!Err.empty())
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "seqlint: %0"))
          << Err;
  }

private:
  CompilerInstance &CI;
  DriverOptions Opts;
  bool NoWerror;
  bool Stats; // print the coverage line (-fplugin-arg-seqlint-stats)
  bool Remarks; // a remark for each analysis cut at its budget
  std::unique_ptr<ApiModel> Model; // built-in + .seqlint.yaml APIs, if any
  MacroIndex Macros;
};

/// Does nothing: stands in when the configuration could not be read.
class NullConsumer : public ASTConsumer {};

class SeqlintAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    // .seqlint.yaml: the one given, or the nearest above the source file.
    std::string Path = ConfigPath;
    if (Path.empty() && !CI.getFrontendOpts().Inputs.empty() &&
        CI.getFrontendOpts().Inputs[0].isFile())
      Path = findConfig(CI.getFrontendOpts().Inputs[0].getFile());
    Config Cfg;
    std::unique_ptr<ApiModel> Model;
    if (!Path.empty()) {
      std::string Err;
      if (!loadConfig(Path, Cfg, Err)) {
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "seqlint: %0")) << Err;
        return std::make_unique<NullConsumer>();
      }
      if (Cfg.extendsModel())
        Model = std::make_unique<ApiModel>(Cfg.model());
    }
    DriverOptions O;
    std::string Err = O.Filter.parse(Cfg.Checks);
    if (Err.empty())
      Err = checkGlobsError(O.Filter);
    if (!Err.empty()) {
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "seqlint: %0: Checks: %1"))
          << Path << Err;
      return std::make_unique<NullConsumer>();
    }
    O.Filter.parse(Checks); // validated in ParseArgs; applied after the file
    Err = noCheckEnabledError(O.Filter);
    if (!Err.empty()) {
      std::string From;
      if (!Cfg.Checks.empty())
        From = "'Checks: " + Cfg.Checks + "' in " + Path;
      if (!Checks.empty())
        From += (From.empty() ? "" : " then ") +
                ("-fplugin-arg-seqlint-checks=" + Checks);
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "seqlint: %0: %1"))
          << From << Err;
      return std::make_unique<NullConsumer>();
    }
    if (ListChecks) {
      // As clang-tidy --list-checks prints them.
      llvm::outs() << "Enabled checks:\n";
      for (const std::string &Name : enabledChecks(O.Filter))
        llvm::outs() << "    seqlint-" << Name << "\n";
      llvm::outs() << "\n";
      llvm::outs().flush();
      return std::make_unique<NullConsumer>();
    }
    O.DumpEvents = DumpEvents ? &llvm::errs() : nullptr;
    O.SummaryPath = SummaryPath;
    O.JoinPaths = JoinPaths;
    O.CountersOut = CountersPath;
    O.KnownCountersIn = KnownCountersPath;
    O.DataflowBudget = DataflowBudget;
    return std::make_unique<SeqlintConsumer>(CI, std::move(O), NoWerror, Stats,
                                             Remarks, std::move(Model));
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &A : Args) {
      StringRef Arg(A);
      if (Arg.consume_front("checks=")) {
        CheckFilter F;
        std::string Err = F.parse(Arg);
        if (Err.empty())
          Err = checkGlobsError(F);
        if (!Err.empty()) {
          D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                     "seqlint: invalid -fplugin-arg-seqlint-checks: %0"))
              << Err;
          return false;
        }
        if (!Checks.empty())
          Checks += ",";
        Checks += Arg.str();
      } else if (Arg.consume_front("config=")) {
        if (Arg.empty()) {
          D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                     "seqlint: -fplugin-arg-seqlint-config= needs a file"));
          return false;
        }
        ConfigPath = Arg.str();
      } else if (Arg.consume_front("summary=") ||
                 Arg.consume_front("join=")) {
        bool Join = StringRef(A).starts_with("join=");
        if (Arg.empty()) {
          D.Report(D.getCustomDiagID(
              DiagnosticsEngine::Error,
              "seqlint: -fplugin-arg-seqlint-%0= needs a file or directory"))
              << (Join ? "join" : "summary");
          return false;
        }
        if (Join)
          JoinPaths.push_back(Arg.str());
        else
          SummaryPath = Arg.str();
      } else if (Arg.consume_front("counters=") ||
                 Arg.consume_front("known-counters=")) {
        bool Known = StringRef(A).starts_with("known-counters=");
        if (Arg.empty()) {
          D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                     "seqlint: -fplugin-arg-seqlint-%0= needs a file"))
              << (Known ? "known-counters" : "counters");
          return false;
        }
        (Known ? KnownCountersPath : CountersPath) = Arg.str();
      } else if (Arg == "help") {
        printHelp(llvm::outs());
      } else if (Arg == "list-checks") {
        ListChecks = true;
      } else if (Arg == "no-werror") {
        NoWerror = true;
      } else if (Arg == "dump-events") {
        DumpEvents = true;
      } else if (Arg == "stats") {
        Stats = true;
      } else if (Arg == "remarks") {
        Remarks = true;
      } else if (Arg.consume_front("dataflow-budget=")) {
        if (Arg.getAsInteger(10, DataflowBudget) || !DataflowBudget) {
          D.Report(D.getCustomDiagID(
              DiagnosticsEngine::Error,
              "seqlint: -fplugin-arg-seqlint-dataflow-budget= needs a "
              "positive number of block visits"));
          return false;
        }
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
          "  config=<file>   .seqlint.yaml to use (default: the nearest one above\n"
          "                  the source file)\n"
          "  summary=<path>  write this TU's message-passing summary (a file,\n"
          "                  or a directory for <source>-<hash>.mp.json)\n"
          "  join=<path>     pair the writers and readers of the summaries in\n"
          "                  <path> (files or directories) across TUs; run on\n"
          "                  an empty file: clang -fsyntax-only -x c /dev/null\n"
          "  counters=<file> write this TU's counters and counter candidates\n"
          "                  (for the runner's round across TUs)\n"
          "  known-counters=<file>\n"
          "                  counters of the other TUs of the program, as\n"
          "                  counters=<file> writes them\n"
          "  no-werror       keep seqlint findings warnings under -Werror\n"
          "  dump-events     print the event trace of every function (debug)\n"
          "  stats           print one line of coverage statistics to stderr\n"
          "                  after the file: 'seqlint-stats: functions=N\n"
          "                  analysed=N write-sections=N(api=N,open=N) ...'\n"
          "  remarks         a remark for each function a dataflow analysis\n"
          "                  gave up on at its budget (dump-events lists them)\n"
          "  dataflow-budget=<n>\n"
          "                  block visits every dataflow analysis may make\n"
          "                  (testing)\n"
          "  help            print this text\n"
          "  list-checks     print the checks enabled (after .seqlint.yaml and checks=)\n"
          "checks (default on unless marked):\n";
    for (const CheckInfo &I : allChecks())
      OS << "  seqlint-" << I.Name << (I.DefaultOn ? "" : "  (off by default)")
         << "\n";
  }

  std::string Checks;
  std::string ConfigPath;
  std::string SummaryPath;
  std::string CountersPath, KnownCountersPath;
  std::vector<std::string> JoinPaths;
  bool NoWerror = false;
  bool ListChecks = false; // print the enabled checks; analyse nothing
  bool DumpEvents = false;
  bool Stats = false;
  bool Remarks = false;
  unsigned DataflowBudget = 0; // 0: each analysis its own
};

} // namespace
} // namespace seqlint

// Before the registration below (initialised in declaration order): a
// plugin of another Clang major must not reach the host's registry.
static const bool HostChecked =
    (seqlint::checkHostVersion("plugin", "clang"), true);
static FrontendPluginRegistry::Add<seqlint::SeqlintAction>
    X("seqlint", "seqcount and memory-barrier checks");
