# Roadkit. `make build` and `make test` set up .venv on first use: a machine with Python 3.11+
# needs nothing else (the browser test also wants Debian's chromium; .ci/run installs it).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.roadkit-installed

LOCKVENV := build/lock-venv

.PHONY: build test check serve bench bench-quick clean lint fuzz lock types

# Every install takes the exact versions in constraints.txt (`make lock` refreshes them), so a build
# or a CI run on a new machine gets the libraries the tests last passed with. The zensical extra is
# installed too, so the tests (and CI) build the site with Zensical as well as with Material.
$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Roadkit needs Python 3.11 or newer"'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test,zensical]'
	@touch $(STAMP)

# The newest versions pyproject.toml allows, installed into a fresh throwaway venv and written down
# exactly; run the tests after it, then commit constraints.txt.
lock:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Roadkit needs Python 3.11 or newer"'
	rm -rf $(LOCKVENV)
	$(PYTHON) -m venv $(LOCKVENV)
	$(LOCKVENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOCKVENV)/bin/python -m pip install --quiet -e '.[test,cluster,zensical]'
	{ echo '# Exact versions every install uses (pip install -c constraints.txt). Made by `make lock`; do not edit.'; \
	  echo '# zensical is held below 0.0.74 in pyproject.toml (later releases need zensical-ui; the reason is there).'; \
	  $(LOCKVENV)/bin/python -m pip freeze --exclude-editable --exclude roadkit; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(LOCKVENV)

build: $(STAMP)
	$(BIN)/roadkit build

# Everything: lint, types and every test (CI runs this through .ci/run), the benchmark's quick mode
# included. Its time goes to build/test-times.json, which `make bench` shows.
test: $(STAMP)
	$(BIN)/ruff check generators tests tools
	$(BIN)/mypy
	ROADKIT_TEST_RUN="make test" $(BIN)/pytest

# The fast tier, for every change: lint, types and the tests not marked slow (tests/conftest.py SLOW:
# whole games, searches, whole builds, the browser), a few minutes on a 2-core machine.
check: $(STAMP)
	$(BIN)/ruff check generators tests tools
	$(BIN)/mypy
	ROADKIT_TEST_RUN="make check" $(BIN)/pytest -m "not slow"

# The type check `make test` runs (settings in pyproject.toml).
types: $(STAMP)
	$(BIN)/mypy

# 5,000 seeded mutants of the real content through the validation pass: no traceback, every error
# one located line (the test suite runs a few hundred of them); then the build's own classes: print
# keys under content mutants, hand-written site pages (encodings, dead relative links), builds killed
# after an edit, on small disks or read-only, odd arguments (numbers at their bounds, links in a circle,
# files as --out), link shapes (validate and the build agree on each).
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzz --mutants 5000 --seed 1
	$(BIN)/python -m tests.fuzz_build --keys 30 --pages 300 --faults 12 --args 400 --links 300 --seed 1

lint: $(STAMP)
	$(BIN)/ruff check generators tests tools

serve: $(STAMP)
	$(BIN)/roadkit site --serve

bench: $(STAMP)
	$(BIN)/python -m tools.bench

# The benchmark once on one game (`make test` runs it through tests/test_bench.py): it must not rot.
bench-quick: $(STAMP)
	$(BIN)/python -m tools.bench --quick

clean:
	rm -rf build
