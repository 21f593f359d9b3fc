//===- Metamorph.cpp - seqlint-metamorph: equivalent variants of a C file -===//
//
//   seqlint-metamorph --rewrite=rename|helper [-o FILE] [-v] FILE.c -- FLAGS
//
// Parses FILE.c with FLAGS (the -D, -I, -std flags the file is compiled
// with) and writes a variant of it that means the same thing and keeps every
// line number: see RenameRewrite.cpp and HelperRewrite.cpp for what each
// rewrite changes and what it leaves alone, and README.md for the harness
// (run.py) that compares seqlint's findings on the file and on the variant.
//
// Exit status: 0 variant written, 1 the file does not parse, 2 bad usage,
// 3 the rewrite does not apply to the file ("not applicable" on stderr).
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace llvm;

namespace {

enum class RewriteKind { Rename, Helper };

struct Options {
  RewriteKind Kind = RewriteKind::Rename;
  std::string File;
  std::string Output; // empty: stdout
  bool Verbose = false;
  std::vector<std::string> Flags;
};

/// Outcome of one run, filled in by the action.
struct Result {
  bool Changed = false;
  std::string Text;
};

class Consumer : public ASTConsumer {
public:
  Consumer(const Options &Opts, Result &Res, CompilerInstance &CI,
           const metamorph::MacroDefinitions &Macros)
      : Opts(Opts), Res(Res), CI(CI), Macros(Macros) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    // A file with errors has a partial AST: its variant means nothing.
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    Rewriter R(Ctx.getSourceManager(), Ctx.getLangOpts());
    metamorph::RewriteEnv Env{Ctx, R, Macros, Opts.Verbose, errs()};
    Res.Changed = Opts.Kind == RewriteKind::Rename ? metamorph::runRename(Env)
                                                   : metamorph::runHelper(Env);
    FileID Main = Ctx.getSourceManager().getMainFileID();
    if (const auto *Buf = R.getRewriteBufferFor(Main))
      Res.Text.assign(Buf->begin(), Buf->end());
    else
      Res.Text = Ctx.getSourceManager().getBufferData(Main).str();
  }

private:
  const Options &Opts;
  Result &Res;
  CompilerInstance &CI;
  const metamorph::MacroDefinitions &Macros;
};

class Action : public ASTFrontendAction {
public:
  Action(const Options &Opts, Result &Res) : Opts(Opts), Res(Res) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    auto Macros =
        std::make_unique<metamorph::MacroDefinitions>(CI.getSourceManager());
    const metamorph::MacroDefinitions &Ref = *Macros;
    CI.getPreprocessor().addPPCallbacks(std::move(Macros));
    return std::make_unique<Consumer>(Opts, Res, CI, Ref);
  }

private:
  const Options &Opts;
  Result &Res;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const Options &Opts, Result &Res) : Opts(Opts), Res(Res) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Opts, Res);
  }

private:
  const Options &Opts;
  Result &Res;
};

int usage(const Twine &Msg) {
  errs() << "seqlint-metamorph: " << Msg << "\n"
         << "usage: seqlint-metamorph --rewrite=rename|helper [-o FILE] [-v] "
            "FILE.c -- [compiler flags]\n";
  return 2;
}

/// Parses argv; returns 0 or the exit status of a usage error.
int parseArgs(int Argc, const char **Argv, Options &Opts) {
  bool HaveKind = false, SawDashes = false;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (SawDashes) {
      Opts.Flags.push_back(A.str());
    } else if (A == "--") {
      SawDashes = true;
    } else if (A.consume_front("--rewrite=")) {
      if (A != "rename" && A != "helper")
        return usage("unknown rewrite '" + A + "' (rename, helper)");
      Opts.Kind = A == "rename" ? RewriteKind::Rename : RewriteKind::Helper;
      HaveKind = true;
    } else if (A == "-o" && I + 1 < Argc) {
      Opts.Output = Argv[++I];
    } else if (A == "-v" || A == "--verbose") {
      Opts.Verbose = true;
    } else if (A.starts_with("-")) {
      return usage("unknown option '" + A + "'");
    } else if (Opts.File.empty()) {
      Opts.File = A.str();
    } else {
      return usage("more than one input file");
    }
  }
  if (!HaveKind)
    return usage("missing --rewrite=rename|helper");
  if (Opts.File.empty())
    return usage("missing input file");
  if (!sys::fs::exists(Opts.File))
    return usage("no such file: " + Opts.File);
  return 0;
}

/// The compiler flags of the run: the caller's, then the resource directory
/// of the clang the plugin runs in (ours sits elsewhere) and -w, since only
/// errors matter to a rewrite.
std::vector<std::string> compilerFlags(const Options &Opts) {
  std::vector<std::string> Flags = Opts.Flags;
  bool HasResourceDir = false;
  for (const std::string &F : Flags)
    HasResourceDir |= StringRef(F).starts_with("-resource-dir");
  if (!HasResourceDir)
    Flags.push_back("-resource-dir=" SEQLINT_CLANG_RESOURCE_DIR);
  Flags.push_back("-w");
  return Flags;
}

int writeOutput(const Options &Opts, StringRef Text) {
  if (Opts.Output.empty()) {
    outs() << Text;
    return 0;
  }
  std::error_code EC;
  raw_fd_ostream OS(Opts.Output, EC);
  if (EC) {
    errs() << "seqlint-metamorph: cannot write " << Opts.Output << ": "
           << EC.message() << "\n";
    return 2;
  }
  OS << Text;
  return 0;
}

} // namespace

int main(int Argc, const char **Argv) {
  Options Opts;
  if (int Status = parseArgs(Argc, Argv, Opts))
    return Status;
  tooling::FixedCompilationDatabase DB(".", compilerFlags(Opts));
  tooling::ClangTool Tool(DB, {Opts.File});
  Result Res;
  Factory F(Opts, Res);
  if (Tool.run(&F) != 0 || Res.Text.empty()) {
    errs() << "seqlint-metamorph: " << Opts.File << " does not parse\n";
    return 1;
  }
  if (!Res.Changed) {
    errs() << "not applicable\n";
    return 3;
  }
  return writeOutput(Opts, Res.Text);
}
