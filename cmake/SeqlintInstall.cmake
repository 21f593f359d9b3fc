# What `cmake --install` puts where, besides the targets (the runner, the
# plugin and the clang-tidy module install themselves; runtime/ installs the
# headers, seqlint-runtime.pc and the seqlint-runtime CMake package).
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
