//===- BarrierUnpairedCheck.cpp -------------------------------------------===//
//
// barrier-unpaired: a barrier that has lost its partner.
//
//  1. Message passing where one side orders the shared data with an
//     explicit barrier, a release or an acquire and the other side has
//     nothing: a write-side smp_wmb()/release whose data is read in another
//     function of the TU with no read barrier, acquire or address dependency,
//     and the reverse. Only when the partner side is visible in the TU (it may
//     live in another file otherwise). Both sides unordered is
//     mp-missing-barrier's, and so is a side that the one-sided analysis
//     reports (it needs no partner); a side with a barrier of the wrong
//     kind between the flag and the data is barrier-wrong-kind's.
//  2. Pairing comments: "pairs with smp_wmb() in foo()" next to a barrier,
//     where foo() is defined in this TU and has no barrier, release/acquire,
//     lock or dependency load of the kind that can pair with this one (and
//     calls nothing that could hide one). A function not defined in the TU is
//     not stale: silent.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "analyses/MessagePassing.h"
#include "analyses/OneSided.h"
#include "core/BarrierScan.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

using namespace clang;

namespace seqlint {
namespace {

/// `return;`, `return 0;`, `return false;`: a config stub.
bool isConstantReturn(const Stmt *S) {
  const auto *R = dyn_cast<ReturnStmt>(S);
  if (!R)
    return false;
  const Expr *V = R->getRetValue();
  return !V || isa<IntegerLiteral>(V->IgnoreParenImpCasts()) ||
         isa<CXXBoolLiteralExpr>(V->IgnoreParenImpCasts());
}

class BarrierUnpairedCheck : public MessagePassingCheck {
public:
  BarrierUnpairedCheck() : MessagePassingCheck("barrier-unpaired") {}

  void functionDone(const FunctionTrace &T, Classifier &C) override {
    MessagePassingCheck::functionDone(T, C);
    Evidence.add(T);
    std::optional<FunctionAnalyses> Local;
    for (OsCandidate &Cand : scanOneSided(analysesOf(T, Local), C, Evidence))
      if (Cand.K == OsKind::Publish || Cand.K == OsKind::Consume)
        OneSided.push_back(std::move(Cand));
    Orderings[T.FD] = orderingOf(T, C);
    const SourceManager &SM = Ctx->Ctx->getSourceManager();
    for (unsigned B = 0; B != T.Blocks.size(); ++B)
      for (unsigned I = 0; I != T.Blocks[B].Events.size(); ++I) {
        const Event &E = T.Blocks[B].Events[I];
        unsigned Side = 0;
        if (E.Kind == EventKind::Barrier && E.Api) {
          if (E.Bits & OrdSS)
            Side |= PairWrite;
          if (E.Bits & OrdLL)
            Side |= PairRead;
        } else if (E.Kind == EventKind::Store && E.Api && isRelease(E.Ord)) {
          Side = PairWrite;
        } else if (E.Kind == EventKind::Load && E.Api && isAcquire(E.Ord)) {
          Side = PairRead;
        }
        if (!Side || !SeenBarriers.insert(E.Loc.getRawEncoding()).second)
          continue;
        if (auto PC = scanPairingComment(SM, E.Loc, C.model())) {
          PC->BarrierLoc = E.Loc;
          PC->BarrierSpelling = E.ApiName.str() + "()";
          PC->Side = Side;
          if (isJudgedBarrier(E))
            CommentData[E.Loc.getRawEncoding()] = barrierDataOf(T, B, I);
          Comments.push_back(std::move(*PC));
        }
      }
  }

  void translationUnitDone(Classifier &C) override {
    reportMessagePassing();
    reportStaleComments(C);
  }

private:
  /// "read-side smp_rmb()", or "the read side's acquire load" for an
  /// access with no API name ("an acquire load").
  static std::string sideNote(StringRef Side, StringRef Spelling) {
    for (StringRef Article : {"a ", "an "})
      if (Spelling.starts_with(Article))
        return ("the " + Side + " side's " +
                Spelling.drop_front(Article.size()))
            .str();
    return (Side + "-side " + Spelling).str();
  }

  void reportMessagePassing() {
    auto Ordered = [](MpOrder O) {
      return O == MpOrder::Barrier || O == MpOrder::Access;
    };
    // The stores and loads mp-missing-barrier reports from one side: one
    // missing barrier, one report.
    llvm::DenseSet<unsigned> OneSidedAt;
    for (const OsCandidate &Cand : OneSided)
      if (!Cand.SiblingAcquire && osSupported(Cand, Evidence))
        OneSidedAt.insert(Cand.At.Loc.getRawEncoding());
    OneSided.clear();
    for (const MpMatch &M : mp().match()) {
      const MpSide &W = *M.W, &R = *M.R;
      if (!M.WriterOrdered && M.ReaderOrdered && Ordered(M.ReaderBy) &&
          !M.WD->OtherBarrier &&
          !OneSidedAt.count(W.FlagLoc.getRawEncoding()) &&
          Reported.insert(W.FlagLoc.getRawEncoding()).second) {
        auto [Wmb, Rmb, Release, Acquire] = mp().spellings(W);
        Finding F = make(
            W.FlagLoc,
            "'" + W.FlagName + "' is published here after the store to '" +
                M.WD->Name +
                "' with no write barrier in between, but its "
                "reader in '" +
                R.FnName + "()' orders its loads with " + M.ROrd->BySpelling +
                ": that ordering has no partner here; use " + Release +
                " for this store or put " + Wmb + " before it");
        F.Notes.push_back({M.ROrd->ByLoc, sideNote("read", M.ROrd->BySpelling) +
                                              " in '" + R.FnName +
                                              "()' is here"});
        noteComment(F, M.ROrd->ByLoc, W.FnName);
        F.Notes.push_back({M.WD->Loc, "'" + M.WD->Name + "' is stored here"});
        noteConfigurations(F, M);
        if (W.Fix)
          F.FixIts.push_back(*W.Fix);
        emit(F);
      }
      if (!M.ReaderOrdered && M.WriterOrdered && Ordered(M.WriterBy) &&
          !M.RD->OtherBarrier &&
          !OneSidedAt.count(R.FlagLoc.getRawEncoding()) &&
          Reported.insert(R.FlagLoc.getRawEncoding()).second) {
        auto [Wmb, Rmb, Release, Acquire] = mp().spellings(R);
        Finding F =
            make(R.FlagLoc,
                 "'" + M.RD->Name + "' is read after '" + R.FlagName +
                     "' with no read barrier, acquire or address dependency, "
                     "but its writer in '" +
                     W.FnName +
                     "()' publishes it "
                     "with " +
                     M.WOrd->BySpelling +
                     ": that ordering has no partner here; use " + Acquire +
                     " for this load or put " + Rmb + " after it");
        F.Notes.push_back(
            {M.WOrd->ByLoc, sideNote("write", M.WOrd->BySpelling) + " in '" +
                                W.FnName + "()' is here"});
        noteComment(F, M.WOrd->ByLoc, R.FnName);
        F.Notes.push_back({M.RD->Loc, "'" + M.RD->Name + "' is read here"});
        noteConfigurations(F, M);
        if (R.Fix)
          F.FixIts.push_back(*R.Fix);
        emit(F);
      }
    }
  }

  /// The partner's pairing comment names this function: say so (the
  /// comment documents the pair this side no longer holds up).
  void noteComment(Finding &F, SourceLocation PartnerBarrier,
                   const std::string &Here) {
    for (const PairingComment &PC : Comments)
      if (PC.BarrierLoc == PartnerBarrier &&
          llvm::is_contained(PC.Functions, Here)) {
        F.Notes.push_back({PC.BarrierLoc, "its comment says it pairs with " +
                                              (PC.PartnerBarrier.empty()
                                                   ? std::string("a barrier")
                                                   : PC.PartnerBarrier) +
                                              " in '" + Here + "()'"});
        Explained.insert(PC.BarrierLoc.getRawEncoding()); // one report
        return;
      }
  }

  void reportStaleComments(Classifier &C) {
    if (Comments.empty())
      return;
    llvm::StringMap<const FunctionDecl *> Defs;
    for (const Decl *D : Ctx->Ctx->getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->getIdentifier() && FD->doesThisDeclarationHaveABody())
          Defs[FD->getName()] = FD;
    for (const PairingComment &PC : Comments) {
      if (Explained.count(PC.BarrierLoc.getRawEncoding()))
        continue;
      unsigned Need = PC.Side == PairWrite  ? (unsigned)PairRead
                      : PC.Side == PairRead ? (unsigned)PairWrite
                                            : (unsigned)(PairRead | PairWrite);
      // Each named function: no ordering of the kind needed (stale), or
      // only explicit barriers of that kind that order other data than
      // this barrier (wrong partner), or anything else (silent).
      bool AllStale = true, AllWrong = true;
      const FunctionDecl *First = nullptr;
      std::optional<BarrierData> Wrong;
      const FunctionDecl *WrongFn = nullptr;
      auto Own = CommentData.find(PC.BarrierLoc.getRawEncoding());
      for (const std::string &Name : PC.Functions) {
        AllWrong = AllWrong && Own != CommentData.end() &&
                   Own->second.Complete && !Own->second.Data.empty();
        auto It = Defs.find(Name);
        if (It == Defs.end()) {
          AllStale = AllWrong = false; // defined elsewhere: cannot tell
          break;
        }
        // An empty stub (the #else of a config option) says nothing.
        if (const auto *Body =
                dyn_cast_or_null<CompoundStmt>(It->second->getBody()))
          if (Body->size() == 0 ||
              (Body->size() == 1 && isConstantReturn(Body->body_front()))) {
            AllStale = AllWrong = false;
            break;
          }
        OrderingSummary S = summaryOf(It->second, C);
        if (S.Unknown) {
          AllStale = AllWrong = false;
          break;
        }
        if (!First)
          First = It->second;
        if (!(S.Sides & Need))
          continue; // stale for this name
        AllStale = false;
        if (!AllWrong || (S.OtherSides & Need)) {
          AllWrong = false;
          break;
        }
        for (const BarrierData &BD : S.Barriers) {
          if (!(BD.Sides & Need))
            continue;
          if (!BD.Complete || BD.Data.empty() ||
              BD.sharesDataWith(Own->second)) {
            AllWrong = false;
            break;
          }
          if (!Wrong) {
            Wrong = BD;
            WrongFn = It->second;
          }
        }
        if (!AllWrong)
          break;
      }
      if (!AllStale && AllWrong && Wrong) {
        reportWrongData(PC, Own->second, *Wrong, WrongFn);
        continue;
      }
      if (!AllStale || !First)
        continue;
      std::string Kind = Need == PairRead
                             ? "read barrier, acquire or dependency load"
                         : Need == PairWrite ? "write barrier or release"
                                             : "barrier, acquire or release";
      std::string Named =
          PC.PartnerBarrier.empty() ? "" : PC.PartnerBarrier + " in ";
      Finding F =
          make(PC.BarrierLoc,
               "the comment says " + PC.BarrierSpelling + " pairs with " +
                   Named + "'" + fnName(First) + "()', but '" + fnName(First) +
                   "()' has no " + Kind +
                   " that could pair with it: the comment is stale or the "
                   "partner lost its barrier; fix the partner or the comment");
      F.Notes.push_back(
          {First->getLocation(), "'" + fnName(First) + "()' is defined here"});
      emit(F);
    }
  }

  static std::string dataList(const BarrierData &BD) {
    std::string Out;
    unsigned N = 0;
    for (const ValueDecl *D : BD.Data) {
      if (N == 3) {
        Out += ", ...";
        break;
      }
      if (N++)
        Out += ", ";
      Out += "'" + D->getNameAsString() + "'";
    }
    return Out;
  }

  void reportWrongData(const PairingComment &PC, const BarrierData &Own,
                       const BarrierData &Partner, const FunctionDecl *Fn) {
    Finding F = make(
        PC.BarrierLoc,
        "the comment says " + PC.BarrierSpelling + " pairs with " +
            Partner.Spelling + " in '" + fnName(Fn) + "()', but they order " +
            "different data (" + dataList(Own) + " here, " + dataList(Partner) +
            " there): the comment names the wrong " +
            "partner, or one side lost the access it orders; fix the " +
            "comment or the code");
    F.Notes.push_back({Partner.Loc, "the barrier of '" + fnName(Fn) +
                                        "()' the comment names is here"});
    emit(F);
  }

  OrderingSummary summaryOf(const FunctionDecl *FD, Classifier &C) {
    auto It = Orderings.find(FD);
    if (It != Orderings.end())
      return It->second;
    OrderingSummary S;
    if (auto T = C.classify(FD))
      S = orderingOf(*T, C);
    else
      S.Unknown = true;
    Orderings[FD] = S;
    return S;
  }

  llvm::DenseSet<unsigned> Reported;
  OsEvidence Evidence;
  std::vector<OsCandidate> OneSided; // publish/consume candidates of the TU
  llvm::DenseSet<unsigned> SeenBarriers;
  llvm::DenseSet<unsigned> Explained; // comments quoted by a pairing finding
  std::vector<PairingComment> Comments;
  llvm::DenseMap<const FunctionDecl *, OrderingSummary> Orderings;
  /// The data of the barriers that carry a pairing comment.
  llvm::DenseMap<unsigned, BarrierData> CommentData;
};

} // namespace

std::unique_ptr<Check> createBarrierUnpairedCheck() {
  return std::make_unique<BarrierUnpairedCheck>();
}

} // namespace seqlint
