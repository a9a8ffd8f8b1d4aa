"""Benchmark: full random hands per second, ours against OpenSpiel's C++ Hearts.

``python tools/bench.py`` measures, in one process and in alternating rounds:

- **ours**: whole hands through the public API: the deal by ``Game`` (matches to 100,
  a new ``Game.new`` when one ends), random passes with ``choose_pass``, then 52 random
  plays, each ``rng.choice(game.legal_plays())`` then ``game.play(card)``;
- **OpenSpiel** (when ``pyspiel`` imports): the same work driven from Python: a new
  state per hand (one OpenSpiel game is one hand), the pass direction of our cycle as
  its first chance action, the 52 cards dealt as chance outcomes, then the 12 pass
  actions and 52 plays, each a random pick from ``state.legal_actions()`` applied with
  ``state.apply_action``. Three drivers differ in how they deal (see ``DRIVERS``): the
  generic loop of OpenSpiel's examples, a uniform pick from ``chance_outcomes()``, and a
  shuffled deck. They show how much of OpenSpiel's time from Python is the traffic of
  calls and lists between Python and C++, so the ratio is printed for each;
- **fast path**: what search uses: ``HandState.copy()`` of a dealt position, then 52
  random plays through the unchecked ``legal()`` mask and ``apply()``.

Times are this process's CPU time (other work on the machine disturbs them less than
wall-clock time); each figure is the best of the rounds, as ``timeit`` does; the ratio is
ours over OpenSpiel's. The target is a ratio of at least 1.0.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import random
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from time import process_time
from typing import Any

# Run as a script (``python tools/bench.py``) from anywhere: the repository root holds hearts/.
_REPO = str(Path(__file__).resolve().parent.parent)
if _REPO not in sys.path:
    sys.path.insert(0, _REPO)

from hearts.game import Game, deal  # noqa: E402
from hearts.handstate import HandState  # noqa: E402
from hearts.rules import PassDirection, Rules  # noqa: E402
from hearts.view import Phase  # noqa: E402

__all__ = ["DRIVERS", "fast_path_hands", "load_openspiel", "main", "openspiel_hands",
           "our_hands"]

_CYCLE = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.NONE)


def our_hands(hands: int, seed: int) -> float:
    """Play ``hands`` random hands through the public API; return the seconds taken."""
    rng = random.Random(seed)
    choice = rng.choice
    sample = rng.sample
    start = process_time()
    game = Game.new(seed=rng.randrange(2**53))
    for _ in range(hands):
        if game.phase is Phase.GAME_OVER:
            game = Game.new(seed=rng.randrange(2**53))
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, sample(game.hand(seat), 3))
        legal_plays = game.legal_plays
        play = game.play
        for _ in range(52):
            play(choice(legal_plays()))
    return process_time() - start


def load_openspiel(rules: Rules | None = None) -> Any | None:
    """OpenSpiel's ``hearts`` game with our rules, or None if ``pyspiel`` is missing."""
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    rules = rules or Rules()
    return pyspiel.load_game("hearts", {
        "pass_cards": True,
        "no_pts_on_first_trick": rules.no_points_on_first_trick,
        "can_lead_any_club": False,
        "jd_bonus": False,
        "avoid_all_tricks_bonus": False,
        "must_break_hearts": rules.must_break_hearts,
        "qs_breaks_hearts": rules.qs_breaks_hearts,
        "can_lead_hearts_instead_of_qs": False,
    })


DRIVERS = ("generic", "uniform", "deck")
"""Ways to deal in OpenSpiel from Python (passes and plays are the same in all three):

- ``generic``: the loop OpenSpiel's examples use for any game: until the state is
  terminal, at a chance node sample an outcome by its probability
  (``zip(*state.chance_outcomes(), strict=True)`` then ``rng.choices``), else
  ``rng.choice(state.legal_actions(state.current_player()))``;
- ``uniform``: at each of the 52 deal chance nodes ``rng.choice(state.chance_outcomes())``
  (Hearts' deal outcomes are equally likely), then a fixed count of ``legal_actions()``
  picks, with no other calls;
- ``deck``: no ``chance_outcomes()`` at all: one shuffled deck applied as the 52 chance
  actions. The leanest driver; it shows how much of OpenSpiel's time is the traffic of
  building Python lists from C++.
"""


def openspiel_hands(game_os: Any, hands: int, seed: int, driver: str = "uniform") -> float:
    """Play ``hands`` random hands in OpenSpiel from Python; return the seconds taken.

    Each hand is a new state whose first chance action is the pass direction of our
    cycle; ``driver`` (one of ``DRIVERS``) says how the deal and the moves are driven.
    """
    if driver not in DRIVERS:
        raise ValueError(f"driver must be one of {DRIVERS}, not {driver!r}")
    rng = random.Random(seed)
    choice = rng.choice
    choices = rng.choices
    deck = list(range(52))
    start = process_time()
    for number in range(hands):
        state = game_os.new_initial_state()
        apply_action = state.apply_action
        legal_actions = state.legal_actions
        direction = int(_CYCLE[number % 4])
        apply_action(direction)  # the first chance node: the pass direction of our cycle
        if driver == "generic":
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                    apply_action(choices(actions, probabilities)[0])
                else:
                    apply_action(choice(legal_actions(state.current_player())))
            continue
        if driver == "deck":
            rng.shuffle(deck)
            for card in deck:
                apply_action(card)
        else:
            chance_outcomes = state.chance_outcomes
            for _ in range(52):
                apply_action(choice(chance_outcomes())[0])
        for _ in range(12 if direction else 0):
            apply_action(choice(legal_actions()))
        for _ in range(52):
            apply_action(choice(legal_actions()))
    return process_time() - start


def fast_path_hands(hands: int, seed: int, playouts_per_deal: int = 100) -> float:
    """Random playouts of copied positions (search's inner loop); return the seconds."""
    rng = random.Random(seed)
    rand = rng.random
    rules = Rules()
    start = process_time()
    done = 0
    while done < hands:
        root = HandState(deal(rng.randrange(2**53), 4), rules)
        for _ in range(min(playouts_per_deal, hands - done)):
            state = root.copy()
            legal = state.legal
            apply = state.apply
            for _ in range(52):
                mask = legal()
                skip = int(rand() * mask.bit_count())
                while skip:
                    mask &= mask - 1
                    skip -= 1
                apply((mask & -mask).bit_length() - 1)
            done += 1
    return process_time() - start


def _rate(run: Callable[[int], float], hands: int | None, seconds: float) -> float:
    """Hands per second of ``run``: ``hands`` hands, or as many as fit in ``seconds``."""
    if hands is not None:
        return hands / run(hands)
    batch = 50
    done = 0
    elapsed = 0.0
    while elapsed < seconds:
        elapsed += run(batch)
        done += batch
        batch = min(batch * 2, 2000)
    return done / elapsed


def _version(name: str) -> str:
    from importlib import metadata
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "?"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(
        prog="python tools/bench.py",
        description="Full random hands per second through our public API, OpenSpiel's "
                    "C++ Hearts driven from Python for the same work (when open_spiel is "
                    "installed), their ratio, and the search fast path.")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time per engine per round (default 2.0)")
    parser.add_argument("--hands", type=int, default=None,
                        help="a fixed number of hands per engine per round instead of --seconds")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds; the best round counts (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--no-openspiel", action="store_true",
                        help="skip OpenSpiel even if it is installed")
    parser.add_argument("--driver", choices=DRIVERS, action="append",
                        help="OpenSpiel driver(s) to measure (default: all three; see the "
                             "module docstring)")
    args = parser.parse_args(argv)
    if args.rounds < 1 or (args.hands is not None and args.hands < 1) or args.seconds <= 0:
        parser.error("--rounds, --hands and --seconds must be positive")

    game_os = None if args.no_openspiel else load_openspiel()
    print(f"tools/bench.py: {platform.python_implementation()} {platform.python_version()}, "
          f"{args.rounds} round(s) of "
          + (f"{args.hands} hands" if args.hands else f"{args.seconds:g} s")
          + " per engine, best round")
    drivers = [] if game_os is None else list(args.driver or DRIVERS)
    ours: list[float] = []
    fast: list[float] = []
    theirs: dict[str, list[float]] = {driver: [] for driver in drivers}
    for round_number in range(args.rounds):
        seed = args.seed + round_number
        ours.append(_rate(partial(our_hands, seed=seed), args.hands, args.seconds))
        for driver in drivers:
            theirs[driver].append(_rate(partial(openspiel_hands, game_os, seed=seed,
                                                driver=driver), args.hands, args.seconds))
        fast.append(_rate(partial(fast_path_hands, seed=seed), args.hands, args.seconds))

    our_best = max(ours)
    print(f"{'ours (Game: deal, choose_pass, legal_plays, play)':<58}{our_best:9,.0f} hands/s")
    if game_os is None:
        print("OpenSpiel: not installed (pip install open-spiel), no ratio")
    else:
        version = _version("open_spiel")
        labels = {
            "generic": "generic loop, chance by probability",
            "uniform": "uniform chance_outcomes() pick",
            "deck": "shuffled-deck deal",
        }
        met = []
        for driver in drivers:
            best = max(theirs[driver])
            ratio = our_best / best
            if ratio >= 1.0:
                met.append(driver)
            label = f"OpenSpiel {version} ({labels[driver]})"
            print(f"{label:<58}{best:9,.0f} hands/s   ratio ours/OpenSpiel {ratio:.2f}")
        missed = [driver for driver in drivers if driver not in met]
        print(f"target ratio >= 1.0: met against {', '.join(met) or 'none'}; "
              f"missed against {', '.join(missed) or 'none'}")
    print(f"{'fast path (HandState.copy, legal(), apply)':<58}{max(fast):9,.0f} hands/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
