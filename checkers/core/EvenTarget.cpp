//===- EvenTarget.cpp -----------------------------------------------------===//
#include "core/EvenTarget.h"

#include "core/AstQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <optional>

using namespace clang;

namespace seqlint {
namespace {

std::optional<llvm::APSInt> constantOf(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt();
}

bool isVar(const Expr *E, const VarDecl *V) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  return DR && DR->getDecl() == V;
}

/// `&V` somewhere in S.
bool addressTaken(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->getOpcode() == UO_AddrOf && isVar(U->getSubExpr(), V))
    return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *Ch) { return addressTaken(Ch, V); });
}

/// Every write of V in S keeps it even (the values it is assigned are
/// even, nothing increments it or takes its address).
bool writesKeepEven(const Stmt *S, const VarDecl *V, const FunctionDecl *FD,
                    ASTContext &Ctx, unsigned Depth) {
  if (!S)
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && isVar(BO->getLHS(), V)) {
    switch (BO->getOpcode()) {
    case BO_Assign:
    case BO_AddAssign:
    case BO_SubAssign:
    case BO_AndAssign:
      if (!isKnownEven(BO->getRHS(), FD, Ctx, Depth + 1))
        return false;
      break;
    case BO_MulAssign:
      // Even times anything is even.
      break;
    case BO_ShlAssign:
      if (auto K = constantOf(BO->getRHS(), Ctx); !K || K->getExtValue() < 1)
        return false;
      break;
    default:
      return false;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
      isVar(U->getSubExpr(), V))
    return false;
  for (const Stmt *Ch : S->children())
    if (!writesKeepEven(Ch, V, FD, Ctx, Depth))
      return false;
  return true;
}

bool isKnownEvenLocal(const VarDecl *V, const FunctionDecl *FD, ASTContext &Ctx,
                      unsigned Depth) {
  if (!V || !FD || !FD->getBody() || isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
      !V->getType()->isIntegerType() || V->getType().isVolatileQualified())
    return false;
  if (const Expr *Init = V->getInit(); Init && !isKnownEven(Init, FD, Ctx, Depth + 1))
    return false;
  return writesKeepEven(FD->getBody(), V, FD, Ctx, Depth);
}

/// What a path knows about the begin value: equal to some known-even
/// value, or bounded from below (GE) or above (LE) by an even local or
/// constant. Both bounds by the same one make it equal.
enum : unsigned { GE = 1, LE = 2 };
struct Bound {
  const VarDecl *Var = nullptr; // an even local, or null with Value
  int64_t Value = 0;            // an even constant
  unsigned Bits = 0;
  bool same(const Bound &O) const { return Var == O.Var && Value == O.Value; }
};
struct Facts {
  bool Reached = false;
  bool Eq = false;
  llvm::SmallVector<Bound, 2> Bounds;

  bool equal() const {
    return Eq || llvm::any_of(Bounds, [](const Bound &B) { return B.Bits == (GE | LE); });
  }
  bool operator==(const Facts &O) const {
    if (Reached != O.Reached || Eq != O.Eq || Bounds.size() != O.Bounds.size())
      return false;
    for (unsigned I = 0; I != Bounds.size(); ++I)
      if (!Bounds[I].same(O.Bounds[I]) || Bounds[I].Bits != O.Bounds[I].Bits)
        return false;
    return true;
  }
  void add(const Bound &N) {
    for (Bound &B : Bounds)
      if (B.same(N)) {
        B.Bits |= N.Bits;
        return;
      }
    Bounds.push_back(N);
    llvm::sort(Bounds, [](const Bound &A, const Bound &B) {
      return std::less<const VarDecl *>()(A.Var, B.Var) ||
             (A.Var == B.Var && A.Value < B.Value);
    });
  }
  /// Both paths meet: what holds on both.
  void join(const Facts &O) {
    if (!O.Reached)
      return;
    if (!Reached) {
      *this = O;
      return;
    }
    Eq = Eq && O.Eq;
    llvm::SmallVector<Bound, 2> Kept;
    for (const Bound &B : Bounds)
      for (const Bound &C : O.Bounds)
        if (B.same(C) && (B.Bits & C.Bits)) {
          Kept.push_back(B);
          Kept.back().Bits &= C.Bits;
        }
    Bounds = std::move(Kept);
  }
};

class EvenTargetFlow {
public:
  EvenTargetFlow(const FunctionTrace &T, const VarDecl *Begin, ASTContext &Ctx)
      : T(T), Begin(Begin), Ctx(Ctx) {}

  /// The facts at each retry of Begin on Key; false if there is none, or
  /// the analysis did not settle.
  bool rechecksSeeEqual(int Key) {
    if (!T.Cfg || !solve())
      return false;
    bool Any = false;
    for (const CFGBlock *B : *T.Cfg)
      for (const Event &E : T.Blocks[B->getBlockID()].Events) {
        if (E.Kind != EventKind::ReadRetry || E.Key != Key || E.Var != Begin)
          continue;
        Facts F = In[B->getBlockID()];
        if (!F.Reached)
          continue; // dead code validates nothing
        apply(*B, F, E.S);
        if (!F.equal())
          return false;
        Any = true;
      }
    return Any;
  }

private:
  bool solve() {
    unsigned N = T.Cfg->getNumBlockIDs();
    In.assign(N, Facts());
    In[T.Cfg->getEntry().getBlockID()].Reached = true;
    // Blocks are numbered from the exit up: the entry first settles in a
    // few passes; a budget that runs out proves nothing.
    std::vector<const CFGBlock *> Order(T.Cfg->begin(), T.Cfg->end());
    llvm::sort(Order, [](const CFGBlock *A, const CFGBlock *B) {
      return A->getBlockID() > B->getBlockID();
    });
    for (unsigned Pass = 0; Pass != 64; ++Pass) {
      bool Changed = false;
      for (const CFGBlock *B : Order) {
        if (!In[B->getBlockID()].Reached)
          continue;
        Facts Out = In[B->getBlockID()];
        apply(*B, Out, nullptr);
        unsigned I = 0;
        for (const CFGBlock::AdjacentBlock &A : B->succs()) {
          unsigned Succ = I++;
          const CFGBlock *S = A.getReachableBlock();
          if (!S)
            continue;
          Facts Edge = Out;
          branch(*B, Succ, Edge);
          Facts Joined = In[S->getBlockID()];
          Joined.join(Edge);
          if (!(Joined == In[S->getBlockID()])) {
            In[S->getBlockID()] = std::move(Joined);
            Changed = true;
          }
        }
      }
      if (!Changed)
        return true;
    }
    return false;
  }

  /// The block's statements, up to Stop (the node of a retry) if given:
  /// a write of Begin forgets everything, a write of a bound its bounds.
  void apply(const CFGBlock &B, Facts &F, const Stmt *Stop) {
    for (const CFGElement &El : B) {
      auto CS = El.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (Stop && (containsStmt(Stop, S) || containsStmt(S, Stop)))
        return;
      const VarDecl *Written = nullptr;
      if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
        Written = varOf(BO->getLHS());
      else if (const auto *U = dyn_cast<UnaryOperator>(S);
               U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
        Written = varOf(U->getSubExpr());
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D))
            kill(F, V);
      if (Written)
        kill(F, Written);
    }
  }

  static const VarDecl *varOf(const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  }

  void kill(Facts &F, const VarDecl *V) {
    if (V == Begin) {
      F.Eq = false;
      F.Bounds.clear();
      return;
    }
    llvm::erase_if(F.Bounds, [&](const Bound &B) { return B.Var == V; });
  }

  /// The facts the edge to the block's Succ-th successor adds (0: the
  /// condition held, 1: it did not).
  void branch(const CFGBlock &B, unsigned Succ, Facts &F) {
    const Stmt *Term = B.getTerminatorStmt();
    if (!Term || B.succ_size() != 2 ||
        !(isa<IfStmt>(Term) || isa<WhileStmt>(Term) || isa<DoStmt>(Term) ||
          isa<ForStmt>(Term) || isa<BinaryOperator>(Term)))
      return;
    const auto *C = dyn_cast_or_null<Expr>(B.getTerminatorCondition());
    if (C)
      learn(C, Succ == 0, F);
  }

  void learn(const Expr *C, bool Holds, Facts &F) {
    C = C->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(C); U && U->getOpcode() == UO_LNot)
      return learn(U->getSubExpr(), !Holds, F);
    const auto *BO = dyn_cast<BinaryOperator>(C);
    if (!BO)
      return;
    // The last operand of `a && b` decides the branch its block ends.
    if (BO->isLogicalOp())
      return learn(BO->getRHS(), Holds, F);
    if (!BO->isComparisonOp())
      return;
    BinaryOperatorKind Op = BO->getOpcode();
    const Expr *Other;
    if (isBegin(BO->getLHS())) {
      Other = BO->getRHS();
    } else if (isBegin(BO->getRHS())) {
      Other = BO->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    } else {
      return;
    }
    if (!Holds)
      Op = BinaryOperator::negateComparisonOp(Op);
    if (Op == BO_EQ) {
      if (isKnownEven(Other, T.FD, Ctx))
        F.Eq = true;
      return;
    }
    if (Op == BO_NE)
      return;
    Bound N;
    if (!boundOf(Other, N))
      return;
    N.Bits = Op == BO_LT || Op == BO_LE ? LE : GE;
    F.add(N);
  }

  /// `seq`, or `(seq = load)`.
  bool isBegin(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<BinaryOperator>(E); A && A->getOpcode() == BO_Assign)
      E = A->getLHS();
    return isVar(E, Begin);
  }

  /// A value both sides of a range can name: an even constant or local.
  bool boundOf(const Expr *E, Bound &N) const {
    if (auto C = constantOf(E->IgnoreParenImpCasts(), Ctx)) {
      if ((*C)[0] || C->getSignificantBits() > 64)
        return false;
      N.Value = C->getExtValue();
      return true;
    }
    const VarDecl *V = varOf(E);
    if (!V || !isKnownEvenLocal(V, T.FD, Ctx, 0))
      return false;
    N.Var = V;
    return true;
  }

  const FunctionTrace &T;
  const VarDecl *Begin;
  ASTContext &Ctx;
  std::vector<Facts> In;
};

} // namespace

bool isKnownEven(const Expr *E, const FunctionDecl *FD, ASTContext &Ctx,
                 unsigned Depth) {
  if (!E || Depth > 6)
    return false;
  E = E->IgnoreParenCasts();
  if (!E->getType()->isIntegerType())
    return false;
  if (auto C = constantOf(E, Ctx))
    return !(*C)[0];
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isKnownEven(CO->getTrueExpr(), FD, Ctx, Depth + 1) &&
           isKnownEven(CO->getFalseExpr(), FD, Ctx, Depth + 1);
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    return isKnownEvenLocal(dyn_cast<VarDecl>(DR->getDecl()), FD, Ctx, Depth);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  switch (BO->getOpcode()) {
  case BO_Mul:
    return isKnownEven(L, FD, Ctx, Depth + 1) || isKnownEven(R, FD, Ctx, Depth + 1);
  case BO_And: {
    // A mask with the low bit clear (`x & ~1`), or an even operand.
    auto LowBitClear = [&](const Expr *M) {
      auto C = constantOf(M->IgnoreParenImpCasts(), Ctx);
      return C && !(*C)[0];
    };
    return LowBitClear(L) || LowBitClear(R) || isKnownEven(L, FD, Ctx, Depth + 1) ||
           isKnownEven(R, FD, Ctx, Depth + 1);
  }
  case BO_Shl: {
    auto K = constantOf(R->IgnoreParenImpCasts(), Ctx);
    return (K && K->getExtValue() >= 1) || isKnownEven(L, FD, Ctx, Depth + 1);
  }
  case BO_Add:
  case BO_Sub:
    return isKnownEven(L, FD, Ctx, Depth + 1) && isKnownEven(R, FD, Ctx, Depth + 1);
  case BO_Comma:
    return isKnownEven(R, FD, Ctx, Depth + 1);
  default:
    return false;
  }
}

bool validatedOnlyWhenEven(const FunctionTrace &T, int Key, const VarDecl *Begin,
                           ASTContext &Ctx) {
  // A begin value written through a pointer changes where no block shows it.
  if (!Begin || !T.FD || addressTaken(T.FD->getBody(), Begin))
    return false;
  return EvenTargetFlow(T, Begin, Ctx).rechecksSeeEqual(Key);
}

} // namespace seqlint
