//===- CheckRegistry.cpp - the check catalogue ----------------------------===//
#include "Check.h"

namespace seqlint {

std::unique_ptr<Check> createSeqcountWriteMissingBarrierCheck();
std::unique_ptr<Check> createSeqcountWriteUnbalancedCheck();
std::unique_ptr<Check> createSeqcountReadMissingBarrierCheck();
std::unique_ptr<Check> createSeqcountReadNoRetryCheck();
std::unique_ptr<Check> createSeqcountReadOddUncheckedCheck();
std::unique_ptr<Check> createSeqcountReadSideEffectCheck();
std::unique_ptr<Check> createAccessPlainRereadCheck();
std::unique_ptr<Check> createBarrierWrongKindCheck();
std::unique_ptr<Check> createBarrierMisplacedCheck();
std::unique_ptr<Check> createSeqcountWriteUnlockedCheck();
std::unique_ptr<Check> createBarrierUnpairedCheck();
std::unique_ptr<Check> createMpMissingBarrierCheck();
std::unique_ptr<Check> createAccessPlainSharedCheck();
std::unique_ptr<Check> createAccessPlainInReadSectionCheck();

const std::vector<CheckInfo> &allChecks() {
  static const std::vector<CheckInfo> Checks = {
      {"seqcount-write-missing-barrier", true, createSeqcountWriteMissingBarrierCheck},
      {"seqcount-write-unbalanced", true, createSeqcountWriteUnbalancedCheck},
      {"seqcount-write-unlocked", false, createSeqcountWriteUnlockedCheck},
      {"seqcount-read-missing-barrier", true, createSeqcountReadMissingBarrierCheck},
      {"seqcount-read-no-retry", true, createSeqcountReadNoRetryCheck},
      {"seqcount-read-odd-unchecked", true, createSeqcountReadOddUncheckedCheck},
      {"seqcount-read-side-effect", true, createSeqcountReadSideEffectCheck},
      // Off by default: see docs/real-world.md for its rate on Linux 6.12.
      {"access-plain-shared", false, createAccessPlainSharedCheck},
      {"access-plain-in-read-section", true, createAccessPlainInReadSectionCheck},
      {"access-plain-reread", false, createAccessPlainRereadCheck},
      {"barrier-wrong-kind", true, createBarrierWrongKindCheck},
      {"barrier-misplaced", true, createBarrierMisplacedCheck},
      {"barrier-unpaired", false, createBarrierUnpairedCheck},
      {"mp-missing-barrier", false, createMpMissingBarrierCheck},
  };
  return Checks;
}

} // namespace seqlint
