"""The play of one hand after passing: hands, the trick, points taken, hearts broken.

``HandState`` is the engine's inner loop, shared by ``Game`` (which checks every move
and records events around it) and the computer players' searches (which copy a state
and call the unchecked ``apply``). Cards are indices 0..51 and sets are bit masks.
"""

from __future__ import annotations

from hearts.cards import HEARTS_MASK
from hearts.rules import QS_MASK, TWO_CLUBS_MASK, Rules, legal_mask

__all__ = ["HandState"]

_QS_INDEX = QS_MASK.bit_length() - 1
_HEART_LOW = 26  # indices 26..38 are the hearts
_HEART_HIGH = 38


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
        holder = next((s for s in range(4) if hands[s] & TWO_CLUBS_MASK), 0)
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
        """The mask of legal plays for the seat to play."""
        return legal_mask(self.hands[self.to_play], self.led_suit, self.tricks_done == 0,
                          self.broken, self.rules)

    def apply(self, index: int) -> int:
        """Play card ``index`` for ``to_play`` without checks.

        Returns the trick's winner when this card completes a trick, else -1.
        """
        seat = self.to_play
        self.hands[seat] ^= 1 << index
        trick = self.trick
        trick.append(index)
        if not self.broken and (_HEART_LOW <= index <= _HEART_HIGH or (
                index == _QS_INDEX and self.rules.qs_breaks_hearts)):
            self.broken = True
        if len(trick) == 1:
            self.led_suit = index // 13
        if len(trick) < 4:
            self.to_play = (seat + 1) & 3
            return -1
        # The highest card of the led suit wins.
        lead = trick[0]
        top = lead - lead % 13 + 12
        best = lead
        best_at = 0
        for at in (1, 2, 3):
            card = trick[at]
            if best < card <= top:
                best, best_at = card, at
        winner = (self.leader + best_at) & 3
        mask = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
        if mask & (HEARTS_MASK | QS_MASK):
            self.points[winner] += (mask & HEARTS_MASK).bit_count() + (13 if mask & QS_MASK else 0)
        self.trick = []
        self.tricks_done += 1
        self.leader = winner
        self.to_play = winner
        self.led_suit = -1
        return winner
