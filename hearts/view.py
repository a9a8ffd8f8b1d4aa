"""What one seat may know: its own hand and everything public — nothing else.

Computer players and the hint receive a ``PlayerView``, never a ``Game``, so they
cannot see hidden cards. Two games that differ only in the other seats' hidden cards
give equal views (a test proves it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hearts.cards import SUIT_MASKS, Card, mask_of
from hearts.rules import PassDirection, Rules, pass_target

__all__ = ["Phase", "PlayerView", "Trick"]


class Phase(Enum):
    """Where the game is: choosing passes, playing tricks, or finished."""

    PASS = "pass"
    PLAY = "play"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: who led, the cards in play order, and (once complete) who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None

    def seat_of(self, position: int) -> int:
        """The seat that played the ``position``-th card (0 = the leader)."""
        return (self.leader + position) % 4

    def plays(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) pairs in play order."""
        return tuple((self.seat_of(i), card) for i, card in enumerate(self.cards))

    @property
    def points(self) -> int:
        """Penalty points in the trick."""
        return sum(card.points for card in self.cards)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know at one moment of the game."""

    seat: int
    rules: Rules
    phase: Phase
    hand_number: int
    pass_direction: PassDirection
    hand: tuple[Card, ...]
    """This seat's cards now, sorted."""
    passed: tuple[Card, ...] | None
    """The three cards this seat chose to pass this hand (None before choosing / no pass)."""
    received: tuple[Card, ...] | None
    """The three cards this seat received (None until the exchange / no pass)."""
    pass_chosen: tuple[bool, bool, bool, bool]
    """Which seats have chosen their pass (public; the cards are not)."""
    tricks: tuple[Trick, ...]
    """The completed tricks of this hand, in order."""
    trick: Trick | None
    """The trick in progress (None between tricks and outside play)."""
    hearts_broken: bool
    hand_points: tuple[int, int, int, int]
    """Penalty points each seat has taken so far this hand."""
    scores: tuple[int, int, int, int]
    """Running totals before this hand."""
    hand_history: tuple[tuple[int, int, int, int], ...]
    """Scores of each finished hand (moon applied)."""
    hand_sizes: tuple[int, int, int, int]
    to_play: int | None
    legal_plays: tuple[Card, ...]
    """This seat's legal plays (empty when it is not this seat's turn)."""
    winner: int | None

    @property
    def my_turn(self) -> bool:
        """True when this seat is to play a card."""
        return self.to_play == self.seat

    @property
    def first_trick(self) -> bool:
        """True during the hand's first trick."""
        return not self.tricks

    @property
    def pass_to(self) -> int | None:
        """The seat this seat passes to (None on a no-pass hand)."""
        if self.pass_direction is PassDirection.NONE:
            return None
        return pass_target(self.seat, self.pass_direction)

    @property
    def played_mask(self) -> int:
        """Mask of every card played this hand, including the trick in progress."""
        mask = 0
        for trick in self.tricks:
            mask |= mask_of(trick.cards)
        if self.trick is not None:
            mask |= mask_of(self.trick.cards)
        return mask

    @property
    def hand_mask(self) -> int:
        """Mask of this seat's hand."""
        return mask_of(self.hand)

    def plays(self) -> list[tuple[int, Card]]:
        """Every card played this hand, in order, with the seat that played it."""
        out: list[tuple[int, Card]] = []
        for trick in self.tricks:
            out.extend(trick.plays())
        if self.trick is not None:
            out.extend(self.trick.plays())
        return out

    def voids(self) -> tuple[int, int, int, int]:
        """Per seat, a mask of the suits it has shown it lacks (failed to follow)."""
        voids = [0, 0, 0, 0]
        tricks = list(self.tricks)
        if self.trick is not None:
            tricks.append(self.trick)
        for trick in tricks:
            led = trick.cards[0].suit
            for position, card in enumerate(trick.cards[1:], start=1):
                if card.suit != led:
                    voids[trick.seat_of(position)] |= SUIT_MASKS[led]
        return voids[0], voids[1], voids[2], voids[3]
