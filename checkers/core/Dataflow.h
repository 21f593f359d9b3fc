//===- Dataflow.h - the one forward dataflow solver over a clang::CFG -----===//
//
// Every per-function analysis of seqlint (sections, locks, access contexts)
// is a forward dataflow over the function's CFG. They share this solver,
// ForwardDataflow<State, Analysis>: the analysis supplies the lattice (State)
// and the transfer function of a block and the join along an edge; the
// solver owns the worklist, visits blocks in reverse post-order (a block
// waits until the blocks before it are done, so a loop-free function needs
// one visit a block), and stops at a budget of block visits. Policy-based,
// as LifetimeSafety's driver and the FlowSensitive framework's are:
//
//   struct MyAnalysis {
//     /// In -> Out of block B.
//     void transfer(const clang::CFGBlock &B, State &S);
//     /// Out of From, along its successor number SuccIndex, into a block
//     /// reached for the first time (DataflowPolicy<State>: Into = Out).
//     void enter(State &Into, const State &Out, const clang::CFGBlock &From,
//                unsigned SuccIndex);
//     /// ... into a block already reached: Into joined with it; true if
//     /// Into changed.
//     bool join(State &Into, const State &Out, const clang::CFGBlock &From,
//               unsigned SuccIndex);
//   };
//
// After solve(), in(B) is the state at B's entry and order() the reachable
// blocks in reverse post-order: an analysis replays each block from its
// entry state to report what it found.
//
// A solver that runs out of budget has a partial fixpoint. It says so: the
// run is recorded in the DataflowLog in force (the driver installs one per
// translation unit; `-fplugin-arg-seqlint-dump-events` prints it and
// `-fplugin-arg-seqlint-remarks` makes each a remark), never cut in silence.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_DATAFLOW_H
#define SEQLINT_CORE_DATAFLOW_H

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include <functional>
#include <queue>
#include <vector>

namespace clang {
class FunctionDecl;
}

namespace seqlint {

/// The reachable blocks of G from the entry, each after its predecessors
/// except across loop back edges (reverse post-order).
std::vector<const clang::CFGBlock *> reversePostOrder(const clang::CFG &G);

/// One analysis that stopped at its budget before its fixpoint.
struct DataflowCut {
  const char *Analysis;        // "sections", "locks", "reread", ...
  const clang::FunctionDecl *FD;
  unsigned Budget;             // block visits allowed
};

/// The analyses cut in one translation unit. While a Scope is alive, every
/// solver records its cuts here (and takes its budget from BudgetOverride
/// when that is set); with no log in force a cut is not recorded.
class DataflowLog {
public:
  /// Block visits every analysis may make (0: each its own budget); for
  /// tests (-fplugin-arg-seqlint-dataflow-budget=N).
  unsigned BudgetOverride = 0;
  std::vector<DataflowCut> Cuts;

  /// Installs Log for the lifetime of the scope (the previous one after).
  class Scope {
  public:
    explicit Scope(DataflowLog &Log);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    DataflowLog *Saved;
  };

  /// The log in force, or null.
  static DataflowLog *current();
};

/// A base for a policy whose edges carry the state as it is: a block reached
/// for the first time starts from its predecessor's exit state.
template <typename State> struct DataflowPolicy {
  void enter(State &Into, const State &Out, const clang::CFGBlock &,
             unsigned) {
    Into = Out;
  }
};

/// Forward dataflow of Analysis over G to a fixpoint, or until Budget block
/// visits are spent (then recorded as a DataflowCut of Name in FD).
template <typename State, typename Analysis> class ForwardDataflow {
public:
  ForwardDataflow(const clang::CFG &G, Analysis &A)
      : G(G), A(A), Order(reversePostOrder(G)), In(G.getNumBlockIDs()),
        Reached(G.getNumBlockIDs()) {}

  /// Runs from Entry at the entry block; true if it reached the fixpoint.
  bool solve(State Entry, unsigned Budget, const char *Name,
             const clang::FunctionDecl *FD) {
    DataflowLog *Log = DataflowLog::current();
    if (Log && Log->BudgetOverride)
      Budget = Log->BudgetOverride;
    unsigned N = G.getNumBlockIDs();
    std::vector<unsigned> Rank(N, 0);
    for (unsigned I = 0; I != Order.size(); ++I)
      Rank[Order[I]->getBlockID()] = I;
    // The pending blocks, earliest in reverse post-order first.
    std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
        Work;
    std::vector<bool> Queued(N);
    unsigned EntryId = G.getEntry().getBlockID();
    In[EntryId] = std::move(Entry);
    Reached[EntryId] = true;
    Work.push(Rank[EntryId]);
    Queued[EntryId] = true;
    for (; !Work.empty() && Visits != Budget; ++Visits) {
      const clang::CFGBlock *B = Order[Work.top()];
      Work.pop();
      Queued[B->getBlockID()] = false;
      State Out = In[B->getBlockID()];
      A.transfer(*B, Out);
      unsigned I = 0;
      for (auto SI = B->succ_begin(); SI != B->succ_end(); ++SI, ++I) {
        const clang::CFGBlock *S = SI->getReachableBlock();
        if (!S)
          continue;
        unsigned Id = S->getBlockID();
        bool Changed = true;
        if (Reached[Id]) {
          Changed = A.join(In[Id], Out, *B, I);
        } else {
          A.enter(In[Id], Out, *B, I);
          Reached[Id] = true;
        }
        if (Changed && !Queued[Id]) {
          Queued[Id] = true;
          Work.push(Rank[Id]);
        }
      }
    }
    Converged = Work.empty();
    if (!Converged && Log)
      Log->Cuts.push_back({Name, FD, Budget});
    return Converged;
  }

  /// The state at B's entry; null if no path from the entry reached it.
  const State *in(const clang::CFGBlock &B) const {
    return Reached[B.getBlockID()] ? &In[B.getBlockID()] : nullptr;
  }
  /// The blocks reachable from the entry, in reverse post-order.
  llvm::ArrayRef<const clang::CFGBlock *> order() const { return Order; }
  bool converged() const { return Converged; }
  unsigned visits() const { return Visits; }

private:
  const clang::CFG &G;
  Analysis &A;
  std::vector<const clang::CFGBlock *> Order;
  std::vector<State> In;
  std::vector<bool> Reached;
  unsigned Visits = 0;
  bool Converged = false;
};

} // namespace seqlint

#endif
