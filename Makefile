# The only commands anyone needs: dev | demo | test | lint | bench | fmt.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SOURCES := $(shell find src crates/xc/src crates/dlx/src python -name '*.rs' -o -name '*.py' -o -name '*.pyi') \
           Cargo.toml crates/xc/Cargo.toml crates/dlx/Cargo.toml pyproject.toml

.PHONY: dev demo test test-rust test-python lint bench fmt clean

# A virtual environment with covering built (release) and the test tools.
$(STAMP): $(SOURCES)
	@echo "make: building covering into $(VENV) (a virtual environment; the Rust core in release mode: a few minutes the first time)"
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	# Bytecode now, as a wheel's install does: an editable install otherwise
	# compiles the package at every start where bytecode is not written.
	$(BIN)/python -m compileall -q python/covering
	touch $(STAMP)

dev: $(STAMP)

demo: dev
	$(BIN)/covering demo
	@echo "make: the command is $(BIN)/covering (or run 'source $(VENV)/bin/activate' once, then 'covering')"

test: test-rust test-python

test-rust:
	cargo test -p covering-xc -p covering-dlx

test-python: dev
	$(BIN)/python -m pytest

lint: dev
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	$(BIN)/python -m mypy
	$(BIN)/python -m mypy.stubtest covering._core --allowlist stubtest-allowlist.txt

bench: dev
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/engine.py

fmt:
	cargo fmt --all

clean:
	rm -rf $(VENV) target
