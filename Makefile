# The only commands anyone needs: dev | demo | test | test-long | lint | bench | bench-compare | fmt.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TOOLS := $(VENV)/.test-tools
SOURCES := $(shell find src crates/xc/src crates/lp/src crates/sat/src crates/dlx/src crates/puzzles/src python -name '*.rs' -o -name '*.py' -o -name '*.pyi') \
           Cargo.toml crates/xc/Cargo.toml crates/lp/Cargo.toml crates/sat/Cargo.toml crates/dlx/Cargo.toml crates/puzzles/Cargo.toml pyproject.toml

CRATES := -p covering-python -p covering-xc -p covering-lp -p covering-sat -p covering-dlx -p covering-puzzles

.PHONY: dev demo test test-long test-rust test-python lint bench bench-compare fmt clean

# The recipes below use bash (a pipeline's status, a background ticker).
SHELL := bash
.SHELLFLAGS := -eo pipefail -c

# A virtual environment with covering built (release) and what the demo
# needs, nothing more: the test and lint tools come with `make test`.
# The build says what it does: cargo's lines (Compiling ...) as they come,
# a line every 10 s while one step takes long, the time it took at the end;
# the whole log is in $(VENV)/build.log, and its end is shown if it fails.
$(STAMP): $(SOURCES)
	@echo "make: building covering into $(VENV) (a virtual environment; the Rust core in release mode: about 2.5 minutes the first time on 2 cores)"
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	@start=$$(date +%s); \
	$(BIN)/python -m pip install -v -e . > $(VENV)/build.log 2>&1 < /dev/null & pip=$$!; \
	( while sleep 10 && kill -0 $$pip 2>/dev/null; do \
	    echo "make: still building ($$(( $$(date +%s) - start )) s so far)"; done ) & \
	tail -n +1 --pid=$$pip -f $(VENV)/build.log \
	  | grep --line-buffered -E '^ *(Compiling|Finished|Built wheel|Successfully installed)' || true; \
	if wait $$pip; then \
	  echo "make: built in $$(( $$(date +%s) - start )) s"; \
	else \
	  tail -n 40 $(VENV)/build.log; echo "make: the build failed (the whole log: $(VENV)/build.log)"; exit 1; \
	fi
	# Bytecode now, as a wheel's install does: an editable install otherwise
	# compiles the package at every start where bytecode is not written.
	$(BIN)/python -m compileall -q python/covering
	touch $(STAMP)

# The test and lint tools (pytest, hypothesis, mypy, Dask, numpy, scipy).
$(TOOLS): $(STAMP) pyproject.toml
	@echo "make: installing the test tools into $(VENV)"
	$(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))\
	  ['project']['optional-dependencies']['test'], sep='\n')" | xargs -d '\n' $(BIN)/python -m pip install -q
	touch $(TOOLS)

# Runs a command with a line on stdout at least every 10 s while it is
# silent (a long compile, a long test): `$(call ticking,WHAT,COMMAND)`.
ticking = start=$$(date +%s); ( $(2) ) & job=$$!; \
	( while sleep 10 && kill -0 $$job 2>/dev/null; do \
	    echo "make: still $(1) ($$(( $$(date +%s) - start )) s so far)"; done ) & \
	wait $$job

dev: $(STAMP)

demo: dev
	$(BIN)/covering demo
	@echo "make: the command is $(BIN)/covering (or run 'source $(VENV)/bin/activate' once, then 'covering')"

# The Rust tests in the release profile, on the build `make dev` made: the
# binding is selected too (its lib is not tested from Rust), so that cargo
# resolves the dependencies' features as the build did and compiles none of
# them again (only this project's test binaries).
test: test-rust test-python

# Every property with all its examples, the fuzz targets longer, and the
# tests marked long.
test-long: $(TOOLS)
	COVERING_FUZZ_ITERATIONS=100000 cargo test --release $(CRATES)
	COVERING_LONG=1 COVERING_FUZZ_EXAMPLES=2000 $(BIN)/python -m pytest

test-rust: dev
	@$(call ticking,testing the Rust crates,cargo test --release $(CRATES))

test-python: $(TOOLS)
	@$(call ticking,running pytest,$(BIN)/python -m pytest)

lint: $(TOOLS)
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	$(BIN)/python -m mypy
	$(BIN)/python -m mypy.stubtest covering._core --allowlist stubtest-allowlist.txt

bench: dev
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/engine.py

# This work tree against BASE (a commit: make bench-compare BASE=origin/main)
# on the quick set of benchmarks/compare.py; BASE is built once and cached.
bench-compare: dev
	@test -n "$(BASE)" || { echo "make: give the commit to compare with: make bench-compare BASE=REV"; exit 2; }
	$(BIN)/python benchmarks/compare.py --base $(BASE)

fmt:
	cargo fmt --all

clean:
	rm -rf $(VENV) target
