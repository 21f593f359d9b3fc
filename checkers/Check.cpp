//===- Check.cpp ----------------------------------------------------------===//
#include "Check.h"
#include "core/MacroIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace llvm;

namespace seqlint {

FunctionAnalyses &
Check::analysesOf(const FunctionTrace &T,
                  std::optional<FunctionAnalyses> &Local) const {
  if (Ctx && Ctx->Function && &Ctx->Function->trace() == &T)
    return *Ctx->Function;
  assert(Ctx && Ctx->Cl && "a check's context has the TU's classifier");
  Local.emplace(T, *Ctx->Cl);
  return *Local;
}

Finding Check::make(SourceLocation Loc, std::string Message) const {
  Finding F;
  F.Check = Name;
  F.Loc = Loc;
  F.Message = std::move(Message);
  return F;
}

Finding Check::make(const Event &E, std::string Message) const {
  Finding F = make(E.Loc, std::move(Message));
  viaNote(F, E);
  return F;
}

void Check::viaNote(Finding &F, const Event &E) {
  if (!E.Via || E.InnerLoc.isInvalid())
    return;
  std::string What = spellingInside(E);
  F.Notes.push_back({E.InnerLoc, "inside '" + E.Via->getNameAsString() + "'" +
                                     (What.empty() ? "" : ": " + What) +
                                     " (called at the place above)"});
}

bool Check::declaresFunction(StringRef Name) const {
  // Concurrency Kit's fences are static inline functions, not macros.
  IdentifierTable &Idents = Ctx->Ctx->Idents;
  auto It = Idents.find(Name);
  if (It == Idents.end())
    return false;
  DeclarationName DN(It->getValue());
  for (const NamedDecl *D : Ctx->Ctx->getTranslationUnitDecl()->lookup(DN))
    if (isa<FunctionDecl>(D))
      return true;
  return false;
}

const Dialect &Check::family() const {
  if (FamilyCache)
    return *FamilyCache;
  const MacroIndex &M = *Ctx->Macros;
  const ApiModel &Model = M.model();
  auto Defined = [&](StringRef N, bool MacroOnly) {
    return M.isDefined(N) || (!MacroOnly && declaresFunction(N));
  };
  const DialectRule *Rule = nullptr;
  for (const DialectRule &R : Model.dialects())
    if (llvm::all_of(R.Markers, [&](StringRef N) { return Defined(N, R.MacroOnly); })) {
      Rule = &R;
      break;
    }
  Dialect F = Rule ? Rule->Spelling : Model.c11Dialect();
  if (!Rule) {
    // ... unless the project defines its own write and read barriers per
    // architecture (libbpf_smp_wmb()/libbpf_smp_rmb(): the skipped arm64
    // branch says `dmb ishst`/`dmb ishld`). Not its full barrier: one that
    // is a compiler barrier here orders no store before a load on x86.
    std::string Wmb, Rmb;
    for (const auto &KV : M.otherArchMacros()) {
      StringRef N = KV.getKey();
      unsigned B = KV.getValue();
      auto It = Ctx->Ctx->Idents.find(N);
      if (It == Ctx->Ctx->Idents.end() || !It->getValue()->hasMacroDefinition())
        continue;
      auto Pick = [&](std::string &Into) {
        if (Into.empty() || N.str() + "();" < Into) // the same one every run
          Into = N.str() + "();";
      };
      if ((B & OrdSS) && !(B & OrdLL))
        Pick(Wmb);
      else if ((B & OrdLL) && !(B & OrdSS))
        Pick(Rmb);
    }
    if (!Wmb.empty())
      F.Wmb = Wmb;
    if (!Rmb.empty())
      F.Rmb = Rmb;
  }
  // The project's own ordering APIs (.seqlint.yaml), when the TU has them,
  // are what its fix-its should say; the first one the file names wins.
  llvm::SmallVector<std::string *, 5> Taken;
  auto Take = [&](std::string &Into, std::string Spelling) {
    if (!llvm::is_contained(Taken, &Into)) {
      Into = std::move(Spelling);
      Taken.push_back(&Into);
    }
  };
  for (const std::string &N : Model.userNames()) {
    const ApiEntry *E = Model.lookup(N);
    if (!E || !Defined(N, false))
      continue;
    if (E->R == Role::Barrier && E->Barrier == BarrierKind::Write)
      Take(F.Wmb, N + "();");
    else if (E->R == Role::Barrier && E->Barrier == BarrierKind::Read)
      Take(F.Rmb, N + "();");
    else if (E->R == Role::Barrier && E->Barrier == BarrierKind::Full)
      Take(F.Mb, N + "()");
    else if (E->R == Role::Store && E->Ord == Order::Release)
      Take(F.Release, N + "()");
    else if (E->R == Role::Load && E->Ord == Order::Acquire)
      Take(F.Acquire, N + "()");
  }
  FamilyCache = std::make_unique<Dialect>(std::move(F));
  return *FamilyCache;
}

std::string Check::writeBarrierSpelling() const { return family().Wmb; }

std::string Check::readBarrierSpelling() const { return family().Rmb; }

std::string Check::releaseAdvice(StringRef Store) const {
  const Dialect &F = family();
  if (!F.Release.empty())
    return "use " + F.Release + " for " + Store.str();
  return "put " + F.ReleaseFence + " before " + Store.str();
}

std::string Check::name(const FunctionTrace &T, int Key) {
  if (Key < 0)
    return "memory";
  return T.key(Key).displayName();
}

std::string Check::spelling(const Event &E) {
  if (E.Via)
    return E.Via->getNameAsString() + "()";
  return spellingInside(E);
}

std::string Check::spellingInside(const Event &E) {
  if (!E.ApiName.empty())
    return (E.ApiName + "()").str();
  return "";
}

const Stmt *Check::statementOf(const FunctionTrace &T, const Stmt *S) const {
  if (!T.PM)
    return nullptr;
  const Stmt *Cur = S;
  for (unsigned I = 0; Cur && I < 64; ++I) {
    const Stmt *P = T.PM->getParent(Cur);
    if (!P)
      return nullptr;
    if (isa<CompoundStmt>(P))
      return Cur;
    if (isa<IfStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<ForStmt>(P) ||
        isa<SwitchStmt>(P)) {
      // Inside a condition or an unbraced body: no safe place for a line.
      return nullptr;
    }
    Cur = P;
  }
  return nullptr;
}

std::string Check::indentOf(SourceLocation L) const {
  const SourceManager &SM = Ctx->Ctx->getSourceManager();
  auto [F, Off] = SM.getDecomposedLoc(L);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(F, &Invalid);
  if (Invalid)
    return "";
  size_t LineStart = Buf.rfind('\n', Off);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  StringRef Line = Buf.slice(LineStart, Off);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

std::optional<FixItHint> Check::insertAfterStatement(const FunctionTrace &T,
                                                     const Stmt *S,
                                                     StringRef Code) const {
  const Stmt *St = statementOf(T, S);
  if (!St)
    return std::nullopt;
  const SourceManager &SM = Ctx->Ctx->getSourceManager();
  const LangOptions &LO = Ctx->Ctx->getLangOpts();
  SourceLocation End = SM.getExpansionRange(St->getEndLoc()).getEnd();
  SourceLocation Begin = SM.getExpansionLoc(St->getBeginLoc());
  if (End.isInvalid() || Begin.isInvalid() || SM.isInSystemHeader(End))
    return std::nullopt;
  SourceLocation After = Lexer::findLocationAfterToken(End, tok::semi, SM, LO, false);
  if (After.isInvalid())
    return std::nullopt;
  return FixItHint::CreateInsertion(afterTrailingComment(After),
                                    ("\n" + indentOf(Begin) + Code).str());
}

SourceLocation Check::afterTrailingComment(SourceLocation After) const {
  // `WRITE_ONCE(s->seq, 1); /* odd: writers in */` keeps its comment: the new
  // line goes after the comment, not between the statement and its comment.
  const SourceManager &SM = Ctx->Ctx->getSourceManager();
  auto [F, Off] = SM.getDecomposedLoc(After);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(F, &Invalid);
  if (Invalid || Off > Buf.size())
    return After;
  StringRef Rest = Buf.substr(Off);
  size_t I = Rest.find_first_not_of(" \t");
  if (I == StringRef::npos)
    return After;
  size_t End;
  if (Rest.substr(I).starts_with("//")) {
    End = Rest.find('\n', I);
    if (End == StringRef::npos)
      End = Rest.size();
  } else if (Rest.substr(I).starts_with("/*")) {
    size_t Close = Rest.find("*/", I + 2);
    if (Close == StringRef::npos)
      return After;
    End = Rest.find_first_not_of(" \t", Close + 2);
    if (End != StringRef::npos && Rest[End] != '\n' && Rest[End] != '\r')
      return After; // code follows the comment on its line
    End = Close + 2;
  } else {
    return After;
  }
  return After.getLocWithOffset(End);
}

std::optional<FixItHint> Check::insertBeforeStatement(const FunctionTrace &T,
                                                      const Stmt *S,
                                                      StringRef Code) const {
  const Stmt *St = statementOf(T, S);
  if (!St)
    return std::nullopt;
  const SourceManager &SM = Ctx->Ctx->getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(St->getBeginLoc());
  if (Begin.isInvalid() || SM.isInSystemHeader(Begin))
    return std::nullopt;
  return FixItHint::CreateInsertion(Begin, (Code + "\n" + indentOf(Begin)).str());
}

} // namespace seqlint
