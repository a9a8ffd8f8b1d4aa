"""Inference from play: how likely a sampled deal makes the other seats' actual plays.

The sampler (``hearts.bots.sampling``) deals the unseen cards uniformly among the deals
the rules allow. But the other players chose their cards for reasons: a seat that had a
low card to duck under the lead and played over it anyway probably had none; a seat that
discarded a small heart on someone else's trick probably did not hold the Q♠. So each
sampled deal gets a weight, the likelihood of the others' plays so far under a simple
model of them (importance weighting, with the uniform sampler as the proposal).

The model is the fast playout policy (``hearts.bots.playout.choose``), softened: each
past play of another seat is compared with the card the policy would have played from
that seat's hand at the time (the sampled hand plus the cards it has played since), by
kind only: the same suit for a lead, ducking under the trick's top card or going over it
when following, the Q♠ or the same suit when discarding. A play of the kind the policy
picks counts 1, another kind ``MISMATCH``. The weight is the product.

It is exact integer-free float arithmetic on a fixed sequence of operations, so the same
on CPython and Pyodide.
"""

from __future__ import annotations

from typing import Final

from hearts.bots.playout import choose, rules_flags
from hearts.rules import QUEEN_OF_SPADES
from hearts.view import PlayerView

__all__ = ["MISMATCH", "PlayModel"]

MISMATCH: Final = 0.5
"""The likelihood of a play of another kind than the model's, against 1 for its kind."""

_QS_I: Final = QUEEN_OF_SPADES.index


class PlayModel:
    """The other seats' plays seen by one view, ready to weigh sampled deals."""

    __slots__ = ("events", "flags")

    def __init__(self, view: PlayerView) -> None:
        self.flags = rules_flags(view.rules)
        me = view.seat
        tricks = list(view.tricks)
        if view.trick is not None:
            tricks.append(view.trick)
        plays: list[tuple[int, int, int, int, int, bool, bool, bool, int]] = []
        played = 0
        broken = False
        qs_rule = view.rules.qs_breaks_hearts
        for number, trick in enumerate(tricks):
            led = top = 0
            for position, card in enumerate(trick.cards):
                seat = (trick.leader + position) & 3
                index = card.index
                if seat != me:
                    plays.append((seat, index, position, led, top, number == 0, broken,
                                  not played & QUEEN_OF_SPADES.mask, played))
                if position == 0:
                    led, top = index // 13, index
                elif index // 13 == led and index > top:
                    top = index
                played |= 1 << index
                if 26 <= index <= 38 or (qs_rule and index == _QS_I):
                    broken = True
        # Each event: the seat, its card, the cards it played from then on (to rebuild
        # its hand at the time from a sampled current hand) and the public position.
        events: list[tuple[int, int, int, int, int, int, bool, bool, bool, int]] = []
        later = [0, 0, 0, 0]
        for seat, index, n, led, top, first, was_broken, qs_out, before in reversed(plays):
            later[seat] |= 1 << index
            events.append((seat, index, later[seat], n, led, top, first, was_broken, qs_out,
                           before))
        events.reverse()
        self.events = events

    def weight(self, hands: list[int]) -> float:
        """The likelihood of the seen plays if the others now hold ``hands`` (masks)."""
        w = 1.0
        flags = self.flags
        for seat, index, later, n, led, top, first, broken, qs_out, before in self.events:
            hand = hands[seat] | later
            card = choose(hand, n, led, top, first, broken, qs_out, flags, before)
            if card == index:
                continue
            if n == 0:
                same = card // 13 == index // 13
            elif hand >> (led * 13) & 0x1FFF:  # followed suit: under or over the top
                same = (card < top) == (index < top)
            else:  # discarded: the Q♠, or a card of the same suit
                same = card != _QS_I and index != _QS_I and card // 13 == index // 13
            if not same:
                w *= MISMATCH
        return w
