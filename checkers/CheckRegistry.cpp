//===- CheckRegistry.cpp - the check catalogue ----------------------------===//
#include "Check.h"

namespace seqlint {

std::unique_ptr<Check> createSeqcountWriteMissingBarrierCheck();
std::unique_ptr<Check> createSeqcountWriteUnbalancedCheck();
std::unique_ptr<Check> createSeqcountReadMissingBarrierCheck();
std::unique_ptr<Check> createSeqcountReadNoRetryCheck();
std::unique_ptr<Check> createSeqcountReadOddUncheckedCheck();
std::unique_ptr<Check> createSeqcountReadSideEffectCheck();

const std::vector<CheckInfo> &allChecks() {
  static const std::vector<CheckInfo> Checks = {
      {"seqcount-write-missing-barrier", true, createSeqcountWriteMissingBarrierCheck},
      {"seqcount-write-unbalanced", true, createSeqcountWriteUnbalancedCheck},
      {"seqcount-read-missing-barrier", true, createSeqcountReadMissingBarrierCheck},
      {"seqcount-read-no-retry", true, createSeqcountReadNoRetryCheck},
      {"seqcount-read-odd-unchecked", true, createSeqcountReadOddUncheckedCheck},
      {"seqcount-read-side-effect", true, createSeqcountReadSideEffectCheck},
  };
  return Checks;
}

} // namespace seqlint
