"""The rules of Hearts as pure functions on card masks: legality (with reasons), hand
scoring and shooting the moon, pass directions (the trick's winner is found where
tricks are played: ``HandState.apply`` and the hard player's playouts).

Everything here works on ``int`` bit masks of card indices (see ``hearts.cards``), so
the game and the computer players' searches share one fast implementation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from hearts.cards import HEARTS_MASK, SUIT_MASKS, Card, Suit

__all__ = [
    "NUM_SEATS",
    "POINT_CARDS_MASK",
    "QS_MASK",
    "QUEEN_OF_SPADES",
    "SEAT_NAMES",
    "TWO_CLUBS_MASK",
    "TWO_OF_CLUBS",
    "PassDirection",
    "Rules",
    "card_name_list",
    "hand_scores",
    "illegal_reason",
    "legal_mask",
    "pass_target",
]

NUM_SEATS: Final = 4
SEAT_NAMES: Final = ("South", "West", "North", "East")

TWO_OF_CLUBS: Final = Card.parse("2C")
QUEEN_OF_SPADES: Final = Card.parse("QS")
QS_MASK: Final = QUEEN_OF_SPADES.mask
TWO_CLUBS_MASK: Final = TWO_OF_CLUBS.mask
POINT_CARDS_MASK: Final = HEARTS_MASK | QS_MASK


class PassDirection(IntEnum):
    """Where the three passed cards go; the value is the seat offset clockwise."""

    NONE = 0
    LEFT = 1
    ACROSS = 2
    RIGHT = 3

    @staticmethod
    def for_hand(hand_number: int) -> PassDirection:
        """The direction of the 1-based hand number: left, right, across, none, again."""
        return _PASS_CYCLE[(hand_number - 1) % 4]

    @property
    def letter(self) -> str:
        """``"L"``, ``"R"``, ``"A"`` or ``"N"``."""
        return "NLAR"[self]

    @property
    def word(self) -> str:
        """``"left"``, ``"right"``, ``"across"`` or ``"no pass"``."""
        return ("no pass", "left", "across", "right")[self]


_PASS_CYCLE: Final = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS,
                      PassDirection.NONE)


def pass_target(seat: int, direction: PassDirection) -> int:
    """The seat that receives ``seat``'s passed cards (South's left is West)."""
    return (seat + int(direction)) % NUM_SEATS


@dataclass(frozen=True)
class Rules:
    """House rules. The defaults are the rules of the product (docs/rules.md).

    Only rules this engine implements and tests are here; each is checked against
    OpenSpiel's parameter of the same meaning.
    """

    end_score: int = 100
    """The game ends after a hand in which someone's total reaches this."""
    qs_breaks_hearts: bool = False
    """Whether playing the Q♠ breaks hearts (not in our rules)."""
    no_points_on_first_trick: bool = True
    """No heart or Q♠ on the first trick unless the hand holds nothing else."""
    must_break_hearts: bool = True
    """Hearts may not be led until broken (unless the leader holds only hearts)."""
    shoot_the_moon: bool = True
    """Taking all 26 points scores 0 for the taker and 26 for everyone else."""

    def __post_init__(self) -> None:
        if not isinstance(self.end_score, int) or not 1 <= self.end_score <= 10_000:
            raise ValueError(f"end_score must be an int from 1 to 10000, not {self.end_score!r}")
        for name in ("qs_breaks_hearts", "no_points_on_first_trick", "must_break_hearts",
                     "shoot_the_moon"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")


def legal_mask(hand: int, led_suit: int, first_trick: bool, hearts_broken: bool,
               rules: Rules) -> int:
    """The mask of legal plays from ``hand``.

    ``led_suit`` is -1 when leading. On the very first lead the 2♣ must be led.
    """
    if led_suit < 0:
        if first_trick:
            return hand & TWO_CLUBS_MASK or hand  # holder of the 2♣ must lead it
        if rules.must_break_hearts and not hearts_broken:
            return hand & ~HEARTS_MASK or hand  # only hearts left: any heart may be led
        return hand
    follow = hand & SUIT_MASKS[led_suit]
    if follow:
        return follow
    if first_trick and rules.no_points_on_first_trick:
        return hand & ~POINT_CARDS_MASK or hand  # only hearts and Q♠: any of them
    return hand


def illegal_reason(card: Card, hand: int, led_suit: int, first_trick: bool,
                   hearts_broken: bool, rules: Rules) -> str | None:
    """None if ``card`` is a legal play, else a short sentence for the person saying why."""
    if not hand & card.mask:
        return f"The {card.name} is not in your hand."
    if legal_mask(hand, led_suit, first_trick, hearts_broken, rules) & card.mask:
        return None
    if led_suit < 0:
        if first_trick:
            return "The 2 of clubs must lead the first trick."
        return "Hearts haven't been broken yet, so you can't lead one."
    if hand & SUIT_MASKS[led_suit]:
        return f"You must follow {Suit(led_suit).noun}."
    if card.suit == Suit.HEARTS:
        return "No hearts on the first trick."
    return "The Queen of spades can't be played on the first trick."


def hand_scores(points_taken: list[int] | tuple[int, ...], rules: Rules
                ) -> tuple[tuple[int, int, int, int], int | None]:
    """The four scores of a finished hand, and the seat that shot the moon (or None).

    >>> hand_scores([26, 0, 0, 0], Rules())
    ((0, 26, 26, 26), 0)
    >>> hand_scores([3, 13, 0, 10], Rules())
    ((3, 13, 0, 10), None)
    """
    if sum(points_taken) != 26 or len(points_taken) != NUM_SEATS:
        raise ValueError(f"a hand has 26 points over 4 seats, not {list(points_taken)}")
    if rules.shoot_the_moon and 26 in points_taken:
        shooter = list(points_taken).index(26)
        moon = tuple(0 if seat == shooter else 26 for seat in range(NUM_SEATS))
        return (moon[0], moon[1], moon[2], moon[3]), shooter
    a, b, c, d = points_taken
    return (a, b, c, d), None


def card_name_list(cards: list[Card]) -> str:
    """Names joined for a sentence: "the 2 of clubs, the 3 of clubs and the Ace of hearts"."""
    names = [f"the {c.name}" for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]

