"""What a table tells of its game: the public events, in the fields that are said and heard.

The engine's events (``hearts.events``) carry more than a seat at a private table receives
(the host sends ``web.p2p.protocol.event_to_dict``'s few fields), so the sentences
(``web.words.told_text``) and the sounds (``web.table.sound.cue_of``) read these instead,
one typed form for every table: ``of_event`` makes one from the engine's event on the page
that runs the game, ``from_wire`` from the host's message at the guest's edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hearts.cards import Card
from hearts.events import (
    CardPlayed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    HeartsBroken,
    MoonShot,
    PassChosen,
    PassesExchanged,
    TrickWon,
)

__all__ = ["Broken", "Chose", "Dealt", "Exchanged", "GameWon", "HandOver", "Moon", "Played",
           "Told", "TookTrick", "from_wire", "of_event"]


@dataclass(frozen=True, slots=True)
class Dealt:
    """A new hand was dealt (not said: the felt shows it)."""

    hand: int


@dataclass(frozen=True, slots=True)
class Chose:
    """A seat chose its three cards to pass (not said)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Exchanged:
    """The passed cards changed hands (each seat says what it received, from its view)."""


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TookTrick:
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class Broken:
    """Hearts are broken."""


@dataclass(frozen=True, slots=True)
class Moon:
    seat: int


@dataclass(frozen=True, slots=True)
class HandOver:
    """Hand ``hand`` is over; ``scores``: each seat's points for it, the moon rule applied."""

    hand: int
    scores: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class GameWon:
    winner: int


Told = Dealt | Chose | Exchanged | Played | TookTrick | Broken | Moon | HandOver | GameWon


def of_event(event: Event) -> Told:
    """The told form of one of the engine's events."""
    if isinstance(event, CardPlayed):
        return Played(event.seat, event.card)
    if isinstance(event, TrickWon):
        return TookTrick(event.seat, event.points)
    if isinstance(event, HeartsBroken):
        return Broken()
    if isinstance(event, MoonShot):
        return Moon(event.seat)
    if isinstance(event, HandScored):
        return HandOver(event.hand_number, event.scores)
    if isinstance(event, GameOver):
        return GameWon(event.winner)
    if isinstance(event, PassesExchanged):
        return Exchanged()
    if isinstance(event, PassChosen):
        return Chose(event.seat)
    if isinstance(event, HandDealt):
        return Dealt(event.hand_number)
    raise TypeError(f"not an event: {event!r}")


def _seat(data: Mapping[str, Any], key: str = "seat") -> int:
    return int(data[key]) % 4


def from_wire(data: Mapping[str, Any]) -> Told | None:
    """One event of a host's state message (``event_to_dict``'s form), checked; None for a
    kind this page doesn't know. A malformed event raises ``KeyError``, ``TypeError`` or
    ``ValueError`` (the guest refuses the message)."""
    kind = data.get("e")
    if kind == "played":
        return Played(_seat(data), Card.parse(str(data["card"])))
    if kind == "trick":
        return TookTrick(_seat(data), int(data["points"]))
    if kind == "broken":
        return Broken()
    if kind == "moon":
        return Moon(_seat(data))
    if kind == "scored":
        scores = [int(v) for v in data["scores"]]
        if len(scores) != 4:
            raise ValueError(f"four scores, not {len(scores)}")
        return HandOver(int(data["hand"]), (scores[0], scores[1], scores[2], scores[3]))
    if kind == "over":
        return GameWon(_seat(data, "winner"))
    if kind == "exchanged":
        return Exchanged()
    if kind == "chose":
        return Chose(_seat(data))
    if kind == "dealt":
        return Dealt(int(data["hand"]))
    return None
