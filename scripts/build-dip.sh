#!/usr/bin/env bash
# Build the exception-based denormal profiler that `taintprof dip` preloads:
# target/release/libtaintprof_dip.so.
#
# The workspace builds `taintprof-dip` as an rlib only (its unit tests need std, and
# the workspace profile unwinds). The shared object is built here, apart, without the
# standard library (dip/src/lib.rs, "Build"):
#
# * `panic = "abort"`: a `no_std` cdylib cannot have unwinding panics on stable Rust
#   (they need std's unwinder); a panic prints `taintprof-dip: internal error` and
#   aborts;
# * fat LTO: `core`, `libc`, `taintprof_sigsafe` and the profiler become one object
#   holding only what the constructor and the interposed functions reach, and the
#   landing pads of the precompiled `core` (which would need `rust_eh_personality`)
#   go away;
# * no debug information: the profiler symbolizes the program's addresses, not its own
#   (the symbol table stays, for a debugger's backtrace through the handlers).
#
# Checked below: the object needs only libc, imports only versioned libc symbols
# (nothing a missing std or unwinder would have to provide), exports no Rust symbol
# (only the functions it interposes), and has its constructor.
#
# Run by `make build`, `make test`, `make install` and `scripts/setup.sh`; the tests
# refuse a library older than the profiler's sources. Needs cargo and llvm-19's
# binutils (llvm-nm-19, llvm-readelf-19).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${TAINTPROF_DIP_TARGET_DIR:-$root/target/dip}
out=${1:-$root/target/release/libtaintprof_dip.so}

for tool in llvm-nm-19 llvm-readelf-19; do
  command -v "$tool" >/dev/null || { echo "build-dip: $tool not found: install the llvm-19 package (make setup does)" >&2; exit 1; }
done

CARGO_PROFILE_RELEASE_PANIC=abort \
CARGO_PROFILE_RELEASE_LTO=fat \
CARGO_PROFILE_RELEASE_DEBUG=false \
CARGO_PROFILE_RELEASE_STRIP=debuginfo \
CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  cargo rustc --quiet -p taintprof-dip --release --lib --crate-type cdylib --target-dir "$target_dir"

so=$target_dir/release/libtaintprof_dip.so
[ -f "$so" ] || { echo "build-dip: cargo did not produce $so" >&2; exit 1; }

fail() {
  echo "build-dip: $so $1:" >&2
  echo "$2" | head -20 >&2
  exit 1
}

needed=$(llvm-readelf-19 -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
extra=$(echo "$needed" | grep -v -x -e 'libc.so.6' -e 'ld-linux-x86-64.so.2' || true)
[ -z "$extra" ] || fail "needs more than libc (std or its unwinder came in?)" "$extra"

# Undefined dynamic symbols: versioned glibc functions, or the weak ones every shared
# object has (__cxa_finalize, __gmon_start__, the TM clone table).
unresolved=$(llvm-nm-19 -D --undefined-only "$so" | awk '$1 == "U" && $2 !~ /@GLIBC_/ { print $2 }')
[ -z "$unresolved" ] || fail "needs symbols libc does not provide" "$unresolved"

# Exports: only the C functions it interposes (no mangled Rust, no rust_* lang items).
rusty=$(llvm-nm-19 -D --defined-only "$so" | awk '{ print $3 }' | grep -E '^(_ZN|_R|rust_|__rust)' || true)
[ -z "$rusty" ] || fail "exports Rust symbols" "$rusty"
llvm-nm-19 -D --defined-only "$so" | grep -q ' T pthread_create$' || fail "does not export pthread_create" ""
llvm-readelf-19 -d "$so" | grep -q '(INIT_ARRAY)' || fail "has no constructor (.init_array)" ""

mkdir -p "$(dirname "$out")"
cp -f "$so" "$out.tmp"
mv -f "$out.tmp" "$out"
echo "build-dip: $out ($(($(stat -c %s "$out") / 1024)) KiB)"
