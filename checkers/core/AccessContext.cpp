//===- AccessContext.cpp --------------------------------------------------===//
#include "core/AccessContext.h"
#include "core/Dataflow.h"
#include "core/LockAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace seqlint {

namespace {

enum class Tri : unsigned char { Closed, Open, Maybe };
Tri joinTri(Tri A, Tri B) { return A == B ? A : Tri::Maybe; }

struct State {
  bool Reached = false;
  std::vector<Tri> W, R;
  std::vector<const Event *> RBegin;
  bool operator==(const State &O) const {
    return Reached == O.Reached && W == O.W && R == O.R && RBegin == O.RBegin;
  }
};

class Scan : public DataflowPolicy<State> {
public:
  Scan(const FunctionTrace &T, const ValidatedBegins &Validated,
       const LockSets &Locks)
      : T(T), Validated(Validated), Locks(Locks) {
    for (int K : T.Counters)
      Counters.push_back(K);
    llvm::sort(Counters);
    for (unsigned I = 0; I != Counters.size(); ++I)
      Slot[Counters[I]] = I;
  }

  void run(function_ref<void(const Event &, const AccessContext &)> Visit) {
    const CFG &G = *T.Cfg;
    State Entry;
    Entry.Reached = true;
    Entry.W.assign(Counters.size(), Tri::Closed);
    Entry.R.assign(Counters.size(), Tri::Closed);
    Entry.RBegin.assign(Counters.size(), nullptr);
    ForwardDataflow<State, Scan> Flow(G, *this);
    Flow.solve(std::move(Entry), 100 * G.getNumBlockIDs() + 1000,
               "access-context", T.FD);
    for (const CFGBlock *B : Flow.order()) {
      const State *In = Flow.in(*B);
      if (!In)
        continue;
      State S = *In;
      for (const Event &E : T.Blocks[B->getBlockID()].Events) {
        AccessContext C;
        C.MayLocked = Locks.mayHold(E);
        for (unsigned I = 0; I != Counters.size(); ++I) {
          if (S.W[I] != Tri::Closed) {
            C.MayInWriteSection = true;
            C.WriteSections.push_back(Counters[I]);
          }
          if (S.R[I] == Tri::Open && S.RBegin[I])
            C.ReadSections.push_back({Counters[I], S.RBegin[I]});
        }
        Visit(E, C);
        step(E, S);
      }
    }
  }

  // The dataflow policy (core/Dataflow.h).
  void transfer(const CFGBlock &B, State &S) {
    for (const Event &E : T.Blocks[B.getBlockID()].Events)
      step(E, S);
  }
  bool join(State &Into, const State &From, const CFGBlock &, unsigned) {
    State Old = Into;
    for (size_t I = 0; I != Into.W.size(); ++I) {
      Into.W[I] = joinTri(Into.W[I], From.W[I]);
      Into.R[I] = joinTri(Into.R[I], From.R[I]);
      if (!Into.RBegin[I])
        Into.RBegin[I] = From.RBegin[I];
    }
    return !(Old == Into);
  }

private:
  void step(const Event &E, State &S) {
    auto It = Slot.find(E.Key);
    int I = It == Slot.end() ? -1 : (int)It->second;
    switch (E.Kind) {
    case EventKind::WriteBegin:
      if (I >= 0) {
        S.W[I] = Tri::Open;
        S.R[I] = Tri::Closed;
      }
      break;
    case EventKind::WriteEnd:
      if (I >= 0)
        S.W[I] = Tri::Closed;
      break;
    case EventKind::CounterInc:
      if (I >= 0)
        S.W[I] = S.W[I] == Tri::Closed ? Tri::Open
                 : S.W[I] == Tri::Open ? Tri::Closed
                                       : Tri::Maybe;
      break;
    case EventKind::ReadBegin:
      // As in the section analysis: a begin opens a section only when this
      // function validates its value (or it is open-coded).
      if (I >= 0 &&
          (E.OpenCoded || (E.Var && Validated.count({E.Key, E.Var})))) {
        S.R[I] = Tri::Open;
        S.RBegin[I] = &E;
      }
      break;
    case EventKind::ReadBeginOrLock:
      if (I >= 0) {
        S.R[I] = Tri::Maybe;
        S.RBegin[I] = &E;
      }
      break;
    case EventKind::ReadRetry:
    case EventKind::ReadDone:
      if (I >= 0)
        S.R[I] = Tri::Closed;
      break;
    case EventKind::Lock:
      if (I >= 0)
        S.R[I] = Tri::Closed; // the writer side of the seqlock: exclusive
      break;
    default:
      break;
    }
  }

  const FunctionTrace &T;
  std::vector<int> Counters;
  DenseMap<int, unsigned> Slot;
  const ValidatedBegins &Validated;
  const LockSets &Locks;
};

} // namespace

void scanAccessContexts(
    const FunctionTrace &T, const ValidatedBegins &Validated,
    const LockSets &Locks,
    function_ref<void(const Event &, const AccessContext &)> Visit) {
  if (!T.Cfg)
    return;
  Scan(T, Validated, Locks).run(Visit);
}

} // namespace seqlint
