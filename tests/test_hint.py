"""One voice: the hint is the hard player's choice, and the coach never criticises it."""

from __future__ import annotations

import asyncio

import pytest

from hearts import CardPlayed, Game, Phase, bots
from hearts.bots import hint, make
from hearts.bots.hint import advisor, hint_steps
from hearts.coach import Coach
from hearts.seathand import SeatHand
from hearts.steps import run


def follow_the_hint(seed: int, seat: int = 0) -> SeatHand:
    """Hand 1 of game ``seed`` with ``seat`` following the hint at every decision (its pass
    and each play) and the normal players in the other seats; ``seat``'s record of it."""
    game = Game.new(seed=seed)
    bots = [make("normal", s) for s in range(4)]
    if game.phase is Phase.PASS:
        for s in range(4):
            view = game.view(s)
            game.choose_pass(s, list(hint(view).cards) if s == seat
                             else bots[s].choose_pass(view))
    record = SeatHand.from_view(game.view(seat))
    while game.hand_number == 1:
        record = SeatHand.from_view(game.view(seat))
        mover = game.to_play
        assert mover is not None
        view = game.view(mover)
        seen = len(game.events)
        game.play(hint(view).cards[0] if mover == seat else bots[mover].choose_play(view))
        if game.hand_number != 1:
            record = record.extended([(e.seat, e.card) for e in game.events[seen:]
                                      if isinstance(e, CardPlayed)])
    return record


@pytest.mark.parametrize("seed", [2, 5, 11])
def test_the_coach_never_criticises_a_move_the_hint_gave(seed: int) -> None:
    record = follow_the_hint(seed)
    assert record.complete
    review = Coach().review(record)
    assert review.passing is not None  # (hand 1 passes left)
    assert review.passing.same and review.passing.cost == 0 and not review.passing.flagged
    assert len(review.plays) == 13
    for play in review.plays:
        assert play.cost == 0 and play.gap == "even" and not play.flagged, play
    assert review.lost == 0


def test_the_hint_is_the_same_for_the_same_view_however_it_is_sliced() -> None:
    game = Game.new(seed=7)
    for s in range(4):
        game.choose_pass(s, make("normal", s).choose_pass(game.view(s)))
    view = game.view(game.to_play or 0)
    fine = run(hint_steps(view, advisor(chunk_ms=0.01)))  # a yield after every deal
    assert fine == run(hint_steps(view, advisor(chunk_ms=1000.0))) == hint(view)


def test_the_hint_searches_in_slices() -> None:
    game = Game.new(seed=7)
    for s in range(4):
        game.choose_pass(s, make("normal", s).choose_pass(game.view(s)))
    for _ in range(5):  # a few tricks in: more than one card worth searching
        mover = game.to_play or 0
        game.play(make("normal", mover).choose_play(game.view(mover)))
    steps = hint_steps(game.view(game.to_play or 0), advisor(chunk_ms=0.01))
    slices = 0
    while True:
        try:
            next(steps)
        except StopIteration:
            break
        slices += 1
    assert slices > 1


def test_the_page_gets_the_same_hint_giving_the_browser_control_back_between_slices(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from web import players
    game = Game.new(seed=7)
    for s in range(4):
        game.choose_pass(s, make("normal", s).choose_pass(game.view(s)))
    for _ in range(5):
        mover = game.to_play or 0
        game.play(make("normal", mover).choose_play(game.view(mover)))
    view = game.view(game.to_play or 0)
    slices = 0
    real_sleep = asyncio.sleep

    async def counted(delay: float) -> None:
        nonlocal slices
        slices += 1
        await real_sleep(delay)

    monkeypatch.setattr("web.players.asyncio.sleep", counted)
    monkeypatch.setattr(bots, "hint_steps",
                        lambda v: hint_steps(v, advisor(chunk_ms=0.01)))
    assert asyncio.run(players.hint(view)) == hint(view)
    assert slices > 1
