//===- ApiModelNames.cpp - API families and naming conventions by name ----===//
//
// Part of the API model (core/ApiModel.h): the tests that recognise an API
// by a family of names rather than one entry of the table (the RCU
// accessors, the u64_stats API, a read begin's retry, the fence builtins,
// seqcount types), and the naming conventions the checks rely on (foo_locked,
// a callee that mentions a lock, device byte-order types, linker sections).
//
// Kept out of ApiModel.cpp on purpose, as ApiModelAsm.cpp is: the
// metamorphic harness keeps every identifier-like string literal of that
// file from being renamed, and the words here ("lock", "work", "inc") are
// name heuristics the harness is meant to expose, not API names a C file
// declares.
//
//===----------------------------------------------------------------------===//
#include "core/ApiModel.h"

#include <cctype>

using namespace llvm;

namespace seqlint {

bool mentionsLock(StringRef N) {
  return N.contains("lock") && !N.contains("block") && !N.contains("clock");
}

bool isCallerLockedName(StringRef N) {
  return N.ends_with("_locked") || N.ends_with("_nolock") ||
         N.contains("_locked_");
}

// --- Seqcount types and families (ApiModel.h) --------------------------------

CounterTypeClass counterTypeClass(StringRef N, LockKind &Needs) {
  if (N == "seqlock" || N == "u64_stats_sync")
    return CounterTypeClass::SelfLocked;
  if (!N.consume_front("seqcount_"))
    return CounterTypeClass::Unknown;
  // The lock type's own name, as lockKindOfTypeName() knows it (seqcount_
  // rwlock_t names rwlock_t); Linux associates these four kinds only.
  LockKind K = lockKindOfTypeName(N);
  if (K == LockKind::Unknown)
    K = lockKindOfTypeName(N.str() + "_t");
  if (K != LockKind::RawSpin && K != LockKind::Spin && K != LockKind::RwLock &&
      K != LockKind::Mutex)
    return CounterTypeClass::Unknown;
  Needs = K;
  return CounterTypeClass::Associated;
}

bool isStatsSyncApi(StringRef N) { return N.starts_with("u64_stats"); }

bool isStatsSyncTypeSpelling(StringRef T) {
  return T.find("u64_stats_sync") != StringRef::npos;
}

std::string retryPartnerOf(StringRef Begin) {
  if (Begin == "read_seqbegin")
    return "read_seqretry()";
  if (isStatsSyncApi(Begin))
    return "u64_stats_fetch_retry()";
  if (Begin.contains("latch"))
    return "read_seqcount_latch_retry()";
  if (Begin.starts_with("rte_seqlock"))
    return "rte_seqlock_read_retry()";
  if (Begin.starts_with("rte_seqcount"))
    return "rte_seqcount_read_retry()";
  if (Begin.starts_with("ck_"))
    return "ck_sequence_read_retry()";
  if (Begin.starts_with("seqlock_read"))
    return "seqlock_read_retry()";
  if (Begin.starts_with("seqlint_"))
    return Begin.drop_back(5).str() + "retry()";
  return "read_seqcount_retry()";
}

bool isRcuAccessorName(StringRef N) {
  return N.starts_with("rcu_") || N.starts_with("srcu_");
}

bool isRcuUpdateSideAccess(StringRef N) {
  return N.ends_with("_protected") || N == "rcu_access_pointer";
}

ArrayRef<StringLiteral> seqcountLockInitNames() {
  static const StringLiteral Names[] = {
      "seqcount_raw_spinlock_init", "seqcount_spinlock_init",
      "seqcount_rwlock_init",       "seqcount_mutex_init",
      "SEQCNT_RAW_SPINLOCK_ZERO",   "SEQCNT_SPINLOCK_ZERO",
      "SEQCNT_RWLOCK_ZERO",         "SEQCNT_MUTEX_ZERO"};
  return Names;
}

bool isAssertionMacro(StringRef N) {
  return N == "WARN_ON" || N == "WARN_ON_ONCE" || N == "WARN" ||
         N == "WARN_ONCE" || N == "BUG_ON" || N == "VM_BUG_ON" ||
         N == "VM_WARN_ON" || N == "VM_WARN_ON_ONCE";
}

bool isOnlineCpuCount(StringRef N) { return N == "num_online_cpus"; }

bool isUapiHeaderPath(StringRef File) {
  return File.contains("/include/uapi/") || File.starts_with("/usr/include/linux/");
}

bool isDataRaceMarker(StringRef N) { return N == "data_race"; }

// --- Builtins and calls outside the table (ApiModel.h) ----------------------

BuiltinKind builtinKind(StringRef Name) {
  if (Name == "__c11_atomic_signal_fence" || Name == "__atomic_signal_fence" ||
      Name == "atomic_signal_fence")
    return BuiltinKind::SignalFence;
  if (Name == "__c11_atomic_thread_fence" || Name == "__atomic_thread_fence" ||
      Name == "atomic_thread_fence" || Name == "rte_atomic_thread_fence")
    return BuiltinKind::ThreadFence;
  if (Name.starts_with("__sync_") && Name != "__sync_synchronize")
    return BuiltinKind::SyncRmw;
  if (Name.starts_with("__builtin_") || Name.starts_with("__compiletime_assert") ||
      Name.starts_with("kcsan_") || Name.starts_with("__kcsan") ||
      Name.starts_with("instrument_") || Name.starts_with("__sanitizer"))
    return BuiltinKind::Transparent;
  return BuiltinKind::None;
}

bool isFenceLikeName(StringRef N) {
  return N.contains("atomic_thread_fence") || N.contains("atomic_signal_fence") ||
         N.starts_with("__sync_");
}

bool isCpuOnlyBarrierName(StringRef N) {
  return N.starts_with("smp_") || N.starts_with("virt_");
}

bool isCpuToCpuBarrierName(StringRef N) {
  return N.empty() || N.contains("smp") || N.starts_with("virt_");
}

bool isBeforeAtomicBarrier(StringRef N) { return N.ends_with("mb__before_atomic"); }
bool isAfterAtomicBarrier(StringRef N) { return N.ends_with("mb__after_atomic"); }

bool isIncrementApiName(StringRef N) {
  return N.contains("inc") && !N.contains("_not_zero") && !N.contains("unless");
}

bool isBulkCopyName(StringRef N) {
  return N.contains("memcpy") || N.contains("memmove") || N.contains("memset");
}

bool isOrderingSideEffectName(StringRef N) {
  return N.contains("wake_up") || N.contains("complete") || N.contains("work") ||
         N.contains("rcu");
}

std::optional<BitOp> bitOpOfName(StringRef N) {
  N.consume_front("const");
  N.consume_front("arch");
  N.consume_front("generic");
  size_t U = 0;
  while (U < N.size() && N[U] == '_')
    ++U;
  StringRef Base = N.drop_front(U);
  BitOp Op;
  Op.Atomic = U <= 1; // __set_bit, ___set_bit: the non-atomic variants
  if (Base == "test_bit" || Base == "test_bit_acquire")
    return Op;
  static const char *const RMWs[] = {"set_bit",
                                     "clear_bit",
                                     "change_bit",
                                     "test_and_set_bit",
                                     "test_and_clear_bit",
                                     "test_and_change_bit",
                                     "test_and_set_bit_lock",
                                     "clear_bit_unlock",
                                     "clear_bit_unlock_is_negative_byte",
                                     "xor_unlock_is_negative_byte"};
  for (const char *R : RMWs)
    if (Base == R) {
      Op.Modifies = true;
      return Op;
    }
  return std::nullopt;
}

bool isCIdentifier(StringRef S) {
  if (S.empty() || !(isalpha((unsigned char)S[0]) || S[0] == '_'))
    return false;
  for (char C : S)
    if (!isalnum((unsigned char)C) && C != '_')
      return false;
  return true;
}

bool isWaitQueuePeekName(StringRef N) {
  return N == "waitqueue_active" || N == "swait_active";
}

std::optional<unsigned> signalRegistrarArg(StringRef N) {
  if (N == "signal" || N == "sigset" || N == "bsd_signal" ||
      N == "sysv_signal" || N == "pqsignal" || N == "pqsignal_pm")
    return 1u;
  return std::nullopt;
}

bool isSignalHandlerMemberName(StringRef N) {
  return N == "sa_handler" || N == "sa_sigaction";
}

bool isDeviceEndianTypeName(StringRef N) {
  return N.starts_with("__le") || N.starts_with("__be") || N.starts_with("rte_le") ||
         N.starts_with("rte_be");
}

bool isNewObjectName(StringRef N) {
  return N.contains("alloc") || N == "malloc" || N.contains("_new");
}

// --- Linker sections (ApiModel.h) --------------------------------------------

bool isPerCpuSection(StringRef S) { return S.contains("percpu"); }

bool isInitOrExitSection(StringRef S) {
  return S.starts_with(".init") || S.starts_with(".exit") ||
         S.starts_with(".ref");
}

} // namespace seqlint
