"""A game against the computers driven as the page drives it, for the tests: a table
stand-in that records what the seat says (``Heard``), a seat on memory storage with an
instant clock (``local_seat``), waiting for the computers (``settle``) and a person's next
move through the table's own checks (``person_move``)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from web.seats.solo import LocalSeat
from web.storage import MemoryStorage, Records, Storage
from web.table.model import SeatSnapshot, choose_refusal, play_refusal

__all__ = ["Heard", "local_seat", "no_wait", "person_move", "settle"]


class Heard:
    """A table stand-in: records what a seat tells it."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.alerts: list[str] = []
        self.told: list[str] = []
        self.changes = 0
        self.cues: list[str] = []

    def say(self, text: str, show: bool = False) -> None:
        if text:
            self.said.append(text)

    def flush(self) -> None: ...

    def alert(self, text: str) -> None:
        self.alerts.append(text)

    def tell(self, text: str) -> None:
        self.told.append(text)

    def changed(self, fresh: str | None = None) -> None:
        self.changes += 1

    def cue(self, name: str | None) -> None:
        if name:
            self.cues.append(name)


async def no_wait(seconds: float) -> None:
    await asyncio.sleep(0)


def local_seat(items: dict[str, str] | None = None, seed: int = 5
               ) -> tuple[LocalSeat, MemoryStorage, Heard]:
    memory = MemoryStorage(items)
    records = Records(Storage(lambda: memory), lambda text: None)
    records.settings.level = "easy"
    seat = LocalSeat(records, speed=lambda: "instant", sleep=no_wait, seed=seed)
    heard = Heard()
    seat.attach(heard)
    return seat, memory, heard


async def settle(seat: LocalSeat) -> None:
    """Wait until the computers have played (the seat's tasks are done)."""
    for _ in range(10_000):
        if not seat.turns.tasks:
            return
        await asyncio.gather(*list(seat.turns.tasks.running))
    raise AssertionError("the computers never stopped")


def person_move(seat: Any, snap: SeatSnapshot, rng: random.Random) -> None:
    """What a person does next, through the table's own checks."""
    view = snap.view
    assert view is not None
    if snap.stage == "pass":
        for card in rng.sample(list(view.hand), 3):
            assert choose_refusal(snap, card) is None
            seat.toggle(card)
            snap = seat.snapshot()
        assert choose_refusal(snap, next(c for c in view.hand
                                         if c.notation not in snap.selected)) is not None
        seat.pass_cards()
    elif snap.stage == "play":
        allowed = [c for c in view.hand if play_refusal(snap, c) is None]
        assert allowed == list(view.legal_plays), view
        seat.play(rng.choice(allowed))
    elif snap.stage == "scores":
        seat.next_hand()
