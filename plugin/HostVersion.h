//===- HostVersion.h - refuse to run inside another Clang major -*- C++ -*-===//
//
// The plugin and the clang-tidy module link no Clang library: every Clang
// symbol they use resolves against the executable that loads them. Clang's
// C++ ABI changes with every major release, so a module built against
// LLVM 19 and loaded into clang-22 finds the registry, then crashes in its
// first call into a Clang class, or runs and reports nothing. That must be a
// clear error, not a crash and not a silent pass.
//
// checkHostVersion() runs from a static initializer when the module is
// loaded, before it registers itself with the host: it asks the host for
// its version string (clang::getClangFullVersion(), a function whose
// signature every release keeps) and compares the major with the one the
// module was compiled against.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_PLUGIN_HOSTVERSION_H
#define SEQLINT_PLUGIN_HOSTVERSION_H

#include "clang/Basic/Version.h"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace seqlint {

/// The major of a Clang version string ("Debian clang version 22.1.8
/// (1~deb12u1)" -> 22); 0 when the string names no version.
inline unsigned clangMajorOf(const std::string &Full) {
  size_t At = Full.find("version ");
  if (At == std::string::npos)
    return 0;
  unsigned Major = 0;
  for (size_t I = At + 8; I < Full.size() && Full[I] >= '0' && Full[I] <= '9';
       ++I)
    Major = Major * 10 + unsigned(Full[I] - '0');
  return Major;
}

/// Exits with status 1 and a message naming both versions when the host's
/// Clang major is not the one this module was built for. Module is what the
/// message calls the module ("plugin", "clang-tidy module"); Host is the
/// program ("clang", "clang-tidy").
inline void checkHostVersion(const char *Module, const char *Host) {
  std::string Full = clang::getClangFullVersion();
  unsigned Major = clangMajorOf(Full);
  if (Major == 0 || Major == CLANG_VERSION_MAJOR)
    return;
  std::fprintf(stderr,
               "error: the seqlint %s was built for Clang %s (LLVM %d) and "
               "cannot run in %s %u (%s): Clang's C++ interface differs "
               "between majors. Use %s-%d, or build seqlint for this %s "
               "(cmake -DLLVM_VERSION=%u).\n",
               Module, CLANG_VERSION_STRING, CLANG_VERSION_MAJOR, Host, Major,
               Full.c_str(), Host, CLANG_VERSION_MAJOR, Host, Major);
  std::fflush(stderr);
  // Not exit(): we run inside dlopen(), and the host's exit handlers could
  // reach the half-loaded module.
  _exit(1);
}

} // namespace seqlint

#endif
