"""What happened, in order: the events a table animates from.

``Game.events`` is an ordered list of these; a table remembers how many it has shown
and animates the rest. All events are public information (no hidden cards), except
that ``PassesExchanged`` carries no cards: each seat reads what it received from its
own ``PlayerView``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.cards import Card
from hearts.rules import PassDirection

__all__ = [
    "CardPlayed",
    "Event",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HeartsBroken",
    "MoonShot",
    "PassChosen",
    "PassesExchanged",
    "TrickWon",
]


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A new hand was dealt."""

    hand_number: int
    pass_direction: PassDirection


@dataclass(frozen=True, slots=True)
class PassChosen:
    """A seat chose its three cards (which ones stays hidden)."""

    seat: int


@dataclass(frozen=True, slots=True)
class PassesExchanged:
    """All four seats chose: the passed cards changed hands."""

    pass_direction: PassDirection


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A seat played a card to the trick (``trick_number`` counts from 1)."""

    seat: int
    card: Card
    trick_number: int


@dataclass(frozen=True, slots=True)
class HeartsBroken:
    """The first heart of the hand was played (hearts may be led from the next trick)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick is complete; ``cards`` are in play order, starting with ``leader``'s."""

    seat: int
    leader: int
    cards: tuple[Card, ...]
    points: int
    trick_number: int


@dataclass(frozen=True, slots=True)
class MoonShot:
    """A seat took every heart and the Q♠ this hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandScored:
    """A hand is over: points taken, the scores after the moon rule, and the totals."""

    hand_number: int
    points_taken: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    moon_shooter: int | None


@dataclass(frozen=True, slots=True)
class GameOver:
    """Someone reached the end score and one seat alone has the lowest total."""

    winner: int
    totals: tuple[int, int, int, int]


Event = (HandDealt | PassChosen | PassesExchanged | CardPlayed | HeartsBroken | TrickWon
         | MoonShot | HandScored | GameOver)
