//===- Check.h - the base of every seqlint check --------------------------===//
//
// A check observes the section analysis of each function (SectionObserver)
// and turns what it sees into Findings. Checks know nothing of the front end
// (plugin or clang-tidy): the Driver gives them a FindingSink.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CHECK_H
#define SEQLINT_CHECK_H

#include "core/Finding.h"
#include "core/FunctionAnalyses.h"
#include "core/SectionAnalysis.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace seqlint {

class FunctionAnalyses;
class MacroIndex;
class UnitAnalyses;

/// What every check may use while it runs over one translation unit.
struct CheckContext {
  clang::ASTContext *Ctx = nullptr;
  const MacroIndex *Macros = nullptr;
  FindingSink *Sink = nullptr;
  /// What is worked out about the whole TU (or, in a join, every TU),
  /// shared by the checks (analyses/UnitAnalyses.h): the message-passing
  /// sides; set by the driver for the length of the TU.
  UnitAnalyses *Unit = nullptr;
  /// What is worked out about the function being analysed, shared by the
  /// checks (core/FunctionAnalyses.h); set by the driver around that
  /// function's section analysis and functionDone().
  FunctionAnalyses *Function = nullptr;
  /// The TU's classifier; set by the driver for the length of the TU.
  Classifier *Cl = nullptr;
};

/// Which functions a check needs to see. The driver builds a CFG only for
/// the functions the most demanding enabled check asks for (most functions
/// of a kernel TU use nothing seqlint knows, and a CFG is not free).
enum class CheckScope {
  Sections,       // functions that can hold a seqcount section
  MarkedAccesses, // also functions with READ_ONCE/WRITE_ONCE-style accesses
  AllFunctions,   // every function with a body in user code
};

class Check : public SectionObserver {
public:
  explicit Check(llvm::StringRef Name) : Name(Name.str()) {}
  const std::string &name() const { return Name; }
  void setContext(CheckContext &C) {
    Ctx = &C;
    FamilyCache.reset(); // another TU, perhaps another family
  }

  virtual CheckScope scope() const { return CheckScope::Sections; }
  /// After every function of the TU was analysed: TU-wide checks (what one
  /// function does to data another one reads) report here. Traces are gone
  /// by then; a check keeps what it needs from functionDone().
  virtual void translationUnitDone(Classifier &C) {}
  /// Does the check use the TU's message-passing sides (the driver then
  /// writes them to the summary, and runs the check in a join)?
  virtual bool usesMessagePassing() const { return false; }

protected:
  /// Starts a finding of this check at Loc.
  Finding make(clang::SourceLocation Loc, std::string Message) const;
  /// Starts a finding at E: its own place, or the call of the helper E was
  /// seen through, with a note at the place inside the helper.
  Finding make(const Event &E, std::string Message) const;
  /// After a note at E: where E is inside the helper it was seen through.
  static void viaNote(Finding &F, const Event &E);
  void emit(Finding F) const { Ctx->Sink->report(F); }

  /// Spelling of the write/read barrier the user's code base has.
  std::string writeBarrierSpelling() const;
  std::string readBarrierSpelling() const;
  /// The ordering APIs of the code base's family (Linux, QEMU, liburing,
  /// Concurrency Kit, DPDK, PostgreSQL, seqlint's runtime, C11), chosen
  /// from what the TU declares, for fix-its and messages.
  const Dialect &family() const;
  /// The family's full barrier, against another CPU or (Device) a device.
  std::string fullBarrier(bool Device) const {
    return Device && !family().DeviceMb.empty() ? family().DeviceMb : family().Mb;
  }
  /// "use smp_store_release() for <Store>", or, in a family without a
  /// release store, "put ck_pr_fence_release() before <Store>".
  std::string releaseAdvice(llvm::StringRef Store) const;
  /// The analyses of T: the driver's, when T is the function being
  /// analysed, else Local (a function looked at from another one).
  FunctionAnalyses &analysesOf(const FunctionTrace &T,
                               std::optional<FunctionAnalyses> &Local) const;
  /// Is a function of that name declared in the TU?
  bool declaresFunction(llvm::StringRef Name) const;
  /// A fix-it that inserts Code on its own line after the statement that
  /// contains S, if S is a whole statement of a compound statement.
  std::optional<clang::FixItHint> insertAfterStatement(const FunctionTrace &T,
                                                       const clang::Stmt *S,
                                                       llvm::StringRef Code) const;
  /// After, moved past a comment that ends the statement's line
  /// (`x = 1; /* why */`), so that an inserted line does not take the
  /// comment from its statement.
  clang::SourceLocation afterTrailingComment(clang::SourceLocation After) const;
  /// Same, on its own line before the statement that contains S.
  std::optional<clang::FixItHint> insertBeforeStatement(const FunctionTrace &T,
                                                        const clang::Stmt *S,
                                                        llvm::StringRef Code) const;
  /// `s->seq` for messages.
  static std::string name(const FunctionTrace &T, int Key);
  /// How the API or access of E is spelled (for messages).
  static std::string spelling(const Event &E);
  /// The API of E itself, also when E was seen through a helper.
  static std::string spellingInside(const Event &E);

  CheckContext *Ctx = nullptr;

private:
  mutable std::unique_ptr<Dialect> FamilyCache; // per TU
  const clang::Stmt *statementOf(const FunctionTrace &T, const clang::Stmt *S) const;
  std::string indentOf(clang::SourceLocation L) const;
  std::string Name;
};

/// Every check seqlint knows, in catalogue order, and whether it is on by
/// default.
struct CheckInfo {
  const char *Name;
  bool DefaultOn;
  std::unique_ptr<Check> (*Create)();
};
const std::vector<CheckInfo> &allChecks();

} // namespace seqlint

#endif
