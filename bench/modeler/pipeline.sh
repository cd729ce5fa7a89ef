#!/usr/bin/env bash
# The README's performance-model pipeline, measured: for heat.c and the bench's C++
# accessor kernel, a taint run gives the prior, the program is rebuilt in time mode
# with it, `taintprof experiment` runs the design, then the program runs RUNS times at
# the prediction point (twice the largest measured n), right after the experiment on
# the same machine state, and `taintprof model --predict` is compared with the median
# of those runs, per call path, for the prior's model and the black box.
#
#   bench/modeler/pipeline.sh [--runs N] [--reps N] [--keep DIR]
#
# --reps: rounds (each one repetition of the design, then --runs runs at the
# prediction point); the model is fitted on all rounds, the measured value is the
# median of all runs at the point.
#
# Prints one table per program; the figures of docs/performance.md ("Performance
# models end to end") come from it. Needs `make build` first. Not part of the tests:
# times on a shared machine are measured, not asserted.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
bin="$here/target/release"
runs=1
reps=7
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "pipeline.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
for tool in taintprof taintprof-cc taintprof-c++; do
  [ -x "$bin/$tool" ] || { echo "pipeline.sh: $bin/$tool is missing; run make build" >&2; exit 1; }
done
command -v python3 >/dev/null || { echo "pipeline.sh: needs python3 (apt install python3)" >&2; exit 1; }

work=${keep:-$(mktemp -d /tmp/taintprof-pipeline.XXXXXX)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

# pipeline NAME COMPILER SOURCE "FLAGS" "TAINT ARGS" "DESIGN" "PREDICT ARGS" PREDICT
pipeline() {
  local name=$1 cc=$2 src=$3 flags=$4 taint_args=$5 design=$6 at_args=$7 predict=$8
  local d="$work/$name"
  rm -rf "$d"; mkdir -p "$d"; cd "$d"
  # shellcheck disable=SC2086
  "$bin/$cc" -O2 $flags "$src" -o app -lm
  # shellcheck disable=SC2086
  "$bin/taintprof" run -- ./app $taint_args >/dev/null 2>&1
  local prior
  prior=$(ls app.*.taintprof.json)
  # shellcheck disable=SC2086
  "$bin/$cc" -O2 $flags --tp-prior "$prior" "$src" -o app_time -lm
  # The template's placeholders in the design's order.
  local template=()
  for kv in $design; do template+=("{${kv%%=*}}"); done
  # shellcheck disable=SC2086
  # Round by round: one repetition of the whole design, then one run at the prediction
  # point, so that both see the same drift of the machine (a shared VM's speed moves by
  # 10-20% over seconds: measured apart, the comparison measured the drift).
  local grid=() inputs=()
  for kv in $at_args; do grid+=("$kv"); done
  for r in $(seq "$reps"); do
    "$bin/taintprof" experiment --quiet --out "exp$r" --prior "$prior" --reps 1 \
      --design $design -- ./app_time "${template[@]}" >exp.log 2>&1 || { cat exp.log >&2; exit 1; }
    "$bin/taintprof" experiment --quiet --out "at$r" --reps "$runs" --grid "${grid[@]}" \
      -- ./app_time "${template[@]}" >at.log 2>&1 || { cat at.log >&2; exit 1; }
    inputs+=("exp$r")
  done
  "$bin/taintprof" model --prior "$prior" "${inputs[@]}" --metric time --predict "$predict" \
    --json models.json >model.log 2>&1 || { cat model.log >&2; exit 1; }
  python3 - "$name" "$predict" models.json at*/measurements.json <<'EOF'
import json, sys
name, predict, models = sys.argv[1:4]
pred = {m["callpath"]: m for m in json.load(open(models))["models"]}
# The measured runs (Extra-P JSON: per call path and metric, the point's values).
vals = {}
for f in sys.argv[4:]:
    for c, metrics in json.load(open(f))["measurements"].items():
        vals.setdefault(c, []).extend(v for p in metrics.get("time", []) for v in p["values"])
meas = {c: sorted(v)[len(v) // 2] for c, v in vals.items() if v}
def short(c):
    import re
    return re.sub(r"\(.*?\)|<.*?>", "", c.replace("->", " -> "))[:60]
print(f"{name} at {predict}: predictions against the median of the measured runs")
print(f"  {'call path':<60} {'measured':>10} {'prior':>8} {'black box':>10}")
for c, m in sorted(meas.items(), key=lambda kv: -kv[1]):
    if c not in pred or m < 1e-4:
        continue
    p = pred[c]
    prior = p["prediction"]["value"]
    bb = p["prediction"].get("black_box")
    rel = lambda x: f"{(x / m - 1) * 100:+.1f}%" if x is not None else "-"
    print(f"  {short(c):<60} {m * 1e3:>8.2f}ms {rel(prior):>8} {rel(bb):>10}")
EOF
  cd "$here"
}

pipeline heat taintprof-cc "$here/examples/heat.c" "" "64 10 5" \
  "n=32,48,64,96,128 steps=10,20,40,80,160 probes=5,10,20,40,80" \
  "n=256 steps=160 probes=5" "n=256,steps=160,probes=5"
pipeline accessors taintprof-c++ "$here/bench/workloads/accessors.cpp" \
  "-DTP_BENCH_TAINT -I$here/bench/workloads" "64 2" \
  "n=64,96,128,192,256 reps=1,2,4,8,16" "n=512 reps=16" "n=512,reps=16"
