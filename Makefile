# The two entry points a new user needs (see README.md). Both set up a fresh machine first.
.PHONY: setup example test lit cargo-test build install uninstall

setup:
	./scripts/setup.sh

# Build the bundled matrix example with taintprof-cc, run it, and print the report.
example: setup
	./scripts/example.sh

# The whole test suite: Rust unit + end-to-end tests, then the IR tests.
test: setup cargo-test lit

cargo-test: build
	cargo test --release --workspace

lit:
	python3 -c 'import sys; from lit.main import main; sys.argv[0] = "lit"; main()' -sv lit/

# Build taintprof (a no-op when target/release is up to date). `make setup` also
# installs the prerequisites first. The runtime archive programs link
# (target/release/libtaintprof_rt.a) and the profiler `taintprof dip` preloads
# (target/release/libtaintprof_dip.so) are built apart, without the standard library:
# scripts/build-runtime.sh and scripts/build-dip.sh say why.
build:
	cargo build --release --workspace
	./scripts/build-runtime.sh
	./scripts/build-dip.sh

# Install into PREFIX (staged under DESTDIR, for packaging):
#
#   PREFIX/bin/                 taintprof, taintprof-cc, taintprof-cxx, taintprof-c++ (link),
#                               taintprof-bench (what `taintprof bench` runs)
#   PREFIX/lib/                 libtaintprof_pass.so (the pass plugin), libtaintprof_rt.a
#                               (the runtime) and libtaintprof_rt.exports (the symbols
#                               executables export for it), libtaintprof_dip.so (`taintprof dip`)
#   PREFIX/include/taintprof/   taintprof.h, perf-taint/PerfTaint.h{,pp}
#   PREFIX/share/cmake/taintprof/
#                               find_package(taintprof): taintprofConfig.cmake,
#                               taintprofConfigVersion.cmake, taintprof-launcher.sh, and
#                               the toolchain file taintprof-toolchain.cmake
#   PREFIX/share/taintprof/     abilist.txt, routines.txt (built into the plugin; copies
#                               to start TAINTPROF_ABILIST / TAINTPROF_ROUTINES files from),
#                               taintprof_mpi.c (the MPI interception library, compiled by
#                               the wrappers against each MPI program's own mpi.h)
#
# Nothing installed names PREFIX: the wrappers find the plugin, the runtime and the
# headers relative to their own location (<bin>/../lib, <bin>/../include/taintprof), and
# the CMake files relative to theirs, so the tree can be moved or copied as a whole.
# `make install` builds first (`build`); NO_BUILD=1 installs what BUILD_DIR holds as is.
PREFIX ?= /usr/local
DESTDIR ?=
BUILD_DIR ?= target/release
NO_BUILD ?=
DEST = $(DESTDIR)$(PREFIX)
VERSION := $(shell sed -n 's/^version = "\(.*\)"$$/\1/p' Cargo.toml | head -n 1)
INSTALL ?= install

install: $(if $(NO_BUILD),,build)
	@for f in taintprof taintprof-cc taintprof-cxx taintprof-bench libtaintprof_pass.so libtaintprof_rt.a libtaintprof_rt.exports libtaintprof_dip.so; do \
	  test -f "$(BUILD_DIR)/$$f" || { echo "install: $(BUILD_DIR)/$$f is missing: run make build first" >&2; exit 1; }; \
	done
	$(INSTALL) -d "$(DEST)/bin" "$(DEST)/lib" "$(DEST)/include/taintprof/perf-taint" \
	  "$(DEST)/share/cmake/taintprof" "$(DEST)/share/taintprof"
	$(INSTALL) -m 755 "$(BUILD_DIR)/taintprof" "$(BUILD_DIR)/taintprof-cc" "$(BUILD_DIR)/taintprof-cxx" \
	  "$(BUILD_DIR)/taintprof-bench" "$(DEST)/bin/"
	ln -sfn taintprof-cxx "$(DEST)/bin/taintprof-c++"
	$(INSTALL) -m 755 "$(BUILD_DIR)/libtaintprof_pass.so" "$(BUILD_DIR)/libtaintprof_dip.so" "$(DEST)/lib/"
	$(INSTALL) -m 644 "$(BUILD_DIR)/libtaintprof_rt.a" "$(BUILD_DIR)/libtaintprof_rt.exports" "$(DEST)/lib/"
	$(INSTALL) -m 644 rt/include/taintprof.h "$(DEST)/include/taintprof/"
	$(INSTALL) -m 644 rt/include/perf-taint/PerfTaint.h rt/include/perf-taint/PerfTaint.hpp \
	  "$(DEST)/include/taintprof/perf-taint/"
	$(INSTALL) -m 644 cmake/taintprofConfig.cmake cmake/taintprof-toolchain.cmake \
	  "$(DEST)/share/cmake/taintprof/"
	$(INSTALL) -m 755 cmake/taintprof-launcher.sh "$(DEST)/share/cmake/taintprof/"
	sed 's/@TAINTPROF_VERSION@/$(VERSION)/g' cmake/taintprofConfigVersion.cmake.in \
	  > "$(DEST)/share/cmake/taintprof/taintprofConfigVersion.cmake"
	$(INSTALL) -m 644 rt/abilist.txt rt/routines.txt "$(DEST)/share/taintprof/"
	$(INSTALL) -m 644 mpi/taintprof_mpi.c "$(DEST)/share/taintprof/"
	@echo "install: taintprof $(VERSION) in $(DEST); put $(PREFIX)/bin on PATH, or use find_package(taintprof) with CMAKE_PREFIX_PATH=$(PREFIX)"

uninstall:
	rm -f "$(DEST)/bin/taintprof" "$(DEST)/bin/taintprof-cc" "$(DEST)/bin/taintprof-cxx" \
	  "$(DEST)/bin/taintprof-c++" "$(DEST)/bin/taintprof-bench" "$(DEST)/lib/libtaintprof_pass.so" \
	  "$(DEST)/lib/libtaintprof_rt.a" "$(DEST)/lib/libtaintprof_rt.exports" "$(DEST)/lib/libtaintprof_dip.so"
	rm -rf "$(DEST)/include/taintprof" "$(DEST)/share/cmake/taintprof" "$(DEST)/share/taintprof"
