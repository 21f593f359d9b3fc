//===- SeqcountWriteUnbalancedCheck.cpp -----------------------------------===//
//
// seqcount-write-unbalanced: every write_seqcount_begin() must meet exactly
// one write_seqcount_end() on every path. A path that returns with the
// section open leaves the count odd (readers spin forever); an end without a
// begin, or a second begin, leaves it even inside a section (readers accept
// torn data). Functions that only begin or only end (split helpers) are
// silent: the pairing is the caller's business.
//
//===----------------------------------------------------------------------===//
#include "Check.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"

namespace seqlint {
namespace {

class SeqcountWriteUnbalancedCheck : public Check {
public:
  SeqcountWriteUnbalancedCheck() : Check("seqcount-write-unbalanced") {}

  void writeExitOpen(const FunctionTrace &T, int Counter, const Event &Begin,
                     clang::SourceLocation Exit) override {
    std::string C = name(T, Counter);
    Finding F = make(Exit, "write section of '" + C +
                               "' is still open when the function returns here: the "
                               "count stays odd and readers spin until the next "
                               "writer; end the section on this path");
    std::string With = spelling(Begin); // none for a plain or builtin increment
    F.Notes.push_back({Begin.Loc, "write section begins here" +
                                      (With.empty() ? "" : " with " + With)});
    viaNote(F, Begin);
    emit(F);
  }

  void writeEndWithoutBegin(const FunctionTrace &T, int Counter,
                            const Event &End) override {
    if (!Reported.insert(&End).second)
      return;
    std::string C = name(T, Counter);
    Finding F = make(End, spelling(End) + " on '" + C +
                                  "' ends a write section that is not open on any "
                                  "path here: the count becomes odd and readers spin");
    if (const Event *B = firstBegin(T, Counter)) {
      F.Notes.push_back({B->Loc, "the function's write section begins here"});
      viaNote(F, *B);
    }
    emit(F);
  }

  void writeBeginWhileOpen(const FunctionTrace &T, int Counter, const Event &Begin,
                           const Event &Prev) override {
    std::string C = name(T, Counter);
    Finding F = make(Begin, spelling(Begin) + " on '" + C +
                                    "' while its write section is already open: the "
                                    "count becomes even inside the section and "
                                    "readers accept torn data");
    F.Notes.push_back({Prev.Loc, "the open write section began here"});
    viaNote(F, Prev);
    emit(F);
  }

  void writeEndSomePaths(const FunctionTrace &T, int Counter, const Event &End,
                         const Event &Begin) override {
    if (!Reported.insert(&End).second)
      return;
    Finding F = make(End, spelling(End) + " on '" + name(T, Counter) +
                                  "' runs on every path, but the write section is "
                                  "open on some paths only: where the begin was "
                                  "skipped the count becomes odd and readers spin; "
                                  "begin and end the section under the same condition");
    F.Notes.push_back({Begin.Loc, "the write section begins here, on some paths only"});
    viaNote(F, Begin);
    addSkipNote(T, Begin, F);
    emit(F);
  }

  void writeBeginSomePaths(const FunctionTrace &T, int Counter, const Event &Begin,
                           const Event &Prev) override {
    if (!Reported.insert(&Begin).second)
      return;
    Finding F = make(Begin, spelling(Begin) + " on '" + name(T, Counter) +
                                    "' is reached on a path where its write section "
                                    "is still open: the count becomes even inside the "
                                    "section and readers accept torn data; end the "
                                    "section on every path before it begins again");
    F.Notes.push_back({Prev.Loc, &Prev == &Begin
                                     ? "the section begun here in the previous "
                                       "iteration is not ended on every path"
                                     : "the section begun here is not ended on "
                                       "every path"});
    viaNote(F, Prev);
    emit(F);
  }

  void functionDone(const FunctionTrace &, Classifier &) override { Reported.clear(); }

private:
  /// A note at the condition under which Begin is skipped.
  static void addSkipNote(const FunctionTrace &T, const Event &Begin, Finding &F) {
    if (!T.PM || !Begin.S)
      return;
    const clang::Stmt *Child = Begin.S;
    for (const clang::Stmt *P = T.PM->getParent(Child); P;
         Child = P, P = T.PM->getParent(P)) {
      const auto *If = llvm::dyn_cast<clang::IfStmt>(P);
      if (!If || Child == If->getCond())
        continue;
      bool InThen = Child == If->getThen();
      F.Notes.push_back({If->getCond()->getBeginLoc(),
                         std::string("the begin is skipped when this condition is ") +
                             (InThen ? "false" : "true")});
      return;
    }
  }

  llvm::DenseSet<const Event *> Reported;
  static const Event *firstBegin(const FunctionTrace &T, int Counter) {
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events)
        if (E.Kind == EventKind::WriteBegin && E.Key == Counter)
          return &E;
    return nullptr;
  }
};

} // namespace

std::unique_ptr<Check> createSeqcountWriteUnbalancedCheck() {
  return std::make_unique<SeqcountWriteUnbalancedCheck>();
}

} // namespace seqlint
