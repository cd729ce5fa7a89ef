# taintprof-toolchain.cmake — build any CMake project with taintprof.
#
# Usage:
#
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=<taintprof>/cmake/taintprof-toolchain.cmake
#   cmake --build build
#   taintprof run -- build/<program> ARGS
#
# or, without this file:
#
#   cmake -S . -B build -DCMAKE_C_COMPILER=taintprof-cc -DCMAKE_CXX_COMPILER=taintprof-c++
#
# or, to instrument chosen targets only, find_package(taintprof) and
# taintprof_instrument(<target>) (taintprofConfig.cmake, next to this file once installed).
#
# It sets CMAKE_C_COMPILER / CMAKE_CXX_COMPILER to the taintprof wrappers, found in this
# order:
#
#   1. TAINTPROF_ROOT (CMake variable or environment variable): a directory holding
#      taintprof-cc (a cargo target directory such as target/release), or an installed
#      prefix holding bin/taintprof-cc;
#   2. the build tree of the checkout this file belongs to: target/release, then
#      target/debug (build taintprof first: `cargo build --release`);
#   3. an installed prefix this file belongs to (<prefix>/share/cmake/taintprof/, where
#      `make install` puts it, or <prefix>/lib/cmake/taintprof/ → <prefix>/bin);
#   4. PATH.
#
# The wrappers themselves find clang 19, the pass plugin and the runtime (see
# `taintprof-cc --tp-help`). Every compile gets line tables (-gline-tables-only unless
# you chose a -g level), so Release builds name loops by source line too.
#
# To pass taintprof options to every compile, e.g. control-flow tainting off:
#   -DCMAKE_C_FLAGS=--tp-control-flow=off -DCMAKE_CXX_FLAGS=--tp-control-flow=off
#
# Denormal mode (count denormal operands and results per source site, follow the
# floating-point arrays; the wrappers then add full -g unless you chose a -g level):
#   -DTAINTPROF_MODE=denormal
# then `taintprof run -- build/<program>` and `taintprof denormals <report> --html DIR`.
#
# Time mode (per call path visits, times and tainted loops' counts, for `taintprof
# experiment` and `taintprof model`), selected by a taint report of the program:
#   -DTAINTPROF_MODE=time -DTAINTPROF_PRIOR=/abs/path/app.4242.taintprof.json

list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TAINTPROF_MODE TAINTPROF_PRIOR TAINTPROF_ROOT)
if(DEFINED TAINTPROF_MODE AND NOT TAINTPROF_MODE STREQUAL "")
  if(NOT TAINTPROF_MODE MATCHES "^(taint|denormal|time)$")
    message(FATAL_ERROR
      "taintprof-toolchain.cmake: TAINTPROF_MODE must be taint, denormal or time (got '${TAINTPROF_MODE}')")
  endif()
  if(DEFINED TAINTPROF_PRIOR AND NOT TAINTPROF_PRIOR STREQUAL "")
    if(NOT TAINTPROF_MODE STREQUAL "time")
      message(FATAL_ERROR
        "taintprof-toolchain.cmake: TAINTPROF_PRIOR selects what TAINTPROF_MODE=time measures")
    endif()
    if(NOT EXISTS "${TAINTPROF_PRIOR}")
      message(FATAL_ERROR
        "taintprof-toolchain.cmake: TAINTPROF_PRIOR ${TAINTPROF_PRIOR} does not exist")
    endif()
    foreach(_tp_lang C CXX)
      if(NOT CMAKE_${_tp_lang}_FLAGS_INIT MATCHES "--tp-prior=")
        string(APPEND CMAKE_${_tp_lang}_FLAGS_INIT " --tp-prior=${TAINTPROF_PRIOR}")
      endif()
    endforeach()
  endif()
  # CMake reads a toolchain file more than once: add the flag once.
  if(NOT CMAKE_C_FLAGS_INIT MATCHES "--tp-mode=")
    string(APPEND CMAKE_C_FLAGS_INIT " --tp-mode=${TAINTPROF_MODE}")
  endif()
  if(NOT CMAKE_CXX_FLAGS_INIT MATCHES "--tp-mode=")
    string(APPEND CMAKE_CXX_FLAGS_INIT " --tp-mode=${TAINTPROF_MODE}")
  endif()
endif()

set(_tp_dirs "")
if(DEFINED TAINTPROF_ROOT)
  list(APPEND _tp_dirs "${TAINTPROF_ROOT}" "${TAINTPROF_ROOT}/bin")
elseif(DEFINED ENV{TAINTPROF_ROOT})
  list(APPEND _tp_dirs "$ENV{TAINTPROF_ROOT}" "$ENV{TAINTPROF_ROOT}/bin")
endif()
get_filename_component(_tp_here "${CMAKE_CURRENT_LIST_DIR}" ABSOLUTE)
list(APPEND _tp_dirs
  "${_tp_here}/../target/release"
  "${_tp_here}/../target/debug"
  "${_tp_here}/../../../bin")

set(_tp_cc "")
set(_tp_cxx "")
foreach(_tp_dir IN LISTS _tp_dirs)
  if(NOT _tp_cc AND EXISTS "${_tp_dir}/taintprof-cc")
    get_filename_component(_tp_cc "${_tp_dir}/taintprof-cc" ABSOLUTE)
    foreach(_tp_name taintprof-c++ taintprof-cxx)
      if(NOT _tp_cxx AND EXISTS "${_tp_dir}/${_tp_name}")
        get_filename_component(_tp_cxx "${_tp_dir}/${_tp_name}" ABSOLUTE)
      endif()
    endforeach()
  endif()
endforeach()

if(NOT _tp_cc)
  find_program(_tp_cc_path taintprof-cc)
  find_program(_tp_cxx_path NAMES taintprof-c++ taintprof-cxx)
  if(_tp_cc_path)
    set(_tp_cc "${_tp_cc_path}")
    set(_tp_cxx "${_tp_cxx_path}")
  endif()
endif()

if(NOT _tp_cc OR NOT _tp_cxx)
  message(FATAL_ERROR
    "taintprof-toolchain.cmake: taintprof-cc / taintprof-c++ not found.\n"
    "Looked in: ${_tp_dirs} and PATH.\n"
    "Build taintprof with `cargo build --release` in its checkout, or set TAINTPROF_ROOT "
    "to the directory that holds taintprof-cc.")
endif()

set(CMAKE_C_COMPILER "${_tp_cc}" CACHE FILEPATH "C compiler (taintprof)" FORCE)
set(CMAKE_CXX_COMPILER "${_tp_cxx}" CACHE FILEPATH "C++ compiler (taintprof)" FORCE)
