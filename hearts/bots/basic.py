"""``basic``: the arena's reference player. Simple, fixed, easy to reason about.

- **Following suit**: its lowest card that ducks under the card now winning the trick;
  if none ducks, its highest card of the suit.
- **Void in the led suit**: its highest-ranked legal card (ties: spades, then hearts,
  diamonds, clubs — so the Q♠ or a high heart goes before a same-rank club).
- **Leading**: its lowest-ranked legal card (ties: clubs first, hearts last).
- **Passing**: its three highest-ranked cards (same ties as when void).

It never looks at what others have played beyond the current trick and uses no
randomness, so its play is the same for any seed.
"""

from __future__ import annotations

from hearts.bots.moon import better_moon_scoring
from hearts.cards import ALL_CARDS, SUIT_MASKS, Card, cards_of_mask, lowest, mask_of
from hearts.rules import MoonScoring
from hearts.view import PlayerView

__all__ = ["BasicBot"]

_SUIT_ORDER_WHEN_SHEDDING = (3, 2, 1, 0)


def _highest_ranked(cards: list[Card]) -> Card:
    return max(cards, key=lambda c: (int(c.rank), -_SUIT_ORDER_WHEN_SHEDDING.index(c.suit)))


def _lowest_ranked(cards: list[Card]) -> Card:
    return min(cards, key=lambda c: (int(c.rank), int(c.suit) if c.suit != 2 else 4))


class BasicBot:
    """Lowest ducking card, else highest; see the module docstring."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose_moon(self, view: PlayerView) -> MoonScoring:
        """How its moon scores: see ``hearts.bots.moon.better_moon_scoring``."""
        return better_moon_scoring(view)

    def choose_pass(self, view: PlayerView) -> list[Card]:
        """The three highest-ranked cards of the hand."""
        cards = list(view.hand)
        chosen: list[Card] = []
        for _ in range(3):
            card = _highest_ranked(cards)
            cards.remove(card)
            chosen.append(card)
        return chosen

    def choose_play(self, view: PlayerView) -> Card:
        """Lowest ducking card, else highest of the suit; highest when void; lowest leads."""
        legal = list(view.legal_plays)
        if len(legal) == 1:
            return legal[0]
        trick = view.trick
        if trick is None or not trick.cards:
            return _lowest_ranked(legal)
        led = trick.cards[0].suit
        follow = mask_of(legal) & SUIT_MASKS[led]
        if not follow:
            return _highest_ranked(legal)
        top = max(c.index for c in trick.cards if c.suit == led)
        duckers = follow & ((1 << top) - 1)
        if duckers:
            return ALL_CARDS[lowest(duckers)]
        return cards_of_mask(follow)[-1]
