//===- Classifier.cpp - from a function body to an event trace --------------===//
//
// The order of the classifier's steps for one function
// (FunctionClassifier::run()) and the TU's cache of traces
// (Classifier::classify()). The steps live in Extract*.cpp, OpenCoded*.cpp
// and HelperSplice.cpp (core/FunctionClassifier.h).
//
//===----------------------------------------------------------------------===//
#include "core/Classifier.h"
#include "core/FunctionClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

unsigned barrierBits(BarrierKind K) {
  switch (K) {
  case BarrierKind::Compiler:
    return 0;
  case BarrierKind::Read:
    return OrdLL;
  case BarrierKind::Write:
    return OrdSS;
  case BarrierKind::Acquire:
    return OrdLL | OrdLS;
  case BarrierKind::Release:
    return OrdLS | OrdSS;
  case BarrierKind::Full:
    return OrdFull;
  }
  return 0;
}

const FunctionDecl *calleeOf(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE)
    return nullptr;
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *GS = dyn_cast<GenericSelectionExpr>(Callee))
    if (!GS->isResultDependent())
      Callee = GS->getResultExpr()->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(Callee))
    return dyn_cast<FunctionDecl>(DR->getDecl());
  return CE->getDirectCallee();
}

bool isLoop(const Stmt *S) {
  if (isa_and_nonnull<ForStmt, WhileStmt>(S))
    return true;
  const auto *Do = dyn_cast_or_null<DoStmt>(S);
  if (!Do)
    return false;
  const auto *IL = dyn_cast<IntegerLiteral>(Do->getCond()->IgnoreParenImpCasts());
  return !IL || IL->getValue() != 0;
}

FunctionTrace::FunctionTrace() = default;
FunctionTrace::~FunctionTrace() = default;

std::shared_ptr<const FunctionTrace> Classifier::classify(const FunctionDecl *FD) {
  if (!FD || !FD->hasBody())
    return nullptr;
  // Classification reads the TU's state in two places only: the helpers'
  // effects (final once computed; a refusal is counted) and the known
  // counters among the trace's own keys (a set that only grows, so an
  // unchanged count means an unchanged answer).
  if (auto It = Traces.find(FD); It != Traces.end() &&
      It->second.KnownKeys == knownCounterKeys(*It->second.Trace))
    return It->second.Trace;
  unsigned RefusalsBefore = Refusals;
  Stmt *Body = FD->getBody();
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Opts.AddImplicitDtors = false;
  Opts.AddInitializers = false;
  Opts.PruneTriviallyFalseEdges = true;
  auto T = std::make_unique<FunctionTrace>();
  T->FD = FD;
  T->Cfg = CFG::buildCFG(FD, Body, &Ctx, Opts);
  if (!T->Cfg)
    return nullptr;
  detail::FunctionClassifier FC(*this, *T);
  FC.run(Body);
  std::shared_ptr<const FunctionTrace> Shared = std::move(T);
  if (Refusals == RefusalsBefore)
    Traces[FD] = {Shared, knownCounterKeys(*Shared)};
  return Shared;
}

namespace detail {

void FunctionClassifier::run(const Stmt *Body) {
  T.PM = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  PM = T.PM.get();
  // Extraction: the events, then what the body does with its locals.
  extractEvents();
  VarPairs ComparedVars = collectUses(Body);
  // Recognition, on the events: open-coded readers, writers, begin helpers.
  if (!ComparedVars.empty())
    convertRechecks(ComparedVars);
  recognizeReaders();
  recognizeWriters();
  recognizeBeginHelpers();
}

/// The events of every CFG block, in reverse post-order: a known macro's
/// instance once, at its anchor; any other element by itself.
void FunctionClassifier::extractEvents() {
  const CFG &G = *T.Cfg;
  for (const CFGBlock *B : G)
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>())
        Elements[CS->getStmt()] = B->getBlockID();
  T.Blocks.resize(G.getNumBlockIDs());
  Rpo = reversePostOrder(G);
  for (const CFGBlock *B : Rpo) {
    BlockEvents &BE = T.Blocks[B->getBlockID()];
    for (const CFGElement &E : *B) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (const MacroInstance *I = wholeInstance(S)) {
        if (anchorOf(I, S) == S)
          emitInstance(I, rootOf(I, S), BE);
        continue;
      }
      classifyPlain(S, BE);
    }
  }
  // Writes to locals matter only for the locals something accumulates into
  // (total += v): keep the re-initializations of those, drop the rest.
  if (HasLocalUpdate)
    for (BlockEvents &BE : T.Blocks)
      llvm::erase_if(BE.Events, [&](const Event &Ev) {
        return Ev.Kind == EventKind::LocalUpdate && !Accumulated.count(Ev.Var);
      });
}

} // namespace detail
} // namespace seqlint
