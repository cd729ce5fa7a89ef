#!/usr/bin/env bash
# Compiles the bundled example with taintprof-cc, runs it once, and prints the report.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release
out=target/example
mkdir -p "$out"
set -x
"$bin/taintprof-cc" -O2 examples/matmul.c -o "$out/matmul"
"$bin/taintprof" run --out "$out" -- "$out/matmul" 96 64 48
