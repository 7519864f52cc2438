# Roadkit. `make build` and `make test` set up .venv on first use: a machine with Python 3.11+
# needs nothing else (the browser test also wants Debian's chromium; .ci/run installs it).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.roadkit-installed

.PHONY: build test serve bench clean lint fuzz

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Roadkit needs Python 3.11 or newer"'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

build: $(STAMP)
	$(BIN)/roadkit build

test: $(STAMP)
	$(BIN)/ruff check generators tests
	$(BIN)/pytest

# 5,000 seeded mutants of the real content through the validation pass: no traceback, every error
# one located line (the test suite runs a few hundred of them).
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzz --mutants 5000 --seed 1

lint: $(STAMP)
	$(BIN)/ruff check generators tests

serve: $(STAMP)
	$(BIN)/roadkit site --serve

bench: $(STAMP)
	$(BIN)/python -m generators.bench

clean:
	rm -rf build
