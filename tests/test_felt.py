"""The felt table's reasons (web/felt.py) agree with the engine's, seat by seat.

A guest's page decides from its ``PlayerView`` alone which cards to dim and why; it must
say exactly what the host's engine would (the host still checks every move).
"""

from __future__ import annotations

import random
import sys
import types

from hearts import Game, Phase


def _import_felt() -> types.ModuleType:
    """web.felt with a stand-in for Pyodide's FFI (taken away again after the import)."""
    saved = {name: sys.modules.get(name) for name in ("pyodide", "pyodide.ffi")}
    ffi = types.ModuleType("pyodide.ffi")
    ffi.jsnull = object()  # type: ignore[attr-defined]
    ffi.create_proxy = lambda func: func  # type: ignore[attr-defined]
    sys.modules["pyodide"] = saved["pyodide"] or types.ModuleType("pyodide")
    sys.modules["pyodide.ffi"] = saved["pyodide.ffi"] or ffi
    try:
        from web import felt as module
    finally:
        for name, old in saved.items():
            if old is None:
                sys.modules.pop(name, None)
    return module


felt: types.ModuleType = _import_felt()


def test_why_not_matches_the_engine_for_every_seat_and_card() -> None:
    for seed in range(12):
        game = Game.new(seed=seed)
        rng = random.Random(seed)
        while game.hand_number < 3 and game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.PASS:
                for seat in range(4):
                    game.choose_pass(seat, rng.sample(list(game.hand(seat)), 3))
                continue
            for seat in range(4):
                view = game.view(seat)
                for card in view.hand:
                    assert felt.why_not(view, card) == game.why_illegal(card, seat), (
                        game.to_text(), seat, card)
            game.play(rng.choice(list(game.legal_plays())))


def test_seats_sit_around_the_viewer() -> None:
    assert [felt.position(seat, 2) for seat in range(4)] == ["north", "east", "south", "west"]
    assert felt.seat_name(2, 2) == "You"
    assert felt.seat_name(0, 2, ("host", "friend", "friend", "computer")) == "South (host)"
    assert felt.pass_prompt(Game.new(seed=1).view(2)) == "Pass 3 cards to the left → East."
