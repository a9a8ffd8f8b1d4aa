"""Start-up, responsiveness and pacing of the table in headless Chromium.

``python e2e/measure.py`` (``make measure``) prints:

- ``--startup``: time to ``data-ready`` on a cold load (fresh browser profile) and a warm
  one (reload in the same profile: HTTP cache, or the service worker once there is one),
  measured by the page itself from navigation start, median of ``--runs``;
- ``--tasks``: the longest main-thread task (Long Tasks API) while a hand is played at
  instant speed with normal and with hard computer players (tasks before ``data-ready``
  excluded);
- ``--pacing``: at ``--speed`` (normal) and ``--level`` (hard), both chosen in the Settings
  dialog as a player would, ``--hands`` hands played as the person (always the first legal
  card): for each computer card, the time from the previous card appearing on the table to
  that card appearing (a MutationObserver on ``#trick``), median, p95 and count, next to
  the pause the speed asks for and the excess over it. Waits for the person are left out
  (only intervals ending with a computer's card); a computer's lead after a finished trick
  is timed from the table clearing (and, separately, from the trick's last card, which
  also holds the trick on show and its slide).

- ``--fair`` (only when asked: minutes): two people and two computers at a fair table,
  each person's page in its own browser context, through the local relay
  (``e2e/nostr_relay.mjs``), the CPU slowed ``--throttle`` times (CDP): they play hand 1
  and press Next hand; per page, the seconds from its person's last card of hand 1 and
  from Next hand to its 13 cards of hand 2, and the longest main-thread task in each span.
  ``--slow MS`` names each page's own steps of MS ms or more (``--calls N``: with the N
  Python functions that took most of the slowest), ``--profile FILE`` writes page 0's CPU
  profile (``tools/long_tasks.py FILE`` says what its long tasks are made of), ``--only N``
  slows down page N alone.

- ``--hints``: the hint (the hard player's search, in slices): for each decision of one
  hand at instant speed, following the hint every time, the time from pressing Hint to
  the hinted cards on the felt, median and p95, plainly and with the CPU throttled 4x
  (CDP ``Emulation.setCPUThrottlingRate``), and the longest main-thread task meanwhile.

With none of the flags, all of them run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright  # noqa: E402
from tablepage import TablePage  # noqa: E402

from tools.site.build import build  # noqa: E402
from tools.site.serve import serve_in_thread  # noqa: E402
from web.seats.narrator import DELAYS  # noqa: E402

LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries())
    window.__longTasks.push([entry.startTime, entry.duration]);
}).observe({type: "longtask", buffered: true});
"""
# Every change of the cards on the felt, as the DOM shows it: a card that wasn't there at
# the previous change "appears" (the view rewrites #trick's content, so compare sets), and
# the felt emptying is a "clear". The observer runs right after the render's mutation.
TRICK_LOG = """() => {
  window.__trickLog = [];
  let before = new Set();
  const trick = document.querySelector("#trick");
  new MutationObserver(() => {
    const t = performance.now();
    const cards = [...trick.querySelectorAll("[data-card]")];
    const now = new Set(cards.map(c => c.dataset.card));
    if (now.size === 0 && before.size > 0) window.__trickLog.push({t, kind: "clear"});
    for (const c of cards)
      if (!before.has(c.dataset.card))
        window.__trickLog.push({t, kind: "card", card: c.dataset.card,
                                seat: Number(c.dataset.from)});
    before = now;
  }).observe(trick, {childList: true, subtree: true});
}"""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SLACK = 0.3
"""The issue's target: a computer's card within the speed's pause plus this (seconds)."""


def ready_ms(table: TablePage) -> float:
    return float(table.page.evaluate("Number(document.documentElement.dataset.readyMs)"))


def check(table: TablePage) -> None:
    if table.errors:
        raise SystemExit("\n".join(table.errors))


def startup(browser: Browser, origin: str, runs: int) -> tuple[list[float], list[float]]:
    cold, warm = [], []
    for _ in range(runs):
        context = browser.new_context()
        table = TablePage(context.new_page(), origin, "measure")
        table.goto("?speed=instant")
        cold.append(ready_ms(table))
        table.reload()
        warm.append(ready_ms(table))
        check(table)
        context.close()
    return cold, warm


def longest_task(browser: Browser, origin: str, level: str) -> tuple[float, int]:
    context = browser.new_context()
    context.add_init_script(LONG_TASKS)
    table = TablePage(context.new_page(), origin, "measure")
    table.goto("?speed=instant&seed=4")
    table.choose_settings(level=level)
    table.play_hand()
    start = ready_ms(table)
    tasks = [d for t, d in table.page.evaluate("window.__longTasks") if t > start]
    check(table)
    context.close()
    return max(tasks, default=0.0), len(tasks)


# Press Hint and wait for the hinted cards: the time between, and the window's bounds.
TIME_HINT = """async () => {
  const hand = document.querySelector("#hand");
  const t0 = performance.now();
  const shown = new Promise(resolve => {
    const seen = () => hand.querySelector(".card.hinted");
    if (seen()) return resolve();
    const watch = new MutationObserver(() => {
      if (seen()) { watch.disconnect(); resolve(); }
    });
    watch.observe(hand, {attributes: true, subtree: true, childList: true});
  });
  document.querySelector("#hint").click();
  await shown;
  return [t0, performance.now()];
}"""


def hint_times(browser: Browser, origin: str, throttle: float, seed: int
               ) -> tuple[list[float], float]:
    """One hand following the hint at every decision: ms per hint, and the longest
    main-thread task (ms) that overlapped a hint's search."""
    context = browser.new_context()
    context.add_init_script(LONG_TASKS)
    page = context.new_page()
    table = TablePage(page, origin, "measure")
    table.goto(f"?speed=instant&seed={seed}")
    if throttle > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                {"rate": throttle})
    times: list[float] = []
    windows: list[tuple[float, float]] = []
    while (state := table.wait_input()) in ("pass", "play"):
        start, end = page.evaluate(TIME_HINT)
        windows.append((start, end))
        times.append(end - start)
        hinted = table.marked("hinted")
        if state == "pass":
            table.pass_cards(hinted)
        else:
            before = len(table.hand())
            table.click_card(hinted[0])
            page.wait_for_function(
                "n => document.querySelectorAll('#hand [data-card]').length < n"
                " || !['play'].includes(document.documentElement.dataset.state)", arg=before)
    tasks = page.evaluate("window.__longTasks")
    longest = max((d for t, d in tasks for a, b in windows if t < b and t + d > a),
                  default=0.0)
    check(table)
    context.close()
    return times, longest


def intervals(log: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """Seconds before each computer card of one hand's log: ``follow`` (from the previous
    card of the same trick), ``lead`` (from the felt clearing) and ``lead_card`` (from the
    previous trick's last card). The hand's first card has no previous card: left out, and
    so is every card of the person (seat 0): the time before it is the person's.

    >>> log = [{"t": 0, "kind": "card", "seat": 3}, {"t": 2000, "kind": "card", "seat": 0},
    ...        {"t": 2610, "kind": "card", "seat": 1}, {"t": 3215, "kind": "card", "seat": 2},
    ...        {"t": 4560, "kind": "clear"}, {"t": 5170, "kind": "card", "seat": 2},
    ...        {"t": 5780, "kind": "card", "seat": 3}]
    >>> {kind: [round(v, 3) for v in values] for kind, values in intervals(log).items()}
    {'follow': [0.61, 0.605, 0.61], 'lead': [0.61], 'lead_card': [1.955]}
    """
    out: dict[str, list[float]] = {"follow": [], "lead": [], "lead_card": []}
    last_card: float | None = None
    cleared: float | None = None
    for entry in log:
        t = float(entry["t"]) / 1000
        if entry["kind"] == "clear":
            cleared = t
            continue
        if entry["seat"] != 0 and last_card is not None:
            if cleared is not None:
                out["lead"].append(t - cleared)
                out["lead_card"].append(t - last_card)
            else:
                out["follow"].append(t - last_card)
        last_card, cleared = t, None
    return out


def pacing(browser: Browser, origin: str, speed: str, level: str, hands: int,
           seed: int) -> dict[str, list[float]]:
    context = browser.new_context(service_workers="block")
    table = TablePage(context.new_page(), origin, "measure")
    table.goto(f"?seed={seed}")
    table.choose_settings(speed=speed, level=level)
    assert table.storage("hearts.settings")["speed"] == speed
    assert table.storage("hearts.settings")["level"] == level
    assert table.page.evaluate("document.documentElement.dataset.speed") == speed
    table.page.evaluate(TRICK_LOG)
    found: dict[str, list[float]] = {"follow": [], "lead": [], "lead_card": []}
    for hand in range(hands):
        if hand:
            table.next_hand()
        table.page.evaluate("window.__trickLog.length = 0")
        table.play_hand()
        for kind, values in intervals(table.page.evaluate("window.__trickLog")).items():
            found[kind] += values
        if table.state() == "over":
            break
    check(table)
    context.close()
    return found


def p95(values: Sequence[float]) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def report(name: str, values: Sequence[float], delay: float) -> None:
    if not values:
        print(f"  {name}: no samples")
        return
    median, high = statistics.median(values), p95(values)
    within = sum(v <= delay + SLACK for v in values)
    print(f"  {name}: median {median:.3f} s, p95 {high:.3f} s, max {max(values):.3f} s, "
          f"n={len(values)}; pause {delay:.2f} s, excess median {median - delay:+.3f} s, "
          f"p95 {high - delay:+.3f} s; {within}/{len(values)} within pause + {SLACK} s")


# --- a fair table's next deal, each page in its own browser context -----------------------
PROFILE_US = 500
"""The CPU profile's sampling interval (microseconds) for ``--profile``."""
SLOWEST = 12
"""How many of a page's slowest steps ``--calls`` lists with their costliest functions."""
MARKER = """() => {
  const start = performance.now();
  function __profileMarker() { while (performance.now() < start + 20); }
  __profileMarker();
  return start;
}"""
"""A function the CPU profile shows by name, run at a known ``performance.now()``: it
ties the profile's clock to the page's (the long tasks' times), ``tools/long_tasks.py``."""
FAIR_WAIT_S = 400
"""The longest a step of ``fair_deal`` waits (a hand at 4x CPU takes minutes)."""


def _state_of(page: Page) -> str:
    return str(page.evaluate("document.documentElement.dataset.state || ''"))


def _fair_play_hand(tables: list[TablePage]) -> list[float]:
    """Each person passes their first three cards and plays their first playable one
    whenever their page lets them, to the hand's end; each page's ``performance.now()``
    when its person's last card of the hand left its hand."""
    for table in tables:
        table.page.wait_for_function(
            "document.documentElement.dataset.state === 'pass'"
            " && document.querySelectorAll('#hand [data-card]').length === 13",
            timeout=FAIR_WAIT_S * 1000)
        for card in table.hand()[:3]:
            table.click_card(card)
        table.page.click("#pass")  # (not ``pass_cards``: it waits for the others' passes)
    last = [0.0] * len(tables)
    until = time.monotonic() + FAIR_WAIT_S
    while time.monotonic() < until:
        states = [_state_of(t.page) for t in tables]
        if all(s in ("summary", "over") for s in states):
            return last
        mover = next((t for t, s in zip(tables, states, strict=True) if s == "play"), None)
        playable = mover.playable() if mover is not None else []
        if mover is None or not playable:
            tables[0].page.wait_for_timeout(100)
            continue
        before = len(mover.hand())
        mover.click_card(playable[0])
        mover.page.wait_for_function(
            "n => document.querySelectorAll('#hand [data-card]').length < n", arg=before,
            timeout=FAIR_WAIT_S * 1000)
        if before == 1:
            last[tables.index(mover)] = float(mover.page.evaluate("performance.now()"))
    raise SystemExit("the fair hand did not finish")


WATCH_DEAL = """() => {
  window.__pressed = null;
  window.__cards = null;
  document.addEventListener("click", event => {
    if (window.__pressed === null && event.target.closest("#next-hand"))
      window.__pressed = performance.now();
  }, true);
  const dealt = () => document.documentElement.dataset.state === "pass"
    && document.querySelectorAll("#hand [data-card]").length === 13;
  new MutationObserver((_, watching) => {
    if (window.__pressed !== null && window.__cards === null && dealt()) {
      window.__cards = performance.now();
      watching.disconnect();
    }
  }).observe(document.documentElement, {attributes: true, childList: true, subtree: true});
}"""
"""Each page notes, on its own clock, when its person pressed Next hand and when its 13
cards came (a MutationObserver runs at the end of the task that drew them): the harness's
own waits (a click on a busy throttled page, the other page's wait checked first) are then
not counted in the deal."""


def _longest(tasks: list[list[float]], start: float, end: float) -> float:
    """The longest of ``tasks`` ([start, duration], ms) that overlaps ``start``..``end``."""
    return max((d for t, d in tasks if t < end and t + d > start), default=0.0)


def slow_summary(lines: list[str]) -> str:
    """The page's steps named slow (``slow step NAME MS ms`` lines, ``web.slow_steps``):
    per name, how many and the longest, longest first.

    >>> slow_summary(["slow step flush 40 ms", "slow step flush 90 ms", "slow step a b 31 ms"])
    'flush 2x max 90 ms, a b 1x max 31 ms'
    """
    found: dict[str, list[float]] = {}
    for line in lines:
        if not line.startswith("slow step "):
            continue
        name, ms = line.removeprefix("slow step ").rsplit(" ", 2)[:2]
        found.setdefault(name, []).append(float(ms))
    return ", ".join(f"{name} {len(v)}x max {max(v):.0f} ms" for name, v in
                     sorted(found.items(), key=lambda kv: -max(kv[1])))


def slowest_calls(lines: list[str], count: int) -> list[str]:
    """The ``count`` slowest steps with their costliest functions (a ``slow calls`` line
    follows its ``slow step`` line when the page was asked ``&calls=N``), slowest first.

    >>> slowest_calls(["slow step a 40 ms", "slow calls a: f 30/40 ms",
    ...                "slow step b 90 ms", "slow calls b: g 80/90 ms"], 1)
    ['b 90 ms: g 80/90 ms']
    """
    found = []
    for step, calls in itertools.pairwise(lines):
        if step.startswith("slow step ") and calls.startswith("slow calls "):
            name, ms = step.removeprefix("slow step ").rsplit(" ", 2)[:2]
            found.append((float(ms), f"{name} {ms} ms: {calls.split(': ', 1)[1]}"))
    return [line for _, line in sorted(found, key=lambda f: -f[0])[:count]]


def _keep_slow(lines: list[str]) -> Callable[[ConsoleMessage], None]:
    """A console listener keeping the page's ``slow step`` and ``slow calls`` lines in
    ``lines``."""
    def keep(message: ConsoleMessage) -> None:
        if message.text.startswith(("slow step ", "slow calls ")):
            lines.append(message.text)
    return keep


def fair_deal(browser: Browser, origin: str, relay: str, throttle: float, slow: int = 0,
              profile: Path | None = None, calls: int = 0, only: int | None = None
              ) -> list[dict[str, float]]:
    """Two people (each page in its own browser context, CPU slowed ``throttle`` times)
    and two computers at a fair table through the local relay: they play hand 1, then
    press Next hand. Per page: seconds from its person's last card of hand 1, and from
    Next hand, to its 13 cards of hand 2; the longest main-thread task (ms) in each of
    those spans and during hand 1's play. ``only``: slow down that page alone (a phone
    at a table of computers: Chromium's throttle makes a slowed page's thread spin
    while it is held, a whole core, and two of them fill this machine's two). With
    ``profile``, page 0's (or the page ``only``'s) DevTools CPU profile from hand 1's deal
    to hand 2's cards is written there (``tools/long_tasks.py`` reads it)."""
    tables = []
    slow_lines: list[list[str]] = [[], []]
    for n in range(2):
        context = browser.new_context(service_workers="block")
        context.set_default_timeout(FAIR_WAIT_S * 1000)
        context.add_init_script(LONG_TASKS)
        tables.append(TablePage(context.new_page(), origin, f"fair-{n}"))
        tables[-1].page.on("console", _keep_slow(slow_lines[n]))
    ask = (f"&slow={slow}" if slow else "") + (f"&calls={calls}" if slow and calls else "")
    for table in tables:
        table.page.goto(f"{origin}/?speed=instant&relay={relay}&wait=4{ask}",
                        wait_until="commit")
    sessions = []
    for table in tables:
        table.wait_loaded(90_000)
        table.page.wait_for_selector("#play-online:not([disabled])", timeout=30_000)
        sessions.append(table.page.context.new_cdp_session(table.page))
        if throttle > 1 and only in (None, len(sessions) - 1):
            sessions[-1].send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    for table in tables:
        table.page.click("#play-online")
    for table in tables:  # seated, and dealt
        table.page.wait_for_function(
            "document.querySelector('#table').dataset.people === '2'"
            " && document.documentElement.dataset.state === 'pass'",
            timeout=FAIR_WAIT_S * 1000)
    dealt = [float(t.page.evaluate("performance.now()")) for t in tables]
    profiled = 0 if only is None else only  # the slowed page's, when one is
    if profile is not None:
        sessions[profiled].send("Profiler.enable")
        sessions[profiled].send("Profiler.setSamplingInterval", {"interval": PROFILE_US})
        sessions[profiled].send("Profiler.start")
        marker = float(tables[profiled].page.evaluate(MARKER))
    last = _fair_play_hand(tables)
    summary = [float(t.page.evaluate("performance.now()")) for t in tables]
    for table in tables:
        table.page.evaluate(WATCH_DEAL)
    for table in tables:
        table.page.click("#next-hand")
    pressed, cards = [], []
    for table in tables:
        table.page.wait_for_function("window.__cards !== null", timeout=FAIR_WAIT_S * 1000)
        pressed.append(float(table.page.evaluate("window.__pressed")))
        cards.append(float(table.page.evaluate("window.__cards")))
    if profile is not None:
        profile.write_text(json.dumps({
            "profile": sessions[profiled].send("Profiler.stop")["profile"], "marker": marker,
            "longTasks": tables[profiled].page.evaluate("window.__longTasks")}))
    found = []
    for n, table in enumerate(tables):
        tasks = table.page.evaluate("window.__longTasks")
        found.append({"last card to cards (s)": (cards[n] - last[n]) / 1000,
                      "Next hand to cards (s)": (cards[n] - pressed[n]) / 1000,
                      "summary shown after last card (s)": (summary[n] - last[n]) / 1000,
                      "longest task, last card to cards (ms)": _longest(tasks, last[n], cards[n]),
                      "longest task, Next hand to cards (ms)": _longest(tasks, pressed[n],
                                                                          cards[n]),
                      "longest task, hand 1 played (ms)": _longest(tasks, dealt[n], last[n])})
        check(table)
        if slow:
            print(f"  page {n}'s steps of {slow} ms or more: {slow_summary(slow_lines[n])}")
            for line in slowest_calls(slow_lines[n], SLOWEST):
                print(f"    {line}")
    for table in tables:
        table.page.context.close()
    return found


def local_relay() -> tuple[subprocess.Popen[str], str]:
    """A local Nostr relay (``e2e/nostr_relay.mjs``) and its ws:// address."""
    process = subprocess.Popen(["node", str(ROOT / "e2e" / "nostr_relay.mjs"), "0"],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline().split()
    if not line or line[0] != "listening":
        raise SystemExit(f"the local relay didn't start: {line}")
    return process, f"ws://127.0.0.1:{line[1]}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        epilog="With none of --startup, --tasks, --pacing, --hints, all of them run.")
    parser.add_argument("--startup", action="store_true", help="time to data-ready")
    parser.add_argument("--tasks", action="store_true",
                        help="longest main-thread task in a hand, normal and hard")
    parser.add_argument("--pacing", action="store_true",
                        help="time from the previous card to each computer card")
    parser.add_argument("--hints", action="store_true",
                        help="ms per hint (the hard player's search), plain and at 4x CPU")
    parser.add_argument("--fair", action="store_true",
                        help="a fair table's next deal, two people and two computers, each "
                             "page in its own context (not run by default: minutes)")
    parser.add_argument("--throttle", type=float, nargs="+", default=[1.0, 4.0],
                        help="CPU slow-downs for --fair (default 1 4)")
    parser.add_argument("--slow", type=int, default=0, metavar="MS",
                        help="with --fair: name the pages' own steps of MS ms or more "
                             "(?slow=MS, web.slow_steps)")
    parser.add_argument("--only", type=int, choices=(0, 1),
                        help="with --fair: slow down only this page (0 or 1), the other at "
                             "full speed (the throttle spins a core per slowed page)")
    parser.add_argument("--calls", type=int, default=0, metavar="N",
                        help="with --slow: each page's slowest steps with the N Python "
                             "functions that took most of them (&calls=N, CPython's "
                             "profiler: it slows the steps some twofold)")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="with --fair: page 0's (--only's) DevTools CPU profile, from hand "
                             "1's deal to hand 2's cards, written to FILE (read it with "
                             "tools/long_tasks.py)")
    parser.add_argument("--runs", type=int, default=3, help="start-up runs (default 3)")
    parser.add_argument("--hands", type=int, default=2,
                        help="hands played for --pacing (default 2)")
    parser.add_argument("--speed", choices=[s for s in DELAYS if s != "instant"],
                        default="normal", help="computer speed for --pacing (normal)")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="hard",
                        help="computer level for --pacing (hard)")
    parser.add_argument("--seed", type=int, default=4, help="deal seed for --pacing (4)")
    parser.add_argument("--site", type=Path,
                        help="serve this built site (default: build a fresh one)")
    args = parser.parse_args()
    everything = not (args.startup or args.tasks or args.pacing or args.hints or args.fair)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or build(Path(tmp) / "site")
        server, _ = serve_in_thread(site)
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            if everything or args.startup:
                cold, warm = startup(browser, origin, args.runs)
                print(f"cold load to data-ready: median {statistics.median(cold) / 1000:.2f} s"
                      f" ({', '.join(f'{v / 1000:.2f}' for v in cold)})")
                print(f"warm load to data-ready: median {statistics.median(warm) / 1000:.2f} s"
                      f" ({', '.join(f'{v / 1000:.2f}' for v in warm)})")
            if everything or args.tasks:
                for level in ("normal", "hard"):
                    longest, count = longest_task(browser, origin, level)
                    print(f"one hand at {level}: longest main-thread task {longest:.0f} ms "
                          f"({count} tasks over 50 ms)")
            if everything or args.hints:
                for throttle in (1, 4):
                    times, longest = hint_times(browser, origin, throttle, args.seed)
                    print(f"hints, one hand following each (seed {args.seed}), CPU "
                          f"{'plain' if throttle == 1 else f'throttled {throttle}x'}: median "
                          f"{statistics.median(times):.0f} ms, p95 {p95(times):.0f} ms, "
                          f"max {max(times):.0f} ms, n={len(times)}; longest task meanwhile: "
                          + (f"{longest:.0f} ms" if longest else "none over 50 ms"))
            if everything or args.pacing:
                card, show, slide = DELAYS[args.speed]
                found = pacing(browser, origin, args.speed, args.level, args.hands,
                               args.seed)
                print(f"pacing at {args.speed} speed, {args.level} level, {args.hands} "
                      f"hand(s), seed {args.seed}: seconds before each computer card")
                report("after the previous card of the trick", found["follow"], card)
                report("leading, after the felt clears", found["lead"], card)
                report("leading, after the last trick's last card", found["lead_card"],
                       card + show + slide)
                load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
                print(f"  (machine load average {load}; {os.cpu_count()} cores)")
            if args.fair:
                process, relay = local_relay()
                try:
                    for throttle in args.throttle:
                        for n, page in enumerate(
                                fair_deal(browser, origin, relay, throttle, args.slow,
                                          args.profile, args.calls, args.only)):
                            print(f"fair table, 2 people + 2 computers, CPU x{throttle:g}, "
                                  f"page {n}: " + "; ".join(f"{k} {v:.1f}"
                                                            for k, v in page.items()))
                finally:
                    process.terminate()
                    process.wait(10)
                load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
                print(f"  (machine load average {load}; {os.cpu_count()} cores)")
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
