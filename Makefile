# The two commands of the README: `make play` and `make test`. Each installs what is
# missing on a fresh machine (Python venv, npm packages, Chromium) and then does its job.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000

.PHONY: play test check unit slow bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

## Static checks: ruff and mypy --strict.
check: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy --strict hearts

## Everything `make test` runs.
test: check node_modules/.installed
	$(BIN)/pytest

## Long runs (large differential test, soak): not part of `make test`.
slow: $(BIN)/.installed node_modules/.installed
	$(BIN)/pytest -m slow

bench: $(BIN)/.installed
	$(BIN)/python -m hearts.bench

clean:
	rm -rf $(VENV) node_modules _site .pytest_cache .mypy_cache .ruff_cache
