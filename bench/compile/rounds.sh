#!/bin/bash
# Compile time of one large translation unit with two builds of the pass plugin,
# started together in each round so that both see the same machine load (what
# docs/performance.md reports for sqlite3.c). Not part of the tests.
#
#   bench/compile/rounds.sh SOURCE.c OLD_PLUGIN.so NEW_PLUGIN.so [ROUNDS=3]
#
# Prints one line per build and round: elapsed and user seconds, peak memory. Each build
# writes its sidecar (as taintprof-cc does), next to its object in a temporary directory.
set -euo pipefail
src=${1:?usage: rounds.sh SOURCE.c OLD_PLUGIN.so NEW_PLUGIN.so [ROUNDS]}
old=${2:?old plugin}
new=${3:?new plugin}
rounds=${4:-3}
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$(dirname "$src")"
# Each build is pinned to one CPU, and the two swap CPUs every round: on these
# machines one core can be a few percent slower than the other for minutes at a time,
# which otherwise shows up as a difference between the builds.
ncpu=$(nproc)
for r in $(seq 1 "$rounds"); do
  for t in old new; do
    so=$old; [ "$t" = new ] && so=$new
    cpu=0; { [ "$t" = new ] && [ $((r % 2)) = 1 ]; } || { [ "$t" = old ] && [ $((r % 2)) = 0 ]; } && cpu=1
    [ "$ncpu" -lt 2 ] && cpu=0
    (TAINTPROF_SIDECAR="$tmp/$t.json" /usr/bin/time -f "round $r $t (cpu $cpu) %e s elapsed %U s user %M KB" \
      taskset -c "$cpu" clang-19 -O2 -g -fdebug-info-for-profiling -I"$here/rt/include" -fpass-plugin="$so" \
      -c "$(basename "$src")" -o "$tmp/$t.o" 2>&1 | tail -1) &
  done
  wait
done
