"""What a seat can work out from its ``PlayerView``: card counting for the rule-based players.

``Situation`` turns a view into bit masks once per decision: the seat's hand and legal
plays, every card still unseen (held by the other three), the suits each seat has shown
it lacks, the cards this seat passed (still held by the receiver unless played), the
trick so far and who is winning it. Everything is derived from the view alone, so the
players that use it cannot know more than the seat may know.

Also here: ``decision_rng``, the per-decision random generator every bot uses so that a
decision is a pure function of the bot's seed and the view.
"""

from __future__ import annotations

import random

from hearts.cards import FULL_DECK_MASK, SUIT_MASKS, above_mask, mask_of
from hearts.rules import QS_MASK
from hearts.view import PlayerView

__all__ = [
    "AS_INDEX",
    "HEARTS",
    "KS_INDEX",
    "QS_INDEX",
    "SPADES",
    "SPADES_ABOVE_QUEEN",
    "SPADES_MASK",
    "Situation",
    "decision_rng",
]

HEARTS = 2
SPADES = 3
QS_INDEX = QS_MASK.bit_length() - 1
KS_INDEX = QS_INDEX + 1
AS_INDEX = QS_INDEX + 2
SPADES_MASK = SUIT_MASKS[SPADES]
SPADES_ABOVE_QUEEN = (1 << KS_INDEX) | (1 << AS_INDEX)


def decision_rng(seed: int, view: PlayerView, salt: str = "") -> random.Random:
    """A generator that depends only on ``seed`` and what the view shows.

    Two calls with the same seed and an equal view give the same stream, whatever
    happened before (no hidden state), which makes every bot deterministic.
    """
    plays = "".join(card.notation for _, card in view.plays())
    hand = "".join(card.notation for card in view.hand)
    passed = "".join(card.notation for card in view.passed or ())
    return random.Random(f"{salt}/{seed}/{view.seat}/{view.hand_number}/{hand}/{passed}/{plays}")


class Situation:
    """Card counting from one seat's view. All card sets are masks of card indices."""

    __slots__ = (
        "broken",
        "first_trick",
        "hand",
        "jd_bonus",
        "known",
        "led",
        "legal",
        "played",
        "points",
        "position",
        "seat",
        "trick",
        "trick_points",
        "tricks_done",
        "unseen",
        "voids",
        "win_index",
        "win_seat",
    )

    def __init__(self, view: PlayerView) -> None:
        self.seat = view.seat
        self.hand = mask_of(view.hand)
        self.legal = mask_of(view.legal_plays)
        played = 0
        voids = [0, 0, 0, 0]
        for past in view.tricks:
            cards = past.cards
            played |= cards[0].mask | cards[1].mask | cards[2].mask | cards[3].mask
            led = cards[0].suit
            for position in (1, 2, 3):
                if cards[position].suit != led:
                    voids[(past.leader + position) & 3] |= SUIT_MASKS[led]
        self.tricks_done = len(view.tricks)
        self.first_trick = not view.tricks
        trick: list[tuple[int, int]] = []
        self.led = -1
        self.win_index = -1
        self.win_seat = -1
        self.trick_points = 0
        current = view.trick
        if current is not None and current.cards:
            led_suit = current.cards[0].suit
            self.led = int(led_suit)
            for position, card in enumerate(current.cards):
                seat = (current.leader + position) & 3
                trick.append((seat, card.index))
                played |= card.mask
                self.trick_points += card.points
                if card.suit != led_suit:
                    voids[seat] |= SUIT_MASKS[led_suit]
                elif card.index > self.win_index:
                    self.win_index = card.index
                    self.win_seat = seat
        self.trick = trick
        self.position = len(trick)
        self.played = played
        self.unseen = FULL_DECK_MASK & ~played & ~self.hand
        self.voids = voids
        # Cards this seat passed are held by the receiver until they are played.
        known = [0, 0, 0, 0]
        target = view.pass_to
        if target is not None and view.passed and view.received is not None:
            known[target] = mask_of(view.passed) & self.unseen
        self.known = known
        self.points = view.hand_points
        self.broken = view.hearts_broken
        self.jd_bonus = view.rules.jd_bonus  # the J♦ counts −10 (a house rule)

    # --- who may hold what -------------------------------------------------------------

    def may_hold(self, seat: int, index: int) -> bool:
        """Whether ``seat`` (another seat) might hold unseen card ``index``."""
        bit = 1 << index
        if not self.unseen & bit or seat == self.seat:
            return False
        if self.voids[seat] & bit:
            return False
        known_elsewhere = 0
        for other in range(4):
            if other != seat:
                known_elsewhere |= self.known[other]
        return not known_elsewhere & bit

    def holders(self, index: int) -> list[int]:
        """The other seats that might hold unseen card ``index``."""
        return [s for s in range(4) if s != self.seat and self.may_hold(s, index)]

    def later_seats(self) -> list[int]:
        """The seats still to play to the current trick after this one."""
        leader = self.trick[0][0] if self.trick else self.seat
        return [(leader + p) & 3 for p in range(self.position + 1, 4)]

    def void_in(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` has shown it has no cards of ``suit``."""
        return bool(self.voids[seat] & SUIT_MASKS[suit])

    # --- the Queen of spades -------------------------------------------------------------

    @property
    def qs_out(self) -> bool:
        """The Q♠ is still in another seat's hand."""
        return bool(self.unseen & QS_MASK)

    @property
    def have_qs(self) -> bool:
        """This seat holds the Q♠."""
        return bool(self.hand & QS_MASK)

    # --- counting ------------------------------------------------------------------------

    def unseen_in(self, suit: int) -> int:
        """Mask of the unseen cards of ``suit``."""
        return self.unseen & SUIT_MASKS[suit]

    def mine_in(self, suit: int) -> int:
        """Mask of this seat's cards of ``suit``."""
        return self.hand & SUIT_MASKS[suit]

    def is_boss(self, index: int) -> bool:
        """Whether no unseen card of the suit ranks above ``index`` (it wins if led)."""
        return not self.unseen & above_mask(index)

    def others_with_points(self) -> list[int]:
        """The other seats that have taken points this hand."""
        return [s for s in range(4) if s != self.seat and self.points[s] > 0]
