"""What the table model tells the page's motion: where passed cards go and come from, how
many cards each seat holds, that the trick's last card lands on the trick it completes."""

from __future__ import annotations

import asyncio
import random

from hearts import Game, Phase
from tests.solo_page import Heard, local_seat, person_move, settle
from web import formats
from web.table.model import PageState, SeatSnapshot, build

PAGE = PageState(ready=True)


def passing_model(hand_number: int) -> tuple[str, str, bool]:
    game = Game.new(seed=3)
    while game.hand_number < hand_number:  # play whole hands with the first legal card
        if game.phase is Phase.PASS:
            for s in range(4):
                game.choose_pass(s, game.hand(s)[:3])
        else:
            game.play(game.legal_plays()[0])

    async def run() -> tuple[str, str, bool]:
        seat, _, _ = local_seat()
        seat.take_over(formats.Saved(game))
        m = build(seat.snapshot(), PAGE)
        return m.pass_to, m.pass_from, m.pass_arrow

    return asyncio.run(run())


def test_the_arrow_points_to_whoever_gets_your_cards_and_they_come_from_the_giver() -> None:
    assert passing_model(1) == ("west", "east", True)    # left: to West, from East
    assert passing_model(2) == ("east", "west", True)    # right
    assert passing_model(3) == ("north", "north", True)  # across
    assert passing_model(4) == ("", "", False)           # nobody passes


def test_each_seat_holds_as_many_backs_as_cards() -> None:
    seat, _, _ = local_seat()

    async def run() -> None:
        for card in seat.snapshot().view.hand[:3]:  # type: ignore[union-attr]
            seat.toggle(card)
        seat.pass_cards()
        await settle(seat)

    asyncio.run(run())
    m = build(seat.snapshot(), PAGE)
    view = seat.snapshot().view
    assert view is not None
    assert [s.held for s in m.seats] == list(view.hand_sizes)
    assert sum(s.held for s in m.seats) + len(view.trick.cards if view.trick else ()) == 52


class Watching(Heard):
    """Builds the table each time a card is said to land, as the page would draw it."""

    def __init__(self) -> None:
        super().__init__()
        self.seat: object = None
        self.missing: list[str] = []
        self.landed = 0

    def changed(self, fresh: str | None = None) -> None:
        super().changed(fresh)
        if fresh is not None:
            snap: SeatSnapshot = self.seat.snapshot()  # type: ignore[attr-defined]
            self.landed += 1
            if fresh not in [c.notation for c in build(snap, PAGE).trick]:
                self.missing.append(fresh)


def test_every_card_played_is_on_the_felt_when_it_lands_the_last_of_a_trick_too() -> None:
    rng = random.Random(1)
    watching = Watching()

    async def run() -> None:
        seat, _, _ = local_seat(seed=8)
        watching.seat = seat
        seat.attach(watching)
        for _ in range(40):
            await settle(seat)
            snap = seat.snapshot()
            if snap.stage not in ("pass", "play"):
                break
            person_move(seat, snap, rng)

    asyncio.run(run())
    assert watching.landed >= 40
    assert watching.missing == []
