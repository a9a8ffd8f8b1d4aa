# The two commands of the README: `make play` and `make test`. Each installs what is
# missing on a fresh machine (Python venv, npm packages, Chromium) and then does its job.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000

.PHONY: play site test check unit slow bench bench-start clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Debian's Chromium for the browser tests (Playwright can't download browsers here).
/usr/bin/chromium:
	if [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y chromium; \
	else sudo apt-get update && sudo apt-get install -y chromium; fi

# coturn, a TURN server, for the private-table test through "my own TURN server".
/usr/bin/turnserver:
	if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	$$SUDO apt-get install -y coturn || { $$SUDO apt-get update && $$SUDO apt-get install -y coturn; }

## The static site in _site/: index.html, static/, our Python zipped, Pyodide and PyScript
# (built by the venv's Python: the QR library in the zip is copied from there).
site: $(BIN)/.installed node_modules/.installed
	$(BIN)/python tools/site/build.py _site

## Build the site and serve it on http://127.0.0.1:$(PORT) (PORT=8000 by default).
play: $(BIN)/.installed site
	$(BIN)/python tools/site/serve.py --port $(PORT) _site

## Static checks: ruff, and mypy --strict over the engine and the page.
check: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy --strict hearts web tools/site

## Everything `make test` runs.
test: check node_modules/.installed /usr/bin/chromium /usr/bin/turnserver site
	$(BIN)/pytest

## Long runs (large differential test, soak): not part of `make test`.
slow: $(BIN)/.installed node_modules/.installed
	$(BIN)/pytest -m slow

bench: $(BIN)/.installed
	$(BIN)/python tools/bench.py

## Start-up of the built site in headless Chromium: cold and service-worker loads (median of 3).
bench-start: $(BIN)/.installed /usr/bin/chromium site
	$(BIN)/python tools/bench_start.py _site

clean:
	rm -rf $(VENV) node_modules _site .pytest_cache .mypy_cache .ruff_cache
