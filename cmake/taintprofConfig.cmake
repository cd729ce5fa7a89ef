# taintprofConfig.cmake — find_package(taintprof) for an installed taintprof.
#
# `make install PREFIX=<prefix>` puts this file in <prefix>/share/cmake/taintprof/, where
# find_package finds it with -DCMAKE_PREFIX_PATH=<prefix> (or <prefix>/bin on PATH, or
# -Dtaintprof_DIR=<prefix>/share/cmake/taintprof). A checkout works too:
# -Dtaintprof_DIR=<checkout>/cmake uses <checkout>/target/release.
#
#   find_package(taintprof 0.1 REQUIRED)
#   add_executable(app main.c)
#   taintprof_instrument(app)                  # taint mode (the default)
#   taintprof_instrument(solver MODE denormal) # denormal mode
#   taintprof_instrument(app MODE time PRIOR ${CMAKE_SOURCE_DIR}/app.4242.taintprof.json)
#
# taintprof_instrument(<target> [MODE taint|denormal|time] [PRIOR <report>])
#
#   Builds <target> with the taintprof wrappers: its compiles and its link run
#   taintprof-cc (C) or taintprof-c++ (C++) in place of the project's compiler, with the
#   same arguments plus --tp-mode=<mode>. The wrappers add the pass plugin, the include
#   directory of taintprof.h, line tables (denormal mode: full -g), and at the link of an
#   executable the runtime. The project's compiler should be GCC or Clang: the wrappers
#   are clang 19 and get the flags CMake made for it. Other targets are built as before.
#
#   Instrument every executable that links an instrumented library: the runtime is
#   linked into executables only (an instrumented shared library gets it from the
#   program). All instrumented parts of a program must use one mode.
#
#   MODE taint     which parameters each loop and branch depends on (`taintprof run`,
#                  `taintprof report`); the default.
#   MODE denormal  where denormal floating-point values are created and flow
#                  (`taintprof denormals`); the wrappers' --tp-mode=denormal.
#   MODE time      per call path visits, times and the tainted loops' counts, for
#                  performance models (`taintprof experiment`, `taintprof model`); the
#                  wrappers' --tp-mode=time. PRIOR <report> (a taint report of the same
#                  program, an absolute path or relative to the current source
#                  directory) selects what is measured (--tp-prior); without it every
#                  function with a loop or a call is (docs/time-mode.md).
#
#   It sets the target's C/CXX_COMPILER_LAUNCHER and C/CXX_LINKER_LAUNCHER properties
#   (CMake 3.21 or newer, Makefile and Ninja generators), replacing a launcher the target
#   had (ccache: a cache would not know that the plugin changed). Other wrapper flags can
#   be given as compile and link options, e.g.
#   target_compile_options(app PRIVATE --tp-control-flow=off).
#
# Variables set:
#
#   taintprof_FOUND, taintprof_VERSION (from taintprofConfigVersion.cmake)
#   TAINTPROF_C_COMPILER, TAINTPROF_CXX_COMPILER   the wrappers taintprof-cc, taintprof-c++
#   TAINTPROF_COMMAND                              the `taintprof` command (run, report, ...)
#   TAINTPROF_INCLUDE_DIR                          the directory holding taintprof.h
#   TAINTPROF_TOOLCHAIN_FILE                       taintprof-toolchain.cmake (the whole
#                                                  project through the wrappers instead)
#
# Imported target: taintprof::headers, the include directory of taintprof.h alone, for
# code that is also built without taintprof (add the definition TAINTPROF_DISABLE there:
# every tp_* call becomes a no-op).

if(CMAKE_VERSION VERSION_LESS "3.21")
  set(taintprof_FOUND FALSE)
  string(CONCAT taintprof_NOT_FOUND_MESSAGE
    "taintprof_instrument() needs CMake 3.21 or newer (LINKER_LAUNCHER); this is CMake "
    "${CMAKE_VERSION}. Use the toolchain file instead: "
    "-DCMAKE_TOOLCHAIN_FILE=${CMAKE_CURRENT_LIST_DIR}/taintprof-toolchain.cmake")
  return()
endif()

get_filename_component(_taintprof_here "${CMAKE_CURRENT_LIST_DIR}" ABSOLUTE)
get_filename_component(_taintprof_prefix "${_taintprof_here}/../../.." ABSOLUTE)
get_filename_component(_taintprof_checkout "${_taintprof_here}/.." ABSOLUTE)
if(EXISTS "${_taintprof_prefix}/bin/taintprof-cc")
  # Installed: <prefix>/share/cmake/taintprof/.
  set(_taintprof_bin "${_taintprof_prefix}/bin")
  set(_taintprof_include "${_taintprof_prefix}/include/taintprof")
else()
  # A checkout's cmake/, with taintprof built by `cargo build --release`.
  set(_taintprof_bin "${_taintprof_checkout}/target/release")
  set(_taintprof_include "${_taintprof_checkout}/rt/include")
endif()

set(_taintprof_missing "")
foreach(_taintprof_file
    "${_taintprof_bin}/taintprof-cc"
    "${_taintprof_bin}/taintprof-c++"
    "${_taintprof_bin}/taintprof"
    "${_taintprof_include}/taintprof.h"
    "${_taintprof_here}/taintprof-launcher.sh")
  if(NOT EXISTS "${_taintprof_file}")
    list(APPEND _taintprof_missing "${_taintprof_file}")
  endif()
endforeach()
if(_taintprof_missing)
  set(taintprof_FOUND FALSE)
  string(REPLACE ";" ", " _taintprof_missing "${_taintprof_missing}")
  string(CONCAT taintprof_NOT_FOUND_MESSAGE
    "taintprof is incomplete: ${_taintprof_missing} missing. Install it with "
    "`make install PREFIX=<prefix>` in the taintprof checkout (or build it there with "
    "`cargo build --release`).")
  return()
endif()

set(TAINTPROF_C_COMPILER "${_taintprof_bin}/taintprof-cc")
set(TAINTPROF_CXX_COMPILER "${_taintprof_bin}/taintprof-c++")
set(TAINTPROF_COMMAND "${_taintprof_bin}/taintprof")
set(TAINTPROF_INCLUDE_DIR "${_taintprof_include}")
set(TAINTPROF_TOOLCHAIN_FILE "${_taintprof_here}/taintprof-toolchain.cmake")

# What taintprof_instrument() needs, where a function called from any directory of the
# project reads it (CMAKE_CURRENT_LIST_DIR is the caller's there).
set_property(GLOBAL PROPERTY _TAINTPROF_C_COMPILER "${TAINTPROF_C_COMPILER}")
set_property(GLOBAL PROPERTY _TAINTPROF_CXX_COMPILER "${TAINTPROF_CXX_COMPILER}")
set_property(GLOBAL PROPERTY _TAINTPROF_LAUNCHER "${_taintprof_here}/taintprof-launcher.sh")

if(NOT TARGET taintprof::headers)
  add_library(taintprof::headers INTERFACE IMPORTED)
  set_target_properties(taintprof::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${TAINTPROF_INCLUDE_DIR}")
endif()

function(taintprof_instrument target)
  cmake_parse_arguments(PARSE_ARGV 1 _tp "" "MODE;PRIOR" "")
  if(_tp_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "taintprof_instrument(${target}): unexpected arguments '${_tp_UNPARSED_ARGUMENTS}'. "
      "Usage: taintprof_instrument(<target> [MODE taint|denormal|time] [PRIOR <report>])")
  endif()
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "taintprof_instrument(${target}): no target named '${target}'")
  endif()
  get_target_property(_tp_imported "${target}" IMPORTED)
  get_target_property(_tp_type "${target}" TYPE)
  if(_tp_imported)
    message(FATAL_ERROR
      "taintprof_instrument(${target}): '${target}' is an imported target; only targets "
      "built from sources by this project can be instrumented")
  endif()
  if(NOT _tp_type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR
      "taintprof_instrument(${target}): '${target}' is a ${_tp_type} target; only "
      "executables and libraries built from sources can be instrumented")
  endif()

  if("MODE" IN_LIST _tp_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "taintprof_instrument(${target}): MODE needs a value: taint, denormal or time")
  endif()
  set(_tp_mode "${_tp_MODE}")
  if(_tp_mode STREQUAL "")
    set(_tp_mode taint)
  endif()
  if(NOT _tp_mode MATCHES "^(taint|denormal|time)$")
    message(FATAL_ERROR
      "taintprof_instrument(${target}): MODE must be taint, denormal or time (got '${_tp_mode}')")
  endif()
  set(_tp_flags "--tp-mode=${_tp_mode}")
  if("PRIOR" IN_LIST _tp_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "taintprof_instrument(${target}): PRIOR needs a taint report")
  endif()
  if(DEFINED _tp_PRIOR)
    if(NOT _tp_mode STREQUAL "time")
      message(FATAL_ERROR
        "taintprof_instrument(${target}): PRIOR selects what MODE time measures; "
        "it does not go with MODE ${_tp_mode}")
    endif()
    get_filename_component(_tp_prior "${_tp_PRIOR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_tp_prior}")
      message(FATAL_ERROR
        "taintprof_instrument(${target}): PRIOR ${_tp_prior} does not exist: run the "
        "program built in MODE taint with `taintprof run` first; it writes the report")
    endif()
    if(_tp_prior MATCHES "[ \t]")
      message(FATAL_ERROR
        "taintprof_instrument(${target}): PRIOR ${_tp_prior} has a blank in its path, which "
        "the compiler launcher cannot pass on; copy the report to a path without one")
    endif()
    list(APPEND _tp_flags "--tp-prior=${_tp_prior}")
  endif()

  foreach(_tp_lang C CXX)
    if(CMAKE_${_tp_lang}_COMPILER_ID AND NOT CMAKE_${_tp_lang}_COMPILER_ID MATCHES "^(GNU|Clang)$")
      message(WARNING
        "taintprof_instrument(${target}): the project's ${_tp_lang} compiler is "
        "${CMAKE_${_tp_lang}_COMPILER_ID}; the taintprof wrappers are clang 19 and may not "
        "understand the flags CMake makes for it. A GCC or Clang project compiler, or the "
        "toolchain file (${TAINTPROF_TOOLCHAIN_FILE}), avoids that.")
    endif()
  endforeach()

  get_property(_tp_launcher GLOBAL PROPERTY _TAINTPROF_LAUNCHER)
  get_property(_tp_cc GLOBAL PROPERTY _TAINTPROF_C_COMPILER)
  get_property(_tp_cxx GLOBAL PROPERTY _TAINTPROF_CXX_COMPILER)
  # The launcher runs `<wrapper> --tp-mode=<mode> [--tp-prior=<report>] <arguments>` in
  # place of `<project compiler> <arguments>`; sh runs it, so its permissions do not
  # matter.
  set(_tp_c "/bin/sh;${_tp_launcher};${_tp_cc};${_tp_flags};--")
  set(_tp_cx "/bin/sh;${_tp_launcher};${_tp_cxx};${_tp_flags};--")
  set_target_properties("${target}" PROPERTIES
    C_COMPILER_LAUNCHER "${_tp_c}"
    C_LINKER_LAUNCHER "${_tp_c}"
    CXX_COMPILER_LAUNCHER "${_tp_cx}"
    CXX_LINKER_LAUNCHER "${_tp_cx}"
    TAINTPROF_MODE "${_tp_mode}")
endfunction()

unset(_taintprof_here)
unset(_taintprof_prefix)
unset(_taintprof_checkout)
unset(_taintprof_bin)
unset(_taintprof_include)
unset(_taintprof_missing)
unset(_taintprof_file)
