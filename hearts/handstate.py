"""The play of one hand after passing: hands, the trick, points taken, hearts broken.

``HandState`` is the engine's inner loop, shared by ``Game`` (which checks every move
and records events around it) and the computer players' searches (which copy a state
and call the unchecked ``apply``). Cards are indices 0..51 and sets are bit masks.
"""

from __future__ import annotations

from typing import Final

from hearts.cards import CARD_POINTS, FULL_DECK_MASK, HEARTS_MASK, SUIT_MASKS
from hearts.rules import POINT_CARDS_MASK, QS_MASK, TWO_CLUBS_MASK, Rules

__all__ = ["HandState"]

assert QS_MASK == 1 << 49 and HEARTS_MASK == 0x1FFF << 26  # literals in apply()
_SUIT_MASKS: Final = SUIT_MASKS
_NOT_HEARTS: Final = FULL_DECK_MASK & ~HEARTS_MASK
_NOT_POINTS: Final = FULL_DECK_MASK & ~POINT_CARDS_MASK
_POINTS: Final = CARD_POINTS  # a module global: one lookup in apply()


class HandState:
    """Trick play of one hand: mutable, fast, no checks in ``apply``."""

    __slots__ = (
        "broken",
        "hands",
        "leader",
        "led_suit",
        "points",
        "rules",
        "to_play",
        "trick",
        "tricks_done",
    )

    def __init__(self, hands: list[int], rules: Rules) -> None:
        """Start the first trick: the holder of the 2♣ is to lead."""
        self.rules = rules
        self.hands = hands
        self.trick: list[int] = []
        self.points = [0, 0, 0, 0]
        self.broken = False
        self.tricks_done = 0
        self.led_suit = -1
        holder = 0
        for seat in (1, 2, 3):
            if hands[seat] & TWO_CLUBS_MASK:
                holder = seat
        self.leader = holder
        self.to_play = holder

    def copy(self) -> HandState:
        """An independent copy (cheaper than replaying the hand)."""
        other = HandState.__new__(HandState)
        other.rules = self.rules
        other.hands = self.hands[:]
        other.trick = self.trick[:]
        other.points = self.points[:]
        other.broken = self.broken
        other.tricks_done = self.tricks_done
        other.led_suit = self.led_suit
        other.leader = self.leader
        other.to_play = self.to_play
        return other

    @property
    def finished(self) -> bool:
        """True once all 13 tricks are played."""
        return self.tricks_done == 13

    def legal(self) -> int:
        """The mask of legal plays for the seat to play (same as ``rules.legal_mask``)."""
        hand = self.hands[self.to_play]
        led = self.led_suit
        if led >= 0:
            follow = hand & _SUIT_MASKS[led]
            if follow:
                return follow
            if self.tricks_done == 0 and self.rules.no_points_on_first_trick:
                return hand & _NOT_POINTS or hand  # only hearts and Q♠: any of them
            return hand
        if self.tricks_done == 0:
            return hand & TWO_CLUBS_MASK or hand  # holder of the 2♣ must lead it
        if not self.broken and self.rules.must_break_hearts:
            return hand & _NOT_HEARTS or hand  # only hearts left: any heart may be led
        return hand

    def apply(self, index: int) -> int:
        """Play card ``index`` for ``to_play`` without checks.

        Returns the trick's winner when this card completes a trick, else -1.
        """
        seat = self.to_play
        self.hands[seat] ^= 1 << index
        trick = self.trick
        trick.append(index)
        if 26 <= index <= 38 or (index == 49 and self.rules.qs_breaks_hearts):
            self.broken = True  # a heart (indices 26..38), or the Q♠ (49) if it counts
        n = len(trick)
        if n < 4:
            if n == 1:
                self.led_suit = index // 13
            self.to_play = (seat + 1) & 3
            return -1
        # The highest card of the led suit wins: a card above the best so far and no
        # higher than the led suit's ace.
        a, b, c, d = trick
        top = a - a % 13 + 12
        best = a
        best_at = 0
        if best < b <= top:
            best = b
            best_at = 1
        if best < c <= top:
            best = c
            best_at = 2
        if best < d <= top:
            best_at = 3
        winner = (self.leader + best_at) & 3
        points = _POINTS[a] + _POINTS[b] + _POINTS[c] + _POINTS[d]
        if points:
            self.points[winner] += points
        self.trick = []
        self.tricks_done += 1
        self.leader = winner
        self.to_play = winner
        self.led_suit = -1
        return winner
