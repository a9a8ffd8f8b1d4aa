"""Start-up benchmark: how long until the table is ready, on headless Chromium.

    .venv/bin/python tools/bench_start.py [SITE_DIR ...] [--runs 3] [--json]

Serves SITE_DIR (default ``_site``; build it with ``make site``) on 127.0.0.1 with the
plain static server of ``tools/site/serve.py`` (no compression, like ``make play``) and, for each
run, starts a fresh Chromium (``/usr/bin/chromium``) with an empty profile:

* **cold**: the first visit, nothing cached, to ``html[data-ready]``;
* **sw**: the next visit in the same profile, answered by the service worker (the worker is
  waited for first, then ``--settle`` seconds; skipped if the site has none).

It prints the median of the runs for: time to data-ready, bytes over the network (CDP's
encoded lengths, so a service-worker answer counts 0), and the split:

* download: navigation start → the last response of the page's start (wasm, stdlib, …);
* interpreter: Pyodide's start, from the marks of ``web/static/start.mjs`` (download of the wasm
  and snapshot, wasm compile, snapshot restore or Python start), else PyScript's "Loading
  interpreter" → "Loaded interpreter"; it overlaps PyScript's own loading;
* setup: the rest of PyScript's set-up, from its "Loaded interpreter" to our script (its
  Python package, our zip fetched and unpacked);
* import: our Python imported (``performance`` marks set in index.html's script);
* render: ``web.main.main()`` building the table → data-ready.

Timings on a shared 2-core machine are noisy (±25 % is usual): compare medians taken
back to back, not figures from different days.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from tools.site.serve import serve_in_thread  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# Records when the page reaches each stage, in performance.now() milliseconds.
PROBE = """
(() => {
  const t = window.__bench = {progress: {}, ready: null};
  addEventListener("py:progress", e => { t.progress[String(e.detail)] = performance.now(); });
  new MutationObserver(() => {
    if (t.ready === null && document.documentElement.dataset.ready === "true")
      t.ready = performance.now();
  }).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-ready"]});
})();
"""

SPLIT = """
() => {
  const t = window.__bench, p = t.progress;
  const mark = name => { const m = performance.getEntriesByName(name)[0];
                         return m ? m.startTime : null; };
  // web/static/start.mjs marks its own interpreter start (the last one, after a failed snapshot);
  // without those marks, PyScript's progress events.
  const last = name => { const m = performance.getEntriesByName(name);
                         return m.length ? m[m.length - 1].startTime : null; };
  const interpStart = last("hearts:interpreter-start") ?? p["Loading interpreter"] ?? null;
  const interpEnd = last("hearts:interpreter-end") ?? p["Loaded interpreter"] ?? null;
  const ends = performance.getEntriesByType("resource")
    .filter(r => r.startTime < (interpEnd ?? t.ready))
    .map(r => r.responseEnd);
  return {
    ready: t.ready,
    download: ends.length ? Math.max(...ends) : null,
    interp_start: interpStart,
    interp_end: interpEnd,
    pyscript_got: p["Loaded interpreter"] ?? null,
    import_start: mark("hearts:import-start"),
    import_end: mark("hearts:import-end"),
    start_kind: document.documentElement.dataset.start ?? null,
  };
}
"""


class Meter:
    """Counts bytes received over the network by one page (CDP Network domain)."""

    def __init__(self, page: Page) -> None:
        self.bytes = 0
        self.session = page.context.new_cdp_session(page)
        self.session.on("Network.loadingFinished", self._finished)
        self.session.send("Network.enable")

    def _finished(self, event: dict[str, Any]) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))


def visit(page: Page, url: str) -> dict[str, Any]:
    meter = Meter(page)
    page.goto(url)
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=120_000)
    split = page.evaluate(SPLIT)
    split["bytes"] = meter.bytes
    meter.session.detach()
    return split


def wait_for_worker(page: Page) -> bool:
    """Wait until a service worker controls the page and has finished installing."""
    has = page.evaluate("""async () => {
        if (!navigator.serviceWorker) return false;
        const reg = await navigator.serviceWorker.getRegistration();
        if (!reg) return false;
        // (a worker whose install fails never gets ready: give up after 60 s)
        return await Promise.race([navigator.serviceWorker.ready.then(() => true),
                                   new Promise(r => setTimeout(() => r(false), 60000))]); }""")
    if has:
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
    return bool(has)


def one_run(browser: Browser, url: str, settle: float) -> dict[str, dict[str, Any]]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.add_init_script(PROBE)
    page = context.new_page()
    out = {"cold": visit(page, url)}
    # The page registers its worker once the table is ready; give it a moment to appear.
    deadline = time.monotonic() + 5
    has_worker = False
    while time.monotonic() < deadline and not has_worker:
        has_worker = wait_for_worker(page)
        if not has_worker:
            page.wait_for_timeout(250)
    if has_worker:
        page.close()
        # A player comes back later, not the same second: let the browser finish its
        # background work of the first visit (wasm tier-up compiles, cache writes) first.
        time.sleep(settle)
        page = context.new_page()
        out["sw"] = visit(page, url)
    context.close()
    return out


def phases(s: dict[str, Any]) -> dict[str, float | None]:
    def span(a: Any, b: Any) -> float | None:
        return None if a is None or b is None else b - a
    return {
        "ready": s["ready"],
        "download": s["download"],
        "interpreter": span(s["interp_start"], s["interp_end"]),
        "setup": span(s["pyscript_got"], s["import_start"]),
        "import": span(s["import_start"], s["import_end"]),
        "render": span(s["import_end"], s["ready"]),
        "MB": s["bytes"] / 1e6,
    }


def median(values: list[float | None]) -> float | None:
    real = [v for v in values if v is not None]
    return statistics.median(real) if real else None


def report(site: Path, runs: list[dict[str, dict[str, Any]]]) -> None:
    print(f"{site}  median of {len(runs)} (ms; MB over the network)")
    print(f"{'':6}{'ready':>8}{'download':>10}{'interp':>8}{'setup':>8}{'import':>8}"
          f"{'render':>8}{'MB':>7}")
    for kind in ("cold", "sw"):
        rows = [phases(r[kind]) for r in runs if kind in r]
        if not rows:
            continue
        med = {k: median([row[k] for row in rows]) for k in rows[0]}

        def f(v: float | None, digits: int = 0) -> str:
            return "-" if v is None else f"{v:.{digits}f}"
        print(f"{kind:6}{f(med['ready']):>8}{f(med['download']):>10}{f(med['interpreter']):>8}"
              f"{f(med['setup']):>8}{f(med['import']):>8}{f(med['render']):>8}{f(med['MB'], 1):>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", default=[str(ROOT / "_site")], metavar="SITE_DIR",
                        help="one or more built sites (several: runs interleaved, to compare)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--path", default="/", help="URL path of the page (default /)")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds between the first visit and the next (default 5)")
    parser.add_argument("--json", action="store_true", help="print every run as JSON too")
    args = parser.parse_args()
    sites = [Path(s) for s in args.sites]
    for site in sites:
        if not (site / "index.html").exists():
            raise SystemExit(f"{site}/index.html is missing: run `make site` first")
    servers = [serve_in_thread(site)[0] for site in sites]
    urls = [f"http://127.0.0.1:{server.server_address[1]}{args.path}" for server in servers]
    runs: list[list[dict[str, dict[str, Any]]]] = [[] for _ in sites]
    with sync_playwright() as p:
        for i in range(args.runs):
            for site, url, site_runs in zip(sites, urls, runs, strict=True):
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                try:
                    site_runs.append(one_run(browser, url, args.settle))
                finally:
                    browser.close()
                print(f"{site} run {i + 1}: " + ", ".join(
                    f"{kind} {r['ready'] / 1000:.2f} s ({r.get('start_kind') or '?'})"
                    for kind, r in site_runs[-1].items()), file=sys.stderr)
    for server in servers:
        server.shutdown()
    if args.json:
        print(json.dumps(runs, indent=1))
    for site, site_runs in zip(sites, runs, strict=True):
        report(site, site_runs)


if __name__ == "__main__":
    main()
