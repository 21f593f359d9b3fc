//===- Provenance.cpp - memory another agent sees -------------------------===//
#include "core/Provenance.h"
#include "core/Fresh.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace clang;
using namespace llvm;

namespace seqlint {

/// One pass over one function: which locals hold shared memory, and what
/// the function stores it into or returns.
class SharedMemory::Walker {
public:
  Walker(SharedMemory &SM, const FunctionDecl *FD) : SM(SM), FD(FD) {
    Fn = FD->getIdentifier() ? FD->getName().str() : "?";
  }
  /// Did this pass learn anything new?
  bool Changed = false;

  void walk(const Stmt *S, unsigned Depth = 0) {
    if (!S || Depth > 256)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
          assign(V, V->getType(), V->getInit());
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->getOpcode() == BO_Assign) {
      if (const ValueDecl *Target = target(BO->getLHS()))
        assign(Target, BO->getLHS()->getType(), BO->getRHS());
    } else if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      if (std::optional<Source> Src = sourceOf(RS->getRetValue()))
        Changed |= SM.Returns.try_emplace(FD->getCanonicalDecl(), *Src).second;
    }
    for (const Stmt *C : S->children())
      walk(C, Depth + 1);
  }

private:
  /// What an assignment's left side names: a variable or the last member
  /// (`*(volatile T *)&x->f = v`, WRITE_ONCE()'s shape, names `f`).
  static const ValueDecl *target(const Expr *E) {
    for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
      E = E->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
        const auto *A = dyn_cast<UnaryOperator>(U->getSubExpr()->IgnoreParenCasts());
        if (!A || A->getOpcode() != UO_AddrOf)
          return nullptr;
        E = A->getSubExpr();
        continue;
      }
      if (const auto *DR = dyn_cast<DeclRefExpr>(E))
        return dyn_cast<VarDecl>(DR->getDecl());
      if (const auto *ME = dyn_cast<MemberExpr>(E))
        return ME->getMemberDecl();
      return nullptr;
    }
    return nullptr;
  }

  void assign(const ValueDecl *Target, QualType T, const Expr *Value) {
    if (!T->isPointerType())
      return;
    std::optional<Source> Src = sourceOf(Value);
    if (!Src)
      return;
    const auto *V = dyn_cast<VarDecl>(Target);
    if (V && V->hasLocalStorage()) {
      Locals.try_emplace(V, *Src);
      if (Src->Kind == Sharing::Process && !Src->Api.empty())
        SM.MappedLocals.insert(V);
    } else {
      Changed |= SM.Pointers.try_emplace(Target, *Src).second;
    }
    size_t Before = SM.Records.size();
    SM.addRecord(T->getPointeeType(), *Src);
    Changed |= SM.Records.size() != Before;
  }

  /// Does E evaluate to an address in shared memory?
  std::optional<Source> sourceOf(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 16)
      return std::nullopt;
    E = E->IgnoreParenCasts();
    if (const auto *CE = dyn_cast<CallExpr>(E))
      return callSource(CE, Depth);
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
        if (auto It = Locals.find(V); It != Locals.end())
          return It->second;
        if (auto It = SM.Pointers.find(V); It != SM.Pointers.end())
          return It->second;
      }
      return std::nullopt;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (auto It = SM.Pointers.find(ME->getMemberDecl()); It != SM.Pointers.end())
        return It->second;
      return std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      // base + offset, base - offset: an address inside the same mapping.
      if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
        return std::nullopt;
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
        if (Side->IgnoreParenCasts()->getType()->isPointerType() ||
            Side->IgnoreParenCasts()->getType()->isIntegerType())
          if (std::optional<Source> S = sourceOf(Side, Depth + 1))
            return S;
      return std::nullopt;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      return objectSource(U->getSubExpr(), Depth + 1);
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      if (std::optional<Source> S = sourceOf(CO->getTrueExpr(), Depth + 1))
        return S;
      return sourceOf(CO->getFalseExpr(), Depth + 1);
    }
    return std::nullopt;
  }

  /// Does the object E lies in shared memory (`&q->slot[i]`, `&ring[0]`)?
  std::optional<Source> objectSource(const Expr *E, unsigned Depth) const {
    E = E->IgnoreParenCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      if (AS->getBase()->IgnoreParenImpCasts()->getType()->isPointerType())
        return sourceOf(AS->getBase(), Depth + 1);
      return objectSource(AS->getBase(), Depth + 1);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        if (auto It = SM.Records.find(FD->getParent()); It != SM.Records.end())
          return It->second;
      if (ME->isArrow())
        return sourceOf(ME->getBase(), Depth + 1);
      return objectSource(ME->getBase(), Depth + 1);
    }
    return std::nullopt;
  }

  std::optional<Source> callSource(const CallExpr *CE, unsigned Depth = 0) const {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return std::nullopt;
    if (auto It = SM.Returns.find(Callee->getCanonicalDecl()); It != SM.Returns.end())
      return It->second;
    if (!Callee->getIdentifier())
      return std::nullopt;
    const ApiEntry *A = SM.Model.lookup(Callee->getName());
    if (!A)
      return SM.wrapperSource(Callee, Depth + 1);
    if (A->Shares == Sharing::None)
      return std::nullopt;
    if (A->SharedFlagsArg >= 0) {
      // mmap(..., MAP_PRIVATE, ...) maps a private copy.
      if ((unsigned)A->SharedFlagsArg >= CE->getNumArgs())
        return std::nullopt;
      const Expr *Flags = CE->getArg(A->SharedFlagsArg);
      Expr::EvalResult R;
      if (!Flags->isValueDependent() && Flags->EvaluateAsInt(R, SM.Ctx) &&
          !(R.Val.getInt().getZExtValue() & 1))
        return std::nullopt;
    }
    return Source{A->Shares, Callee->getName().str(), Fn};
  }

  SharedMemory &SM;
  const FunctionDecl *FD;
  std::string Fn;
  DenseMap<const VarDecl *, Source> Locals;
};

SharedMemory::SharedMemory(ASTContext &Ctx, const ApiModel &Model)
    : Ctx(Ctx), Model(Model) {
  // User space (no __KERNEL__): the kernel's user-space ABI structures are
  // laid out in memory the kernel shares (perf's mmap page, rseq).
  auto K = Ctx.Idents.find("__KERNEL__");
  UserSpace = K == Ctx.Idents.end() || !K->getValue()->hasMacroDefinition();
  // Nothing to learn in a TU that declares none of the allocators (most
  // of them): no walk at all.
  const TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  bool Declared = false;
  for (const auto &E : Model.entries()) {
    if (E.second.Shares == Sharing::None)
      continue;
    auto II = Ctx.Idents.find(E.first());
    if (II != Ctx.Idents.end() && !TU->lookup(DeclarationName(II->getValue())).empty()) {
      Declared = true;
      break;
    }
  }
  if (!Declared)
    return;
  // The file's own functions; a wrapper in a header (liburing's
  // __sys_mmap()) is looked into at its calls (callSource()). Walking every
  // inline function of a kernel TU's headers would cost more than the
  // whole analysis of most files.
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const FunctionDecl *> Bodies;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->doesThisDeclarationHaveABody() &&
        SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      Bodies.push_back(FD);
  // A wrapper that returns mapped memory, or a field that another function
  // derives an address from, can come later in the file: a few rounds,
  // until nothing new is learned.
  for (unsigned Round = 0; Round != 4; ++Round) {
    bool Changed = false;
    for (const FunctionDecl *FD : Bodies) {
      Walker W(*this, FD);
      W.walk(FD->getBody());
      Changed |= W.Changed;
    }
    if (!Changed)
      break;
  }

}

std::optional<SharedMemory::Source> SharedMemory::wrapperSource(const FunctionDecl *F,
                                                                unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (Depth > 2 || !F->hasBody(Def) || !Def)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInMainFile(SM.getExpansionLoc(Def->getLocation())))
    return std::nullopt; // walked with the file's functions
  auto [It, New] = Wrappers.try_emplace(Def->getCanonicalDecl());
  if (!New)
    return It->second;
  // A small function only: a wrapper, not a library's allocator.
  if (const auto *CS = dyn_cast<CompoundStmt>(Def->getBody()); !CS || CS->size() > 4)
    return std::nullopt;
  Walker W(*this, Def);
  W.walk(Def->getBody());
  std::optional<Source> Src;
  if (auto R = Returns.find(Def->getCanonicalDecl()); R != Returns.end())
    Src = R->second;
  Wrappers[Def->getCanonicalDecl()] = Src;
  return Src;
}

void SharedMemory::addRecord(QualType Pointee, const Source &S, unsigned Depth) {
  if (Pointee.isNull() || Depth > 4)
    return;
  const Type *T = Pointee->getBaseElementTypeUnsafe();
  const RecordDecl *RD = T ? T->getAsRecordDecl() : nullptr;
  if (!RD || !(RD = RD->getDefinition()))
    return;
  if (!Records.try_emplace(RD, S).second)
    return;
  // The records inside it (not behind pointers) are in the same memory.
  for (const FieldDecl *F : RD->fields())
    addRecord(F->getType(), S, Depth + 1);
}

/// The header of the kernel's user-space ABI (a kernel tree's include/uapi/,
/// or the installed /usr/include/linux/) that declares RD, "" if none.
static StringRef uapiHeader(const RecordDecl *RD, const SourceManager &SM) {
  StringRef File = SM.getFilename(SM.getSpellingLoc(RD->getLocation()));
  return isUapiHeaderPath(File) ? File : StringRef();
}

namespace {
/// What privateRecord() looks for in the main file.
class PrivateFinder : public RecursiveASTVisitor<PrivateFinder> {
public:
  PrivateFinder(const ApiModel &Model, DenseSet<const RecordDecl *> &Out)
      : Model(Model), Out(Out) {}
  bool VisitVarDecl(VarDecl *V) {
    add(V->getType());
    return true;
  }
  bool VisitFieldDecl(FieldDecl *F) {
    add(F->getType()); // a member by value lives where its holder does
    return true;
  }
  bool VisitCastExpr(CastExpr *C) {
    const auto *Call = dyn_cast<CallExpr>(C->getSubExpr()->IgnoreParens());
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->getIdentifier() || !Model.allocates(Callee->getName()))
      return true;
    if (const ApiEntry *E = Model.lookup(Callee->getName()); E && E->Shares != Sharing::None)
      return true; // shared memory is the point
    if (const auto *PT = C->getType()->getAs<PointerType>())
      add(PT->getPointeeType());
    return true;
  }

private:
  void add(QualType T) {
    if (T.isNull())
      return;
    if (const Type *B = T->getBaseElementTypeUnsafe())
      if (const RecordDecl *RD = B->getAsRecordDecl())
        if (const RecordDecl *Def = RD->getDefinition())
          Out.insert(Def);
  }
  const ApiModel &Model;
  DenseSet<const RecordDecl *> &Out;
};
} // namespace

bool SharedMemory::privateRecord(const RecordDecl *RD) const {
  if (!Private) {
    Private.emplace();
    // The main file's declarations only: a header's inline helpers say
    // nothing of how this program keeps the record.
    const SourceManager &SM = Ctx.getSourceManager();
    PrivateFinder PF(Model, *Private);
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        PF.TraverseDecl(D);
  }
  return Private->contains(RD);
}

const SharedMemory::Source *SharedMemory::uapiSource(const FieldDecl *F) const {
  if (!UserSpace || F->getType()->isPointerType())
    return nullptr;
  const RecordDecl *RD = F->getParent();
  while (RD->isAnonymousStructOrUnion() && isa<RecordDecl>(RD->getParent()))
    RD = cast<RecordDecl>(RD->getParent());
  auto [It, New] = Uapi.try_emplace(RD);
  if (!New)
    return It->second ? &*It->second : nullptr;
  // A uapi record is an ioctl's argument or a wire format as often as
  // mapped memory (struct kvm_irq_routing is calloc()ed and handed to
  // KVM_SET_GSI_ROUTING): a file that keeps one in its own memory shows
  // which it is.
  StringRef Header = uapiHeader(RD, Ctx.getSourceManager());
  if (Header.empty() || privateRecord(RD))
    return nullptr;
  It->second = Source{Sharing::Process, "", llvm::sys::path::filename(Header).str()};
  return &*It->second;
}

const SharedMemory::Source *SharedMemory::of(const LocationKey &K) const {
  if (const auto *F = dyn_cast_or_null<FieldDecl>(K.Field)) {
    if (auto It = Records.find(F->getParent()); It != Records.end())
      return &It->second;
    if (const Source *S = uapiSource(F))
      return S;
    // The target of a pointer member: `*(sq->ktail)`, `sq->array[]`.
    if (F->getType()->isPointerType() && (K.isDeref() || K.isElement()))
      if (auto It = Pointers.find(F); It != Pointers.end())
        return &It->second;
    return nullptr;
  }
  if (!K.Field && K.Base && K.ViaPointer && K.Storage == LocationKey::Global)
    if (auto It = Pointers.find(K.Base); It != Pointers.end())
      return &It->second;
  return nullptr;
}

bool SharedMemory::touches(const MemberExpr *ME) const {
  if (!UserSpace && empty())
    return false; // most kernel TUs: every member expression comes here
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (F && (uapiSource(F) || Records.count(F->getParent())))
    return true;
  return Pointers.count(ME->getMemberDecl());
}

bool SharedMemory::deviceRecordField(const ValueDecl *Field) const {
  const auto *F = dyn_cast_or_null<FieldDecl>(Field);
  if (!F)
    return false;
  auto It = Records.find(F->getParent());
  return It != Records.end() && It->second.Kind == Sharing::Device;
}

std::string SharedMemory::describe(const Source &S) {
  if (S.Api.empty())
    return "a structure of the kernel's user-space ABI ('" + S.Fn +
           "'): the kernel reads and writes the memory it lays out";
  std::string Out = "memory from " + S.Api + "() in '" + S.Fn + "'";
  Out += S.Kind == Sharing::Device ? ": the device reads and writes it"
                                   : ": another process maps it";
  return Out;
}

std::string SharedMemory::describe(const Source &S, const FieldDecl *F) const {
  const Source *K = F && !S.Api.empty() ? uapiSource(F) : nullptr;
  if (!K)
    return describe(S);
  return "memory from " + S.Api + "() in '" + S.Fn +
         "', a structure of the kernel's user-space ABI ('" + K->Fn +
         "'): the kernel reads and writes it";
}

} // namespace seqlint
