//===- Dataflow.cpp - the solver's order and its log of cuts --------------===//
#include "core/Dataflow.h"

using namespace clang;

namespace seqlint {

namespace {
// The log of the translation unit being analysed; one compiler instance
// analyses one at a time on its thread.
thread_local DataflowLog *CurrentLog = nullptr;
} // namespace

DataflowLog::Scope::Scope(DataflowLog &Log) : Saved(CurrentLog) {
  CurrentLog = &Log;
}

DataflowLog::Scope::~Scope() { CurrentLog = Saved; }

DataflowLog *DataflowLog::current() { return CurrentLog; }

std::vector<const CFGBlock *> reversePostOrder(const CFG &G) {
  std::vector<bool> Seen(G.getNumBlockIDs());
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Stack;
  std::vector<const CFGBlock *> Post;
  Stack.push_back({&G.getEntry(), G.getEntry().succ_begin()});
  Seen[G.getEntry().getBlockID()] = true;
  while (!Stack.empty()) {
    auto &[Blk, It] = Stack.back();
    if (It == Blk->succ_end()) {
      Post.push_back(Blk);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *Succ = It->getReachableBlock();
    ++It;
    if (Succ && !Seen[Succ->getBlockID()]) {
      Seen[Succ->getBlockID()] = true;
      Stack.push_back({Succ, Succ->succ_begin()});
    }
  }
  return std::vector<const CFGBlock *>(Post.rbegin(), Post.rend());
}

} // namespace seqlint
