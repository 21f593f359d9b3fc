//===- CheckRegistry.cpp - the check catalogue ----------------------------===//
//
// The catalogue itself is checkers/Catalogue.def, shared with the runner.
//
//===----------------------------------------------------------------------===//
#include "Check.h"

namespace seqlint {

#define SEQLINT_CHECK(Name, Factory, DefaultOn, Short, Full)                   \
  std::unique_ptr<Check> Factory();
#include "Catalogue.def"

const std::vector<CheckInfo> &allChecks() {
  static const std::vector<CheckInfo> Checks = {
#define SEQLINT_CHECK(Name, Factory, DefaultOn, Short, Full)                   \
  {Name, DefaultOn != 0, Factory},
#include "Catalogue.def"
  };
  return Checks;
}

} // namespace seqlint
