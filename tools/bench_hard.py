"""Time the hard player's decisions on CPython and inside real Pyodide.

    python tools/bench_hard.py                 # CPython only
    python tools/bench_hard.py --pyodide       # CPython, then the same run in Pyodide (Node)
    python tools/bench_hard.py --iterations 800 --decisions 60 --pyodide
    python tools/bench_hard.py --baseline      # CPython: today's player beside the frozen one
    python tools/bench_hard.py --regret 8000 --iterations 500 --with halve   # search quality

The decisions are the same on both interpreters: seeded hands played by the playout policy,
every position where the seat to play has two or more legal cards (one legal card is
answered instantly and would flatter the mean). Prints mean / p95 / max wall-clock ms per
decision, and the process CPU time too (a fairer figure on a busy machine),
and the cards chosen must agree between CPython and Pyodide (same seed and view, same
card). Pyodide under Node is slower than Pyodide in Chromium: treat its figure as an
upper bound for the page.

``--baseline`` times the frozen copy of the previous hard player (``tools.baselines``,
``hard-today``) on the same positions, each position by one then the other in turn (so a
change in the machine's load hits both alike), passes included (a pass is a decision
too), and prints the ratio of CPU time per decision.

Run inside Pyodide directly: ``node tools/pyodide_run.mjs tools/bench_hard.py [options]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from hearts import Game, Phase, PlayerView  # noqa: E402
from hearts.bots.hard import DEFAULT_ITERATIONS, HardBot, choose_pass_heuristic  # noqa: E402
from hearts.bots.playout import POLICY_OPTIONS, choose, rules_flags  # noqa: E402
from hearts.cards import ALL_CARDS  # noqa: E402
from hearts.rules import QS_MASK  # noqa: E402


def policy_card(view: PlayerView) -> int:
    """The playout policy's card for a view (used to drive the benchmark games)."""
    trick = view.trick
    n = len(trick.cards) if trick else 0
    led = trick.cards[0].suit if trick and n else 0
    top = max(c.index for c in trick.cards if c.suit == led) if trick and n else 0
    return choose(view.hand_mask, n, led, top, not view.tricks, view.hearts_broken,
                  not view.played_mask & QS_MASK, rules_flags(view.rules), view.played_mask)


def positions(count: int, seed: int = 2024) -> list[PlayerView]:
    """``count`` views with a real choice, from seeded games played by the policy."""
    rng = random.Random(seed)
    views: list[PlayerView] = []
    while len(views) < count:
        game = Game.new(rng.randrange(10**9))
        if game.phase is Phase.PASS:
            for passer in range(4):
                game.choose_pass(passer, choose_pass_heuristic(game.hand(passer)))
        start = len(game.hand_history)
        while len(game.hand_history) == start and len(views) < count:
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            if len(view.legal_plays) > 1 and rng.random() < 0.5:
                views.append(view)
            game.play(ALL_CARDS[policy_card(view)])
    return views


def run(iterations: int, decisions: int, budget_ms: float | None) -> dict[str, object]:
    views = positions(decisions)
    times: list[float] = []
    cpu: list[float] = []
    cards: list[str] = []
    for number, view in enumerate(views):
        bot = HardBot(number, budget_ms=budget_ms, iterations=iterations)
        start = time.perf_counter()
        start_cpu = time.process_time()
        card = bot.choose_play(view)
        cpu.append((time.process_time() - start_cpu) * 1000.0)
        times.append((time.perf_counter() - start) * 1000.0)
        cards.append(card.notation)
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    cpu_sorted = sorted(cpu)
    return {
        "cpu_mean_ms": round(sum(cpu) / len(cpu), 1),
        "cpu_p95_ms": round(cpu_sorted[min(len(cpu) - 1, round(0.95 * (len(cpu) - 1)))], 1),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "iterations": iterations,
        "decisions": len(times),
        "mean_ms": round(sum(times) / len(times), 1),
        "p95_ms": round(p95, 1),
        "max_ms": round(ordered[-1], 1),
        "cards": "".join(cards),
    }


def compare(decisions: int, passes: int, pass_search: bool = False, inference: bool = False,
            policy: int = 0, halving: bool = False) -> dict[str, float]:
    """CPU ms per decision of the hard player and of the frozen ``hard-today``, interleaved
    on the same positions (``decisions`` plays, then ``passes`` passes); ``pass_search``,
    ``inference``, ``policy`` (playout rule bits) and ``halving`` turn those options of the
    hard player on."""
    from tools.baselines.hard_today.hard import HardBot as TodayBot
    views = positions(decisions)
    cpu: dict[str, list[float]] = {"new": [], "today": [], "new_pass": [], "today_pass": []}
    for number, view in enumerate(views):
        new = HardBot(number, pass_search=pass_search, inference=inference, policy=policy,
                      halving=halving)
        pair: list[tuple[str, Any]] = [("new", new), ("today", TodayBot(number))]
        for name, bot in pair[::1 if number % 2 else -1]:  # who goes first alternates
            start = time.process_time()
            bot.choose_play(view)
            cpu[name].append((time.process_time() - start) * 1000.0)
    rng = random.Random(7)
    for number in range(passes):
        view = Game.new(rng.randrange(10**9)).view(number % 4)
        new = HardBot(number, pass_search=pass_search, inference=inference, policy=policy,
                      halving=halving)
        for name, bot in (("new_pass", new), ("today_pass", TodayBot(number))):
            start = time.process_time()
            bot.choose_pass(view)
            cpu[name].append((time.process_time() - start) * 1000.0)
    out = {f"{name}_mean_ms": sum(v) / len(v) for name, v in cpu.items() if v}
    out["play_ratio"] = out["new_mean_ms"] / out["today_mean_ms"]
    if passes:
        # A seat's hand: about ten plays with a real choice and, three hands in four, a pass.
        new_hand = 10 * out["new_mean_ms"] + 0.75 * out["new_pass_mean_ms"]
        today_hand = 10 * out["today_mean_ms"] + 0.75 * out["today_pass_mean_ms"]
        out["hand_ratio"] = new_hand / today_hand
    return out


def regret(decisions: int, iterations: int, eval_iterations: int, policy: int = 0,
           halving: bool = False) -> dict[str, float]:
    """Search quality, not speed: on the same positions, the hard player at ``iterations``
    playouts with and without the options, each choice scored by a search of
    ``eval_iterations`` playouts (the plain player's model): mean regret in points per
    decision (its value minus the best card's) and how often it found the best card."""
    views = positions(decisions)
    out = {"plain_regret": 0.0, "with_regret": 0.0, "plain_best": 0.0, "with_best": 0.0}
    for number, view in enumerate(views):
        truth = dict(HardBot(100_000 + number, None, eval_iterations).play_values(view))
        best = min(truth.values())
        for name, bot in (("plain", HardBot(number, None, iterations)),
                          ("with", HardBot(number, None, iterations, policy=policy,
                                           halving=halving))):
            card = bot.choose_play(view)
            out[f"{name}_regret"] += (truth[card] - best) / len(views)
            out[f"{name}_best"] += (truth[card] == best) / len(views)
    return out


def _line(name: str, result: dict[str, object]) -> str:
    return (f"{name:<26} python {result['python']:<8} iterations {result['iterations']:<5} "
            f"decisions {result['decisions']:<4} mean {result['mean_ms']:>7} ms   "
            f"p95 {result['p95_ms']:>7} ms   max {result['max_ms']:>7} ms   "
            f"(CPU time: mean {result['cpu_mean_ms']} ms, p95 {result['cpu_p95_ms']} ms)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS,
                        help=f"playouts per decision (default {DEFAULT_ITERATIONS})")
    parser.add_argument("--decisions", type=int, default=60, help="decisions to time")
    parser.add_argument("--budget-ms", type=float, default=None,
                        help="time cap per decision (default: none, so runs are comparable)")
    parser.add_argument("--pyodide", action="store_true",
                        help="also run the same decisions in Pyodide under Node")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    parser.add_argument("--baseline", action="store_true",
                        help="CPython only: CPU per decision beside the frozen hard-today")
    parser.add_argument("--passes", type=int, default=20,
                        help="with --baseline: pass decisions to time too (default 20)")
    parser.add_argument("--with", dest="options", default="",
                        help="with --baseline: the hard player's options to turn on, "
                        "joined by '+': pass, infer, halve and the playout rules "
                        f"{', '.join(POLICY_OPTIONS)}")
    parser.add_argument("--regret", type=int, default=None, metavar="EVAL",
                        help="search quality instead of time: each choice at --iterations "
                        "scored by a search of EVAL playouts, with and without --with")
    args = parser.parse_args()
    options = set(args.options.split("+")) if args.options else set()
    if not options <= {"pass", "infer", "halve", *POLICY_OPTIONS}:
        parser.error(f"--with takes pass, infer, halve or {', '.join(POLICY_OPTIONS)} "
                     f"(joined by '+'), not {args.options!r}")
    policy = 0
    for option in options & set(POLICY_OPTIONS):
        policy |= POLICY_OPTIONS[option]
    if args.regret is not None:
        figures = regret(args.decisions, args.iterations, args.regret, policy,
                         "halve" in options)
        for key, value in figures.items():
            print(f"{key:<20} {value:8.4f}")
        return 0
    if args.baseline:
        figures = compare(args.decisions, args.passes, "pass" in options, "infer" in options,
                          policy, "halve" in options)
        for key, value in figures.items():
            print(f"{key:<20} {value:8.2f}")
        return 0
    result = run(args.iterations, args.decisions, args.budget_ms)
    if args.json:
        print(json.dumps(result))
        return 0
    in_pyodide = sys.platform == "emscripten"
    print(_line("Pyodide (Node)" if in_pyodide else "CPython", result))
    if args.pyodide and not in_pyodide:
        command = ["node", str(REPO / "tools" / "pyodide_run.mjs"), str(Path(__file__).resolve()),
                   "--iterations", str(args.iterations), "--decisions", str(args.decisions),
                   "--json"]
        if args.budget_ms is not None:
            command += ["--budget-ms", str(args.budget_ms)]
        out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=REPO)
        other = json.loads(out.stdout.strip().splitlines()[-1])
        print(_line("Pyodide (Node)", other))
        ratio = float(str(other["mean_ms"])) / float(str(result["mean_ms"]))
        print(f"Pyodide/CPython mean ratio: {ratio:.2f}")
        same = other["cards"] == result["cards"]
        print(f"same cards chosen on both: {'yes' if same else 'NO'}")
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
