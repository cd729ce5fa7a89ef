#!/bin/bash
# Instructions (callgrind) to compile each bench workload, compile only: plain
# `clang-19 -O2 -c`, and with two builds of the pass plugin (the flags taintprof-cc adds).
# Stable on a loaded machine, unlike timings: the issue-22 compile figures of
# docs/performance.md (stop 34). Not part of the tests.
#
#   bench/compile/icount.sh OLD_PLUGIN.so NEW_PLUGIN.so [WORKLOAD.c ...]
#
# Prints one line per workload: the three counts and their ratios.
set -euo pipefail
old=${1:?usage: icount.sh OLD_PLUGIN.so NEW_PLUGIN.so [WORKLOAD.c ...]}
new=${2:?new plugin}
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
w=$here/bench/workloads
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ic() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Collected/ {print $4}'
}
plugin() { echo -O2 -gline-tables-only -fdebug-info-for-profiling -I"$here/rt/include" -fpass-plugin="$1"; }
[ $# -gt 0 ] || set -- jacobi.c matmul.c cg.c nbody.c accessors.cpp omp_stencil.c
for f in "$@"; do
  cc=clang-19; case $f in *.cpp) cc=clang++-19 ;; esac
  ex=""; [ "$f" = omp_stencil.c ] && ex=-fopenmp
  a=$(ic $cc -O2 $ex -I"$w" -c "$w/$f" -o "$tmp/p.o")
  b=$(TAINTPROF_SIDECAR="$tmp/o.json" ic $cc $(plugin "$old") $ex -I"$w" -c "$w/$f" -o "$tmp/o.o")
  c=$(TAINTPROF_SIDECAR="$tmp/n.json" ic $cc $(plugin "$new") $ex -I"$w" -c "$w/$f" -o "$tmp/n.o")
  echo "$f plain $a old $b new $c  old/plain $(echo "scale=3; $b/$a" | bc) new/plain $(echo "scale=3; $c/$a" | bc) new/old $(echo "scale=3; $c/$b" | bc)"
done
