//===- ExtractKeys.cpp - location keys of the event trace -------------------===//
//
// A location key is the structured name of what an access touches: its
// access path (KeyStep: root variable, members, elements, dereferences),
// built from the lvalue, and the path's spelling (`s@1->seq`, `*(p@2)`,
// `g@3`), which interns it per function. Questions about the path
// (leafName(), addresses(), holderSteps()) read the steps, not the text.
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

/// How a variable appears in a key's text: unique per declaration.
static std::string varTag(const VarDecl *V) {
  return V->getName().str() + "@" + utohexstr(reinterpret_cast<uintptr_t>(V) >> 4, true);
}

/// The same step, as spelled (members by name, offsets aside).
static bool sameStep(const KeyStep &A, const KeyStep &B) {
  if (A.Kind != B.Kind)
    return false;
  switch (A.Kind) {
  case KeyStep::Member:
  case KeyStep::Arrow:
    // Spelled by name: a member reached through a cast is the same member.
    return (A.D ? A.D->getName() : StringRef()) == (B.D ? B.D->getName() : StringRef());
  case KeyStep::Index:
    return A.Constant == B.Constant && (!A.Constant || A.Element == B.Element);
  default:
    return A.D == B.D && A.Callee == B.Callee && A.Node == B.Node;
  }
}

void LocationKey::spell() {
  Text.clear();
  for (KeyStep &S : Path) {
    unsigned Begin = Text.size();
    switch (S.Kind) {
    case KeyStep::Var:
      Text += varTag(cast<VarDecl>(S.D));
      break;
    case KeyStep::This:
      Text += "this";
      break;
    case KeyStep::Call:
      Text += "call:" + (S.Callee ? S.Callee->getName().str() : std::string("?")) + "()";
      break;
    case KeyStep::StmtExpr:
      Text += "stmtexpr@" + utohexstr(reinterpret_cast<uintptr_t>(S.Node) >> 4, true);
      break;
    case KeyStep::Member:
      Text += "." + S.D->getName().str();
      break;
    case KeyStep::Arrow:
      Text += "->";
      if (S.D)
        Text += S.D->getName();
      break;
    case KeyStep::Index:
      Text += "[";
      if (S.Constant)
        Text += std::to_string(S.Element);
      Text += "]";
      break;
    case KeyStep::Deref:
    case KeyStep::AddrOf: {
      // Spelled around everything before it.
      StringRef Open = S.Kind == KeyStep::Deref ? "*(" : "&";
      Text.insert(0, Open.str());
      if (S.Kind == KeyStep::Deref)
        Text += ")";
      for (KeyStep &Before : Path) {
        if (&Before == &S)
          break;
        Before.Begin += Open.size();
        Before.End += Open.size();
      }
      Begin = 0;
      break;
    }
    }
    S.Begin = Begin;
    S.End = Text.size();
  }
}

bool LocationKey::addresses(const LocationKey &Other) const {
  size_t N = Path.size();
  if (Other.Path.size() <= N)
    return false;
  for (size_t I = 0; I != N; ++I)
    if (!sameStep(Path[I], Other.Path[I]))
      return false;
  // Other's spelling continues this one's: nothing after it is spelled
  // around it (`*(p->a->b)` is the pointee, reached through another load).
  for (size_t I = N; I != Other.Path.size(); ++I)
    if (Other.Path[I].Kind == KeyStep::Deref || Other.Path[I].Kind == KeyStep::AddrOf)
      return false;
  const KeyStep &Next = Other.Path[N];
  return Next.isMember() || Next.Kind == KeyStep::Index;
}

std::string LocationKey::leafName() const {
  for (const KeyStep &S : llvm::reverse(Path))
    if (S.isMember() && S.D)
      return S.D->getName().str();
  for (const KeyStep &S : Path)
    switch (S.Kind) {
    case KeyStep::Var:
      return S.D->getName().str();
    case KeyStep::This:
      return "this";
    case KeyStep::Call:
      return "call:" + (S.Callee ? S.Callee->getName().str() : std::string("?")) + "()";
    case KeyStep::StmtExpr:
      return "stmtexpr";
    default:
      break;
    }
  return "";
}

bool LocationKey::isDeref() const {
  for (const KeyStep &S : llvm::reverse(Path))
    if (S.Kind == KeyStep::Deref || S.Kind == KeyStep::AddrOf)
      return S.Kind == KeyStep::Deref;
  return false;
}

bool LocationKey::hasSomeElement() const {
  return llvm::any_of(Path, [](const KeyStep &S) {
    return S.Kind == KeyStep::Index && !S.Constant;
  });
}

ArrayRef<KeyStep> LocationKey::holderSteps() const {
  if (Path.size() < 2 || Path.back().Kind != KeyStep::Member || Path.back().D != Field)
    return {};
  // From the last member at or before the holder (or the root) to it:
  // `wpos` in `q->wpos.v`, `a[2]` in `q->a[2].v`, `g` in `g.v`.
  size_t Holder = Path.size() - 2, From = Holder;
  while (From > 0 && !Path[From].isMember())
    --From;
  return ArrayRef<KeyStep>(Path).slice(From, Holder - From + 1);
}

bool LocationKey::sameSteps(ArrayRef<KeyStep> A, ArrayRef<KeyStep> B) {
  return A.size() == B.size() &&
         std::equal(A.begin(), A.end(), B.begin(), sameStep);
}

bool LocationKey::onePointerChain(const LocationKey &A, const LocationKey &B) {
  // The steps to the object holding the location: up to its last pointer
  // step, or the root alone when there is none.
  auto ToObject = [](const LocationKey &K) {
    size_t End = K.Path.empty() ? 0 : 1;
    for (size_t I = 1; I < K.Path.size(); ++I)
      if (K.Path[I].Kind == KeyStep::Arrow || K.Path[I].Kind == KeyStep::Deref)
        End = I;
    return ArrayRef<KeyStep>(K.Path).take_front(End);
  };
  ArrayRef<KeyStep> X = ToObject(A), Y = ToObject(B);
  size_t N = std::min(X.size(), Y.size());
  return std::equal(X.begin(), X.begin() + N, Y.begin(), sameStep);
}

bool LocationKey::reachedThrough(const LocationKey &Data,
                                 const LocationKey &Ptr) {
  size_t N = Ptr.Path.size();
  if (!N || Data.Path.size() <= N ||
      !std::equal(Ptr.Path.begin(), Ptr.Path.end(), Data.Path.begin(),
                  sameStep))
    return false;
  switch (Data.Path[N].Kind) {
  case KeyStep::Arrow:
  case KeyStep::Deref:
    return true;
  case KeyStep::Index:
    // An element of the array a pointer member points to; not of an array
    // member itself (`q->slot[i]` lies in q).
    return Ptr.Field && Ptr.Field->getType()->isPointerType();
  default:
    return false;
  }
}

ArrayRef<KeyStep> LocationKey::afterLastArrow() const {
  size_t From = 0;
  for (size_t I = 0; I != Path.size(); ++I)
    if (Path[I].Kind == KeyStep::Arrow)
      From = I;
  return ArrayRef<KeyStep>(Path).drop_front(From);
}

StringRef LocationKey::spellingAfterRoot() const {
  unsigned From = Text.size();
  for (const KeyStep &S : Path)
    if ((S.isMember() || S.Kind == KeyStep::Index) && S.Begin < From)
      From = S.Begin;
  return StringRef(Text).drop_front(From);
}

std::string LocationKey::displayName(size_t Steps) const {
  // The spelling without the markers that make it unique (`s@1` is `s`).
  std::string S;
  ArrayRef<KeyStep> Shown = ArrayRef<KeyStep>(Path).take_front(Steps);
  bool Simple = llvm::none_of(Shown, [](const KeyStep &Step) {
    return Step.isMember() || Step.Kind == KeyStep::Index;
  });
  for (const KeyStep &Step : Shown) {
    switch (Step.Kind) {
    case KeyStep::Var:
      S += Step.D->getName();
      break;
    case KeyStep::This:
      S += "this";
      break;
    case KeyStep::Call: // what a call returned reads as the call
      S += (Step.Callee ? Step.Callee->getName().str() : std::string("?")) + "(...)";
      break;
    case KeyStep::StmtExpr:
      S += "stmtexpr";
      break;
    case KeyStep::Member:
    case KeyStep::Arrow:
    case KeyStep::Index:
      S.append(Text, Step.Begin, Step.End - Step.Begin);
      break;
    case KeyStep::Deref:
      // *(p) reads better as *p, *(p->q) needs its parentheses; *(&x)
      // never appears.
      S = (Simple && &Step == &Shown.back() ? "*" + S : "*(" + S + ")");
      break;
    case KeyStep::AddrOf:
      S = "&" + S;
      break;
    }
  }
  return S;
}

QualType declaredTypeOf(const LocationKey &K) {
  QualType Ty;
  if (K.Field)
    Ty = K.Field->getType();
  else if (K.Base) {
    Ty = K.Base->getType();
    if (K.isDeref() && Ty->isPointerType())
      Ty = Ty->getPointeeType();
  }
  return Ty;
}

QualType accessedTypeOf(const LocationKey &K) {
  QualType Ty = declaredTypeOf(K);
  if (!Ty.isNull() && K.isElement() && !K.Path.back().Constant)
    if (const Type *E = Ty->getPointeeOrArrayElementType())
      Ty = QualType(E, 0);
  return Ty;
}

namespace detail {

/// P when E is `(T *)((unsigned long)P + off)`: an address moved by an
/// integer offset, the way asm-generic and x86's this_cpu_ptr() reach this
/// CPU's copy of a per-CPU variable. The location is P's: every CPU's copy
/// follows the same protocol.
/// Offset, if given, is set to the other operand (this CPU's offset).
static const Expr *offsetAddressBase(const Expr *E, const Expr **Offset = nullptr) {
  const auto *CC = dyn_cast<CStyleCastExpr>(E->IgnoreParens());
  if (!CC || !CC->getType()->isPointerType())
    return nullptr;
  const auto *BO = dyn_cast<BinaryOperator>(CC->getSubExpr()->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Add || !BO->getType()->isIntegerType())
    return nullptr;
  for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
    const Expr *X = Side->IgnoreParenImpCasts();
    const auto *IC = dyn_cast<CStyleCastExpr>(X);
    if (!IC || !IC->getType()->isIntegerType())
      continue;
    const Expr *Ptr = IC->getSubExpr()->IgnoreParenImpCasts();
    if (Ptr->getType()->isPointerType()) {
      if (Offset)
        *Offset = Side == BO->getLHS() ? BO->getRHS() : BO->getLHS();
      return Ptr;
    }
  }
  return nullptr;
}

/// The load of __per_cpu_offset[cpu] or this_cpu_off.
bool inAddressOffset(const Expr *E, const ParentMap *PM) {
  if (!PM)
    return false;
  SmallVector<const Stmt *, 8> Chain{E};
  const Stmt *Cur = E;
  for (int Up = 0; Up < 8; ++Up) {
    const Stmt *P = PM->getParent(Cur);
    if (!P || !isa<Expr>(P))
      return false;
    if (const auto *CC = dyn_cast<CStyleCastExpr>(P)) {
      const Expr *Offset = nullptr;
      if (offsetAddressBase(CC, &Offset))
        return llvm::is_contained(Chain, Offset);
    }
    Chain.push_back(P);
    Cur = P;
  }
  return false;
}

bool FunctionClassifier::buildKey(const Expr *E, LocationKey &K, int Depth) {
  if (Depth > 16)
    return false;
  E = E->IgnoreParens();
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    return buildKey(IC->getSubExpr(), K, Depth + 1);
  if (const Expr *Base = offsetAddressBase(E))
    return buildKey(Base, K, Depth + 1);
  if (const auto *CC = dyn_cast<CStyleCastExpr>(E))
    return buildKey(CC->getSubExpr(), K, Depth + 1);
  KeyStep Root;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return false;
    K.Base = V;
    if (isa<ParmVarDecl>(V))
      K.Storage = LocationKey::Param;
    else if (V->hasLocalStorage())
      K.Storage = LocationKey::Local;
    else
      K.Storage = LocationKey::Global;
    Root.Kind = KeyStep::Var;
    Root.D = V;
    K.Path.push_back(Root);
    // A local or parameter that is a pointer: its pointee is not local.
    return true;
  }
  if (isa<CXXThisExpr>(E)) {
    // C++: members reached through `this` belong to the caller's object.
    Root.Kind = KeyStep::This;
    K.Path.push_back(Root);
    K.Storage = LocationKey::Param;
    K.ViaPointer = true;
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return buildMemberKey(ME, K, Depth);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return buildUnaryKey(U, K, Depth);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return buildSubscriptKey(AS, K, Depth);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // this_cpu_ptr(x)->f, get_obj()->f: memory reached through a call.
    Root.Kind = KeyStep::Call;
    Root.Callee = calleeOf(CE);
    K.Path.push_back(Root);
    K.Storage = LocationKey::Unknown;
    K.ViaPointer = true;
    return true;
  }
  if (const auto *SE = dyn_cast<StmtExpr>(E)) {
    // ({ ...; ptr; }) from a non-API macro such as per_cpu_ptr().
    Root.Kind = KeyStep::StmtExpr;
    Root.Node = SE;
    K.Path.push_back(Root);
    K.Storage = LocationKey::Unknown;
    K.ViaPointer = true;
    return true;
  }
  return false;
}

/// `base.f`, `base->f`: the base's key with the member.
bool FunctionClassifier::buildMemberKey(const MemberExpr *ME, LocationKey &K,
                                        int Depth) {
  if (!buildKey(ME->getBase(), K, Depth + 1))
    return false;
  if (ME->isArrow())
    K.ViaPointer = true;
  const auto *Member = ME->getMemberDecl();
  // Anonymous struct and union members add nothing to the path: `p->u.x`
  // with u anonymous is `p->x`, `g.u.x` is `g.x`.
  KeyStep &Last = K.Path.back();
  if (!Member->getName().empty() && !ME->isArrow() && Last.Kind == KeyStep::Arrow &&
      !Last.D) {
    Last.D = Member;
  } else if (!Member->getName().empty() || ME->isArrow()) {
    KeyStep Step;
    Step.Kind = ME->isArrow() ? KeyStep::Arrow : KeyStep::Member;
    Step.D = Member->getName().empty() ? nullptr : Member;
    K.Path.push_back(Step);
  }
  // What holds the member: the named member (or global variable) the
  // object is reached by, when it is reached with '.'; an anonymous
  // struct or union member keeps the holder of its own object.
  const ValueDecl *Outer = nullptr;
  if (!ME->isArrow()) {
    const Expr *B = ME->getBase()->IgnoreParenImpCasts();
    if (const auto *BM = dyn_cast<MemberExpr>(B))
      Outer = BM->getMemberDecl()->getName().empty() ? K.Outer
                                                      : BM->getMemberDecl();
    else if (const auto *DR = dyn_cast<DeclRefExpr>(B))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && V->hasGlobalStorage() && !V->isStaticLocal())
        Outer = V;
  }
  K.Outer = Outer;
  K.Field = Member;
  return true;
}

/// `*p` (`*&x` is x), `&x`.
bool FunctionClassifier::buildUnaryKey(const UnaryOperator *U, LocationKey &K,
                                       int Depth) {
  KeyStep Step;
  if (U->getOpcode() == UO_Deref) {
    const Expr *Sub = U->getSubExpr()->IgnoreParenImpCasts();
    if (const Expr *Base = offsetAddressBase(Sub))
      Sub = Base->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<UnaryOperator>(Sub))
      if (A->getOpcode() == UO_AddrOf)
        return buildKey(A->getSubExpr(), K, Depth + 1);
    if (!buildKey(U->getSubExpr(), K, Depth + 1))
      return false;
    Step.Kind = KeyStep::Deref;
    K.Path.push_back(Step);
    K.ViaPointer = true;
    return true;
  }
  if (U->getOpcode() == UO_AddrOf) {
    if (!buildKey(U->getSubExpr(), K, Depth + 1))
      return false;
    Step.Kind = KeyStep::AddrOf;
    K.Path.push_back(Step);
    return true;
  }
  return false;
}

/// `a[i]`: one element for a constant index, else some element.
bool FunctionClassifier::buildSubscriptKey(const ArraySubscriptExpr *AS, LocationKey &K,
                                           int Depth) {
  if (!buildKey(AS->getBase(), K, Depth + 1))
    return false;
  if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
    K.ViaPointer = true;
  // A constant index names one element (cd[0].seq and cd[1].seq are two
  // counters); any other index, some element.
  KeyStep Step;
  Step.Kind = KeyStep::Index;
  Expr::EvalResult R;
  const Expr *Idx = AS->getIdx();
  if (!Idx->isValueDependent() && Idx->EvaluateAsInt(R, Ctx)) {
    const APSInt &V = R.Val.getInt();
    Step.Constant = V.isSigned() ? V.getSignificantBits() <= 64 : V.getActiveBits() <= 63;
    Step.Element = Step.Constant ? V.getExtValue() : 0;
  }
  K.Path.push_back(Step);
  return true;
}

int FunctionClassifier::keyOf(const Expr *E, bool IsPointer) {
  if (!E)
    return -1;
  LocationKey K;
  const Expr *X = E->IgnoreParenImpCasts();
  if (const Expr *Base = offsetAddressBase(X))
    X = Base->IgnoreParenImpCasts();
  if (IsPointer) {
    // p designates *p: `&s->seq` is s->seq, `sc` is *sc.
    if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf) {
      if (!buildKey(U->getSubExpr(), K, 0))
        return -1;
    } else {
      if (!buildKey(X, K, 0))
        return -1;
      KeyStep Deref;
      Deref.Kind = KeyStep::Deref;
      K.Path.push_back(Deref);
      K.ViaPointer = true;
    }
  } else if (!buildKey(X, K, 0)) {
    return -1;
  }
  K.spell();
  return internKey(K);
}

/// If E (a value) is a load of some location, the key; -1 otherwise. Local
/// variables holding a loaded value count as that location.
int FunctionClassifier::loadedKey(const Expr *E) {
  if (!E)
    return -1;
  E = E->IgnoreParens();
  while (true) {
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      if (IC->getCastKind() == CK_LValueToRValue)
        break;
      E = IC->getSubExpr()->IgnoreParens();
      continue;
    }
    if (const auto *CC = dyn_cast<CStyleCastExpr>(E)) {
      E = CC->getSubExpr()->IgnoreParens();
      continue;
    }
    break;
  }
  auto It = LoadNodes.find(E);
  if (It != LoadNodes.end())
    return It->second;
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    if (IC->getCastKind() == CK_LValueToRValue) {
      const Expr *Sub = IC->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(Sub))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
          auto S = T.VarSource.find(V);
          if (S != T.VarSource.end())
            return S->second;
        }
      int K = keyOf(Sub, false);
      return K;
    }
  if (const MacroInstance *I = wholeInstance(E)) {
    if (I->Entry->R == Role::Load) {
      const Stmt *Root = rootOf(I, E);
      SmallVector<const Expr *, 4> Args = instanceArgs(I, Root);
      int A = I->Entry->CounterArg;
      return keyOf(A >= 0 && A < (int)Args.size() ? Args[A] : nullptr,
                   I->Entry->ArgIsPointer);
    }
  }
  if (const auto *AE = dyn_cast<AtomicExpr>(E))
    if (AE->getOp() == AtomicExpr::AO__c11_atomic_load ||
        AE->getOp() == AtomicExpr::AO__atomic_load_n)
      return keyOf(AE->getPtr(), true);
  return -1;
}

int FunctionClassifier::internKey(const LocationKey &K) {
  auto It = T.KeyIndex.find(K.Text);
  if (It != T.KeyIndex.end())
    return It->second;
  int Idx = T.Keys.size();
  T.Keys.push_back(K);
  T.KeyIndex[K.Text] = Idx;
  return Idx;
}

} // namespace detail
} // namespace seqlint
