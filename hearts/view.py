"""What one seat may know: its own hand and everything public — nothing else.

Computer players and the hint receive a ``PlayerView``, never a ``Game``, so they
cannot see hidden cards. Two games that differ only in the other seats' hidden cards
give equal views (a test proves it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from hearts.cards import SUIT_MASKS, Card, mask_of
from hearts.rules import (
    JD_MASK,
    SEAT_NAMES,
    MoonScoring,
    PassDirection,
    Rules,
    card_name_list,
    illegal_reason,
    pass_target,
)

__all__ = ["MOON_OPTIONS", "Phase", "PlayerView", "Trick", "moon_refusal", "pass_refusal",
           "play_refusal"]

MOON_OPTIONS = (MoonScoring.OTHERS_PLUS_26, MoonScoring.SHOOTER_MINUS_26)
"""What a shooter may choose under ``MoonScoring.SHOOTER_CHOOSES``."""


class Phase(Enum):
    """Where the game is: choosing passes, playing tricks, the shooter choosing how a
    moon scores (only under ``MoonScoring.SHOOTER_CHOOSES``), or finished."""

    PASS = "pass"
    PLAY = "play"
    MOON = "moon"
    GAME_OVER = "game_over"


def play_refusal(card: Card, seat: int, *, phase: Phase, to_play: int | None, hand: int,
                 led_suit: int, first_trick: bool, hearts_broken: bool, rules: Rules
                 ) -> str | None:
    """None if ``seat`` may play ``card`` now, else the sentence telling the person why not.

    The one text of every refusal of a play: ``Game.why_illegal`` and
    ``PlayerView.why_illegal`` both call it, with what each of them knows. ``hand`` is
    the mask of ``seat``'s cards, ``led_suit`` -1 when leading.
    """
    if phase is Phase.PASS:
        return "It's not time to play yet: first everyone passes three cards."
    if phase is Phase.GAME_OVER:
        return "The game is over."
    if phase is Phase.MOON:
        return "The hand is over: the moon's shooter is choosing how it scores."
    if seat != to_play:
        who = SEAT_NAMES[to_play] if to_play is not None else "someone else"
        return f"It's not your turn: {who} plays next."
    return illegal_reason(card, hand, led_suit, first_trick, hearts_broken, rules)


def pass_refusal(cards: Iterable[Card], *, phase: Phase, pass_direction: PassDirection,
                 chosen: bool, hand: int) -> str | None:
    """None if a seat may pass ``cards`` now, else the sentence telling the person why not.

    ``chosen``: whether the seat has already chosen its pass this hand; ``hand``: the
    mask of the seat's cards as dealt. Shared by ``Game.why_pass_refused`` (and so the
    error of ``Game.choose_pass``) and ``PlayerView.why_pass_refused``.
    """
    if phase is Phase.GAME_OVER:
        return "The game is over."
    if phase is not Phase.PASS:
        if pass_direction is PassDirection.NONE:
            return "There is no passing this hand."
        return "It's not time to pass cards: the passing is over."
    if chosen:
        return "You have already chosen your three cards to pass."
    picked = list(cards)
    if len(picked) != 3 or len(set(picked)) != 3:
        return "Choose exactly three different cards to pass."
    missing = [card for card in picked if not card.mask & hand]
    if missing:
        names = card_name_list(missing)
        verb = "is" if len(missing) == 1 else "are"
        return f"{names[0].upper()}{names[1:]} {verb} not in your hand."
    return None


def moon_refusal(choice: object, seat: int, *, phase: Phase, chooser: int | None
                 ) -> str | None:
    """None if ``seat`` may choose ``choice`` for the moon now, else the sentence why not."""
    if phase is not Phase.MOON or chooser is None:
        return "There is no moon to score now."
    if seat != chooser:
        return f"Only {SEAT_NAMES[chooser]}, who shot the moon, chooses how it scores."
    if choice not in MOON_OPTIONS:
        return ("Choose either 26 for each other player or 26 off your own score, "
                f"not {choice!r}.")
    return None


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
    moon_chooser: int | None = None
    """In ``Phase.MOON``, the shooter who is to choose how the moon scores."""

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
    def jd_taker(self) -> int | None:
        """The seat that won the J♦ this hand (None while it is unplayed or in the trick)."""
        for trick in self.tricks:
            if mask_of(trick.cards) & JD_MASK:
                return trick.winner
        return None

    @property
    def hand_mask(self) -> int:
        """Mask of this seat's hand."""
        return mask_of(self.hand)

    def why_illegal(self, card: Card | str) -> str | None:
        """None if this seat may play ``card`` now, else the sentence for the person.

        The same text as ``Game.why_illegal(card, seat)`` for the game of this view.
        Raises CardParseError on bad notation.

        >>> from hearts import Game
        >>> Game.new(seed=7).view(0).why_illegal("2C")
        "It's not time to play yet: first everyone passes three cards."
        """
        if not isinstance(card, Card):
            card = Card.parse(card)
        trick = self.trick
        return play_refusal(card, self.seat, phase=self.phase, to_play=self.to_play,
                            hand=self.hand_mask,
                            led_suit=trick.cards[0].suit if trick is not None else -1,
                            first_trick=not self.tricks, hearts_broken=self.hearts_broken,
                            rules=self.rules)

    def why_pass_refused(self, cards: Iterable[Card | str]) -> str | None:
        """None if this seat may pass ``cards`` now, else the sentence for the person.

        The same text as ``Game.why_pass_refused(seat, cards)``. Raises CardParseError on
        bad notation.
        """
        picked = [c if isinstance(c, Card) else Card.parse(c) for c in cards]
        return pass_refusal(picked, phase=self.phase, pass_direction=self.pass_direction,
                            chosen=self.passed is not None, hand=self.hand_mask)

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
