//===- Counters.cpp - counters the TU corroborates --------------------------===//
//
// Which fields and globals some function of the TU (or, through the
// runner, of the program) uses as a seqcount counter, so that another
// function's open-coded use of them needs no evidence of its own; and the
// generation numbers that are bumped but never odd.
//
//===----------------------------------------------------------------------===//
#include "core/AstQueries.h"
#include "core/Classifier.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

DenseSet<int> counterAddressKeys(const FunctionTrace &T) {
  DenseSet<int> Out;
  for (unsigned K = 0; K != T.Keys.size(); ++K)
    for (int C : T.Counters)
      if (T.Keys[K].addresses(T.Keys[C])) {
        Out.insert(K);
        break;
      }
  return Out;
}

ValidatedBegins validatedBegins(const FunctionTrace &T) {
  ValidatedBegins Out;
  for (const BlockEvents &BE : T.Blocks)
    for (const Event &E : BE.Events)
      if (E.Kind == EventKind::ReadRetry && E.Var)
        Out.insert({E.Key, E.Var});
  return Out;
}

static const ValueDecl *counterIdentity(const LocationKey &K) {
  if (K.Field)
    return K.Field;
  if (K.Base && K.Storage == LocationKey::Global && !K.ViaPointer)
    return K.Base;
  return nullptr;
}

void Classifier::addExternalCounter(const ValueDecl *D, bool Parity) {
  KnownCounters.insert(D);
  if (Parity)
    ParityCounters.insert(D);
}

void Classifier::noteCounters(const FunctionTrace &T) {
  for (int K : T.CounterCandidates)
    if (const ValueDecl *D = counterIdentity(T.key(K)))
      CandidateCounters.insert(D);
  for (int K : T.Counters)
    if (const ValueDecl *D = counterIdentity(T.key(K))) {
      KnownCounters.insert(D);
      if (T.OddCheckedKeys.count(K))
        ParityCounters.insert(D);
    }
  auto Note = [&](int K) {
    if (const ValueDecl *D = counterIdentity(T.key(K)))
      ParityCounters.insert(D);
  };
  // A count bracketed by compiler barriers is odd in between (its readers
  // run on the writer's CPU).
  for (int K : T.CompilerOrderedCounters) {
    Note(K);
    if (const ValueDecl *D = counterIdentity(T.key(K)))
      CompilerOrdered.insert(D);
  }
  // An increment that a write barrier (or its own release) orders after
  // the stores before it closes a section: the count is odd in between.
  // The barrier may sit in an earlier block (a macro's do-while).
  // -2: unreachable; -1: not yet seen (a back edge); 0/1: fenced at exit.
  std::vector<signed char> FencedOut(T.Blocks.size(), -2);
  std::vector<const CFGBlock *> Order = reversePostOrder(*T.Cfg);
  for (const CFGBlock *B : Order)
    FencedOut[B->getBlockID()] = -1;
  for (const CFGBlock *B : Order) {
    bool Fenced = false, First = true;
    for (const CFGBlock *P : B->preds()) {
      if (!P || FencedOut[P->getBlockID()] == -2)
        continue;
      Fenced = (First || Fenced) && FencedOut[P->getBlockID()] == 1;
      First = false;
    }
    for (const Event &E : T.Blocks[B->getBlockID()].Events) {
      bool OnCounter = E.Key >= 0 && T.Counters.count(E.Key);
      if (OnCounter && (E.Masked || (E.Var && T.OddCheckedVars.count(E.Var))))
        Note(E.Key);
      if (E.Kind == EventKind::Barrier) {
        Fenced |= (E.Bits & OrdSS) != 0;
      } else if (E.Kind == EventKind::WriteEnd || E.Kind == EventKind::WriteBegin) {
        if (E.Key >= 0)
          Note(E.Key);
      } else if (E.Kind == EventKind::CounterInc || E.Kind == EventKind::Store ||
                 E.Kind == EventKind::RMW) {
        // Counted whether or not this function uses it as a counter: a
        // generation bump has nothing to be recognized by on its own.
        if ((E.Kind == EventKind::CounterInc || E.Increment) && E.Key >= 0 &&
            !T.key(E.Key).isLocal()) {
          if (const ValueDecl *D = counterIdentity(T.key(E.Key)))
            BumpedCounters.insert(D);
          if (OnCounter && (Fenced || E.Ord == Order::Release))
            Note(E.Key);
        }
        Fenced = false;
      }
    }
    FencedOut[B->getBlockID()] = Fenced;
  }
}

bool Classifier::isGenerationCounter(const LocationKey &K) const {
  const ValueDecl *D = counterIdentity(K);
  return D && BumpedCounters.count(D) && !ParityCounters.count(D);
}

bool Classifier::isCompilerOrderedCounter(const LocationKey &K) const {
  const ValueDecl *D = counterIdentity(K);
  return D && CompilerOrdered.count(D);
}

bool Classifier::isKnownCounter(const LocationKey &K) const {
  const ValueDecl *D = counterIdentity(K);
  return D && KnownCounters.count(D);
}

bool Classifier::mayRecognizeMore(const FunctionTrace &T) const {
  if (KnownCounters.empty())
    return false;
  for (unsigned I = 0; I != T.Keys.size(); ++I)
    if (!T.Counters.count(I) && isKnownCounter(T.Keys[I]))
      return true;
  return false;
}

bool Classifier::referencesKnownCounter(const FunctionDecl *FD) const {
  if (KnownCounters.empty() || !FD || !FD->hasBody())
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const DenseSet<const ValueDecl *> *Known;
    bool Found = false;
    bool VisitMemberExpr(MemberExpr *ME) {
      Found |= Known->count(ME->getMemberDecl()) != 0;
      return !Found;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      Found |= Known->count(DR->getDecl()) != 0;
      return !Found;
    }
  } F;
  F.Known = &KnownCounters;
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

unsigned Classifier::knownCounterKeys(const FunctionTrace &T) const {
  if (KnownCounters.empty())
    return 0;
  unsigned N = 0;
  for (const LocationKey &K : T.Keys)
    N += isKnownCounter(K);
  return N;
}

namespace {

/// The count an increment expression steps (`++c->n`, `c->n++`, `c->n += 1`),
/// if it is a field or a global.
const ValueDecl *steppedCount(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const Expr *Target = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementOp())
    Target = U->getSubExpr();
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(E);
           CA && CA->getOpcode() == BO_AddAssign)
    if (const auto *L =
            dyn_cast<IntegerLiteral>(CA->getRHS()->IgnoreParenImpCasts());
        L && L->getValue() == 1)
      Target = CA->getLHS();
  if (!Target)
    return nullptr;
  Target = Target->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Target))
    return ME->getMemberDecl();
  if (const auto *DR = dyn_cast<DeclRefExpr>(Target))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && V->hasGlobalStorage())
      return V;
  return nullptr;
}

/// The local E names, through casts, parentheses and a mask (`seq`,
/// `rc & MASK`).
const VarDecl *namedLocal(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_And) {
    if (const VarDecl *V = namedLocal(BO->getLHS()))
      return V;
    return namedLocal(BO->getRHS());
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && V->hasLocalStorage())
      return V;
  return nullptr;
}

} // namespace

bool Classifier::isNotSequence(const LocationKey &K) {
  const ValueDecl *D = counterIdentity(K);
  if (!D)
    return false;
  if (!NotSequences) {
    NotSequences.emplace();
    // Per function: the locals that hold a count's new value, the locals
    // assigned something else (a load, a call's result), and the
    // comparisons of one with the other.
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::DenseMap<const VarDecl *, const ValueDecl *> Holds;
      llvm::DenseSet<const VarDecl *> Other;
      llvm::SmallVector<std::pair<const VarDecl *, const VarDecl *>, 4>
          Compared;
      void assign(const VarDecl *V, const Expr *Init) {
        if (!V || !Init || !V->hasLocalStorage())
          return;
        if (const ValueDecl *C = steppedCount(Init))
          Holds[V] = C;
        else
          Other.insert(V);
      }
      bool VisitVarDecl(VarDecl *V) {
        assign(V, V->getInit());
        return true;
      }
      // A location stepped down (`list->cnt--`, `n -= k`): a count of
      // things, not a sequence, which only ever goes up.
      llvm::DenseSet<const ValueDecl *> Down;
      void down(const Expr *Target) {
        if (const ValueDecl *D = lvalueIdentity(Target))
          Down.insert(D);
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        if (U->isDecrementOp())
          down(U->getSubExpr());
        return true;
      }
      bool VisitCompoundAssignOperator(CompoundAssignOperator *CA) {
        if (CA->getOpcode() == BO_SubAssign)
          down(CA->getLHS());
        return true;
      }
      bool VisitBinaryOperator(BinaryOperator *BO) {
        if (BO->getOpcode() == BO_Assign) {
          if (const auto *DR =
                  dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
            assign(dyn_cast<VarDecl>(DR->getDecl()), BO->getRHS());
        } else if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) {
          const VarDecl *A = namedLocal(BO->getLHS()),
                        *B = namedLocal(BO->getRHS());
          if (A && B && A != B)
            Compared.push_back({A, B});
        }
        return true;
      }
    };
    for (const Decl *TD : Ctx.getTranslationUnitDecl()->decls()) {
      const auto *FD = dyn_cast<FunctionDecl>(TD);
      if (!FD || !FD->doesThisDeclarationHaveABody())
        continue;
      Finder F;
      F.TraverseStmt(FD->getBody());
      NotSequences->insert(F.Down.begin(), F.Down.end());
      for (auto [A, B] : F.Compared)
        for (auto [Tag, Reply] : {std::pair(A, B), std::pair(B, A)}) {
          auto It = F.Holds.find(Tag);
          // The reply is another value: not the count itself read again.
          if (It != F.Holds.end() && F.Other.count(Reply) &&
              !F.Holds.count(Reply))
            NotSequences->insert(It->second);
        }
    }
  }
  return NotSequences->count(D) != 0;
}

} // namespace seqlint
