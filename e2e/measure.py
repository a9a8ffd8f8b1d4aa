"""Start-up and responsiveness of the table in headless Chromium.

``python e2e/measure.py [--runs 3]`` prints, median of the runs:
- time to ``data-ready`` on a cold load (fresh browser profile) and a warm one (reload in
  the same profile: HTTP cache, or the service worker once there is one), measured by the
  page itself from navigation start;
- the longest main-thread task (Long Tasks API) while a hand is played at instant speed
  with normal and with hard computer players (tasks before ``data-ready`` excluded).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402
from tablepage import TablePage  # noqa: E402

from tools.site.build import build  # noqa: E402
from tools.site.serve import serve_in_thread  # noqa: E402

LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries())
    window.__longTasks.push([entry.startTime, entry.duration]);
}).observe({type: "longtask", buffered: true});
"""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def ready_ms(table: TablePage) -> float:
    return float(table.page.evaluate("Number(document.documentElement.dataset.readyMs)"))


def startup(browser: Browser, origin: str, runs: int) -> tuple[list[float], list[float]]:
    cold, warm = [], []
    for _ in range(runs):
        context = browser.new_context()
        table = TablePage(context.new_page(), origin, "measure")
        table.goto("?speed=instant")
        cold.append(ready_ms(table))
        table.reload()
        warm.append(ready_ms(table))
        context.close()
    return cold, warm


def longest_task(browser: Browser, origin: str, level: str) -> tuple[float, int]:
    context = browser.new_context()
    context.add_init_script(LONG_TASKS)
    table = TablePage(context.new_page(), origin, "measure")
    table.goto("?speed=instant&seed=4")
    table.page.click("#settings summary")
    table.page.check(f'#settings input[name="level"][value="{level}"]')
    table.page.click("#settings summary")
    table.play_hand()
    start = ready_ms(table)
    tasks = [d for t, d in table.page.evaluate("window.__longTasks") if t > start]
    context.close()
    if table.errors:
        raise SystemExit("\n".join(table.errors))
    return max(tasks, default=0.0), len(tasks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = build(Path(tmp) / "site")
        server, _ = serve_in_thread(site)
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            cold, warm = startup(browser, origin, args.runs)
            print(f"cold load to data-ready: median {statistics.median(cold) / 1000:.2f} s "
                  f"({', '.join(f'{v / 1000:.2f}' for v in cold)})")
            print(f"warm load to data-ready: median {statistics.median(warm) / 1000:.2f} s "
                  f"({', '.join(f'{v / 1000:.2f}' for v in warm)})")
            for level in ("normal", "hard"):
                longest, count = longest_task(browser, origin, level)
                print(f"one hand at {level}: longest main-thread task {longest:.0f} ms "
                      f"({count} tasks over 50 ms)")
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
