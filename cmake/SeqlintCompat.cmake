# Feature checks against the LLVM/Clang headers we build with. Results reach
# the C++ sources only through checkers/core/Compat.h (compile definitions on
# seqlint_checkers, PUBLIC so both front ends see them) and the lit suite
# through test/lit.site.cfg.py. Detect features, not version numbers.
include(CheckCXXSourceCompiles)
include(CMakePushCheckState)

cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_INCLUDES ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
separate_arguments(_seqlint_llvm_defs UNIX_COMMAND "${LLVM_DEFINITIONS}")
set(CMAKE_REQUIRED_DEFINITIONS ${_seqlint_llvm_defs})
set(CMAKE_REQUIRED_FLAGS "-std=c++17")
set(CMAKE_REQUIRED_QUIET ON)
# Compile only: a plugin links no clang library, and neither may the check.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Clang 22: DiagnosticIDs::CustomDiagDesc with a diag::Group, so -W flags
# apply to a plugin's custom diagnostics.
check_cxx_source_compiles([[
#include "clang/Basic/DiagnosticIDs.h"
unsigned seqlintProbe(clang::DiagnosticIDs &IDs) {
  return IDs.getCustomDiagID(clang::DiagnosticIDs::CustomDiagDesc(
      clang::diag::Severity::Warning, "%0", clang::DiagnosticIDs::CLASS_WARNING,
      true, true, clang::diag::Group::UserDefinedWarnings));
}
int main() { return 0; }
]] SEQLINT_HAVE_CUSTOM_DIAG_GROUPS)

cmake_pop_check_state()

if(SEQLINT_HAVE_CUSTOM_DIAG_GROUPS)
  set(SEQLINT_HAVE_CUSTOM_DIAG_GROUPS 1)
else()
  set(SEQLINT_HAVE_CUSTOM_DIAG_GROUPS 0)
endif()
message(STATUS "seqlint: custom diagnostic groups (-W flags for findings): "
  "${SEQLINT_HAVE_CUSTOM_DIAG_GROUPS}")
