#!/usr/bin/env bash
# Build the runtime archive that instrumented programs link: target/release/libtaintprof_rt.a.
#
# The workspace builds `taintprof-rt` as an rlib only (its unit tests need std and
# unwinding). The archive users link is built here, apart, as one `no_std` object:
#
# * `panic = "abort"`: no unwinding, so nothing references the standard library
#   (`rust_eh_personality` alone used to pull its 11.6 MB object into every link);
# * fat LTO: `core` and the runtime's own crates become one object holding only what
#   the exported hooks reach;
# * no debug information (the runtime reports its own errors by name);
# * only that object and the C objects of `rt/build.rs` go into the archive. `rustc`
#   also bundles `compiler_builtins` and compiler-rt's C builtins, which the runtime
#   does not reference (checked below: the link would fail loudly if it did, and the
#   C toolchain's libgcc provides them anyway).
#
# Run by `make build`, `make test` and `scripts/setup.sh`; the end-to-end tests refuse
# an archive older than the runtime's sources. Needs cargo and llvm-19's binutils
# (llvm-ar-19, llvm-nm-19, llvm-strip-19).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${TAINTPROF_RUNTIME_TARGET_DIR:-$root/target/runtime}
out=${1:-$root/target/release/libtaintprof_rt.a}

for tool in llvm-ar-19 llvm-nm-19 llvm-strip-19; do
  command -v "$tool" >/dev/null || { echo "build-runtime: $tool not found: install the llvm-19 package (make setup does)" >&2; exit 1; }
done

CARGO_PROFILE_RELEASE_PANIC=abort \
CARGO_PROFILE_RELEASE_LTO=fat \
CARGO_PROFILE_RELEASE_DEBUG=false \
CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  cargo rustc --quiet -p taintprof-rt --release --lib --crate-type staticlib --target-dir "$target_dir"

fat=$target_dir/release/libtaintprof_rt.a
# The C objects: the archive the cc crate made for the newest build of rt's build script.
c_archive=$(ls -t "$target_dir"/release/build/taintprof-rt-*/out/libtaintprof_rt_c.a 2>/dev/null | head -1)
[ -n "$c_archive" ] || { echo "build-runtime: libtaintprof_rt_c.a not found under $target_dir (rt/build.rs)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/all" "$work/keep"
(cd "$work/all" && llvm-ar-19 x "$fat")
(cd "$work/keep" && llvm-ar-19 x "$c_archive")
rust_objs=("$work"/all/taintprof_rt-*.o)
[ ${#rust_objs[@]} -eq 1 ] || { echo "build-runtime: expected one runtime object in $fat, found ${#rust_objs[@]}" >&2; exit 1; }
cp "${rust_objs[0]}" "$work/keep/taintprof_rt.o"

# Nothing kept may need a member that is left out.
llvm-nm-19 --undefined-only --format=just-symbols "$work"/keep/*.o | sort -u >"$work/needed"
llvm-nm-19 --defined-only --format=just-symbols "$work"/keep/*.o 2>/dev/null | sort -u >"$work/kept"
llvm-nm-19 --defined-only --format=just-symbols "$fat" 2>/dev/null | sort -u >"$work/bundled"
missing=$(comm -23 "$work/needed" "$work/kept" | comm -12 - "$work/bundled" || true)
if [ -n "$missing" ]; then
  echo "build-runtime: the runtime needs symbols only the left-out bundled crates define:" >&2
  echo "$missing" | head -20 >&2
  exit 1
fi

llvm-strip-19 --strip-debug "$work"/keep/*.o
mkdir -p "$(dirname "$out")"
rm -f "$out.tmp"
llvm-ar-19 rcs "$out.tmp" "$work"/keep/*.o
mv -f "$out.tmp" "$out"
echo "build-runtime: $out ($(($(stat -c %s "$out") / 1024)) KiB)"

# The symbols instrumented executables export for instrumented shared libraries (the
# hooks, TLS slots, wrappers and public API: `__tp*` and `tp_*`), as a `--dynamic-list`
# the wrappers pass at link time. GNU ld matches an `--export-dynamic-symbol` glob
# against every symbol of every input; a list of exact names costs a hash look-up each
# (the link of a small program: 138 M instructions with the globs, 110 M with the list).
exports="${out%.a}.exports"
{
  echo "{"
  llvm-nm-19 --defined-only --extern-only --format=just-symbols "$out" 2>/dev/null |
    grep -E '^(__tp|tp_)' | sort -u | sed 's/$/;/'
  echo "};"
} >"$exports.tmp"
grep -q '__tp_register_module;' "$exports.tmp" || { echo "build-runtime: $exports has no __tp_register_module" >&2; exit 1; }
mv -f "$exports.tmp" "$exports"
