"""The rules of Hearts as pure functions on card masks: legality (with reasons), hand
scoring with the moon and the J♦, the pass cycle (the trick's winner is found where
tricks are played: ``HandState.apply`` and the hard player's playouts).

Everything here works on ``int`` bit masks of card indices (see ``hearts.cards``), so
the game and the computer players' searches share one fast implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final

from hearts.cards import HEARTS_MASK, SUIT_MASKS, Card, Suit

__all__ = [
    "JACK_OF_DIAMONDS",
    "JD_BONUS",
    "JD_MASK",
    "NUM_SEATS",
    "POINT_CARDS_MASK",
    "QS_MASK",
    "QUEEN_OF_SPADES",
    "SEAT_NAMES",
    "TWO_CLUBS_MASK",
    "TWO_OF_CLUBS",
    "MoonScoring",
    "PassCycle",
    "PassDirection",
    "Rules",
    "card_name_list",
    "hand_scores",
    "illegal_reason",
    "legal_mask",
    "moon_shooter",
    "pass_target",
    "possible_hand_scores",
]

NUM_SEATS: Final = 4
SEAT_NAMES: Final = ("South", "West", "North", "East")

TWO_OF_CLUBS: Final = Card.parse("2C")
QUEEN_OF_SPADES: Final = Card.parse("QS")
QS_MASK: Final = QUEEN_OF_SPADES.mask
TWO_CLUBS_MASK: Final = TWO_OF_CLUBS.mask
POINT_CARDS_MASK: Final = HEARTS_MASK | QS_MASK
JACK_OF_DIAMONDS: Final = Card.parse("JD")
JD_MASK: Final = JACK_OF_DIAMONDS.mask
JD_BONUS: Final = 10
"""What the J♦ takes off its taker's hand score under ``Rules.jd_bonus``."""


class PassDirection(IntEnum):
    """Where the three passed cards go; the value is the seat offset clockwise."""

    NONE = 0
    LEFT = 1
    ACROSS = 2
    RIGHT = 3

    @staticmethod
    def for_hand(hand_number: int, cycle: PassCycle | None = None) -> PassDirection:
        """The direction of the 1-based hand number: left, right, across, none, again
        (``PassCycle.NO_HOLD``: left, right, across, again)."""
        order = _NO_HOLD_CYCLE if cycle is PassCycle.NO_HOLD else _PASS_CYCLE
        return order[(hand_number - 1) % len(order)]

    @property
    def letter(self) -> str:
        """``"L"``, ``"R"``, ``"A"`` or ``"N"``."""
        return "NLAR"[self]

    @property
    def word(self) -> str:
        """``"left"``, ``"right"``, ``"across"`` or ``"no pass"``."""
        return ("no pass", "left", "across", "right")[self]


class PassCycle(StrEnum):
    """The order of pass directions, hand after hand."""

    WITH_HOLD = "left_right_across_hold"
    """Left, right, across, then a hand without passing (the default)."""
    NO_HOLD = "left_right_across"
    """Left, right, across, and round again: every hand passes."""


class MoonScoring(StrEnum):
    """How a hand in which one player took every heart and the Q♠ scores."""

    OTHERS_PLUS_26 = "others_plus_26"
    """The shooter scores 0 and each other player 26 (the default)."""
    SHOOTER_MINUS_26 = "shooter_minus_26"
    """The shooter scores −26 and the others 0."""
    SHOOTER_CHOOSES = "shooter_chooses"
    """The shooter chooses one of the two above when the hand ends (``Game.choose_moon``)."""


_PASS_CYCLE: Final = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS,
                      PassDirection.NONE)
_NO_HOLD_CYCLE: Final = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS)


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
    """Whether taking every heart and the Q♠ is a moon, scored as ``moon_scoring`` says."""
    jd_bonus: bool = False
    """The J♦ takes 10 off the hand score of whoever wins the trick holding it.

    It plays no part in the moon: shooting is still every heart and the Q♠, and the J♦
    comes off its taker's score after the moon is applied (as OpenSpiel's ``jd_bonus``).
    """
    moon_scoring: MoonScoring = MoonScoring.OTHERS_PLUS_26
    """How a moon scores (only when ``shoot_the_moon``)."""
    pass_cycle: PassCycle = PassCycle.WITH_HOLD
    """The order of pass directions."""

    def __post_init__(self) -> None:
        if (not isinstance(self.end_score, int) or isinstance(self.end_score, bool)
                or not 1 <= self.end_score <= 10_000):
            raise ValueError(f"end_score must be an int from 1 to 10000, not {self.end_score!r}")
        for name in ("qs_breaks_hearts", "no_points_on_first_trick", "must_break_hearts",
                     "shoot_the_moon", "jd_bonus"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")
        # Saved games and settings give the enums' text: take it, refuse anything else.
        for name, kind in (("moon_scoring", MoonScoring), ("pass_cycle", PassCycle)):
            value = getattr(self, name)
            if not isinstance(value, kind):
                choices = ", ".join(m.value for m in kind)
                if not isinstance(value, str) or value not in {m.value for m in kind}:
                    raise ValueError(f"{name} must be one of {choices}, not {value!r}")
                object.__setattr__(self, name, kind(value))

    def pass_direction(self, hand_number: int) -> PassDirection:
        """The pass direction of the 1-based ``hand_number`` under ``pass_cycle``."""
        return PassDirection.for_hand(hand_number, self.pass_cycle)

    @property
    def moon_choice(self) -> bool:
        """Whether a moon's shooter chooses how it scores (a decision of ``Game``)."""
        return self.shoot_the_moon and self.moon_scoring is MoonScoring.SHOOTER_CHOOSES

    def changed(self) -> tuple[str, ...]:
        """The names of the fields that differ from the defaults, in field order."""
        default = _DEFAULT_VALUES
        return tuple(name for name, value in default.items() if getattr(self, name) != value)


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


def moon_shooter(points_taken: Sequence[int], rules: Rules) -> int | None:
    """The seat that took all 26 penalty points when the moon counts, else None."""
    if rules.shoot_the_moon and 26 in points_taken:
        return list(points_taken).index(26)
    return None


def hand_scores(points_taken: Sequence[int], rules: Rules, jd_taker: int | None = None,
                moon: MoonScoring | None = None
                ) -> tuple[tuple[int, int, int, int], int | None]:
    """The four scores of a finished hand, and the seat that shot the moon (or None).

    ``points_taken`` are the penalty points (hearts and the Q♠: 26 in all); ``jd_taker``
    the seat that took the J♦ (needed when ``rules.jd_bonus``); ``moon`` the shooter's
    choice under ``MoonScoring.SHOOTER_CHOOSES`` (needed then when there is a moon).
    Raises ValueError when a needed one is missing or the points are impossible.

    >>> hand_scores([26, 0, 0, 0], Rules())
    ((0, 26, 26, 26), 0)
    >>> hand_scores([3, 13, 0, 10], Rules())
    ((3, 13, 0, 10), None)
    >>> hand_scores([26, 0, 0, 0], Rules(jd_bonus=True, moon_scoring="shooter_minus_26"), 1)
    ((-26, -10, 0, 0), 0)
    """
    if sum(points_taken) != 26 or len(points_taken) != NUM_SEATS:
        raise ValueError(f"a hand has 26 points over 4 seats, not {list(points_taken)}")
    scores = list(points_taken)
    shooter = moon_shooter(points_taken, rules)
    if shooter is not None:
        how = rules.moon_scoring
        if how is MoonScoring.SHOOTER_CHOOSES:
            if moon not in (MoonScoring.OTHERS_PLUS_26, MoonScoring.SHOOTER_MINUS_26):
                raise ValueError("the shooter's choice of moon scoring is needed, "
                                 f"not {moon!r}")
            how = moon
        if how is MoonScoring.OTHERS_PLUS_26:
            scores = [0 if seat == shooter else 26 for seat in range(NUM_SEATS)]
        else:
            scores = [-26 if seat == shooter else 0 for seat in range(NUM_SEATS)]
    if rules.jd_bonus:
        if jd_taker is None or not 0 <= jd_taker < NUM_SEATS:
            raise ValueError(f"the seat that took the J♦ is needed, not {jd_taker!r}")
        scores[jd_taker] -= JD_BONUS
    a, b, c, d = scores
    return (a, b, c, d), shooter


def possible_hand_scores(scores: Sequence[int], rules: Rules) -> bool:
    """Whether four hand scores could come out of one hand under ``rules`` (to check saves)."""
    if len(scores) != NUM_SEATS:
        return False
    takers: tuple[int | None, ...] = tuple(range(NUM_SEATS)) if rules.jd_bonus else (None,)
    for taker in takers:
        base = [v + (JD_BONUS if seat == taker else 0) for seat, v in enumerate(scores)]
        ordered = sorted(base)
        if rules.shoot_the_moon:
            how = rules.moon_scoring
            if ordered == [0, 26, 26, 26] and how is not MoonScoring.SHOOTER_MINUS_26:
                return True
            if ordered == [-26, 0, 0, 0] and how is not MoonScoring.OTHERS_PLUS_26:
                return True
        if (all(0 <= v <= 26 for v in base) and sum(base) == 26
                and not (rules.shoot_the_moon and 26 in base)):
            return True
    return False


_DEFAULT_VALUES: Final = {name: getattr(Rules(), name) for name in Rules.__dataclass_fields__}


def card_name_list(cards: list[Card]) -> str:
    """Names joined for a sentence: "the 2 of clubs, the 3 of clubs and the Ace of hearts"."""
    names = [f"the {c.name}" for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]

