"""Start-up benchmark: how long until the table is ready, on headless Chromium.

    .venv/bin/python tools/bench_start.py [[NAME=]SITE_DIR ...] [--runs 3] [--net 9mbps]
        [--net 1.6mbps] [--cpu 4] [--plain] [--marks] [--tap] [--json]

Serves each SITE_DIR (default ``_site``; build it with ``make site``) on 127.0.0.1 with the
static server of ``tools/site/serve.py``, gzipping text and wasm the way GitHub Pages does
(``--plain``: no compression, like ``make play``), throttles the page's network with CDP
(``--net``: ``9mbps`` = 9 Mbps down, 1.5 up, 60 ms; ``1.6mbps`` = 1.6 down, 0.75 up, 150 ms;
``none``; repeatable, default ``9mbps``; ``--cpu N`` slows the CPU N times) and, for each
run, starts a fresh Chromium (``/usr/bin/chromium``) with an empty profile:

* **cold**: the first visit, nothing cached, to ``html[data-ready]``;
* **sw**: the next visit in the same profile, answered by the service worker (the worker is
  waited for first, then ``--settle`` seconds; skipped if the site has none);
* **again**: one more visit, after the sw visit stayed open ``--stay`` seconds (as a player's
  would: meanwhile the browser keeps the wasm's optimized code for the worker's copy of it,
  which only this visit can read) and ``--settle`` seconds.

Several sites are run interleaved (site A run 1, site B run 1, A run 2, …), to compare
builds on the same busy machine (``make bench-start`` compares with a build of ``main``).
It prints, per network profile and site, the median of the runs for:

* paint: the first contentful paint (the page's frame: the felt, and the loader or the
  saved table);
* table: the first frame with the table's cards on it: the saved table that
  ``web/static/boot.js`` paints on a repeat visit (``<html data-painted>``), else Python's
  first draw;
* ready: ``data-ready``, the table playable;
* CLS: the layout shifts (none after an input) from the start to two frames after ready;
* MB: bytes over the network during the visit (CDP's encoded lengths, so a service-worker
  answer counts 0), what came after the table included; →ready: those that had arrived by
  data-ready (Resource Timing's transfer sizes);

and the split below; then the bytes over the wire of each file of the first visit, site by
site, and, given several sites, a Markdown table of the first against the others (table,
ready, CLS, MB by ready: medians and ratios per visit and network, for docs/performance.md).
The split:

* download: navigation start → the last response of the page's start (wasm, stdlib, …);
* interpreter: Pyodide's start, from the marks of ``web/static/start.mjs`` (download of the wasm
  and snapshot, wasm compile, snapshot restore or Python start), else PyScript's "Loading
  interpreter" → "Loaded interpreter"; it overlaps PyScript's own loading;
* setup: the rest of PyScript's set-up, from its "Loaded interpreter" to our script (its
  Python package; our zip is put on sys.path by start.mjs before);
* import: our Python imported (``performance`` marks set in index.html's script);
* render: ``web.main.main()`` building the table → data-ready.

``--tap``: on the repeat visits (sw, again), a tap (the mouse) on a card of the hand as
soon as the saved table is painted (a card not yet chosen for the pass, or a playable one;
as soon as the table is ready if nothing is painted), and the column **tap**: the time
from navigation to that tap, when it counted (the card chosen, or played, once the game
is up), else "-"; **held**: when the page handled it (the main thread may be busy then).
The tap changes the saved game, which the next visit paints. **keeps**: when the painted
hand began to keep taps (boot.js's mark ``hearts:taps-kept``): from then on any tap
counts, so this is the time to the first tap that can count (the harness's own tap comes
later: it sees the painted table only when the page's busy main thread lets it).

``--marks`` also prints the median time of each ``hearts:`` performance mark of start.mjs
(snapshot read and unpacked, wasm compiled, restored, …) and of PyScript's progress events.

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
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from tools.site.serve import serve_in_thread  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# Records when the page reaches each stage, in performance.now() milliseconds: PyScript's
# progress events, the first frame with the table's cards on it (the saved table boot.js
# paints, else Python's first draw), data-ready, two frames after it, and every layout shift.
PROBE = """
(() => {
  const t = window.__bench = {progress: {}, ready: null, table: null, frame: null,
                              shown: null, settled: null, shifts: [], painted: false,
                              taps: []};
  addEventListener("click", e => {  // (before any of the page's own listeners)
    const card = e.target instanceof Element ? e.target.closest("#hand [data-card]") : null;
    t.taps.push({at: e.timeStamp, held: performance.now(), card: card && card.dataset.card,
                 painted: !!document.documentElement.dataset.painted});
  }, true);
  addEventListener("py:progress", e => { t.progress[String(e.detail)] = performance.now(); });
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) t.shifts.push([e.startTime, e.value]);
  }).observe({type: "layout-shift", buffered: true});
  new PerformanceObserver(list => {
    for (const e of list.getEntries())
      if (e.identifier === "table" && t.shown === null) t.shown = e.renderTime || e.startTime;
  }).observe({type: "element", buffered: true});
  new MutationObserver(() => {
    const root = document.documentElement;
    if (root.dataset.painted) t.painted = true;
    if (t.table === null && (root.dataset.painted || root.dataset.ready === "true")) {
      // When the frame that shows the cards is on the screen (Element Timing: the cards'
      // ranks, new elements, are marked before that frame), else its animation frame.
      t.table = -1;
      document.querySelectorAll("#hand .r").forEach(e => e.setAttribute("elementtiming", "table"));
      requestAnimationFrame(() => { t.frame = performance.now(); });
    }
    if (t.ready === null && root.dataset.ready === "true") {
      t.ready = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => { t.settled = performance.now(); }));
    }
  }).observe(document, {attributes: true, subtree: true,
                        attributeFilter: ["data-ready", "data-painted"]});
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
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  // bytes over the wire that had arrived by data-ready (a service worker's answer counts 0)
  const toReady = [...performance.getEntriesByType("navigation"),
                   ...performance.getEntriesByType("resource")]
    .filter(r => r.responseEnd <= t.ready).reduce((sum, r) => sum + (r.transferSize || 0), 0);
  return {
    bytes_to_ready: toReady,
    ready: t.ready,
    fcp: fcp ? fcp.startTime : null,
    table: t.shown ?? t.frame,
    painted: t.painted,
    cls: t.shifts.filter(([at]) => at <= t.settled).reduce((sum, [, value]) => sum + value, 0),
    download: ends.length ? Math.max(...ends) : null,
    interp_start: interpStart,
    interp_end: interpEnd,
    pyscript_got: p["Loaded interpreter"] ?? null,
    import_start: mark("hearts:import-start"),
    import_end: mark("hearts:import-end"),
    start_kind: document.documentElement.dataset.start ?? null,
    marks: Object.fromEntries(performance.getEntriesByType("mark")
      .filter(m => m.name.startsWith("hearts:")).map(m => [m.name, m.startTime])),
    progress: p,
  };
}
"""


VISITS = ("cold", "sw", "again")  # the visits of a run (see one_run)

# Network profiles for CDP's Network.emulateNetworkConditions (bytes per second, ms).
NETWORKS: dict[str, dict[str, float] | None] = {
    "none": None,
    "9mbps": {"downloadThroughput": 9e6 / 8, "uploadThroughput": 1.5e6 / 8, "latency": 60},
    "1.6mbps": {"downloadThroughput": 1.6e6 / 8, "uploadThroughput": 0.75e6 / 8,
                "latency": 150},
}


class Meter:
    """Counts bytes received over the network by one page (CDP Network domain), per URL."""

    def __init__(self, page: Page, net: str, cpu: float) -> None:
        self.bytes = 0
        self.files: dict[str, int] = {}
        self._urls: dict[str, str] = {}
        self.session = page.context.new_cdp_session(page)
        self.session.on("Network.requestWillBeSent", self._sent)
        self.session.on("Network.loadingFinished", self._finished)
        self.session.send("Network.enable")
        conditions = NETWORKS[net]
        if conditions is not None:
            self.session.send("Network.emulateNetworkConditions",
                              {"offline": False, **conditions})
        if cpu != 1:
            self.session.send("Emulation.setCPUThrottlingRate", {"rate": cpu})

    def _sent(self, event: dict[str, Any]) -> None:
        self._urls[event["requestId"]] = event["request"]["url"]

    def _finished(self, event: dict[str, Any]) -> None:
        size = int(event.get("encodedDataLength", 0))
        self.bytes += size
        url = self._urls.get(event["requestId"], "?")
        self.files[url] = self.files.get(url, 0) + size


# The card to tap on the painted (or live) table: one not chosen for the pass, or playable.
TAP_TARGET = """() => {
  const root = document.documentElement;  // (a painted table's state is its copy's)
  const state = root.dataset.painted
    ? (JSON.parse(localStorage.getItem("hearts.felt") || "{}").state) : root.dataset.state;
  const card = document.querySelector(state === "pass"
    ? "#hand [data-card]:not(.selected)" : "#hand [data-card]:not([aria-disabled='true'])");
  if (!card || !["pass", "play"].includes(state)) return null;
  const r = card.getBoundingClientRect();
  return {card: card.dataset.card, state, x: r.x + r.width / 2, y: r.y + r.height / 3};
}"""
# Whether the tap counted, once the game is up: the card chosen, or played.
TAP_COUNTED = """([card, state]) => {
  const el = document.querySelector(`#hand [data-card="${card}"]`);
  return state === "pass" ? !!el && el.classList.contains("selected") : !el;
}"""


def tap_early(page: Page) -> dict[str, Any] | None:
    """Tap a card as soon as the table is painted (or ready); what was tapped."""
    page.wait_for_selector("html[data-painted], html[data-ready='true']", state="attached",
                           timeout=300_000)
    target: dict[str, Any] | None = page.evaluate(TAP_TARGET)
    if target is not None:
        page.mouse.click(target["x"], target["y"])
    return target


def visit(page: Page, url: str, net: str, cpu: float, tap: bool = False) -> dict[str, Any]:
    meter = Meter(page, net, cpu)
    page.goto(url, wait_until="commit" if tap else "load")
    target = tap_early(page) if tap else None
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=300_000)
    page.wait_for_function("window.__bench.settled !== null && window.__bench.frame !== null"
                           " && (window.__bench.shown !== null"
                           "     || !document.querySelector('#hand .r'))",
                           timeout=60_000)
    split: dict[str, Any] = page.evaluate(SPLIT)
    split["tap"] = split["held"] = None
    if target is not None:
        taps = [t for t in page.evaluate("window.__bench.taps") if t["card"] == target["card"]]
        page.wait_for_timeout(100)  # (a play: the card leaves the hand at once)
        if taps and page.evaluate(TAP_COUNTED, [target["card"], target["state"]]):
            split["tap"], split["held"] = taps[0]["at"], taps[0]["held"]
    split["bytes"] = meter.bytes
    split["files"] = {name.removeprefix(url) or "./": size
                      for name, size in meter.files.items() if size}
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


def one_run(browser: Browser, url: str, settle: float, stay: float, net: str, cpu: float,
            tap: bool = False) -> dict[str, dict[str, Any]]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.add_init_script(PROBE)
    page = context.new_page()
    out = {"cold": visit(page, url, net, cpu)}
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
        out["sw"] = visit(page, url, net, cpu, tap)
        # A player plays a while: meanwhile the browser keeps the wasm's optimized code for
        # the worker's copy of it, which the next visit reads (the first visit's copy was
        # the network's). Then a later visit again.
        page.wait_for_timeout(stay * 1000)
        page.close()
        time.sleep(settle)
        page = context.new_page()
        out["again"] = visit(page, url, net, cpu, tap)
    context.close()
    return out


def run_with_one_retry(p: Any, url: str, args: argparse.Namespace, net: str
                       ) -> dict[str, dict[str, Any]]:
    """One run in a fresh Chromium; once more if its renderer crashed (this Chromium's
    renderer crashes about once in hundreds of page loads here, builds old and new alike)."""
    for attempt in (1, 2):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            return one_run(browser, url, args.settle, args.stay, net, args.cpu, args.tap)
        except PlaywrightError as error:
            if attempt == 2 or "Target crashed" not in str(error):
                raise
            print("  (the renderer crashed: this run again)", file=sys.stderr, flush=True)
        finally:
            browser.close()
    raise AssertionError("unreachable")


def phases(s: dict[str, Any]) -> dict[str, float | None]:
    def span(a: Any, b: Any) -> float | None:
        return None if a is None or b is None else b - a
    return {
        "paint": s["fcp"],
        "table": s["table"],
        "ready": s["ready"],
        "CLS": s["cls"],
        "download": s["download"],
        "interpreter": span(s["interp_start"], s["interp_end"]),
        "setup": span(s["pyscript_got"], s["import_start"]),
        "import": span(s["import_start"], s["import_end"]),
        "render": span(s["import_end"], s["ready"]),
        "MB": s["bytes"] / 1e6,
        "MB ready": s["bytes_to_ready"] / 1e6,
        "tap": s.get("tap"),
        "keeps": (s.get("marks") or {}).get("hearts:taps-kept"),
        "held": s.get("held"),
    }


def median(values: list[float | None]) -> float | None:
    real = [v for v in values if v is not None]
    return statistics.median(real) if real else None


def f(v: float | None, digits: int = 0) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def report(name: str, net: str, runs: list[dict[str, dict[str, Any]]]) -> None:
    print(f"{name}  network {net}, median of {len(runs)} (ms; MB over the network)")
    print(f"{'':6}{'paint':>7}{'table':>7}{'ready':>7}{'CLS':>6}{'MB':>6}{'→ready':>7}"
          f"{'download':>10}{'interp':>8}{'setup':>7}{'import':>8}{'render':>8}"
          f"{'keeps':>7}{'tap':>7}{'held':>7}")
    for kind in VISITS:
        rows = [phases(r[kind]) for r in runs if kind in r]
        if not rows:
            continue
        med = {k: median([row[k] for row in rows]) for k in rows[0]}
        print(f"{kind:6}{f(med['paint']):>7}{f(med['table']):>7}{f(med['ready']):>7}"
              f"{f(med['CLS'], 2):>6}{f(med['MB'], 1):>6}{f(med['MB ready'], 2):>7}"
              f"{f(med['download']):>10}"
              f"{f(med['interpreter']):>8}{f(med['setup']):>7}{f(med['import']):>8}"
              f"{f(med['render']):>8}{f(med['keeps']):>7}{f(med['tap']):>7}"
              f"{f(med['held']):>7}")


# What a player waits for, in the comparison of two builds (``compare``).
COMPARED = (("table", "table on the screen, s", 1e-3), ("ready", "playable, s", 1e-3),
            ("CLS", "CLS", 1.0), ("MB ready", "MB by playable", 1.0))


def compare(nets: list[str], names: list[str],
            runs: dict[str, list[list[dict[str, dict[str, Any]]]]]) -> list[str]:
    """A table in Markdown: per network and visit, the median of the first site against each
    other one, and their ratio (measured in the same runs, interleaved: the one figure that
    holds on a busy machine)."""
    lines = [f"| median of {len(runs[nets[0]][0])} runs | visit | network | "
             + " | ".join(f"{names[0]} | {name} | ratio" for name in names[1:]) + " |",
             "|---|---|---|" + "---|---|---|" * (len(names) - 1)]
    for key, label, scale in COMPARED:
        for kind in VISITS:
            for net in nets:
                medians = [median([phases(r[kind])[key] for r in site_runs if kind in r])
                           for site_runs in runs[net]]
                if medians[0] is None or (key != "CLS" and not any(medians)):
                    continue  # (no such visit; or no bytes at all: the worker's visits)
                digits = 3 if key == "CLS" else 2
                cells = []
                for other in medians[1:]:
                    ratio = ("-" if other is None or not other
                             else f"{medians[0] / other:.2f}")
                    cells.append(f"{f(medians[0] * scale, digits)} | "
                                 f"{f(None if other is None else other * scale, digits)} | "
                                 f"{ratio}")
                lines.append(f"| {label} | {kind} | {net} | " + " | ".join(cells) + " |")
    return lines


def report_marks(name: str, net: str, runs: list[dict[str, dict[str, Any]]]) -> None:
    """The median time of each ``hearts:`` mark and PyScript progress event, per visit."""
    for kind in VISITS:
        rows = [{**r[kind].get("marks", {}), **r[kind].get("progress", {}),
                 "data-ready": r[kind]["ready"]} for r in runs if kind in r]
        if not rows:
            continue
        names = sorted({k for row in rows for k in row},
                       key=lambda k: median([row.get(k) for row in rows]) or 0)
        print(f"{name} {net} {kind}, ms since navigation (median): " + ", ".join(
            f"{k.removeprefix('hearts:')} {f(median([row.get(k) for row in rows]))}"
            for k in names))


def report_files(names: list[str], runs: list[list[dict[str, dict[str, Any]]]]) -> None:
    """Bytes over the wire per file of the first visit (median of the runs), site by site."""
    per_site = []
    for site_runs in runs:
        files: dict[str, list[int]] = {}
        for run in site_runs:
            for file, size in run["cold"]["files"].items():
                files.setdefault(file, []).append(size)
        per_site.append({k: statistics.median(v) for k, v in files.items()})
    everything = sorted({k for site in per_site for k in site},
                        key=lambda k: -max(site.get(k, 0) for site in per_site))
    width = max(12, *(len(n) + 2 for n in names))
    print("first visit, kB over the wire per file (median)")
    print(f"{'':44}" + "".join(f"{n:>{width}}" for n in names))
    for file in everything:
        label = file if len(file) <= 43 else "…" + file[-42:]
        print(f"{label:44}" + "".join(
            f"{f(site[file] / 1e3) if file in site else '-':>{width}}" for site in per_site))
    print(f"{'total':44}" + "".join(f"{f(sum(site.values()) / 1e3):>{width}}"
                                     for site in per_site))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", default=[str(ROOT / "_site")],
                        metavar="[NAME=]SITE_DIR",
                        help="one or more built sites (several: runs interleaved, to compare)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--net", action="append", choices=sorted(NETWORKS),
                        help="network profile (repeatable; default 9mbps)")
    parser.add_argument("--cpu", type=float, default=1.0, help="CPU slow-down (e.g. 4)")
    parser.add_argument("--plain", action="store_true",
                        help="serve without compression (default: gzip like GitHub Pages)")
    parser.add_argument("--path", default="/", help="URL path of the page (default /)")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds between the first visit and the next (default 5)")
    parser.add_argument("--stay", type=float, default=5.0,
                        help="seconds the second visit stays open before the third (default 5)")
    parser.add_argument("--marks", action="store_true",
                        help="print the median time of each start mark too")
    parser.add_argument("--tap", action="store_true",
                        help="repeat visits: tap a card as soon as the table is painted, "
                             "and time the first tap that counts")
    parser.add_argument("--json", action="store_true", help="print every run as JSON too")
    parser.add_argument("--from-json", type=Path, metavar="FILE",
                        help="no runs: report those of an earlier --json output (its sites "
                             "named in order by NAME=SITE_DIR, its networks by --net)")
    args = parser.parse_args()
    nets = args.net or ["9mbps"]
    named = [s.partition("=") if "=" in s else (s, "", s) for s in args.sites]
    names = [name for name, _, _ in named]
    sites = [Path(path) for _, _, path in named]
    if args.from_json:
        report_all(nets, names, saved_runs(args.from_json, nets, len(sites)), args)
        return
    for site in sites:
        if not (site / "index.html").exists():
            raise SystemExit(f"{site}/index.html is missing: run `make site` first")
    servers = [serve_in_thread(site, compress=not args.plain)[0] for site in sites]
    urls = [f"http://127.0.0.1:{server.server_address[1]}{args.path}" for server in servers]
    runs: dict[str, list[list[dict[str, dict[str, Any]]]]] = {
        net: [[] for _ in sites] for net in nets}
    with sync_playwright() as p:
        for i in range(args.runs):
            for net in nets:
                for name, url, site_runs in zip(names, urls, runs[net], strict=True):
                    site_runs.append(run_with_one_retry(p, url, args, net))
                    print(f"{name} {net} run {i + 1}: " + ", ".join(
                        f"{kind} {r['ready'] / 1000:.2f} s {r['bytes'] / 1e6:.1f} MB "
                        f"(table {r['table'] / 1000:.2f} s{', painted' if r['painted'] else ''}, "
                        f"{r.get('start_kind') or '?'}"
                        + ("" if not args.tap or kind == "cold" else
                           f", tap {f(r.get('tap'))} ms" + ("" if r.get("tap") else
                                                             " (didn't count)"))
                        + ")"
                        for kind, r in site_runs[-1].items()), file=sys.stderr, flush=True)
    for server in servers:
        server.shutdown()
    if args.json:
        print(json.dumps(runs, indent=1))
    report_all(nets, names, runs, args)


def saved_runs(path: Path, nets: list[str], sites: int
               ) -> dict[str, list[list[dict[str, dict[str, Any]]]]]:
    """The runs of an earlier ``--json`` output (the JSON first, the report after it)."""
    runs, _ = json.JSONDecoder().raw_decode(path.read_text(encoding="utf-8").lstrip())
    if not isinstance(runs, dict) or any(len(runs.get(net, [])) != sites for net in nets):
        raise SystemExit(f"{path}: no runs of {sites} sites on {', '.join(nets)}")
    return {net: runs[net] for net in nets}


def report_all(nets: list[str], names: list[str],
               runs: dict[str, list[list[dict[str, dict[str, Any]]]]],
               args: argparse.Namespace) -> None:
    print(f"served {'as files are' if args.plain else 'with gzip like GitHub Pages'}, "
          f"CPU {args.cpu:g}x")
    for net in nets:
        for name, site_runs in zip(names, runs[net], strict=True):
            report(name, net, site_runs)
            if args.marks:
                report_marks(name, net, site_runs)
    report_files(names, runs[nets[0]])
    if len(names) > 1:
        print("\n".join(compare(nets, names, runs)))


if __name__ == "__main__":
    main()
