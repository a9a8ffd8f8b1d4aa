"""Time a fair hand (web/p2p/fair/) on CPython, in Pyodide under Node, and in Chromium.

    python tools/bench_fair.py                        # CPython, the table's group
    python tools/bench_fair.py --bits 1024 1536 2048  # compare the published primes
    python tools/bench_fair.py --pyodide --chromium   # then the same run in Pyodide

One process plays all four pages of a hand (their work adds up: a real page does a quarter
of the deal), with keys from ``secrets``. Printed per group, the best wall-clock time of
``--hands`` runs (the least disturbed on a busy machine), and the deal in units of one
full-size ``pow`` timed in the same process, a figure the machine's load hardly moves:

- deal: the four shuffles and their proofs (each made, and checked once), the four locks and
  the three opening rounds, each page reading
  its 13 cards (budget: 2 s for the four pages together);
- pass: the three cards each way, re-keyed to their receivers;
- check: one page reading a played card off the wire and checking its proof (budget:
  20 ms), mean and max;
- audit: one page's audit of the finished hand, and its longest slice (``audit_in_steps``);
- with ``--tasks``: four pages' ``FairTable`` play one hand over a mesh in this process:
  the longest call of a page, taking a message or a slice of its background work (each
  is one main-thread task in the page: budget 100 ms);
  each page keeps its record of the hand for its tab before it sends (``resume``): the
  record's size (kB, at most and mid-hand), each update's cost, and a page's table taken
  up from it after 26 cards;
- with ``--computer``: the same, a computer at seat 2 played by the hard player: each page
  replays its decisions once the keys are shown (``steered``): the replay's time at one
  page, and its longest slice;
- with ``--shuffle-proof``: one shuffle's proof (``shuffle_proof``, also inside the deal
  above), made once and checked once (a page makes one and checks three).

``--chromium`` serves this repository, opens headless Debian Chromium with Playwright and
runs the same code in Pyodide loaded from ``node_modules/pyodide`` (no network);
``--throttle N`` slows its CPU N times (the DevTools protocol's
``Emulation.setCPUThrottlingRate``: 4 is a mid-range phone).
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from collections.abc import Callable  # noqa: E402

from hearts.rules import NUM_SEATS, PassDirection  # noqa: E402
from hearts.view import PlayerView  # noqa: E402
from tools.fair_local import LocalTable, first_legal  # noqa: E402
from web.p2p.fair.audit import audit_in_steps  # noqa: E402
from web.p2p.fair.group import GROUPS  # noqa: E402
from web.p2p.fair.shuffle_proof import check_shuffle, prove_shuffle  # noqa: E402
from web.p2p.fair.wire import message, receive  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
SOURCES = ["hearts", "web", "tools/__init__.py", "tools/fair_local.py"]
"""What the page is given to run this file (``tools.fair_local`` lives outside ``web``, so
the site doesn't ship it to players)."""


def full_pow_ms(size: int) -> float:
    """The best of 20 timed ``pow(x, e, p)`` with a full-size exponent: the unit of cost."""
    group = GROUPS[size]
    source = secrets.SystemRandom()
    times = []
    for _ in range(20):
        x, e = source.randrange(2, group.p), source.randrange(group.q, group.p - 1)
        clock = time.perf_counter()
        pow(x, e, group.p)
        times.append((time.perf_counter() - clock) * 1000)
    return min(times)


def one_hand(size: int) -> tuple[dict[str, float], list[float]]:
    """One whole hand of four pages: the ms of each part, and of each play's check."""
    table = LocalTable(PassDirection.LEFT, group=GROUPS[size])
    figures: dict[str, float] = {}
    clock = time.perf_counter()
    dealt = table.deal()
    figures["deal_ms"] = (time.perf_counter() - clock) * 1000
    clock = time.perf_counter()
    table.pass_cards([hand[:3] for hand in dealt])
    figures["pass_ms"] = (time.perf_counter() - clock) * 1000
    public, checks = table.transcripts[0], []
    while not public.finished:
        seat = public.to_play
        party = table.parties[seat] if seat is not None else next(
            p for p in table.parties if any(str(c) == "2C" for c in p.hand()))
        card = first_legal(party, party.transcript)
        slot, proof = party.play(card)
        text = message("fair_play", slot=slot, card=card, proof=proof)
        for other in table.transcripts[1:]:
            receive(other, party.seat, text)
        clock = time.perf_counter()
        receive(public, party.seat, text)  # one page reads and checks one card played
        checks.append((time.perf_counter() - clock) * 1000)
    table.finish(auditors=())
    clock = time.perf_counter()
    steps, slices = audit_in_steps(public), []
    while True:
        start = time.perf_counter()
        try:
            next(steps)
        except StopIteration as done:
            fault = done.value.fault
            break
        finally:
            slices.append((time.perf_counter() - start) * 1000)
    figures["audit_ms"] = (time.perf_counter() - clock) * 1000
    figures["audit_slice_ms"] = max(slices)
    if fault is not None:
        raise AssertionError(f"an honest hand failed its audit: {fault}")
    return figures, checks


def shuffle_proof_ms(size: int) -> dict[str, float]:
    """One shuffle of the 52 card codes: its proof made, then checked, in ms."""
    group = GROUPS[size]
    source = secrets.SystemRandom()
    key = group.short_key(source)
    order = list(range(52))
    source.shuffle(order)
    after = [group.power(group.codes[i], key) for i in order]
    commitment = group.power(group.generator, key)
    clock = time.perf_counter()
    proof = prove_shuffle(group, key, order, group.codes, after, b"bench", source)
    made = (time.perf_counter() - clock) * 1000
    clock = time.perf_counter()
    if not check_shuffle(group, group.codes, after, commitment, proof, b"bench"):
        raise AssertionError("an honest shuffle's proof failed")
    return {"shuffle_prove_ms": made, "shuffle_check_ms": (time.perf_counter() - clock) * 1000}


def longest_tasks_ms(size: int, seed: int = 1, computer: bool = False) -> dict[str, float]:
    """Four ``FairTable`` pages of one hand in this process, over a mesh that delivers one
    message at a time: the longest single call a page makes — taking a message (with the
    steps it makes due) and one slice of its background work. In the page each is one
    main-thread task (budget: 100 ms). ``computer``: seat 2 is a computer, played by its
    bot, and each page replays it (``replay_ms``: at one page; its longest slice)."""
    from web.p2p.fair.resume import HandKeeper, HandKept
    from web.p2p.fair.steered import bot  # the page's words come with these
    from web.p2p.fair.table import FairStage, FairTable

    group = GROUPS[size]
    rng = random.Random(seed)
    signing = [group.short_key(rng) for _ in range(NUM_SEATS)]
    keys = [group.power(group.generator, x) for x in signing]
    computers = {2: 1} if computer else {}
    player = bot("bench", 2)
    pages = [FairTable(s, now=lambda: 0.0, turn=30.0, group=group, name="bench",
                       signing_key=signing[s], keys=keys, computers=computers)
             for s in range(NUM_SEATS)]
    channels: dict[tuple[int, int], list[str]] = {
        (a, b): [] for a in range(NUM_SEATS) for b in range(NUM_SEATS) if a != b}
    longest = {"task_message_ms": 0.0, "task_slice_ms": 0.0}
    if computer:
        longest["replay_slice_ms"] = 0.0

    def timed(name: str, call: Callable[..., object], *args: object) -> object:
        clock = time.perf_counter()
        result = call(*args)
        longest[name] = max(longest[name], (time.perf_counter() - clock) * 1000)
        return result

    keepers = [HandKeeper() for _ in pages]
    kept = [""] * NUM_SEATS
    keeps: list[float] = []

    def keep(page: FairTable) -> None:
        """What the page keeps for its tab before it sends (``resume``), timed."""
        clock = time.perf_counter()
        text = keepers[page.seat].text(page)
        if text is not None:
            keeps.append((time.perf_counter() - clock) * 1000)
            kept[page.seat] = text

    def run() -> None:
        while True:
            for page in pages:
                if page.outbox:
                    keep(page)
                for text in page.take_outbox():
                    for other in range(NUM_SEATS):
                        if other != page.seat:
                            channels[(page.seat, other)].append(text)
            busy = [k for k, queue in channels.items() if queue]
            if busy:
                sender, receiver = rng.choice(busy)
                text = channels[(sender, receiver)].pop(0)
                timed("task_message_ms", pages[receiver].received_from, sender, text)
                continue
            worked = False
            for page in pages:
                replaying = page.replaying
                clock = time.perf_counter()
                done = page.work_step()
                took = (time.perf_counter() - clock) * 1000
                key = "replay_slice_ms" if replaying else "task_slice_ms"
                longest[key] = max(longest[key], took)
                worked = worked or done is not None
            if not worked:
                return

    def view(page: FairTable) -> PlayerView:
        seen = page.view()
        assert seen is not None
        return seen

    run()
    for page in pages:
        mine = page.seat in computers
        page.choose_pass(tuple(player.choose_pass(view(page)) if mine else page.hand()[:3]))
        run()
    while any(page.stage is FairStage.PLAYING for page in pages):
        mover = next(page for page in pages if page.to_play() == page.seat)
        card = player.choose_play(view(mover)) if mover.seat in computers else mover.auto_card()
        timed("task_message_ms", mover.play, card)
        run()
        if len(mover.transcript.plays) == 26:  # a reload mid-hand: the record taken up
            clock = time.perf_counter()
            record = HandKept.read(json.loads(kept[1]))
            assert record is not None
            again = FairTable(1, now=lambda: 0.0, turn=30.0, group=group, name="bench",
                              signing_key=signing[1], keys=keys, computers=computers,
                              kept=record)
            longest["resume_ms"] = (time.perf_counter() - clock) * 1000
            assert again.resumed and again.hand() == pages[1].hand()
            longest["record_kb_mid_hand"] = len(kept[1]) / 1000
    if any(page.stage is not FairStage.SCORED for page in pages):
        raise AssertionError("an honest hand of four pages did not end scored")
    if computer:
        longest["replay_ms"] = pages[0].timings["replay"][-1]
    longest["record_kb_max"] = max(map(len, kept)) / 1000
    longest["keep_ms_mean"] = statistics.mean(keeps)
    longest["keep_ms_max"] = max(keeps)
    return longest


def measure(bits: list[int], hands: int, proof: bool = False, tasks: bool = False,
            computer: bool = False) -> dict[str, dict[str, float]]:
    """The best (least disturbed) of ``hands`` runs per group, in ms."""
    out: dict[str, dict[str, float]] = {}
    for size in bits:
        runs = [one_hand(size) for _ in range(hands)]
        unit = full_pow_ms(size)  # after the hands: Chromium compiles hot wasm better later
        figures = {name: min(r[0][name] for r in runs) for name in runs[0][0]}
        checks = [ms for _, hand_checks in runs for ms in hand_checks]
        figures["full_pow_ms"] = unit
        figures["check_mean_ms"] = statistics.fmean(checks)
        figures["check_max_ms"] = max(checks)
        if proof:
            figures.update(shuffle_proof_ms(size))
        if tasks or computer:
            figures.update(longest_tasks_ms(size, computer=computer))
        out[GROUPS[size].name] = figures
    return out


def _line(where: str, results: dict[str, dict[str, float]]) -> str:
    lines = []
    for name, f in results.items():
        lines.append(
            f"{where:15} {name:37} deal {f['deal_ms']:6.0f} ms"
            f" (= {f['deal_ms'] / f['full_pow_ms']:3.0f} pows of {f['full_pow_ms']:4.2f})"
            f"  pass {f['pass_ms']:4.0f}  check {f['check_mean_ms']:4.1f} mean"
            f" {f['check_max_ms']:5.1f} max  audit {f['audit_ms']:5.0f} ms"
            f" (slices {f['audit_slice_ms']:3.0f})"
            + (f"  shuffle proof: make {f['shuffle_prove_ms']:5.0f} ms,"
               f" check {f['shuffle_check_ms']:5.0f} ms" if "shuffle_prove_ms" in f else "")
            + (f"  longest task: a message {f['task_message_ms']:4.0f} ms,"
               f" a slice {f['task_slice_ms']:4.0f} ms" if "task_message_ms" in f else "")
            + (f"  a computer's replay {f['replay_ms']:5.0f} ms at a page (slices"
               f" {f['replay_slice_ms']:3.0f} ms)" if "replay_ms" in f else "")
            + (f"  record kept for a reload: {f['record_kb_mid_hand']:4.0f} kB mid-hand,"
               f" {f['record_kb_max']:4.0f} kB at most, an update {f['keep_ms_mean']:4.2f} ms"
               f" mean {f['keep_ms_max']:4.2f} max, taken up after 26 cards in"
               f" {f['resume_ms']:5.0f} ms" if "record_kb_max" in f else ""))
    return "\n".join(lines)


def _in_chromium(bits: list[int], hands: int, proof: bool, tasks: bool, computer: bool,
                 throttle: float) -> dict[str, dict[str, float]]:
    files: dict[str, str] = {}
    for source in SOURCES:
        path = REPO / source
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            files["/bench/" + file.relative_to(REPO).as_posix()] = file.read_text()
    files["/bench/bench_fair.py"] = Path(__file__).read_text()
    code = ("import json, sys\nsys.path.insert(0, '/bench')\nimport bench_fair\n"
            f"json.dumps(bench_fair.measure({bits!r}, {hands}, {proof!r}, {tasks!r}, "
            f"{computer!r}))")
    parsed: dict[str, dict[str, float]] = json.loads(in_chromium(files, code, throttle))
    return parsed


def in_chromium(files: dict[str, str], code: str, throttle: float) -> str:
    """Run ``code`` in Pyodide in headless Chromium (its CPU slowed ``throttle`` times),
    ``files`` written to its file system first (path -> text); the last expression's
    value, a string."""
    from playwright.sync_api import sync_playwright

    from tools.site.serve import serve_in_thread

    server, _ = serve_in_thread(REPO)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            if throttle != 1:
                cdp = page.context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/package.json")
            result = page.evaluate("""async ({files, code}) => {
                const { loadPyodide } = await import('/node_modules/pyodide/pyodide.mjs');
                const py = await loadPyodide({ indexURL: '/node_modules/pyodide/' });
                for (const [path, text] of Object.entries(files)) {
                    py.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')));
                    py.FS.writeFile(path, text);
                }
                return py.runPython(code);
            }""", {"files": files, "code": code})
            browser.close()
    finally:
        server.shutdown()
    return str(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bits", type=int, nargs="+", default=[1024], choices=sorted(GROUPS))
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--pyodide", action="store_true", help="also run in Pyodide (Node)")
    parser.add_argument("--chromium", action="store_true", help="also run in Chromium")
    parser.add_argument("--shuffle-proof", action="store_true",
                        help="also time one shuffle's proof, made and checked")
    parser.add_argument("--tasks", action="store_true",
                        help="also the longest task of four pages' tables in one hand")
    parser.add_argument("--computer", action="store_true",
                        help="the same with a computer at seat 2, replayed by each page")
    parser.add_argument("--throttle", type=float, default=1.0,
                        help="slow Chromium's CPU this many times (4: a phone)")
    args = parser.parse_args()
    in_pyodide = sys.platform == "emscripten"
    print(_line("Pyodide (Node)" if in_pyodide else "CPython",
                measure(args.bits, args.hands, args.shuffle_proof, args.tasks, args.computer)),
          flush=True)
    if in_pyodide:
        return
    if args.pyodide:
        command = ["node", str(REPO / "tools" / "pyodide_run.mjs"), "--mount", str(REPO / "web"),
                   "--mount", str(REPO / "tools"),  # (``tools.fair_local``, which left web/)
                   str(Path(__file__).resolve()), "--bits", *map(str, args.bits),
                   "--hands", str(args.hands),
                   *(["--shuffle-proof"] if args.shuffle_proof else []),
                   *(["--tasks"] if args.tasks else []),
                   *(["--computer"] if args.computer else [])]
        print(subprocess.run(command, check=True, capture_output=True, text=True,
                             cwd=REPO).stdout, end="", flush=True)
    if args.chromium:
        where = "Chromium" if args.throttle == 1 else f"Chromium {args.throttle:g}x"
        print(_line(where, _in_chromium(args.bits, args.hands, args.shuffle_proof, args.tasks,
                                        args.computer, args.throttle)))


if __name__ == "__main__":
    main()
