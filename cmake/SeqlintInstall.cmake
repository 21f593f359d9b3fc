# What `cmake --install` puts where, besides the targets (the runner, the
# plugin and the clang-tidy module install themselves; runtime/ installs the
# headers, seqlint-runtime.pc and the seqlint-runtime CMake package), and the
# Debian package (`cmake --build build --target package`, CPack DEB).
#
#   <bindir>/seqlint                          the runner
#   <libdir>/seqlint/seqlint.so               the plugin (SEQLINT_INSTALL_PLUGINDIR)
#   <libdir>/seqlint/seqlint-tidy.so          the clang-tidy module
#   <includedir>/seqlint/*.h                  the runtime
#   <libdir>/pkgconfig/seqlint-runtime.pc
#   <libdir>/cmake/seqlint-runtime/           find_package(seqlint-runtime)
#   <libdir>/cmake/seqlint/                   find_package(seqlint): plugin paths
#   <mandir>/man1/seqlint.1(.gz)
#   <docdir>/README.md, docs/, examples/      the same layout as the checkout,
#                                             so the README's links work

set(SEQLINT_COMPONENT seqlint)

# --- Documentation ----------------------------------------------------------
install(FILES ${PROJECT_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT ${SEQLINT_COMPONENT})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT ${SEQLINT_COMPONENT}
  FILES_MATCHING PATTERN "*.md")
# The examples, without what gen-compile-commands.sh and the Makefile write
# into the checkout.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT ${SEQLINT_COMPONENT}
  USE_SOURCE_PERMISSIONS
  PATTERN "compile_commands.json" EXCLUDE
  PATTERN "*.tmp.*" EXCLUDE
  PATTERN ".gitignore" EXCLUDE
  PATTERN "build" EXCLUDE
  PATTERN "*.o" EXCLUDE)

# --- Man page ---------------------------------------------------------------
# docs/seqlint.1 is plain roff (man(7) macros). Debian ships man pages
# compressed; man reads both.
set(SEQLINT_MAN_SRC ${PROJECT_SOURCE_DIR}/docs/seqlint.1)
find_program(SEQLINT_GZIP gzip)
if(SEQLINT_GZIP)
  set(SEQLINT_MAN ${CMAKE_BINARY_DIR}/docs/seqlint.1.gz)
  add_custom_command(OUTPUT ${SEQLINT_MAN}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/docs
    # -n: no name or time stamp in the header, so the file is reproducible.
    COMMAND ${SEQLINT_GZIP} -9 -n -c ${SEQLINT_MAN_SRC} > ${SEQLINT_MAN}
    DEPENDS ${SEQLINT_MAN_SRC}
    COMMENT "Compressing the man page")
  add_custom_target(seqlint-man ALL DEPENDS ${SEQLINT_MAN})
else()
  set(SEQLINT_MAN ${SEQLINT_MAN_SRC})
endif()
# scripts/seqlint-cc, the kernel's CHECK= wrapper, with the clang of this
# build's major as its default.
file(READ ${PROJECT_SOURCE_DIR}/scripts/seqlint-cc SEQLINT_CC_TEXT)
string(REPLACE "clang=\${SEQLINT_CLANG:-clang-19}" "clang=\${SEQLINT_CLANG:-clang-${SEQLINT_LLVM_MAJOR}}"
  SEQLINT_CC_TEXT "${SEQLINT_CC_TEXT}")
file(WRITE ${CMAKE_BINARY_DIR}/scripts/seqlint-cc "${SEQLINT_CC_TEXT}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/scripts/seqlint-cc)
install(PROGRAMS ${CMAKE_BINARY_DIR}/scripts/seqlint-cc
  DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT ${SEQLINT_COMPONENT})

install(FILES ${SEQLINT_MAN}
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${SEQLINT_COMPONENT})

# --- CMake package: find_package(seqlint) -----------------------------------
# Paths in the config file are relative to the file itself, like the
# runner's path to the plugin, so the installed tree stays relocatable.
include(CMakePackageConfigHelpers)
set(SEQLINT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/seqlint)
function(seqlint_full_path out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "${CMAKE_INSTALL_PREFIX}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
seqlint_full_path(_seqlint_cmakedir "${SEQLINT_INSTALL_CMAKEDIR}")
seqlint_full_path(_seqlint_plugindir "${SEQLINT_INSTALL_PLUGINDIR}")
file(RELATIVE_PATH SEQLINT_CONFIG_TO_PLUGIN "${_seqlint_cmakedir}"
  "${_seqlint_plugindir}/seqlint.so")
file(RELATIVE_PATH SEQLINT_CONFIG_TO_TIDY "${_seqlint_cmakedir}"
  "${_seqlint_plugindir}/seqlint-tidy.so")
file(RELATIVE_PATH SEQLINT_CONFIG_TO_RUNNER "${_seqlint_cmakedir}"
  "${CMAKE_INSTALL_FULL_BINDIR}/seqlint")
file(RELATIVE_PATH SEQLINT_CONFIG_TO_RUNTIME "${_seqlint_cmakedir}"
  "${CMAKE_INSTALL_FULL_LIBDIR}/cmake/seqlint-runtime/seqlint-runtime-config.cmake")
if(TARGET seqlint-tidy)
  set(SEQLINT_HAVE_TIDY_MODULE 1)
else()
  set(SEQLINT_HAVE_TIDY_MODULE 0)
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/seqlint-config.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/seqlint-config.cmake @ONLY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/seqlint-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/seqlint-config.cmake
              ${CMAKE_BINARY_DIR}/cmake/seqlint-config-version.cmake
  DESTINATION ${SEQLINT_INSTALL_CMAKEDIR} COMPONENT ${SEQLINT_COMPONENT})

# --- Debian package (CPack DEB) -----------------------------------------------
#   cmake --build build --target package
#     -> build/seqlint-llvm<major>_<version>-<revision>_<arch>.deb
#   apt install ./build/seqlint-llvm*.deb
# Installed under /usr with the layout above (GNUInstallDirs of the configured
# prefix: lib/seqlint/ for the default /usr/local, lib/<multiarch>/seqlint/
# when configured with -DCMAKE_INSTALL_PREFIX=/usr).
#
# One package per LLVM major (a plugin loads into one clang major only):
# seqlint-llvm19, seqlint-llvm22. They are NOT co-installable: both install
# /usr/bin/seqlint, /usr/bin/seqlint-cc, /usr/lib/seqlint/seqlint.so, the
# runtime headers and the man page at the same paths (the paths the docs, the
# runner's plugin lookup and find_package(seqlint) rely on). So each
# Provides, Conflicts with and Replaces the virtual package `seqlint` (Debian
# policy 7.6.2: a package may conflict with a virtual package it provides
# itself), which also replaces the `seqlint` package of earlier versions.
set(SEQLINT_DEB_MAINTAINER "seqlint project <seqlint@users.noreply.github.com>" CACHE STRING
  "Maintainer field of the Debian package, \"Name <email>\"")
if(NOT SEQLINT_DEB_MAINTAINER MATCHES "^[^<>]+ <[^<>@ ]+@[^<>@ ]+>$")
  message(FATAL_ERROR "SEQLINT_DEB_MAINTAINER must read \"Name <user@host>\", "
    "not \"${SEQLINT_DEB_MAINTAINER}\"")
endif()
set(SEQLINT_DEB_REVISION 1 CACHE STRING
  "Debian revision of the package (the part after the '-' of its version)")
if(NOT SEQLINT_DEB_REVISION MATCHES "^[0-9A-Za-z.+~]+$")
  message(FATAL_ERROR "SEQLINT_DEB_REVISION must be a Debian revision (digits, letters, "
    "'.', '+', '~'), not \"${SEQLINT_DEB_REVISION}\"")
endif()
set(SEQLINT_DEB_PACKAGE seqlint-llvm${SEQLINT_LLVM_MAJOR})
# The runner's RUNPATH to the LLVM prefix (tools/runner) is for an LLVM whose
# libclang is not on the default library path. Debian's libclang1-N puts it
# there too (/usr/lib/<multiarch>/), and a RUNPATH into /usr/lib/llvm-N/lib
# is what lintian rejects (custom-library-search-path): drop it from the
# installed runner when the library it links resolves without it.
if(TARGET seqlint-runner AND CMAKE_LIBRARY_ARCHITECTURE)
  file(GLOB _seqlint_sys_libclang
    "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/libclang-${SEQLINT_LLVM_MAJOR}.so.*")
  if(_seqlint_sys_libclang)
    set_target_properties(seqlint-runner PROPERTIES INSTALL_RPATH "")
  endif()
endif()
# /usr/share/doc/<package>/: the machine-readable copyright file and the
# Debian changelog (lintian: every package has both, the changelog
# compressed). README, docs/ and examples/ stay in share/doc/seqlint/, the
# same for both packages and for `cmake --install`.
set(SEQLINT_DEB_DOCDIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/${SEQLINT_DEB_PACKAGE})
string(TIMESTAMP SEQLINT_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC) # honours SOURCE_DATE_EPOCH
set(SEQLINT_DEB_CHANGELOG_VERSION "${PROJECT_VERSION}-${SEQLINT_DEB_REVISION}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in
  ${CMAKE_BINARY_DIR}/debian/changelog @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/copyright
  ${CMAKE_BINARY_DIR}/debian/copyright COPYONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/lintian-overrides.in
  ${CMAKE_BINARY_DIR}/debian/lintian-overrides @ONLY)
if(SEQLINT_GZIP)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz
    COMMAND ${SEQLINT_GZIP} -9 -n -c ${CMAKE_BINARY_DIR}/debian/changelog
      > ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz
    DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog
    COMMENT "Compressing the Debian changelog")
  add_custom_target(seqlint-deb-changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz)
  install(FILES ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz
    DESTINATION ${SEQLINT_DEB_DOCDIR} COMPONENT ${SEQLINT_COMPONENT})
endif()
install(FILES ${CMAKE_BINARY_DIR}/debian/copyright
  DESTINATION ${SEQLINT_DEB_DOCDIR} COMPONENT ${SEQLINT_COMPONENT})
install(FILES ${CMAKE_BINARY_DIR}/debian/lintian-overrides
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides
  RENAME ${SEQLINT_DEB_PACKAGE} COMPONENT ${SEQLINT_COMPONENT})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${SEQLINT_DEB_PACKAGE})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_PACKAGE_RELEASE ${SEQLINT_DEB_REVISION})
set(CPACK_PACKAGE_CONTACT "${SEQLINT_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${SEQLINT_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PROVIDES seqlint)
set(CPACK_DEBIAN_PACKAGE_CONFLICTS seqlint)
set(CPACK_DEBIAN_PACKAGE_REPLACES seqlint)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "find seqcount and memory-barrier misuse in C at compile time")
# The extended description only: CPack puts the summary on the first line
# (lintian: description-synopsis-is-duplicated).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "seqlint is a clang plugin, a clang-tidy module and a codebase runner that
report seqcount and barrier bugs: a writer without smp_wmb() after the odd
increment, a reader that never retries, a write section left open on an
error path, a barrier of the wrong kind. The runner analyses a compilation
database and writes text, JSON or SARIF; the package also ships a reference
C11 seqcount runtime (headers, pkg-config and CMake files).
.
This build is for clang ${SEQLINT_LLVM_MAJOR}: load the plugin into
clang-${SEQLINT_LLVM_MAJOR} and the module into clang-tidy-${SEQLINT_LLVM_MAJOR}.")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/seqlint/seqlint")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # <package>_<version>-<revision>_<arch>.deb
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# Dependencies. The shared libraries the runner links (libclang, jansson,
# libc) and those of the plugin and module (libstdc++) come from
# dpkg-shlibdeps (dpkg-dev) when it is there, with their versions; the
# fallback names the same packages without versions. The plugin's clang and
# clang-tidy symbols are not linked: they come from the clang that loads it,
# so clang-N is a dependency of its own (the runner also runs it), and
# clang-tidy-N, needed for the module only, a recommendation.
find_program(SEQLINT_DPKG_SHLIBDEPS dpkg-shlibdeps)
set(_seqlint_deps "clang-${SEQLINT_LLVM_MAJOR}")
if(SEQLINT_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "seqlint: dpkg-shlibdeps not found (Debian: dpkg-dev); the .deb's "
    "library dependencies are listed without versions")
  string(APPEND _seqlint_deps ", libclang1-${SEQLINT_LLVM_MAJOR}, libjansson4, libc6, "
    "libstdc++6, libgcc-s1")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_seqlint_deps}")
if(TARGET seqlint-tidy)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-${SEQLINT_LLVM_MAJOR}")
endif()
# libjs-highlight.js: syntax highlighting in the HTML report (--format=html).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pkg-config, cmake, libjs-highlight.js")
# The package holds what `cmake --install` installs, every component.
set(CPACK_DEB_COMPONENT_INSTALL OFF)
include(CPack)
