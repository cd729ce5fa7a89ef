#!/usr/bin/env bash
# Times Jacobi (1024², 1000 iterations, interior 0: the jacobi-denormal workload) built
# natively, with taintprof's denormal mode (both tiers), and as the hand-instrumented
# floor in jacobi_floor.c with each of its variants. Round-robin, medians; ratios
# against native, and each tier against its floor (the full tier against `floor`, the
# profile tier against `floor_counts`): the medians of the per-round ratios, which the
# machine's drift from one round to the next does not move.
#
#   bench/floor/run.sh [runs]        (default 21; needs `cargo build --release` first)
#
# 21 rounds take about three minutes. On these 2-core VMs a 9-round run's ratio moved by
# ±0.1 from one run to the next (the machine's speed changes by a fifth); 21 rounds
# agreed within ±0.04 (docs/performance.md, stop 40).
#
# Not part of the test suite: it measures, it does not check.
set -euo pipefail
runs=${1:-21}
root=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC:-clang-19}
tpcc="$root/target/release/taintprof-cc"
[ -x "$tpcc" ] || { echo "run.sh: $tpcc not found; run 'cargo build --release' first" >&2; exit 1; }
work=$(mktemp -d /tmp/taintprof-floor.XXXXXX)
trap 'rm -rf "$work"' EXIT
args="1024 1000 0"

"$cc" -O2 -g "$root/bench/workloads/jacobi.c" -I"$root/bench/workloads" -o "$work/native"
"$tpcc" --tp-mode=denormal -O2 -g "$root/bench/workloads/jacobi.c" -I"$root/bench/workloads" \
  -o "$work/taintprof"
"$tpcc" --tp-denormal=profile -O2 -g "$root/bench/workloads/jacobi.c" -I"$root/bench/workloads" \
  -o "$work/tp_profile"
floor="$root/bench/floor/jacobi_floor.c"
"$cc" -O2 -g "$floor" -o "$work/floor"
"$cc" -O2 -g -DMETA16=1 "$floor" -o "$work/floor16"
"$cc" -O2 -g -DNOELEM=1 "$floor" -o "$work/floor_noelem"
"$cc" -O2 -g -DNOTAGS=1 "$floor" -o "$work/floor_notags"
"$cc" -O2 -g -DNOTAGS=1 -DNOELEM=1 "$floor" -o "$work/floor_counts"

names=(native taintprof tp_profile floor floor16 floor_noelem floor_notags floor_counts fast_path)
cmds=("native $args" "taintprof $args" "tp_profile $args" "floor $args" "floor16 $args"
  "floor_noelem $args" "floor_notags $args" "floor_counts $args" "floor $args 1")
what=("clang -O2"
  "taintprof-cc --tp-mode=denormal -O2 (the full tier)"
  "taintprof-cc --tp-denormal=profile -O2 (instruction profile and creator sites)"
  "hand-instrumented floor: everything the report needs, 32-bit metadata"
  "the same with 16-bit counters, tags and origin maps"
  "the floor without per-element read/write counters"
  "the floor without tags (no origins, no creators)"
  "the floor with site counts only"
  "the floor's fast path alone (cold region returns at once)")
declare -a times
for ((r = 1; r <= runs; r++)); do
  for i in "${!cmds[@]}"; do
    s=$(date +%s%N)
    # shellcheck disable=SC2086
    (cd "$work" && ./${cmds[$i]} >/dev/null 2>&1)
    e=$(date +%s%N)
    times[$i]="${times[$i]:-} $(((e - s) / 1000000))"
  done
  echo "round $r/$runs done" >&2
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
base=$(echo "${times[0]}" | median)
printf '%-13s %8s %7s  %s\n' build "median" "ratio" "what"
for i in "${!cmds[@]}"; do
  m=$(echo "${times[$i]}" | median)
  printf '%-13s %6d ms %6.2fx  %s\n' "${names[$i]}" "$m" "$(echo "$m / $base" | bc -l)" "${what[$i]}"
done
# Each tier against its floor, round by round: the rounds ran back to back, so the
# ratio within a round is free of the drift between rounds.
paired() { # paired I J: median over rounds of time[I] / time[J]
  paste <(echo "${times[$1]}" | tr ' ' '\n' | grep .) <(echo "${times[$2]}" | tr ' ' '\n' | grep .) |
    awk '{print $1 / $2}' | sort -g | awk '{a[NR] = $1} END {printf "%.2f", a[int((NR + 1) / 2)]}'
}
echo
echo "full tier / floor:            $(paired 1 3)x  (target <= 1.2x)"
echo "profile tier / floor_counts:  $(paired 2 7)x  (target <= 1.2x)"
