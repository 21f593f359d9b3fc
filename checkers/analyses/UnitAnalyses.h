//===- UnitAnalyses.h - what seqlint works out about one TU -----*- C++ -*-===//
//
// The translation-unit counterpart of core/FunctionAnalyses.h: the facts
// that span the functions of a TU, each made once, on demand, whichever
// check asks first. Today that is the message-passing collector: the sides
// of every function (a flag stored after data, a flag loaded before data),
// matched at the end of the TU by mp-missing-barrier and barrier-unpaired,
// written to a summary for the runner's cross-TU join, or, in a join, read
// back from every TU's summary.
//
// The driver makes one per TU (or one for a join) and hands it to the
// checks through CheckContext::Unit.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_ANALYSES_UNITANALYSES_H
#define SEQLINT_ANALYSES_UNITANALYSES_H

#include "analyses/MessagePassing.h"
#include <optional>

namespace seqlint {

class UnitAnalyses {
public:
  UnitAnalyses() = default;
  UnitAnalyses(const UnitAnalyses &) = delete;
  UnitAnalyses &operator=(const UnitAnalyses &) = delete;

  /// The message-passing sides of the TU (of every TU, in a join); made on
  /// first use.
  MpCollector &messagePassing() {
    if (!Mp)
      Mp.emplace();
    return *Mp;
  }

private:
  std::optional<MpCollector> Mp;
};

} // namespace seqlint

#endif
