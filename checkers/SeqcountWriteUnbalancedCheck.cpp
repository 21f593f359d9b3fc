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
    F.Notes.push_back({Begin.Loc, "write section begins here with " + spelling(Begin)});
    emit(F);
  }

  void writeEndWithoutBegin(const FunctionTrace &T, int Counter,
                            const Event &End) override {
    if (!Reported.insert(&End).second)
      return;
    std::string C = name(T, Counter);
    Finding F = make(End.Loc, spelling(End) + " on '" + C +
                                  "' ends a write section that is not open on any "
                                  "path here: the count becomes odd and readers spin");
    if (const Event *B = firstBegin(T, Counter))
      F.Notes.push_back({B->Loc, "the function's write section begins here"});
    emit(F);
  }

  void writeBeginWhileOpen(const FunctionTrace &T, int Counter, const Event &Begin,
                           const Event &Prev) override {
    std::string C = name(T, Counter);
    Finding F = make(Begin.Loc, spelling(Begin) + " on '" + C +
                                    "' while its write section is already open: the "
                                    "count becomes even inside the section and "
                                    "readers accept torn data");
    F.Notes.push_back({Prev.Loc, "the open write section began here"});
    emit(F);
  }

  void functionDone(const FunctionTrace &, Classifier &) override { Reported.clear(); }

private:
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
