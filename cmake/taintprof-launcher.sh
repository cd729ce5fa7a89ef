#!/bin/sh
# taintprof-launcher.sh — the compiler and linker launcher that taintprof_instrument()
# (taintprofConfig.cmake) gives a target. CMake runs
#
#   /bin/sh taintprof-launcher.sh <wrapper> [--tp-flag ...] -- <project compiler> <arguments>
#
# and this runs `<wrapper> [--tp-flag ...] <arguments>`: the target's compiles and its
# link go through taintprof-cc / taintprof-c++ instead of the project's compiler, with
# the same arguments (the wrappers take their --tp- flags from anywhere on the line).
set -f
if [ $# -lt 3 ]; then
  echo "taintprof-launcher.sh: usage: taintprof-launcher.sh WRAPPER [--tp-FLAG...] -- COMPILER ARGS..." >&2
  exit 2
fi
wrapper=$1
shift
flags=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --tp-*) flags="$flags $1" ;;
    *) echo "taintprof-launcher.sh: not a taintprof flag before '--': $1" >&2; exit 2 ;;
  esac
  shift
done
if [ $# -lt 2 ]; then
  echo "taintprof-launcher.sh: no compiler after '--'" >&2
  exit 2
fi
shift 2 # "--" and the project's own compiler
# $flags holds --tp-NAME=VALUE words without blanks; globbing is off (set -f).
exec "$wrapper" $flags "$@"
