#!/usr/bin/env bash
# Installs what taintprof needs on a fresh Debian 12 (bookworm) machine, then builds it.
# Idempotent: a second run only rebuilds what changed.
#
#   LLVM 19 toolchain   clang-19, llvm-19-dev (headers + llvm-config-19; pulls in llvm-19, whose
#                       llvm-ar/nm/strip/readelf-19 scripts/build-runtime.sh and
#                       scripts/build-dip.sh use), llvm-19-tools (FileCheck)
#   libomp-19-dev       OpenMP programs (-fopenmp) in the tests
#   libclang-rt-19-dev  DataFlowSanitizer, the baseline of `taintprof bench`
#   cmake               the CMake integration test
#   valgrind, libc6-dbg the bench's Valgrind baseline; libc's debug info for dip's libm test
#   openmpi-bin, libopenmpi-dev, mpich, libmpich-dev
#                       MPI programs in the tests (both MPIs: the interception library is
#                       compiled against each one's mpi.h) and the bench's MPI workload
#   lit (PyPI)          the IR-level tests in lit/
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang-19 llvm-19-dev llvm-19-tools libomp-19-dev libclang-rt-19-dev cmake valgrind libc6-dbg openmpi-bin libopenmpi-dev mpich libmpich-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to apt-get install ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The check runs from / and imports lit.main: from the repository root, `import lit` finds
# the repository's own lit/ folder (a namespace package) and would wrongly succeed.
lit_ok() { (cd / && python3 -c 'import lit.main, lit.formats') >/dev/null 2>&1; }
if ! lit_ok; then
  echo "setup: installing lit from PyPI"
  python3 -m pip install --quiet lit
  lit_ok || { echo "setup: lit is still not importable by python3 after 'pip install lit'" >&2; exit 1; }
fi

echo "setup: building taintprof (cargo build --release)"
cargo build --release --workspace --quiet
./scripts/build-runtime.sh
./scripts/build-dip.sh
echo "setup: done; binaries in $(pwd)/target/release"
