//===- FunctionClassifier.h - classifying one function, inside -*- C++ -*-===//
//
// Internal to the classifier: the state of turning one function into its
// event trace, shared by the files that do each part of it.
//
//   Extract*.cpp     AST -> events: macro instances (ExtractInstances),
//                    location keys (ExtractKeys), how a value is used and
//                    what a local holds (ExtractValues), one event per API
//                    call, atomic or fence (ExtractEvents), the plain
//                    statements (ExtractPlain), the locals' facts after
//                    the events (ExtractUses);
//   OpenCoded*.cpp   recognition: the open-coded seqcount reader and writer
//                    heuristics, run on the extracted events;
//   HelperSplice.cpp a helper's effect (HelperEffect.cpp) spliced in at a
//                    call, in the caller's terms;
//   Classifier.cpp   the order these run in (FunctionClassifier::run()).
//
// Checks and analyses include core/Classifier.h, never this header.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_FUNCTIONCLASSIFIER_H
#define SEQLINT_CORE_FUNCTIONCLASSIFIER_H

#include "core/Classifier.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace seqlint {
namespace detail {

/// Constant value of a memory_order argument, seq_cst if unknown.
Order orderFromArg(const clang::Expr *E, clang::ASTContext &Ctx);
/// E is the integer constant V.
bool isIntLiteral(const clang::Expr *E, clang::ASTContext &Ctx, int64_t V);
/// ~1, ~1U, -2, 0xfffffffe ...: a mask clearing only the low bit.
bool isClearLowBitMask(const clang::Expr *E, clang::ASTContext &Ctx);
/// `++m` (through an assignment chain), else null.
const clang::UnaryOperator *preIncrement(const clang::Expr *Value);
/// Value is `p + 1` or `p + 2` for an integer parameter p: an increment
/// when the caller passes a copy of the count (cal_bump(c, e) with
/// e = c->era).
const clang::VarDecl *incrementedParam(const clang::Expr *Value, clang::ASTContext &Ctx);
/// E is part of the offset added to a per-CPU address (the load of
/// __per_cpu_offset[cpu] or this_cpu_off): address arithmetic, not data.
bool inAddressOffset(const clang::Expr *E, const clang::ParentMap *PM);

class FunctionClassifier {
public:
  FunctionClassifier(Classifier &C, FunctionTrace &T)
      : C(C), T(T), Ctx(C.context()), SM(Ctx.getSourceManager()),
        Index(C.macros()), Model(C.model()) {}

  /// Extraction (the events, then the locals' facts), then recognition.
  void run(const clang::Stmt *Body);

private:
  using VarPairs =
      llvm::DenseSet<std::pair<const clang::VarDecl *, const clang::VarDecl *>>;
  /// What tells an open-coded writer from a statistic (OpenCodedWriter.cpp).
  struct WriteEvidence {
    llvm::DenseMap<int, unsigned> Incs; // key -> increments of it
    bool AnyBarrier = false, AnyWriteOrdering = false;
    llvm::DenseSet<int> Marked; // keys accessed with an order
  };

  // --- the steps of run() ----------------------------------------------------
  void extractEvents();
  /// The facts about locals (ExtractUses.cpp); the pairs compared.
  VarPairs collectUses(const clang::Stmt *Body);
  void convertRechecks(const VarPairs &ComparedVars);
  void recognizeReaders();
  void recognizeWriters();
  void recognizeBeginHelpers();

  // --- instances (ExtractInstances.cpp) ----------------------------------
  const MacroInstance *wholeInstance(const clang::Stmt *S) const;
  const clang::Stmt *rootOf(const MacroInstance *I, const clang::Stmt *S);
  const clang::Stmt *anchorOf(const MacroInstance *I, const clang::Stmt *S);
  llvm::SmallVector<const clang::Expr *, 4> instanceArgs(const MacroInstance *I,
                                                         const clang::Stmt *Root);
  clang::SourceLocation reportLoc(const clang::Stmt *S) const;

  // --- events (ExtractEvents.cpp, ExtractPlain.cpp) -----------------------
  void emitInstance(const MacroInstance *I, const clang::Stmt *Root, BlockEvents &B);
  void classifyPlain(const clang::Stmt *S, BlockEvents &B);
  void classifyLoad(const clang::ImplicitCastExpr *IC, BlockEvents &B);
  void classifyAssign(const clang::BinaryOperator *BO, BlockEvents &B);
  void assignLocal(const clang::BinaryOperator *BO, const clang::VarDecl *V,
                   BlockEvents &B);
  void noteStoredValue(const clang::BinaryOperator *BO, int K, Event &Ev, BlockEvents &B);
  void noteCompoundStep(const clang::BinaryOperator *BO, int K, Event &Ev);
  void classifyIncDec(const clang::UnaryOperator *U, BlockEvents &B);
  void classifyDecl(const clang::DeclStmt *DS, BlockEvents &B);
  void classifyCall(const clang::CallExpr *CE, BlockEvents &B);
  bool classifyKnownCall(const clang::CallExpr *CE, llvm::StringRef Name, BlockEvents &B);
  void emitApiCall(const ApiEntry &E, llvm::StringRef Name, const clang::Stmt *Root,
                   llvm::ArrayRef<const clang::Expr *> Args, BlockEvents &B);
  void apiSequenceEvent(const ApiEntry &E, const clang::Stmt *Root,
                        llvm::ArrayRef<const clang::Expr *> Args, Event &Ev);
  bool apiWriteEvent(const ApiEntry &E, llvm::StringRef Name,
                     llvm::ArrayRef<const clang::Expr *> Args, Event &Ev);
  bool apiPureEvent(const ApiEntry &E, llvm::StringRef Name,
                    llvm::ArrayRef<const clang::Expr *> Args, Event &Ev);
  bool assertsOneCpu(const clang::Expr *Cond) const;
  void classifyAtomic(const clang::AtomicExpr *AE, BlockEvents &B);
  void classifyAsm(const clang::GCCAsmStmt *AS, BlockEvents &B);
  void emitLocalUpdate(const clang::VarDecl *V, const clang::Stmt *At, bool Accumulates,
                       BlockEvents &B);

  // --- values (ExtractValues.cpp) -------------------------------------------
  void useOf(const clang::Stmt *Node, Event &Ev);
  bool useInBinary(const clang::BinaryOperator *BO, const clang::Stmt *Cur,
                   Event &Ev) const;
  void useInStatement(const clang::Stmt *P, const clang::Stmt *Cur, Event &Ev) const;
  void noteLocalAssign(const clang::VarDecl *V, const clang::Expr *Init);
  bool isIncrementOf(const clang::Expr *Value, int Key);
  bool forcesOdd(const clang::Expr *Value) const;
  bool isParityStep(const clang::Expr *Value, int Key) const;
  bool holdsCount(const clang::Expr *X, int Key);
  bool isConstant(const clang::Expr *E) const;

  // --- keys (ExtractKeys.cpp) -----------------------------------------------
  int keyOf(const clang::Expr *E, bool IsPointer);
  bool buildKey(const clang::Expr *E, LocationKey &K, int Depth);
  bool buildMemberKey(const clang::MemberExpr *ME, LocationKey &K, int Depth);
  bool buildUnaryKey(const clang::UnaryOperator *U, LocationKey &K, int Depth);
  bool buildSubscriptKey(const clang::ArraySubscriptExpr *AS, LocationKey &K,
                         int Depth);
  int loadedKey(const clang::Expr *E);
  int internKey(const LocationKey &K);

  // --- open-coded readers (OpenCodedReader.cpp) -----------------------------
  bool anyBeginLoad(int Key, const clang::VarDecl *V,
                    llvm::function_ref<bool(const Event &)> P) const;
  bool beginIsSequenceLoad(int Key, const clang::VarDecl *V) const;
  bool maskedBegin(int Key, const clang::VarDecl *V) const;
  bool writes(int Key) const;
  bool beginFencedBeforeData(int Key, const clang::VarDecl *V) const;
  bool recheckFencedAfterData(int Key, const clang::VarDecl *V) const;
  bool storesBetween(int Key, const clang::VarDecl *V) const;
  void findOpenReaders();
  bool closesReadSection(const Event &Ev);
  bool ordersLoads() const;
  void markOpenReaders();

  // --- open-coded writers (OpenCodedWriter.cpp) -----------------------------
  /// Fenced: a write barrier runs between the two increments.
  bool bracketsStores(int Key, bool *Fenced = nullptr) const;
  bool opensWithRelease(int Key) const;
  bool compilerBracketed(int Key) const;
  bool parityFix(const Event &Ev);
  WriteEvidence writeEvidence() const;
  bool isOpenWriter(int Key, const WriteEvidence &W);
  void markOpenWriter(int Key);

  // --- helpers seen through (HelperSplice.cpp) ------------------------------
  void spliceHelper(const clang::CallExpr *CE, const clang::FunctionDecl *F,
                    BlockEvents &B);
  int mapKey(const LocationKey &K, const clang::CallExpr *CE, bool KeepLocal = false);
  void spliceValueUse(const clang::CallExpr *CE, const HelperEffect &H,
                      const Event &CallUse, const Event &E, Event &Ev);
  void spliceIncrement(const clang::CallExpr *CE, const Event &E, Event &Ev);

  Classifier &C;
  FunctionTrace &T;
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const MacroIndex &Index;
  const ApiModel &Model;
  clang::ParentMap *PM = nullptr;
  llvm::DenseMap<const clang::Stmt *, unsigned> Elements; // element -> block id
  llvm::DenseSet<int> CorroboratedReaders; // readers of a location the TU knows
  llvm::DenseMap<const clang::VarDecl *, int> CopyOf; // local -> the location it copied
  llvm::DenseMap<const clang::VarDecl *, int> IncCopyOf; // local -> the location, plus one
  std::vector<const clang::CFGBlock *> Rpo;     // the CFG's blocks, reverse post-order
  llvm::DenseSet<const clang::VarDecl *> Accumulated; // locals written with +=, ++
  /// A field given a count's new value in the same assignment -> the count.
  llvm::DenseMap<int, int> MirrorOf;
  /// (key, begin variable) of rechecks loaded into a local of their own.
  llvm::DenseSet<std::pair<int, const clang::VarDecl *>> ConvertedRechecks;
  bool HasLocalUpdate = false;
  llvm::DenseMap<const MacroInstance *, const clang::Stmt *> Roots;
  llvm::DenseMap<const MacroInstance *, const clang::Stmt *> Anchors;
  llvm::DenseMap<const clang::Stmt *, int> LoadNodes; // node -> key it loads
};

} // namespace detail
} // namespace seqlint

#endif
