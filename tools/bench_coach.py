"""Time the coach's review of whole hands on CPython and inside real Pyodide.

    python tools/bench_coach.py                  # CPython only
    python tools/bench_coach.py --pyodide        # CPython, then the same hands in Pyodide (Node)
    python tools/bench_coach.py --hands 4 --iterations 3000

The hands are the same on both interpreters: seeded first hands played by the normal
player, reviewed for South with the coach's settings (``hearts.coach``). Prints per hand
the mean and max wall-clock seconds of a whole review, the mean ms per evaluated play,
the longest slice between two yields (what the page waits at most before it can draw),
and the points lost to mistakes; the reviews must agree between CPython and Pyodide.
Pyodide under Node is slower than Pyodide in Chromium: an upper bound for the page.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from hearts import CardPlayed, Game  # noqa: E402
from hearts.bots import make  # noqa: E402
from hearts.coach import COACH_ITERATIONS, PASS_DEALS, Coach, HandReview  # noqa: E402
from hearts.seathand import SeatHand  # noqa: E402


def hand(seed: int) -> SeatHand:
    """Hand 1 of ``Game.new(seed)`` played by the normal player, as South saw it."""
    game = Game.new(seed)
    bots = [make("normal", seat) for seat in range(4)]
    for seat in range(4):
        game.choose_pass(seat, bots[seat].choose_pass(game.view(seat)))
    record = SeatHand.from_view(game.view(0))
    while game.hand_number == 1:
        record = SeatHand.from_view(game.view(0))
        seen = len(game.events)
        mover = game.to_play
        assert mover is not None
        game.play(bots[mover].choose_play(game.view(mover)))
    played = [(e.seat, e.card) for e in game.events[seen:] if isinstance(e, CardPlayed)]
    return record.extended(played)


def run(hands: int, iterations: int, pass_deals: int) -> dict[str, object]:
    coach = Coach(iterations=iterations, pass_deals=pass_deals)
    seconds: list[float] = []
    slices: list[float] = []
    evaluated = 0
    lost: list[float] = []
    for seed in range(hands):
        record = hand(seed)
        steps = coach.review_steps(record)
        start = last = time.perf_counter()
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                review: HandReview = stop.value
                break
            now = time.perf_counter()
            slices.append(now - last)
            last = now
        seconds.append(time.perf_counter() - start)
        evaluated += sum(1 for p in review.plays if not p.forced)
        lost.append(round(review.lost, 3))
    return {
        "python": sys.version.split()[0],
        "hands": hands,
        "iterations": iterations,
        "mean_s": round(sum(seconds) / len(seconds), 2),
        "max_s": round(max(seconds), 2),
        "per_play_ms": round(1000 * sum(seconds) / max(1, evaluated), 1),
        "slice_max_ms": round(1000 * max(slices), 1),
        "lost": lost,
    }


def _line(name: str, r: dict[str, object]) -> str:
    return (f"{name:<16} python {r['python']:<8} hands {r['hands']} iterations "
            f"{r['iterations']}: review mean {r['mean_s']} s, max {r['max_s']} s; "
            f"{r['per_play_ms']} ms per evaluated play; longest slice {r['slice_max_ms']} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=COACH_ITERATIONS)
    parser.add_argument("--pass-deals", type=int, default=PASS_DEALS)
    parser.add_argument("--pyodide", action="store_true",
                        help="also review the same hands in Pyodide under Node")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    args = parser.parse_args()
    result = run(args.hands, args.iterations, args.pass_deals)
    if args.json:
        print(json.dumps(result))
        return 0
    print(_line("Pyodide (Node)" if sys.platform == "emscripten" else "CPython", result))
    print(f"points lost to mistakes per hand: {result['lost']}")
    if args.pyodide and sys.platform != "emscripten":
        command = ["node", str(REPO / "tools" / "pyodide_run.mjs"), str(Path(__file__).resolve()),
                   "--hands", str(args.hands), "--iterations", str(args.iterations),
                   "--pass-deals", str(args.pass_deals), "--json"]
        out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=REPO)
        other = json.loads(out.stdout.strip().splitlines()[-1])
        print(_line("Pyodide (Node)", other))
        print(f"Pyodide/CPython ratio: {float(other['mean_s']) / float(str(result['mean_s'])):.2f}")
        same = other["lost"] == result["lost"]
        print(f"same reviews on both: {'yes' if same else 'NO'}")
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
