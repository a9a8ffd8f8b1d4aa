"""Same results on Pyodide: seeded games played in real Pyodide (npm ``pyodide`` under Node)
and in CPython must give identical moves, legal-move lists, events, positions and scores.

This file has two roles. Under pytest it is the test. Run as a script it is the workload:
``node tools/pyodide_run.mjs tests/test_pyodide.py [SEED...]`` plays the games inside Pyodide
and prints one ``RESULT {json}`` line; the test runs that once (one Node process for every
seed, since Pyodide takes seconds to start) and compares it with the same function run here.
So at import time it needs only the standard library and ``hearts`` (Pyodide has no pytest).
Skipped only when ``node`` or ``node_modules/pyodide`` is missing, and failed instead when the
``CI`` environment variable is set. About 4 s in all (Pyodide's start is most of it).

The driver's random choices use only ``random.Random(int).randrange`` and ``.choice`` on lists,
which draw through ``getrandbits`` identically on CPython 3.11 and Python 3.14;
``test_random_module_agrees`` checks that separately, so a failure there is not an engine bug.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import hearts
from hearts import Card, Game, Phase
from hearts.game import deal

REPO = Path(__file__).resolve().parent.parent
RUNNER = REPO / "tools" / "pyodide_run.mjs"
PYODIDE = REPO / "node_modules" / "pyodide" / "pyodide.mjs"

SEEDS = list(range(1, 51))  # 50 whole games to 100 (about 580 hands)
DEAL_SEEDS = [*range(50), 2**31 - 1, 2**31, 2**32 + 5, 2**53 - 1]
DEAL_HANDS = [1, 2, 3, 4, 5, 17]
MAX_HANDS = 200  # a game to 100 ends long before; guards against an endless loop
NODE_TIMEOUT = 600  # seconds; the run takes well under a minute


# --- the workload, run on both interpreters ----------------------------------------------------


def _plain(value: Any) -> Any:
    """An event field as JSON-able data whose form can't depend on the Python version."""
    if isinstance(value, Card):
        return value.notation
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    raise TypeError(f"unexpected event field {value!r}")


def _event(event: Any) -> list[Any]:
    fields = [[f.name, _plain(getattr(event, f.name))] for f in dataclasses.fields(event)]
    return [type(event).__name__, fields]


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, separators=(",", ":")).encode()).hexdigest()


def play_game(seed: int) -> dict[str, Any]:
    """Play the whole game ``Game.new(seed)`` with seeded random passes and plays; record it."""
    rng = random.Random(seed * 1_000_003 + 17)
    game = Game.new(seed)
    hands: list[list[str]] = [[]]  # moves of each hand: "S:2C3DQS" passes, "W:2C" plays
    legal: list[list[str]] = []  # every legal_plays() list and every hand a pass came from
    texts = [game.to_text()]  # the position at the start of every hand, then the final one
    finished = 0
    while game.phase is not Phase.GAME_OVER:
        if len(game.hand_history) > MAX_HANDS:
            raise RuntimeError(f"seed {seed}: more than {MAX_HANDS} hands")
        if game.phase is Phase.PASS:
            seats = [0, 1, 2, 3]
            while seats:  # the four seats choose in a random order
                seat = seats.pop(rng.randrange(len(seats)))
                cards = game.hand(seat)
                legal.append([c.notation for c in cards])
                chosen = [cards.pop(rng.randrange(len(cards))) for _ in range(3)]
                game.choose_pass(seat, chosen)
                hands[-1].append(f"{'SWNE'[seat]}:" + "".join(c.notation for c in chosen))
        else:
            player = game.to_play
            assert player is not None
            seat = player
            options = game.legal_plays()
            legal.append([c.notation for c in options])
            card = rng.choice(options)
            game.play(card)
            hands[-1].append(f"{'SWNE'[seat]}:{card.notation}")
        if len(game.hand_history) != finished:  # a hand just ended
            finished = len(game.hand_history)
            texts.append(game.to_text())
            if game.phase is not Phase.GAME_OVER:
                hands.append([])
    final = game.to_text()
    again = Game.from_text(final)
    reloaded = Game.from_json(game.to_json())
    return {
        "seed": seed,
        "moves": hands,
        "legal_digest": _digest(legal),
        "events_digest": _digest([_event(e) for e in game.events]),
        "events": len(game.events),
        "texts": texts,
        "final_text": final,
        "scores": list(game.scores),
        "hand_history": [list(row) for row in game.hand_history],
        "winner": game.winner,
        "from_text_round_trip": again.to_text() == final and again.scores == game.scores,
        "from_json_round_trip": reloaded.to_text() == final,
    }


def random_fingerprint() -> list[Any]:
    """The driver's ``random`` calls (and ``deal``'s shuffle with a string seed), raw."""
    rng = random.Random(2024)
    out: list[Any] = [rng.randrange(n) for n in (1, 2, 3, 13, 52, 1000, 2**40)]
    out.append([rng.choice(list("abcdefghijklm")) for _ in range(20)])
    deck = list(range(52))
    random.Random("hearts/7/1").shuffle(deck)
    out.append(deck)
    return out


def source_digests() -> dict[str, str]:
    """SHA-256 of every .py file of the ``hearts`` package, by path relative to the package."""
    root = Path(hearts.__file__).parent
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts}


def collect(seeds: list[int]) -> dict[str, Any]:
    """Everything the test compares, for one interpreter."""
    return {
        "platform": sys.platform,
        "version": list(sys.version_info[:3]),
        "sources": source_digests(),
        "random": random_fingerprint(),
        "deals": [[seed, n, deal(seed, n)] for seed in DEAL_SEEDS for n in DEAL_HANDS],
        "games": [play_game(seed) for seed in seeds],
    }


# --- the test (CPython, pytest) ----------------------------------------------------------------


@functools.cache
def _run_pyodide() -> tuple[str, Any]:
    """One Node run for all the tests: ("ok", result), ("skip", why) or ("fail", why)."""
    node = shutil.which("node")
    if node is None:
        return "skip", "node is not on PATH (needed to run Pyodide under Node)"
    if not PYODIDE.exists():
        return "skip", f"{PYODIDE.relative_to(REPO)} is missing: run `npm ci` (`make test` does)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NODE_")}
    try:
        proc = subprocess.run([node, str(RUNNER), __file__, *map(str, SEEDS)], cwd=REPO,
                              env=env, capture_output=True, text=True, timeout=NODE_TIMEOUT,
                              check=False)
    except subprocess.TimeoutExpired:
        return "fail", f"the Pyodide run took more than {NODE_TIMEOUT} s"
    if proc.returncode != 0:
        return "fail", f"Pyodide run failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}"
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    if len(lines) != 1:
        return "fail", f"no single RESULT line from Pyodide:\n{proc.stdout[-2000:]}"
    return "ok", json.loads(lines[0][len("RESULT "):])


def _pyodide_result() -> dict[str, Any]:
    import pytest  # only under pytest: this module also runs inside Pyodide, which has no pytest

    outcome, value = _run_pyodide()
    if outcome == "skip":
        if os.environ.get("CI"):  # in CI this test must run, never be skipped
            pytest.fail(f"CI is set but {value}")
        pytest.skip(value)
    if outcome == "fail":
        pytest.fail(value)
    result: dict[str, Any] = value
    return result


@functools.cache
def _cpython_result() -> dict[str, Any]:
    return collect(SEEDS)


def test_really_pyodide_with_the_same_engine() -> None:
    pyo = _pyodide_result()
    assert pyo["platform"] == "emscripten"
    assert pyo["version"][:2] >= [3, 14], pyo["version"]
    assert pyo["sources"] == _cpython_result()["sources"], "Pyodide ran other hearts/ sources"
    assert "bots/__init__.py" in pyo["sources"]


def test_random_module_agrees() -> None:
    assert _pyodide_result()["random"] == _cpython_result()["random"]


def test_deal_agrees() -> None:
    pyo, cpy = _pyodide_result()["deals"], _cpython_result()["deals"]
    assert len(pyo) == len(cpy) == len(DEAL_SEEDS) * len(DEAL_HANDS)
    for got, want in zip(pyo, cpy, strict=True):
        assert got == want, f"deal(seed={want[0]}, hand_number={want[1]}) differs"


def _first_difference(got: list[list[str]], want: list[list[str]]) -> str:
    for h, (g, w) in enumerate(zip(got, want, strict=False), start=1):
        for m, (a, b) in enumerate(zip(g, w, strict=False), start=1):
            if a != b:
                return f"hand {h}, move {m}: Pyodide {a}, CPython {b}"
        if len(g) != len(w):
            return f"hand {h}: {len(g)} moves on Pyodide, {len(w)} on CPython"
    return f"{len(got)} hands on Pyodide, {len(want)} on CPython"


def test_games_agree() -> None:
    pyo, cpy = _pyodide_result()["games"], _cpython_result()["games"]
    assert [g["seed"] for g in pyo] == [g["seed"] for g in cpy] == SEEDS
    for got, want in zip(pyo, cpy, strict=True):
        seed = want["seed"]
        assert want["winner"] is not None and max(want["scores"]) >= 100
        assert want["from_text_round_trip"] and want["from_json_round_trip"]
        if got["moves"] != want["moves"]:
            raise AssertionError(f"seed {seed}: moves differ at "
                                 + _first_difference(got["moves"], want["moves"]))
        for key in ("legal_digest", "texts", "final_text", "events", "events_digest", "scores",
                    "hand_history", "winner", "from_text_round_trip", "from_json_round_trip"):
            assert got[key] == want[key], f"seed {seed}: {key} differs"


if __name__ == "__main__":  # the workload, e.g. inside Pyodide (see the module docstring)
    seeds = [int(a) for a in sys.argv[1:]] or SEEDS
    print("RESULT " + json.dumps(collect(seeds), separators=(",", ":")))
