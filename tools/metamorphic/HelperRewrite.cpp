//===- HelperRewrite.cpp - the `helper` rewrite ---------------------------===//
//
// Moves each API call statement (`smp_wmb();`, `spin_lock(&s->lock);`,
// `WRITE_ONCE(s->seq, s->seq + 1);`) of a function body into a helper of its
// own, `static inline void hN(<free variables>) { <statement>; }`, and calls
// the helper in its place. The helpers are inserted on the first line of the
// function that uses them, all on that line, so no line number moves.
//
// A statement is left alone (the rewrite would not be equivalent, or could
// not be written) when it is not a direct child of a compound statement
// written in the file, is not one line, is not a whole call of an API name,
// is the value of a statement expression, leaves the statement (return,
// goto, break or continue out of it), uses __func__, or uses a local that
// would not survive being passed by value: a struct, union or array, a
// static local, one it assigns, increments or takes the address of.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include <set>

using namespace clang;
using namespace llvm;

namespace metamorph {
namespace {

/// The free variables of one statement and whether it can be moved.
class StmtScanner : public RecursiveASTVisitor<StmtScanner> {
  using Base = RecursiveASTVisitor<StmtScanner>;

public:
  std::vector<const VarDecl *> Params;
  std::string Why; // set when the statement cannot be moved

  bool VisitVarDecl(VarDecl *V) {
    Inner.insert(V); // declared by the statement itself (a macro's locals)
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E);
  bool VisitBinaryOperator(BinaryOperator *E) {
    if (E->isAssignmentOp())
      checkWritten(E->getLHS(), "assigns");
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *E) {
    if (E->isIncrementDecrementOp())
      checkWritten(E->getSubExpr(), "increments");
    else if (E->getOpcode() == UO_AddrOf)
      checkWritten(E->getSubExpr(), "takes the address of");
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    for (unsigned I = 0; I < S->getNumOutputs(); ++I)
      checkWritten(S->getOutputExpr(I), "writes from asm");
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *) { return fail("returns"); }
  bool VisitGotoStmt(GotoStmt *) { return fail("jumps (goto)"); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return fail("jumps"); }
  bool VisitAddrLabelExpr(AddrLabelExpr *) { return fail("takes a label"); }
  bool VisitLabelStmt(LabelStmt *) { return fail("has a label"); }
  bool VisitPredefinedExpr(PredefinedExpr *) { return fail("uses __func__"); }
  bool VisitBreakStmt(BreakStmt *) {
    return Loops ? true : fail("breaks out of it");
  }
  bool VisitContinueStmt(ContinueStmt *) {
    return Loops ? true : fail("continues out of it");
  }
  // break and continue are fine inside a loop or switch of the statement.
  bool TraverseForStmt(ForStmt *S) {
    return nested([&] { return Base::TraverseForStmt(S); });
  }
  bool TraverseWhileStmt(WhileStmt *S) {
    return nested([&] { return Base::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(DoStmt *S) {
    return nested([&] { return Base::TraverseDoStmt(S); });
  }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    return nested([&] { return Base::TraverseSwitchStmt(S); });
  }

private:
  std::set<const VarDecl *> Inner;
  unsigned Loops = 0;

  template <typename F> bool nested(F Fn) {
    ++Loops;
    bool R = Fn();
    --Loops;
    return R;
  }
  bool fail(const Twine &W) {
    if (Why.empty())
      Why = W.str();
    return false; // stop the traversal
  }
  const VarDecl *freeVar(const Expr *E) const {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return V && V->isLocalVarDeclOrParm() && !Inner.count(V) ? V : nullptr;
  }
  void checkWritten(const Expr *E, StringRef What) {
    if (const VarDecl *V = freeVar(E))
      fail(What + " local '" + V->getName() + "'");
  }
};

/// A type a helper parameter can be declared with, at file scope, before
/// the function: not a struct or array by value, no type local to a function.
bool isPassableType(QualType T, std::string &Why) {
  if (T.isNull() || T->isVariablyModifiedType() || T->isArrayType() ||
      T->isRecordType()) {
    Why = "uses a local of struct, union or array type";
    return false;
  }
  for (QualType Cur = T; !Cur.isNull();
       Cur = Cur->isPointerType() ? Cur->getPointeeType() : QualType()) {
    const Decl *D = nullptr;
    if (const auto *TT = Cur->getAs<TypedefType>())
      D = TT->getDecl();
    else if (const TagDecl *TD = Cur->getAsTagDecl())
      D = TD;
    if (D && !D->getDeclContext()->getRedeclContext()->isFileContext()) {
      Why = "uses a local of a type declared in the function";
      return false;
    }
  }
  return true;
}

bool StmtScanner::VisitDeclRefExpr(DeclRefExpr *E) {
  const ValueDecl *D = E->getDecl();
  if (!D->getDeclContext()->getRedeclContext()->isFileContext() &&
      !isa<VarDecl>(D))
    return fail("uses a declaration local to the function");
  const auto *V = dyn_cast<VarDecl>(D);
  if (!V || Inner.count(V))
    return true;
  if (!V->isLocalVarDeclOrParm()) {
    if (!V->getDeclContext()->getRedeclContext()->isFileContext())
      return fail("uses a block-scope extern");
    return true;
  }
  if (!V->hasLocalStorage())
    return fail("uses static local '" + V->getName() + "'");
  if (!isPassableType(V->getType(), Why))
    return false;
  if (std::find(Params.begin(), Params.end(), V) == Params.end())
    Params.push_back(V);
  return true;
}

/// The text of a one-line statement written in the main file (without its
/// semicolon), when it is a call of an API name: NAME ( ... ) and nothing
/// else, checked token by token.
bool apiCallText(const RewriteEnv &Env, CharSourceRange Range,
                 std::string &Text, std::string &Why) {
  const SourceManager &SM = Env.Ctx.getSourceManager();
  const LangOptions &LO = Env.Ctx.getLangOpts();
  SourceLocation B = Range.getBegin(), E = Range.getEnd();
  if (!SM.isWrittenInMainFile(B) || !SM.isWrittenInMainFile(E)) {
    Why = "not written in the file";
    return false;
  }
  if (SM.getSpellingLineNumber(B) != SM.getSpellingLineNumber(E)) {
    Why = "spans lines";
    return false;
  }
  unsigned Begin = SM.getFileOffset(B);
  unsigned End = SM.getFileOffset(E);
  if (Range.isTokenRange())
    End += Lexer::MeasureTokenLength(E, SM, LO);
  StringRef Buf = SM.getBufferData(SM.getMainFileID());
  // The raw lexer needs the buffer's own end (a NUL): stop at End ourselves.
  SourceLocation FileStart = SM.getLocForStartOfFile(SM.getMainFileID());
  Lexer Lex(FileStart, LO, Buf.data(), Buf.data() + Begin, Buf.end());
  Token T;
  SmallVector<StringRef, 16> Toks;
  int Depth = 0;
  bool Closed = false;
  for (Lex.LexFromRawLexer(T);
       T.isNot(tok::eof) && SM.getFileOffset(T.getLocation()) < End;
       Lex.LexFromRawLexer(T)) {
    if (Closed || T.is(tok::hash) || T.is(tok::unknown)) {
      Why = "not a single call";
      return false;
    }
    if (Toks.empty() &&
        (T.isNot(tok::raw_identifier) || !isApiName(T.getRawIdentifier()))) {
      Why = "not an API call";
      return false;
    }
    if (Toks.size() == 1 && T.isNot(tok::l_paren)) {
      Why = "not a call";
      return false;
    }
    Depth += int(T.is(tok::l_paren)) - int(T.is(tok::r_paren));
    if (!Toks.empty() && Depth == 0)
      Closed = true;
    Toks.push_back(
        StringRef(SM.getCharacterData(T.getLocation()), T.getLength()));
  }
  if (!Closed || Toks.empty()) {
    Why = "not a single call";
    return false;
  }
  Text = Buf.slice(Begin, End).str();
  return true;
}

class HelperRewriter : public RecursiveASTVisitor<HelperRewriter> {
public:
  explicit HelperRewriter(RewriteEnv &Env)
      : Env(Env), SM(Env.Ctx.getSourceManager()) {}

  bool Changed = false;

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || !isWrittenHere(FD->getBody()) ||
        !helperSpot(FD).isValid())
      return true;
    Current = FD;
    Helpers.clear();
    TraverseStmt(FD->getBody());
    Current = nullptr;
    insertHelpers(FD);
    return true;
  }
  bool VisitStmtExpr(StmtExpr *E) {
    // The last statement of ({ ... }) is its value: moving it would drop it.
    if (!E->getSubStmt()->body_empty())
      ValueStmts.insert(E->getSubStmt()->body_back());
    return true;
  }
  bool VisitCompoundStmt(CompoundStmt *CS) {
    if (!Current || !isWrittenHere(CS))
      return true;
    // Kernel macros expand to expressions or to do { } while (0): both are
    // statements a call can stand for.
    for (Stmt *S : CS->body())
      if (!isa<DeclStmt>(S) && !isa<NullStmt>(S) && !ValueStmts.count(S))
        tryMove(S);
    return true;
  }

private:
  RewriteEnv &Env;
  const SourceManager &SM;
  FunctionDecl *Current = nullptr;
  std::string Helpers; // definitions for the current function, one line
  std::set<const Stmt *> ValueStmts;
  unsigned Counter = 0;

  bool isWrittenHere(const Stmt *S) const {
    const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
    if (!CS)
      return false;
    SourceLocation L = CS->getLBracLoc(), R = CS->getRBracLoc();
    return L.isFileID() && R.isFileID() && SM.isInMainFile(L) &&
           SM.isInMainFile(R);
  }

  void skip(const Stmt *E, StringRef Why) {
    if (Env.Verbose)
      Env.Log << "helper: line " << SM.getExpansionLineNumber(E->getBeginLoc())
              << ": kept: " << Why << "\n";
  }

  void tryMove(Stmt *E) {
    CharSourceRange Range = SM.getExpansionRange(E->getSourceRange());
    std::string Text, Why;
    if (!apiCallText(Env, Range, Text, Why))
      return skip(E, Why);
    StmtScanner Scan;
    Scan.TraverseStmt(E);
    if (!Scan.Why.empty())
      return skip(E, Scan.Why);
    std::string Name = freshName(Env, "h", Counter);
    writeHelper(Name, Scan.Params, Text);
    std::string Call = Name + "(";
    for (size_t I = 0; I < Scan.Params.size(); ++I)
      Call += (I ? ", " : "") + Scan.Params[I]->getName().str();
    Call += ")";
    Env.R.ReplaceText(Range.getBegin(), Env.R.getRangeSize(Range), Call);
    Changed = true;
  }

  void writeHelper(StringRef Name, ArrayRef<const VarDecl *> Params,
                   StringRef Body) {
    std::string Text;
    raw_string_ostream OS(Text);
    PrintingPolicy PP = Env.Ctx.getPrintingPolicy();
    OS << "static inline void " << Name << "(";
    for (size_t I = 0; I < Params.size(); ++I) {
      OS << (I ? ", " : "");
      Params[I]->getType().print(OS, PP, Params[I]->getName());
    }
    OS << (Params.empty() ? "void" : "") << ") { " << Body << "; } ";
    Helpers += OS.str();
  }

  /// Where the helpers of \p FD go: before its first token, on its first
  /// line, so that every line keeps its number. Invalid when an attribute is
  /// written before the declaration specifiers (it would end up on the first
  /// helper): such functions keep their calls.
  SourceLocation helperSpot(FunctionDecl *FD) const {
    SourceLocation Start = SM.getExpansionLoc(FD->getBeginLoc());
    if (!SM.isInMainFile(Start))
      return SourceLocation();
    for (const Attr *A : FD->attrs()) {
      if (A->isInherited() || A->isImplicit())
        continue;
      SourceLocation L = SM.getExpansionLoc(A->getLocation());
      if (L.isValid() && SM.isBeforeInTranslationUnit(L, Start)) {
        if (Env.Verbose)
          Env.Log << "helper: function '" << FD->getName()
                  << "' starts with an attribute: not rewritten\n";
        return SourceLocation();
      }
    }
    return Start;
  }

  void insertHelpers(FunctionDecl *FD) {
    if (!Helpers.empty())
      Env.R.InsertTextBefore(helperSpot(FD), Helpers);
  }
};

} // namespace

bool runHelper(RewriteEnv &Env) {
  HelperRewriter H(Env);
  H.TraverseDecl(Env.Ctx.getTranslationUnitDecl());
  return H.Changed;
}

} // namespace metamorph
