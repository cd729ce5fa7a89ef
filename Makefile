# The two entry points a new user needs (see README.md). Both set up a fresh machine first.
.PHONY: setup example test lit cargo-test

setup:
	./scripts/setup.sh

# Build the bundled matrix example with taintprof-cc, run it, and print the report.
example: setup
	./scripts/example.sh

# The whole test suite: Rust unit + end-to-end tests, then the IR tests.
test: setup cargo-test lit

cargo-test:
	cargo test --release --workspace

lit:
	python3 -c 'import sys; from lit.main import main; sys.argv[0] = "lit"; main()' -sv lit/
