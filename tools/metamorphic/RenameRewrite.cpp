//===- RenameRewrite.cpp - the `rename` rewrite ---------------------------===//
//
// Renames every identifier the main file declares to a neutral one
// (v1 locals and parameters, f1 fields, t1 tags and typedefs, fn1 function
// definitions, g1 file-scope variables, e1 enumerators), at its declarations
// and at every use, macro arguments included. Not renamed, and why:
//  - anything declared in a header, and functions the file declares without
//    a body: they are the APIs the file uses (qemu_spin_lock, set_bit);
//  - names in ApiModel.cpp (exact, or by a prefix literal such as
//    "atomic64_"), and API-looking literals of the other checkers sources
//    ("test_bit"): a file's own definition of an API name stands in for
//    that API, which real code gets from a header;
//  - `main`, and names starting with `__` (reserved, compiler and kernel
//    internals);
//  - functions and types named `class_*`: lock guard constructors and their
//    types are recognised by that naming convention (cleanup guards);
//  - functions whose name contains `lock`: subsystem lock wrappers
//    (tl_write_lock) are recognised by naming convention;
//  - comments: only the names of renamed functions and file-scope variables
//    are renamed there too (pairing comments name the partner function);
//  - macro names, and any declaration with a declaration or use spelled
//    inside a #define body (renaming there would edit the macro), or whose
//    name token is shared with another declaration (a macro argument used
//    as two different fields).
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <set>

using namespace clang;
using namespace llvm;

namespace metamorph {
namespace {

/// A declaration (its canonical decl) the rewrite may rename, with every
/// place its name is written.
struct Candidate {
  const Decl *Key = nullptr;
  StringRef Name;
  StringRef Prefix;
  unsigned FirstOffset = ~0u;
  std::vector<SourceLocation> Refs;
  bool Blocked = false;
  std::string Why; // first reason it was blocked, for --verbose
};

bool isExcludedName(StringRef Name, const Decl *D) {
  if (Name.empty() || Name == "main" || Name.starts_with("__") ||
      isApiName(Name))
    return true;
  bool FunctionOrType = isa<FunctionDecl>(D) || isa<TypeDecl>(D);
  if (FunctionOrType && Name.starts_with("class_"))
    return true;
  return isa<FunctionDecl>(D) && Name.contains_insensitive("lock");
}

/// Which neutral prefix a declaration gets, or empty if it is not ours.
StringRef prefixFor(const Decl *D) {
  if (const auto *V = dyn_cast<VarDecl>(D))
    return V->isLocalVarDeclOrParm() ? "v" : "g";
  if (isa<FieldDecl>(D))
    return "f";
  if (isa<TagDecl>(D) || isa<TypedefNameDecl>(D))
    return "t";
  if (isa<EnumConstantDecl>(D))
    return "e";
  if (const auto *F = dyn_cast<FunctionDecl>(D)) {
    // Only functions the file defines; a declaration alone is an API.
    const FunctionDecl *Def = nullptr;
    return F->hasBody(Def) ? "fn" : "";
  }
  return "";
}

class RefCollector : public RecursiveASTVisitor<RefCollector> {
public:
  explicit RefCollector(RewriteEnv &Env)
      : Env(Env), SM(Env.Ctx.getSourceManager()) {}

  std::map<const Decl *, Candidate> Cands;

  bool VisitNamedDecl(NamedDecl *D) {
    if (isa<TagDecl>(D) && !cast<TagDecl>(D)->getIdentifier())
      return true; // anonymous struct/union/enum: no name to rename
    addRef(D, D->getLocation());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    addRef(E->getDecl(), E->getLocation());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    addRef(E->getMemberDecl(), E->getMemberLoc());
    return true;
  }
  bool VisitDesignatedInitExpr(DesignatedInitExpr *E) {
    for (const DesignatedInitExpr::Designator &D : E->designators())
      if (D.isFieldDesignator() && D.getFieldDecl())
        addRef(D.getFieldDecl(), D.getFieldLoc());
    return true;
  }
  bool VisitOffsetOfExpr(OffsetOfExpr *E) {
    for (unsigned I = 0, N = E->getNumComponents(); I < N; ++I) {
      const OffsetOfNode &C = E->getComponent(I);
      if (C.getKind() == OffsetOfNode::Field)
        addRef(C.getField(), C.getSourceRange().getEnd());
    }
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    addRef(TL.getDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    addRef(TL.getTypePtr()->getDecl(), TL.getNameLoc());
    return true;
  }

private:
  RewriteEnv &Env;
  const SourceManager &SM;
  std::set<const Decl *> NotOurs;

  /// Is \p D (every redeclaration of it) declared in the main file, with a
  /// name the rewrite may change?
  bool isOurs(const Decl *D, StringRef &Prefix) {
    const auto *ND = dyn_cast<NamedDecl>(D);
    if (!ND || D->isImplicit() || !ND->getIdentifier())
      return false;
    Prefix = prefixFor(D);
    if (Prefix.empty() || isExcludedName(ND->getName(), D))
      return false;
    if (ND->getIdentifier()->hadMacroDefinition())
      return false;
    for (const Decl *R : D->redecls())
      if (!SM.isWrittenInMainFile(SM.getSpellingLoc(R->getLocation())) ||
          R->isImplicit())
        return false;
    return true;
  }

  void addRef(const Decl *D, SourceLocation Loc) {
    if (!D)
      return;
    D = D->getCanonicalDecl();
    if (NotOurs.count(D))
      return;
    auto It = Cands.find(D);
    if (It == Cands.end()) {
      StringRef Prefix;
      if (!isOurs(D, Prefix)) {
        NotOurs.insert(D);
        return;
      }
      Candidate C;
      C.Key = D;
      C.Name = cast<NamedDecl>(D)->getName();
      C.Prefix = Prefix;
      It = Cands.emplace(D, std::move(C)).first;
    }
    It->second.Refs.push_back(Loc);
  }
};

void block(Candidate &C, const Twine &Why) {
  if (!C.Blocked)
    C.Why = Why.str();
  C.Blocked = true;
}

/// Resolves each reference to the offset of its name token in the main file;
/// blocks the candidate if one of them cannot be rewritten there.
std::map<unsigned, std::vector<Candidate *>>
resolveOffsets(RewriteEnv &Env, std::map<const Decl *, Candidate> &Cands) {
  const SourceManager &SM = Env.Ctx.getSourceManager();
  const LangOptions &LO = Env.Ctx.getLangOpts();
  std::map<unsigned, std::vector<Candidate *>> ByOffset;
  for (auto &KV : Cands) {
    Candidate &C = KV.second;
    for (SourceLocation L : C.Refs) {
      unsigned Off;
      if (!mainFileSpelling(Env, L, Off)) {
        block(C, "a use is spelled in a macro body or outside the file");
        break;
      }
      SourceLocation Spell = SM.getSpellingLoc(L);
      unsigned Len = Lexer::MeasureTokenLength(Spell, SM, LO);
      StringRef Text(SM.getCharacterData(Spell), Len);
      if (Text != C.Name) {
        block(C, "a use is not spelled as its name (token pasting?)");
        break;
      }
      C.FirstOffset = std::min(C.FirstOffset, Off);
      auto &V = ByOffset[Off];
      if (std::find(V.begin(), V.end(), &C) == V.end())
        V.push_back(&C);
    }
  }
  // One token that names two declarations (a macro argument expanded as two
  // different fields) cannot get two names.
  for (auto &KV : ByOffset)
    if (KV.second.size() > 1)
      for (Candidate *C : KV.second)
        block(*C, "its name token also names another declaration");
  return ByOffset;
}

/// Renames functions and file-scope variables where comments name them too:
/// pairing comments ("pairs with smp_rmb() in foo_read()") are part of what
/// seqlint checks, and a rename that left them naming the old function would
/// not be equivalent. Only names that denote one declaration of the file.
bool renameInComments(RewriteEnv &Env,
                      const std::map<const Decl *, Candidate> &Cands,
                      const std::map<const Candidate *, std::string> &NewName) {
  std::map<StringRef, unsigned> Uses;
  for (const auto &KV : Cands)
    ++Uses[KV.second.Name];
  std::map<StringRef, const std::string *> ByName;
  for (const auto &KV : NewName)
    if ((KV.first->Prefix == "fn" || KV.first->Prefix == "g") &&
        Uses[KV.first->Name] == 1)
      ByName[KV.first->Name] = &KV.second;
  if (ByName.empty())
    return false;

  const SourceManager &SM = Env.Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
  StringRef Buf = SM.getBufferData(Main);
  SourceLocation FileStart = SM.getLocForStartOfFile(Main);
  Lexer Lex(FileStart, Env.Ctx.getLangOpts(), Buf.begin(), Buf.begin(),
            Buf.end());
  Lex.SetCommentRetentionState(true);
  bool Changed = false;
  Token T;
  for (Lex.LexFromRawLexer(T); T.isNot(tok::eof); Lex.LexFromRawLexer(T)) {
    if (T.isNot(tok::comment))
      continue;
    unsigned Off = SM.getFileOffset(T.getLocation());
    StringRef Text = Buf.substr(Off, T.getLength());
    for (size_t I = 0; I < Text.size();) {
      if (!isAsciiIdentifierStart(Text[I]) ||
          (I && isAsciiIdentifierContinue(Text[I - 1]))) {
        ++I;
        continue;
      }
      size_t E = I;
      while (E < Text.size() && isAsciiIdentifierContinue(Text[E]))
        ++E;
      auto It = ByName.find(Text.slice(I, E));
      if (It != ByName.end()) {
        Env.R.ReplaceText(FileStart.getLocWithOffset(Off + I), E - I,
                          *It->second);
        Changed = true;
      }
      I = E;
    }
  }
  return Changed;
}

} // namespace

bool runRename(RewriteEnv &Env) {
  RefCollector Collector(Env);
  Collector.TraverseDecl(Env.Ctx.getTranslationUnitDecl());
  auto ByOffset = resolveOffsets(Env, Collector.Cands);

  // Number in order of first appearance, so that a variant is stable.
  std::vector<Candidate *> Order;
  for (auto &KV : Collector.Cands)
    if (!KV.second.Blocked)
      Order.push_back(&KV.second);
    else if (Env.Verbose)
      Env.Log << "rename: keeping '" << KV.second.Name << "': " << KV.second.Why
              << "\n";
  std::sort(Order.begin(), Order.end(), [](Candidate *A, Candidate *B) {
    return A->FirstOffset < B->FirstOffset;
  });
  std::map<const Candidate *, std::string> NewName;
  std::map<std::string, unsigned> Counters;
  for (Candidate *C : Order)
    NewName[C] = freshName(Env, C->Prefix, Counters[C->Prefix.str()]);

  const SourceManager &SM = Env.Ctx.getSourceManager();
  SourceLocation FileStart = SM.getLocForStartOfFile(SM.getMainFileID());
  bool Changed = false;
  for (auto &KV : ByOffset) {
    Candidate *C = KV.second.front();
    if (C->Blocked)
      continue;
    Env.R.ReplaceText(FileStart.getLocWithOffset(KV.first), C->Name.size(),
                      NewName[C]);
    Changed = true;
  }
  renameInComments(Env, Collector.Cands, NewName);
  return Changed;
}

} // namespace metamorph
