# The two commands of the README: `make play` and `make test`. Each installs what is
# missing on a fresh machine (Python venv, npm packages, Chromium) and then does its job.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000

.PHONY: play site test check unit slow bench bench-start measure clean

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

## Static checks: ruff, mypy --strict over every Python folder (pyproject.toml's `files`),
# and tsc over web/static's JavaScript (// @ts-check and JSDoc types; tsconfig*.json).
check: $(BIN)/.installed node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy --strict hearts web tools tests e2e
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.sw.json

## Everything `make test` runs.
# The unit tests on both cores; the browser tests one at a time (their pages share the cores).
test: check node_modules/.installed /usr/bin/chromium /usr/bin/turnserver site
	$(BIN)/pytest -n 2 hearts tests
	$(BIN)/pytest e2e

## Long runs (large differential test, soak): not part of `make test`.
slow: $(BIN)/.installed node_modules/.installed
	$(BIN)/pytest -m slow

bench: $(BIN)/.installed
	$(BIN)/python tools/bench.py

## Start-up of the built site in headless Chromium, served with gzip like GitHub Pages and
# throttled like a phone (9 Mbps/60 ms, 1.6 Mbps/150 ms): first and service-worker visits,
# median of 3, interleaved with a build of $(REF) (the reference, built into _ref/).
REF ?= c375d94
REF_SITE := _ref/$(REF)/_site
BENCH_ARGS ?= --net 9mbps --net 1.6mbps
$(REF_SITE): $(BIN)/.installed node_modules/.installed
	rm -rf _ref/$(REF) && mkdir -p _ref/$(REF)
	git archive $(REF) | tar -x -C _ref/$(REF)
	ln -s ../../node_modules _ref/$(REF)/node_modules
	$(BIN)/python _ref/$(REF)/tools/site/build.py $(REF_SITE)

bench-start: $(BIN)/.installed /usr/bin/chromium site $(REF_SITE)
	$(BIN)/python tools/bench_start.py this=_site $(REF)=$(REF_SITE) $(BENCH_ARGS)

## The table in headless Chromium (e2e/measure.py): time to data-ready, the longest
# main-thread task in a hand, and the time before each computer card at normal speed and
# hard level against the speed's pause. MEASURE_ARGS passes options (e.g. --pacing --hands 4).
MEASURE_ARGS ?=
measure: $(BIN)/.installed /usr/bin/chromium site
	$(BIN)/python e2e/measure.py --site _site $(MEASURE_ARGS)

clean:
	rm -rf $(VENV) node_modules _site _ref .pytest_cache .mypy_cache .ruff_cache
