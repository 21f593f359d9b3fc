//===- ChangedBits.cpp ----------------------------------------------------===//
#include "core/ChangedBits.h"
#include "core/AstQueries.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace seqlint {
namespace {

/// A value computed from the location's old value: it differs from it in
/// Changed at most; Cleared holds the bits a constant mask zeroed on the
/// way (the field a masked update rewrites).
struct Derived {
  uint64_t Changed = 0;
  uint64_t Cleared = 0;
};

/// One function on the way from the write up to the function whose event
/// it is: Fn, and the call that reaches it from the next frame's Fn.
struct Frame {
  const FunctionDecl *Fn;
  const CallExpr *Site; // null in the outermost frame
};

class BitsOf {
public:
  BitsOf(std::vector<Frame> Chain, const ValueDecl *Loc)
      : Chain(std::move(Chain)),
        Loc(cast<ValueDecl>(Loc->getCanonicalDecl())),
        Ctx(Loc->getASTContext()) {
    uint64_t W = Ctx.getTypeSize(Loc->getType());
    Width = W >= 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
  }

  std::optional<uint64_t> ofWrite(const Stmt *Write) {
    const BinaryOperator *BO = assignmentTo(Write, 0);
    if (!BO)
      return std::nullopt;
    const Expr *R = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Assign:
      if (std::optional<Derived> D = value(R, 0))
        return D->Changed & Width;
      return std::nullopt;
    case BO_OrAssign:
    case BO_XorAssign:
      if (std::optional<uint64_t> C = constant(R))
        return *C & Width;
      return std::nullopt;
    case BO_AndAssign:
      if (std::optional<uint64_t> C = constant(R))
        return ~*C & Width;
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }

private:
  /// The location an lvalue names, through the casts and `*&` of
  /// READ_ONCE()/WRITE_ONCE() and smp_store_release().
  const ValueDecl *locationOf(const Expr *E) const {
    for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
      E = E->IgnoreParenCasts();
      const auto *U = dyn_cast<UnaryOperator>(E);
      if (!U || U->getOpcode() != UO_Deref)
        break;
      const auto *A = dyn_cast<UnaryOperator>(U->getSubExpr()->IgnoreParenCasts());
      if (!A || A->getOpcode() != UO_AddrOf)
        return nullptr;
      E = A->getSubExpr();
    }
    const ValueDecl *D = E ? lvalueIdentity(E) : nullptr;
    return D ? cast<ValueDecl>(D->getCanonicalDecl()) : nullptr;
  }

  /// The assignment inside S whose left-hand side is Loc.
  const BinaryOperator *assignmentTo(const Stmt *S, unsigned Depth) const {
    if (!S || Depth > 24)
      return nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isAssignmentOp() && locationOf(BO->getLHS()) == Loc)
        return BO;
    for (const Stmt *Ch : S->children())
      if (const BinaryOperator *BO = assignmentTo(Ch, Depth + 1))
        return BO;
    return nullptr;
  }

  std::optional<uint64_t> constant(const Expr *E) const {
    if (!E || E->isValueDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (!E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().extOrTrunc(64).getZExtValue();
  }

  /// E as the location's old value with some bits changed.
  std::optional<Derived> value(const Expr *E, unsigned Depth) {
    if (!E || Depth > 16)
      return std::nullopt;
    E = E->IgnoreParenCasts();
    if (const auto *SE = dyn_cast<StmtExpr>(E)) { // READ_ONCE's ({ ...; x; })
      const CompoundStmt *CS = SE->getSubStmt();
      if (!CS || CS->body_empty())
        return std::nullopt;
      const auto *Last = dyn_cast<Expr>(CS->body_back());
      return Last ? value(Last, Depth + 1) : std::nullopt;
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
        return argument(P, Depth + 1);
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && V->hasLocalStorage())
        return local(V, Depth + 1);
    }
    if (locationOf(E) == Loc)
      return Derived{};
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return std::nullopt;
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op != BO_And && Op != BO_Or && Op != BO_Xor)
      return std::nullopt;
    // The derived side and the other one.
    const Expr *A = BO->getLHS(), *B = BO->getRHS();
    std::optional<Derived> D = value(A, Depth + 1);
    if (!D) {
      std::swap(A, B);
      D = value(A, Depth + 1);
    }
    if (!D)
      return std::nullopt;
    return apply(*D, Op, B);
  }

  std::optional<Derived> apply(Derived D, BinaryOperatorKind Op,
                               const Expr *Operand) {
    std::optional<uint64_t> C = constant(Operand);
    switch (Op) {
    case BO_And:
      if (!C)
        return std::nullopt;
      D.Changed |= ~*C & Width;
      D.Cleared |= ~*C & Width;
      return D;
    case BO_Or:
    case BO_Xor:
      if (C) {
        D.Changed |= *C & Width;
        return D;
      }
      // A masked field update: the value put in is the field's.
      if (Op == BO_Or && D.Cleared) {
        D.Changed |= D.Cleared;
        return D;
      }
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }

  /// A parameter of a helper seen through: the argument of the call that
  /// reaches it, in the caller's terms.
  std::optional<Derived> argument(const ParmVarDecl *P, unsigned Depth) {
    const Frame &F = Chain[Cur];
    const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
    if (!F.Site || !F.Fn || !Owner ||
        Owner->getCanonicalDecl() != F.Fn->getCanonicalDecl() ||
        P->getFunctionScopeIndex() >= F.Site->getNumArgs())
      return std::nullopt;
    // A parameter assigned in the helper is a local of its own.
    for (const FunctionDecl *R : F.Fn->redecls())
      if (R->getBody() && writtenIn(R->getBody(), P))
        return std::nullopt;
    const Expr *Arg = F.Site->getArg(P->getFunctionScopeIndex());
    ++Cur;
    std::optional<Derived> D = value(Arg, Depth + 1);
    --Cur;
    return D;
  }

  /// A local the function builds the new value in: every definition of it,
  /// in source order, starting from the location's value. A definition
  /// that starts over is joined with what came before, since a path may
  /// skip it.
  std::optional<Derived> local(const VarDecl *V, unsigned Depth) {
    const FunctionDecl *In = Chain[Cur].Fn;
    const FunctionDecl *Def = nullptr;
    if (!In || !In->hasBody(Def))
      return std::nullopt;
    std::optional<Derived> D;
    bool Bad = false;
    auto Start = [&](const Expr *Init) {
      std::optional<Derived> N = value(Init, Depth + 1);
      if (!N) {
        Bad = true;
        return;
      }
      if (D) {
        D->Changed |= N->Changed;
        D->Cleared &= N->Cleared;
      } else {
        D = N;
      }
    };
    if (const Expr *Init = V->getInit())
      Start(Init);
    walk(Def->getBody(), V, D, Bad, Start, Depth, 0);
    if (Bad)
      return std::nullopt;
    return D;
  }

  template <typename StartFn>
  void walk(const Stmt *S, const VarDecl *V, std::optional<Derived> &D,
            bool &Bad, StartFn &Start, unsigned Depth, unsigned Nest) {
    if (!S || Bad || Nest > 256)
      return;
    auto Names = [V](const Expr *E) {
      const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
      return DR && DR->getDecl() == V;
    };
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && Names(BO->getLHS())) {
      walk(BO->getRHS(), V, D, Bad, Start, Depth, Nest + 1);
      if (BO->getOpcode() == BO_Assign) {
        Start(BO->getRHS());
        return;
      }
      BinaryOperatorKind Op = BO->getOpcode() == BO_AndAssign  ? BO_And
                              : BO->getOpcode() == BO_OrAssign ? BO_Or
                              : BO->getOpcode() == BO_XorAssign
                                  ? BO_Xor
                                  : BO_Comma;
      if (!D || Op == BO_Comma) {
        Bad = true;
        return;
      }
      if (std::optional<Derived> N = apply(*D, Op, BO->getRHS()))
        D = N;
      else
        Bad = true;
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S);
        U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
        Names(U->getSubExpr())) {
      Bad = true;
      return;
    }
    for (const Stmt *Ch : S->children())
      walk(Ch, V, D, Bad, Start, Depth, Nest + 1);
  }

  std::vector<Frame> Chain;
  unsigned Cur = 0;
  const ValueDecl *Loc;
  ASTContext &Ctx;
  uint64_t Width;
};

} // namespace

/// The calls from F's body down to Target, through helpers with bodies:
/// each path innermost call first. At most a few, a few levels deep.
static void callPaths(const FunctionDecl *F, const FunctionDecl *Target,
                      unsigned Level, std::vector<const CallExpr *> &Path,
                      std::vector<std::vector<const CallExpr *>> &Out) {
  const FunctionDecl *Def = nullptr;
  if (!F || Level > 3 || Out.size() >= 8 || !F->hasBody(Def))
    return;
  std::vector<const Stmt *> Work{Def->getBody()};
  while (!Work.empty() && Out.size() < 8) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *C = CE->getDirectCallee()) {
        Path.push_back(CE);
        if (C->getCanonicalDecl() == Target->getCanonicalDecl())
          Out.emplace_back(Path.rbegin(), Path.rend());
        else if (C->getCanonicalDecl() != F->getCanonicalDecl())
          callPaths(C, Target, Level + 1, Path, Out);
        Path.pop_back();
      }
    for (const Stmt *Ch : S->children())
      Work.push_back(Ch);
  }
}

std::optional<uint64_t> changedBits(const Stmt *Write, const FunctionDecl *In,
                                    const ValueDecl *Loc, const CallExpr *Site,
                                    const FunctionDecl *SiteIn) {
  if (!Write || !Loc || !Loc->getType()->isIntegerType())
    return std::nullopt;
  const FunctionDecl *Callee = Site ? Site->getDirectCallee() : nullptr;
  if (!Callee || !SiteIn)
    return BitsOf({{In, nullptr}}, Loc).ofWrite(Write);
  // The ways from the call down to the helper whose body writes; a write
  // reached several ways can change the bits of each.
  std::vector<std::vector<const CallExpr *>> Paths;
  if (Callee->getCanonicalDecl() == In->getCanonicalDecl()) {
    Paths.push_back({});
  } else {
    std::vector<const CallExpr *> Path;
    callPaths(Callee, In, 0, Path, Paths);
    if (Paths.empty() || Paths.size() >= 8)
      return std::nullopt;
  }
  uint64_t Bits = 0;
  for (const auto &P : Paths) {
    // Innermost first: In reached by P[0], P[0]'s function by P[1], ...,
    // the outermost helper by Site.
    std::vector<Frame> Chain;
    if (P.empty()) {
      Chain.push_back({In, Site});
    } else {
      Chain.push_back({In, P[0]});
      for (size_t I = 1; I < P.size(); ++I)
        Chain.push_back({P[I]->getDirectCallee(), P[I]});
      Chain.push_back({Callee, Site});
    }
    Chain.push_back({SiteIn, nullptr});
    std::optional<uint64_t> B = BitsOf(std::move(Chain), Loc).ofWrite(Write);
    if (!B)
      return std::nullopt;
    Bits |= *B;
  }
  return Bits;
}

} // namespace seqlint
