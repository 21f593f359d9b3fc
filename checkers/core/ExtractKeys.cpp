//===- ExtractKeys.cpp - location keys of the event trace -------------------===//
//
// A location key is the structured name of what an access touches
// (`s@1->seq`, `*(p@2)`, `g@3`): built from the lvalue, interned per
// function, and read back by the checks (leafName(), displayName()).
//
//===----------------------------------------------------------------------===//
#include "core/FunctionClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

bool LocationKey::addresses(const LocationKey &Other) const {
  StringRef O = Other.Text;
  if (O.size() <= Text.size() || !O.starts_with(Text))
    return false;
  StringRef Rest = O.substr(Text.size());
  return Rest.starts_with("->") || Rest.starts_with(".") || Rest.starts_with("[");
}

std::string LocationKey::leafName() const {
  StringRef T = Text;
  // Text looks like "s@1->seq" or "g@7": the leaf is after the last -> or .
  size_t Arrow = T.rfind("->");
  size_t Dot = T.rfind('.');
  size_t Cut = StringRef::npos;
  if (Arrow != StringRef::npos)
    Cut = Arrow + 2;
  if (Dot != StringRef::npos && (Cut == StringRef::npos || Dot + 1 > Cut))
    Cut = Dot + 1;
  StringRef Leaf = Cut == StringRef::npos ? T : T.drop_front(Cut);
  Leaf = Leaf.take_until([](char C) { return C == '@' || C == '['; });
  Leaf = Leaf.ltrim("*(");
  return Leaf.str();
}

std::string LocationKey::displayName() const {
  static const Regex Marker("@[0-9a-f]+");
  std::string S = Text;
  while (Marker.match(S))
    S = Marker.sub("", S);
  // *(&x) never appears; *(p) reads better as *p.
  if (StringRef(S).starts_with("*(") && StringRef(S).ends_with(")") &&
      S.find_first_of("-.>[", 2) == std::string::npos)
    S = "*" + S.substr(2, S.size() - 3);
  // What a call returned (`call:comp_addr()`) reads as the call.
  for (size_t At = S.find("call:"); At != std::string::npos; At = S.find("call:", At)) {
    S.erase(At, 5);
    size_t Paren = S.find("()", At);
    if (Paren != std::string::npos)
      S.replace(Paren, 2, "(...)");
  }
  return S;
}

QualType declaredTypeOf(const LocationKey &K) {
  QualType Ty;
  if (K.Field)
    Ty = K.Field->getType();
  else if (K.Base) {
    Ty = K.Base->getType();
    if (StringRef(K.Text).starts_with("*(") && Ty->isPointerType())
      Ty = Ty->getPointeeType();
  }
  return Ty;
}

QualType accessedTypeOf(const LocationKey &K) {
  QualType Ty = declaredTypeOf(K);
  if (!Ty.isNull() && StringRef(K.Text).ends_with("[]"))
    if (const Type *E = Ty->getPointeeOrArrayElementType())
      Ty = QualType(E, 0);
  return Ty;
}

namespace detail {

std::string varTag(const VarDecl *V) {
  return V->getName().str() + "@" + utohexstr(reinterpret_cast<uintptr_t>(V) >> 4, true);
}

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

bool FunctionClassifier::buildKey(const Expr *E, LocationKey &K, std::string &Text,
                                  int Depth) {
  if (Depth > 16)
    return false;
  E = E->IgnoreParens();
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    return buildKey(IC->getSubExpr(), K, Text, Depth + 1);
  if (const Expr *Base = offsetAddressBase(E))
    return buildKey(Base, K, Text, Depth + 1);
  if (const auto *CC = dyn_cast<CStyleCastExpr>(E))
    return buildKey(CC->getSubExpr(), K, Text, Depth + 1);
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
    Text += varTag(V);
    // A local or parameter that is a pointer: its pointee is not local.
    return true;
  }
  if (isa<CXXThisExpr>(E)) {
    // C++: members reached through `this` belong to the caller's object.
    Text += "this";
    K.Storage = LocationKey::Param;
    K.ViaPointer = true;
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return buildMemberKey(ME, K, Text, Depth);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return buildUnaryKey(U, K, Text, Depth);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return buildSubscriptKey(AS, K, Text, Depth);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // this_cpu_ptr(x)->f, get_obj()->f: memory reached through a call.
    const FunctionDecl *F = calleeOf(CE);
    Text += "call:" + (F ? F->getName().str() : std::string("?")) + "()";
    K.Storage = LocationKey::Unknown;
    K.ViaPointer = true;
    return true;
  }
  if (const auto *SE = dyn_cast<StmtExpr>(E)) {
    // ({ ...; ptr; }) from a non-API macro such as per_cpu_ptr().
    Text += "stmtexpr@" + utohexstr(reinterpret_cast<uintptr_t>(SE) >> 4, true);
    K.Storage = LocationKey::Unknown;
    K.ViaPointer = true;
    return true;
  }
  return false;
}

/// `base.f`, `base->f`: the base's key with the member.
bool FunctionClassifier::buildMemberKey(const MemberExpr *ME, LocationKey &K,
                                        std::string &Text, int Depth) {
  if (!buildKey(ME->getBase(), K, Text, Depth + 1))
    return false;
  if (ME->isArrow())
    K.ViaPointer = true;
  StringRef Member = ME->getMemberDecl()->getName();
  if (!Member.empty()) { // anonymous struct/union members add nothing
    if (ME->isArrow() || !StringRef(Text).ends_with("->"))
      Text += ME->isArrow() ? "->" : ".";
    Text += Member.str();
  } else if (ME->isArrow()) {
    Text += "->";
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
  K.Field = ME->getMemberDecl();
  return true;
}

/// `*p` (`*&x` is x), `&x`.
bool FunctionClassifier::buildUnaryKey(const UnaryOperator *U, LocationKey &K,
                                       std::string &Text, int Depth) {
  if (U->getOpcode() == UO_Deref) {
    const Expr *Sub = U->getSubExpr()->IgnoreParenImpCasts();
    if (const Expr *Base = offsetAddressBase(Sub))
      Sub = Base->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<UnaryOperator>(Sub))
      if (A->getOpcode() == UO_AddrOf)
        return buildKey(A->getSubExpr(), K, Text, Depth + 1);
    Text += "*(";
    if (!buildKey(U->getSubExpr(), K, Text, Depth + 1))
      return false;
    Text += ")";
    K.ViaPointer = true;
    return true;
  }
  if (U->getOpcode() == UO_AddrOf) {
    Text += "&";
    return buildKey(U->getSubExpr(), K, Text, Depth + 1);
  }
  return false;
}

/// `a[i]`: one element for a constant index, else some element.
bool FunctionClassifier::buildSubscriptKey(const ArraySubscriptExpr *AS, LocationKey &K,
                                           std::string &Text, int Depth) {
  if (!buildKey(AS->getBase(), K, Text, Depth + 1))
    return false;
  if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
    K.ViaPointer = true;
  // A constant index names one element (cd[0].seq and cd[1].seq are two
  // counters); any other index, some element.
  Text += "[";
  Expr::EvalResult R;
  const Expr *Idx = AS->getIdx();
  if (!Idx->isValueDependent() && Idx->EvaluateAsInt(R, Ctx))
    Text += toString(R.Val.getInt(), 10);
  Text += "]";
  return true;
}

int FunctionClassifier::keyOf(const Expr *E, bool IsPointer) {
  if (!E)
    return -1;
  LocationKey K;
  std::string Text;
  const Expr *X = E->IgnoreParenImpCasts();
  if (const Expr *Base = offsetAddressBase(X))
    X = Base->IgnoreParenImpCasts();
  if (IsPointer) {
    // p designates *p: `&s->seq` is s->seq, `sc` is *sc.
    if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf) {
      if (!buildKey(U->getSubExpr(), K, Text, 0))
        return -1;
    } else {
      Text = "*(";
      if (!buildKey(X, K, Text, 0))
        return -1;
      Text += ")";
      K.ViaPointer = true;
    }
  } else if (!buildKey(X, K, Text, 0)) {
    return -1;
  }
  K.Text = Text;
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
