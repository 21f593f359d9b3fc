//===- Compat.h - every LLVM/Clang version difference, in one place -------===//
//
// seqlint builds against Debian's LLVM 19 and LLVM 22 (one build per major:
// cmake -DLLVM_VERSION=22). Code elsewhere calls the helpers below instead of
// testing LLVM_VERSION_MAJOR itself; a new difference gets a helper here.
//
// Differences found (19 -> 22):
//  * GCCAsmStmt::getAsmString() returned the StringLiteral; on 22 the asm
//    string may be a constant expression (C++26) and getAsmString() returns
//    the text as std::string (getClobber() likewise; both compare with ==).
//  * DiagnosticIDs::CustomDiagDesc (22): a custom diagnostic can belong to a
//    -W group, so -Werror, -w, -Wno-<group>, -Wno-error=<group> and pragmas
//    apply to it. Detected by a CMake compile check (cmake/SeqlintCompat.cmake),
//    not by version: SEQLINT_HAVE_CUSTOM_DIAG_GROUPS.
//    Clang 22.1 itself gets -Wno-error=<group> wrong for a custom diagnostic
//    created after the command line is read: registerGroupedWarning().
//  * clang-tidy 22 moved ClangTidyModuleRegistry into ClangTidyModule.h and
//    made ClangTidyModuleRegistry.h a deprecated header that #warns.
//  * StringSwitch::Cases(S0, S1, ..., Value) is deprecated on 22 (use an
//    initializer list, which 19 lacks): avoid Cases() altogether.
// Outside the sources (tests, docs/integration.md "LLVM versions"): clang-tidy
// 22's --header-filter defaults to '.*' (19: no header); clang 22 emits a
// seq_cst fence on x86-64 as `lock orl $0,-0x40(%rsp)` (19: at (%rsp)).
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_COMPAT_H
#define SEQLINT_CORE_COMPAT_H

#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include <string>
#include <type_traits>
#include <vector>

// Set by CMake (cmake/SeqlintCompat.cmake) from a compile check against the
// LLVM headers; absent means "no".
#ifndef SEQLINT_HAVE_CUSTOM_DIAG_GROUPS
#define SEQLINT_HAVE_CUSTOM_DIAG_GROUPS 0
#endif

// The clang-tidy header that declares ClangTidyModuleRegistry
// (`#include SEQLINT_CLANG_TIDY_REGISTRY_HEADER`).
#if LLVM_VERSION_MAJOR >= 22
#define SEQLINT_CLANG_TIDY_REGISTRY_HEADER "ClangTidyModule.h"
#else
#define SEQLINT_CLANG_TIDY_REGISTRY_HEADER "ClangTidyModuleRegistry.h"
#endif

namespace seqlint {
namespace compat {

/// The text of an asm statement's template string. Chosen by the type
/// getAsmString() returns (StringLiteral * on 19, std::string on 22), so any
/// major in between works without knowing when it changed.
template <typename AsmStmtT> std::string asmString(const AsmStmtT *AS) {
  decltype(auto) S = AS->getAsmString();
  if constexpr (std::is_pointer_v<std::decay_t<decltype(S)>>)
    return S->getString().str();
  else
    return std::string(S);
}

/// True when clang can put a custom diagnostic into a -W group, so that the
/// command line's warning flags apply to seqlint's findings natively.
constexpr bool HaveCustomDiagGroups = SEQLINT_HAVE_CUSTOM_DIAG_GROUPS != 0;

/// The -W group seqlint's warnings join where HaveCustomDiagGroups
/// (`-Wno-user-defined-warnings` silences them and `diagnose_if` warnings).
constexpr const char *FindingGroup = "user-defined-warnings";

/// A custom warning in FindingGroup, shown in system headers and macros like
/// every other custom diagnostic; 0 where clang cannot group custom
/// diagnostics (the caller then picks the level itself).
inline unsigned getGroupedWarningID(clang::DiagnosticsEngine &D,
                                    llvm::StringRef Format) {
#if SEQLINT_HAVE_CUSTOM_DIAG_GROUPS
  using clang::DiagnosticIDs;
  return D.getDiagnosticIDs()->getCustomDiagID(DiagnosticIDs::CustomDiagDesc(
      clang::diag::Severity::Warning, Format.str(), DiagnosticIDs::CLASS_WARNING,
      /*ShowInSystemHeader=*/true, /*ShowInSystemMacro=*/true,
      clang::diag::Group::UserDefinedWarnings));
#else
  (void)D;
  (void)Format;
  return 0;
#endif
}

/// Registers the grouped warning (getGroupedWarningID(D, Format)) before the
/// source is parsed; call it when the AST consumer is created. Returns the ID,
/// 0 where clang cannot group custom diagnostics.
///  * `#pragma clang diagnostic` in the source then finds it in its group, and
///    its mapping exists in the command line's state, which a pragma `push`
///    copies (otherwise a pragma in the source would set the group's default
///    for the whole file, as a lazily created mapping reads it).
///  * clang 22.1 applies -Werror=<group> / -Wno-error=<group> only to the
///    diagnostics that exist when it reads the command line (a later custom
///    diagnostic in the group keeps being promoted by -Werror): the group's
///    -W options are replayed here, in command-line order. Replaying is
///    harmless where clang does it right.
/// WarningOpts: DiagnosticOptions::Warnings (each -W option without "-W").
inline unsigned
registerGroupedWarning(clang::DiagnosticsEngine &D,
                       const std::vector<std::string> &WarningOpts,
                       llvm::StringRef Format) {
#if SEQLINT_HAVE_CUSTOM_DIAG_GROUPS
  unsigned ID = getGroupedWarningID(D, Format);
  // Creates the mapping in the current (command line) state. The call is
  // declared LLVM_READONLY: an unused result lets the optimizer drop it.
  volatile unsigned Initial = D.getDiagnosticLevel(ID, clang::SourceLocation());
  (void)Initial;
  llvm::StringRef Group = FindingGroup;
  for (llvm::StringRef W : WarningOpts) {
    bool Positive = !W.consume_front("no-");
    if (W == Group)
      D.setSeverityForGroup(clang::diag::Flavor::WarningOrError, Group,
                            Positive ? clang::diag::Severity::Warning
                                     : clang::diag::Severity::Ignored);
    else if (W.consume_front("error=") && W == Group)
      D.setDiagnosticGroupWarningAsError(Group, Positive);
  }
  return ID;
#else
  (void)D;
  (void)WarningOpts;
  (void)Format;
  return 0;
#endif
}

} // namespace compat
} // namespace seqlint

#endif // SEQLINT_CORE_COMPAT_H
