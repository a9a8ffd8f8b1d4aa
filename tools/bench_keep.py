"""Time what a fair table's page keeps for its tab, written before each of its messages.

    python tools/bench_keep.py                        # CPython, storage in memory
    python tools/bench_keep.py --chromium --throttle 4

Four ``FairTable`` pages play one hand over a mesh in this process (the table's group);
before each message page 1 sends and after each it takes, its ``KeptSeat``
(``web.friends.fair_back``) brings the tab's record up to date and writes it to the tab's
storage, as the page does (``web.friends.dialog``'s ``keep_seat``). Printed: the record's
size at the hand's end, and per update the time of the whole update and of each storage
write in it (a part of the record: ``KeptSeat``), mean and at most (the best of
``--hands`` runs), and how many updates the hand made.

``--chromium`` serves this repository, opens headless Debian Chromium with Playwright and
runs the same code in Pyodide loaded from ``node_modules/pyodide`` (no network), writing to
the page's real ``sessionStorage``; ``--throttle N`` slows its CPU N times (the DevTools
protocol's ``Emulation.setCPUThrottlingRate``: 4 is a mid-range phone).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

KEY_SEAT = "hearts.seat"
"""``web.friends.dialog.KEY_SEAT`` (that module needs the page's modules: not imported)."""
SOURCES = ["hearts", "web"]
"""What the page is given to run this file."""


class _Memory:
    """A ``sessionStorage`` in memory (CPython)."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def setItem(self, key: str, value: str) -> None:
        self.items[key] = value

    def getItem(self, key: str) -> str | None:
        return self.items.get(key)

    def removeItem(self, key: str) -> None:
        self.items.pop(key, None)


def one_hand(storage: Callable[[], Any], seed: int = 1) -> dict[str, float]:
    """One hand of four pages; page 1 keeps its record in ``storage()``, timed."""
    from hearts.rules import NUM_SEATS
    from web.friends.fair_back import Kept, KeptSeat, gather
    from web.friends.fair_tables import PageTables
    from web.p2p.fair.group import GROUP
    from web.p2p.fair.table import FairStage, FairTable
    from web.storage import Storage

    rng = random.Random(seed)
    signing = [GROUP.short_key(rng) for _ in range(NUM_SEATS)]
    keys = [GROUP.power(GROUP.generator, x) for x in signing]
    pages = [FairTable(s, now=lambda: 0.0, turn=30.0, name="bench", signing_key=signing[s],
                       keys=keys) for s in range(NUM_SEATS)]
    channels: dict[tuple[int, int], list[str]] = {
        (a, b): [] for a in range(NUM_SEATS) for b in range(NUM_SEATS) if a != b}
    tab = Storage(storage)
    writes: list[float] = []

    def write(text: str | None, part: str = "") -> None:
        clock = time.perf_counter()
        if text is None:
            tab.remove(KEY_SEAT)
        else:
            tab.set(KEY_SEAT + part, text)
        writes.append((time.perf_counter() - clock) * 1000)

    kept = KeptSeat("bench-code", write)
    tables = PageTables(pages[1], None)
    others = {"p0": 0, "p2": 2, "p3": 3}
    updates: list[float] = []

    def keep() -> None:
        clock = time.perf_counter()
        kept.update(tables, others, None, (signing[1], 0))
        updates.append((time.perf_counter() - clock) * 1000)

    def run() -> None:
        while True:
            for page in pages:
                if page.seat == 1 and page.outbox:
                    keep()  # the tab holds every message of the page before it leaves
                for text in page.take_outbox():
                    for other in range(NUM_SEATS):
                        if other != page.seat:
                            channels[(page.seat, other)].append(text)
            busy = [k for k, queue in channels.items() if queue]
            if busy:
                sender, receiver = rng.choice(busy)
                pages[receiver].received_from(sender, channels[(sender, receiver)].pop(0))
                if receiver == 1:
                    keep()  # and after each message it takes (``FairPlay._after``)
                continue
            if not any(page.work_step() is not None for page in pages):
                return

    run()
    for page in pages:
        page.choose_pass(tuple(page.hand()[:3]))
        run()
    while any(page.stage is FairStage.PLAYING for page in pages):
        mover = next(page for page in pages if page.to_play() == page.seat)
        mover.play(mover.auto_card())
        run()
    if any(page.stage is not FairStage.SCORED for page in pages):
        raise AssertionError("an honest hand of four pages did not end scored")
    whole = gather(tab.get(KEY_SEAT) or "", lambda part: tab.get(KEY_SEAT + part))
    back = Kept.read(whole)
    assert back is not None and back.hands, "the record reads back"
    return {"record_kb": len(whole) / 1000, "updates": float(len(updates)),
            "update_ms_mean": statistics.fmean(updates), "update_ms_max": max(updates),
            "write_ms_mean": statistics.fmean(writes), "write_ms_max": max(writes)}


def measure(hands: int, browser: bool = False) -> dict[str, float]:
    """The best (least disturbed) of ``hands`` runs; ``browser``: in the page's storage."""
    if browser:
        import js  # type: ignore[import-not-found]  # Pyodide's

        def storage() -> Any:
            return js.sessionStorage
    else:
        memory = _Memory()

        def storage() -> Any:
            return memory
    runs = [one_hand(storage, seed=1 + n) for n in range(hands)]
    return {name: min(r[name] for r in runs) for name in runs[0]}


def _line(where: str, f: dict[str, float]) -> str:
    return (f"{where:15} record {f['record_kb']:4.0f} kB at the hand's end,"
            f" {f['updates']:3.0f} updates: each {f['update_ms_mean']:5.2f} ms mean"
            f" {f['update_ms_max']:6.2f} max; a storage write"
            f" {f['write_ms_mean']:5.2f} mean {f['write_ms_max']:6.2f} max")


def _in_chromium(hands: int, throttle: float) -> dict[str, float]:
    from tools.bench_fair import in_chromium

    files: dict[str, str] = {}
    for source in SOURCES:
        for file in sorted((REPO / source).rglob("*.py")):
            files["/bench/" + file.relative_to(REPO).as_posix()] = file.read_text()
    files["/bench/bench_keep.py"] = Path(__file__).read_text()
    code = ("import json, sys\nsys.path.insert(0, '/bench')\nimport bench_keep\n"
            f"json.dumps(bench_keep.measure({hands}, browser=True))")
    parsed: dict[str, float] = json.loads(in_chromium(files, code, throttle))
    return parsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1, help="runs (the best is shown)")
    parser.add_argument("--chromium", action="store_true", help="also run in Chromium")
    parser.add_argument("--throttle", type=float, default=1.0,
                        help="Chromium's CPU slowed this many times (4: a mid-range phone)")
    args = parser.parse_args()
    print(_line("CPython", measure(args.hands)))
    if args.chromium:
        where = "Chromium" if args.throttle == 1 else f"Chromium {args.throttle:g}x"
        print(_line(where, _in_chromium(args.hands, args.throttle)))


if __name__ == "__main__":
    main()
