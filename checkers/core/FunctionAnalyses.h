//===- FunctionAnalyses.h - what seqlint works out about one function -----===//
//
// The per-function analysis hub, the counterpart of clang's
// AnalysisDeclContext::getAnalysis<T>(): the section analysis and the checks
// ask it for the facts they share, and each fact is worked out once, on
// demand, for the function being analysed:
//   - locks():           the must- and may-held lock sets before each
//                        event, one lattice (core/LockAnalysis);
//   - sections():        the section dataflow (core/SectionAnalysis), solved
//                        once: the driver replays it into the checks;
//   - accessContexts():  whether a lock may be held, and the open sections,
//                        before each event (core/AccessContext), read from
//                        the same solved sections;
//   - addressKeys():     loads that only compute a counter's address
//                        (`p->d_inode` in `p->d_inode->i_dir_seq`);
//   - validatedBegins(): the {counter, variable} pairs of begins that a
//                        retry of the function validates.
//
// The driver makes one for each function it analyses and hands it to the
// checks through CheckContext::Function for the length of that function's
// section analysis and functionDone(). A check that looks at another
// function's trace (a callee, a function classified at the end of the TU)
// makes its own, local FunctionAnalyses for it.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_FUNCTIONANALYSES_H
#define SEQLINT_CORE_FUNCTIONANALYSES_H

#include "core/AccessContext.h"
#include "core/Classifier.h"
#include "core/LockAnalysis.h"
#include "core/SectionAnalysis.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <utility>
#include <vector>

namespace seqlint {

class FunctionAnalyses {
public:
  FunctionAnalyses(const FunctionTrace &T, Classifier &C) : T(T), Cl(C) {}
  FunctionAnalyses(const FunctionAnalyses &) = delete;
  FunctionAnalyses &operator=(const FunctionAnalyses &) = delete;

  const FunctionTrace &trace() const { return T; }

  /// Must- and may-held locks before each event.
  const LockSets &locks();
  /// Keys of loads that only compute a counter's address.
  const llvm::DenseSet<int> &addressKeys();
  bool isAddressKey(int Key) { return addressKeys().count(Key) > 0; }
  /// Begins validated by a retry of this function.
  const ValidatedBegins &validatedBegins();
  /// The section dataflow, solved on the first call.
  SectionFlow &sections();
  /// Calls Visit for every event of every reachable block, in reverse
  /// post-order, with the locks that may be held and the sections that may
  /// be (write) or are (read) open before it. The first call replays the
  /// solved sections; later calls replay what it saw.
  void accessContexts(
      llvm::function_ref<void(const Event &, const AccessContext &)> Visit);

private:
  const FunctionTrace &T;
  Classifier &Cl;
  std::unique_ptr<SectionFlow> Sections;
  std::optional<LockSets> Locks;
  std::optional<llvm::DenseSet<int>> AddressKeys;
  std::optional<ValidatedBegins> Validated;
  std::optional<std::vector<std::pair<const Event *, AccessContext>>> Contexts;
};

} // namespace seqlint

#endif
