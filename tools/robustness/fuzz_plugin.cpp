//===- fuzz_plugin.cpp - libFuzzer harness for the seqlint analysis --------===//
//
// Each input is a C file. It is parsed by clang's frontend (through libclang-cpp,
// the library clang-19 itself is built from) with the kernel stub headers on the
// include path, and, when it compiles, the whole seqlint analysis runs on it
// exactly as in the plugin: MacroIndex callbacks on the preprocessor, then
// runSeqlint() with every check enabled, findings reported through a
// DiagnosticsEngine whose text printer writes to nowhere (so the fix-its and
// notes are rendered too), and the event-trace dump (the plugin's
// dump-events) written to nowhere as well.
//
// Built by tools/robustness/fuzz.sh with clang++-19 -fsanitize=fuzzer,address,
// undefined, together with the checkers' sources (instrumented, so the fuzzer
// sees their coverage). Not part of the plugin build.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "Driver.h"
#include "core/ApiModel.h"
#include "core/MacroIndex.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#ifndef SEQLINT_SOURCE_DIR
#error "SEQLINT_SOURCE_DIR must be defined (the seqlint source tree)"
#endif
#ifndef SEQLINT_CLANG_RESOURCE_DIR
#error "SEQLINT_CLANG_RESOURCE_DIR must be defined (clang-19 -print-resource-dir)"
#endif

using namespace clang;

namespace {

/// The plugin's sink: findings become diagnostics of the engine.
class DiagnosticSink : public seqlint::FindingSink {
public:
  explicit DiagnosticSink(DiagnosticsEngine &D) : D(D) {}
  void report(const seqlint::Finding &F) override {
    unsigned ID = D.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
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
};

class Consumer : public ASTConsumer {
public:
  explicit Consumer(CompilerInstance &CI)
      : CI(CI), Macros(CI.getSourceManager(), seqlint::getApiModel()) {
    CI.getPreprocessor().addPPCallbacks(Macros.createCallbacks());
  }
  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    if (D.hasErrorOccurred()) // as the plugin: no analysis of broken code
      return;
    seqlint::DriverOptions Opts; // every default check
    Opts.DumpEvents = &llvm::nulls();
    DiagnosticSink Sink(D);
    seqlint::runSeqlint(Ctx, Macros, Sink, Opts);
  }

private:
  CompilerInstance &CI;
  seqlint::MacroIndex Macros;
};

class Action : public ASTFrontendAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(CI);
  }
};

std::vector<std::string> &commandLine() {
  static std::vector<std::string> Args = [] {
    std::string Src = SEQLINT_SOURCE_DIR;
    std::vector<std::string> A = {
        "clang-19", "-fsyntax-only", "-std=gnu11",
        "-resource-dir=" SEQLINT_CLANG_RESOURCE_DIR,
        "-I" + Src + "/test/Inputs/kernel", "-I" + Src + "/examples/include",
        "-I" + Src + "/runtime/include", "-ferror-limit=20",
        "-fno-color-diagnostics"};
    // Extra flags, e.g. SEQLINT_FUZZ_ARGS="-DBITS_PER_LONG=32".
    if (const char *E = std::getenv("SEQLINT_FUZZ_ARGS")) {
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      llvm::StringRef(E).split(Parts, ' ', -1, false);
      for (llvm::StringRef P : Parts)
        A.push_back(P.str());
    }
    A.push_back("/seqlint-fuzz/input.c");
    return A;
  }();
  return Args;
}

/// Inputs that make clang itself stop or block, not seqlint: the
/// `#pragma clang __debug crash` family, and device files such as /dev/stdin.
bool rejected(llvm::StringRef Code) {
  return Code.contains("__debug") || Code.contains("/dev") ||
         Code.contains("/proc") || Code.contains("/sys") ||
         Code.contains('\0');
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Code(reinterpret_cast<const char *>(Data), Size);
  if (Size > 64 * 1024 || rejected(Code))
    return -1; // not added to the corpus

  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Mem);
  Mem->addFile("/seqlint-fuzz/input.c", 0,
               llvm::MemoryBuffer::getMemBufferCopy(Code, "input.c"));
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), Overlay);

  tooling::ToolInvocation Inv(commandLine(), std::make_unique<Action>(), Files.get());
  auto DiagOpts = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
  TextDiagnosticPrinter Printer(llvm::nulls(), DiagOpts.get());
  Inv.setDiagnosticConsumer(&Printer);
  Inv.setDiagnosticOptions(DiagOpts.get());
  Inv.run();
  return 0;
}
