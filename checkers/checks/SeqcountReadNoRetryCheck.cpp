//===- SeqcountReadNoRetryCheck.cpp ---------------------------------------===//
//
// seqcount-read-no-retry: the value a read section begins with is the only
// way to know whether a writer interfered. A begin whose value is discarded
// or never validated (and does not escape to a caller, as fs/dcache.c hands
// it out), or a retry whose result is ignored, reads torn data silently.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "core/MacroIndex.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/ParentMap.h"

namespace seqlint {
namespace {

class SeqcountReadNoRetryCheck : public Check {
public:
  SeqcountReadNoRetryCheck() : Check("seqcount-read-no-retry") {}

  void functionDone(const FunctionTrace &T, Classifier &C) override {
    Model = &C.model();
    Cl = &C;
    // A helper seen through at its calls (a begin helper returns or drops
    // the value for its caller): what happens to the value is the caller's.
    if (C.seenThrough(T.FD))
      return;
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events) {
        // Open-coded sections have their own rules; a helper's begin and
        // retry are the TU's own API.
        if ((!E.Api || E.OpenCoded) && !E.Via)
          continue;
        if (E.Kind == EventKind::ReadRetry && E.Use != ValueUse::Discarded)
          checkRetryBranch(T, E);
        if (E.Kind == EventKind::ReadBegin)
          checkBegin(T, E);
        else if (E.Kind == EventKind::ReadRetry && E.Use == ValueUse::Discarded) {
          Finding F = make(E, "result of " + spelling(E) + " on '" + name(T, E.Key) +
                                      "' is ignored: the read section is never "
                                      "retried when a writer interfered; loop while "
                                      "it returns true");
          if (const Event *B = beginFor(T, E.Key)) {
            F.Notes.push_back({B->Loc, "the read section begins here"});
            viaNote(F, *B);
          }
          emit(F);
        }
      }
  }

  void readRetrySomePaths(const FunctionTrace &T, int Counter, const Event &Retry,
                          const Event &Begin) override {
    Finding F = make(Retry, spelling(Retry) + " on '" + name(T, Counter) +
                                    "' runs on every path, but its read section "
                                    "begins on some paths only: where the begin was "
                                    "skipped it validates a value no begin produced "
                                    "(and may retry forever); begin and retry the "
                                    "section under the same condition");
    F.Notes.push_back({Begin.Loc, "the read section begins here, on some paths only"});
    viaNote(F, Begin);
    emit(F);
  }

private:
  /// `if (retry(...)) <statements that fall through>`, outside any loop:
  /// the result is tested, but the failed attempt is neither retried nor
  /// discarded -- the branch only logs or counts, and the torn data is used.
  void checkRetryBranch(const FunctionTrace &T, const Event &E) {
    using namespace clang;
    if (!T.PM || !E.S)
      return;
    const Stmt *Child = E.S;
    unsigned Nots = 0;
    const IfStmt *If = nullptr;
    for (const Stmt *P = T.PM->getParent(Child); P; Child = P, P = T.PM->getParent(P)) {
      if (isa<ForStmt, WhileStmt, DoStmt, SwitchStmt, ConditionalOperator>(P))
        return;
      if (const auto *U = dyn_cast<UnaryOperator>(P)) {
        if (U->getOpcode() == UO_LNot)
          ++Nots;
        continue;
      }
      if (const auto *BO = dyn_cast<BinaryOperator>(P))
        if (BO->isLogicalOp() || BO->isComparisonOp())
          return; // combined with other tests: too clever to judge
      if (const auto *I = dyn_cast<IfStmt>(P)) {
        if (I->getCond() != Child && !(Child == I->getCond()->IgnoreParenImpCasts()))
          return;
        If = I;
        break;
      }
      if (isa<CompoundStmt>(P))
        return;
    }
    // unlikely(x) is __builtin_expect(!!(x), 0): two negations.
    // A helper that answers "unchanged" (== start) is raced when false.
    if (E.RetryTrueIfValid)
      ++Nots;
    if (!If || Nots % 2 || !If->getThen())
      return;
    // Inside a loop the next iteration may be the retry.
    for (const Stmt *P = T.PM->getParent(If); P; P = T.PM->getParent(P))
      if (isLoop(P))
        return;
    if (leavesOrJumps(If->getThen()) || !onlyLogsOrCounts(If->getThen()))
      return; // it redoes the read under the lock, or discards the result
    Finding F = make(E, "result of " + spelling(E) + " on '" + name(T, E.Key) +
                                "' is tested, but the failed attempt is neither "
                                "retried nor discarded: the branch falls through "
                                "and the torn data is used anyway; retry the section "
                                "(loop back to the begin) or return without the data");
    F.Notes.push_back({If->getThen()->getBeginLoc(),
                       "this branch runs when a writer interfered, and falls through"});
    emit(F);
  }

  const ApiModel *Model = nullptr;
  Classifier *Cl = nullptr;

  /// Every statement of S only logs (a call the ApiModel knows as a side
  /// effect: printk, pr_warn, fprintf ...) or counts (x++, x += n on memory
  /// that is not a local). A branch that assigns, locks or calls anything
  /// else may redo the read or discard its result.
  bool onlyLogsOrCounts(const clang::Stmt *S) const {
    using namespace clang;
    if (!S)
      return true;
    if (isa<NullStmt>(S))
      return true;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        if (!onlyLogsOrCounts(C))
          return false;
      return true;
    }
    // pr_warn(...), a known logging macro, whatever it expands to.
    if (S->getBeginLoc().isMacroID() && Check::Ctx->Macros)
      if (const MacroInstance *I = Check::Ctx->Macros->instanceAt(S->getBeginLoc()))
        if (I->Entry && I->Entry->R == Role::SideEffect)
          return true;
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    auto NonLocal = [](const Expr *L) {
      L = L->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(L))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
          return !V->hasLocalStorage();
      return true;
    };
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->isIncrementDecrementOp() && NonLocal(U->getSubExpr());
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(E))
      return (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
             NonLocal(CA->getLHS());
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD || !FD->getIdentifier())
        return false;
      const ApiEntry *A = Model ? Model->lookup(FD->getName()) : nullptr;
      if (A)
        return A->R == Role::SideEffect;
      // A helper of the file that only logs (a warn() wrapper).
      if (Cl && FD->hasBody()) {
        const FunctionSummary &S = Cl->summary(FD);
        return S.SideEffect && !S.WritesGlobal && !S.WritesParams;
      }
      return false;
    }
    // do { ... } while (0) around a logging macro.
    return false;
  }

  /// S returns, jumps, or calls a function that does not return.
  static bool leavesOrJumps(const clang::Stmt *S) {
    using namespace clang;
    if (!S)
      return false;
    if (isa<ReturnStmt, GotoStmt, BreakStmt, ContinueStmt, IndirectGotoStmt>(S))
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->isNoReturn() || FD->hasAttr<NoReturnAttr>() ||
            FD->hasAttr<CXX11NoReturnAttr>())
          return true;
    for (const Stmt *C : S->children())
      if (leavesOrJumps(C))
        return true;
    return false;
  }

  void checkBegin(const FunctionTrace &T, const Event &E) {
    bool Bad = false;
    const Event *WrongRetry = nullptr;
    if (E.Use == ValueUse::Discarded) {
      Bad = true;
    } else if (E.Use == ValueUse::Assigned && E.Var) {
      bool Validated = false;
      for (const BlockEvents &BE : T.Blocks)
        for (const Event &R : BE.Events)
          if (R.Kind == EventKind::ReadRetry && R.Var == E.Var) {
            if (R.Key == E.Key)
              Validated = true;
            else if (!WrongRetry)
              WrongRetry = &R;
          }
      // Not validated here: fine if the value leaves the function (a caller
      // validates it), unless it is validated against another counter.
      Bad = !Validated && (WrongRetry || !T.EscapingVars.count(E.Var));
    }
    if (!Bad)
      return;
    std::string Retry = retryPartnerOf(E.ApiName);
    Finding F = make(E, "the value of " + spelling(E) + " on '" + name(T, E.Key) +
                                "' is never validated with " + Retry +
                                ": data read in the section may be torn; retry the "
                                "section while " + Retry + " returns true");
    if (WrongRetry)
      F.Notes.push_back({WrongRetry->Loc, "'" + E.Var->getNameAsString() +
                                              "' is checked against '" +
                                              name(T, WrongRetry->Key) +
                                              "' here, a different counter"});
    else
      F.Notes.push_back({E.Loc, E.Use == ValueUse::Discarded
                                    ? "the sequence value is discarded here"
                                    : "the sequence value is stored in '" +
                                          E.Var->getNameAsString() +
                                          "' and never validated"});
    emit(F);
  }

  static const Event *beginFor(const FunctionTrace &T, int Key) {
    for (const BlockEvents &BE : T.Blocks)
      for (const Event &E : BE.Events)
        if (E.Kind == EventKind::ReadBegin && E.Key == Key)
          return &E;
    return nullptr;
  }
};

} // namespace

std::unique_ptr<Check> createSeqcountReadNoRetryCheck() {
  return std::make_unique<SeqcountReadNoRetryCheck>();
}

} // namespace seqlint
