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
#   python3-venv        (if python3 lacks ensurepip) to create Extra-P's virtual environment
#   Extra-P 4.2.5 (PyPI `extrap`)
#                       the reference modeler of `taintprof bench --modeler` and of the tests
#                       that compare with it, in its own virtual environment
#                       ($TAINTPROF_EXTRAP_VENV, default ~/.cache/taintprof/extrap-4.2.5): the
#                       command-line tool and modeler only, without its GUI (PySide6) and its
#                       measurement point advisor (scikit-learn); its numpy and marshmallow
#                       pinned below the versions it breaks with
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang-19 llvm-19-dev llvm-19-tools libomp-19-dev libclang-rt-19-dev cmake valgrind libc6-dbg openmpi-bin libopenmpi-dev mpich libmpich-dev)
# Debian's python3 creates virtual environments (Extra-P's, below) only with python3-venv.
(cd / && python3 -c 'import ensurepip') >/dev/null 2>&1 || packages+=(python3-venv)
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

# Extra-P: present when its command says its version and its modeler imports (half a minute
# to create).
extrap_venv="${TAINTPROF_EXTRAP_VENV:-$HOME/.cache/taintprof/extrap-4.2.5}"
# Modeling also imports scipy (hypotheses.py), which `extrap --version` does not.
extrap_ok() {
  "$extrap_venv/bin/extrap" --version 2>/dev/null | grep -qx 'Extra-P 4.2.5' \
    && (cd / && "$extrap_venv/bin/python" -c 'import scipy.optimize, extrap.modelers.model_generator') 2>/dev/null
}
if ! extrap_ok; then
  echo "setup: installing Extra-P 4.2.5 into $extrap_venv"
  (cd / && python3 -c 'import ensurepip, venv') 2>/dev/null \
    || { echo "setup: python3 cannot create virtual environments: install python3-venv" >&2; exit 1; }
  rm -rf "$extrap_venv"
  mkdir -p "$(dirname "$extrap_venv")"
  # Its dependencies first, then extrap itself without its declared ones: PySide6-Essentials
  # and scikit-learn are unused by the command line (but scikit-learn brought scipy, which the
  # modeler imports); numpy >= 1.27 and marshmallow >= 3.21 break it.
  if ! { python3 -m venv "$extrap_venv" \
      && "$extrap_venv/bin/pip" install --quiet --disable-pip-version-check \
        'numpy>=1.18,<1.27' 'marshmallow>=3.7,<3.21' 'matplotlib~=3.6' 'tqdm~=4.47' \
        'pycubexr>=1.2.3,!=2.0.0,<3' 'packaging>=20.0' 'scipy>=1.5' \
      && "$extrap_venv/bin/pip" install --quiet --disable-pip-version-check --no-deps 'extrap==4.2.5' \
      && extrap_ok; }; then
    rm -rf "$extrap_venv"
    echo "setup: could not install Extra-P 4.2.5 (PyPI package extrap) into $extrap_venv" >&2
    exit 1
  fi
fi

echo "setup: building taintprof (cargo build --release)"
cargo build --release --workspace --quiet
./scripts/build-runtime.sh
./scripts/build-dip.sh
echo "setup: done; binaries in $(pwd)/target/release"
