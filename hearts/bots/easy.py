"""``easy``: a beatable player with simple sense and human-like mistakes.

Most of the time it plays like a cautious beginner: follow with the lowest card that
ducks (else the highest of the suit), lead its lowest card, and when void throw away
the Q♠ or its highest card. About one decision in four it slips: any legal card, as a
person might misclick or miscount. When passing it gives away its three highest cards,
but sometimes keeps a dangerous one (the Q♠ or a high heart) by mistake.

Its slips come from ``decision_rng``: the same seed and view always give the same card.
"""

from __future__ import annotations

from hearts.bots.basic import BasicBot
from hearts.bots.moon import better_moon_scoring
from hearts.bots.situation import decision_rng
from hearts.cards import Card
from hearts.rules import QUEEN_OF_SPADES, MoonScoring
from hearts.view import PlayerView

__all__ = ["EasyBot"]

MISTAKE_RATE = 0.25
"""Share of plays that are any legal card."""
PASS_SLIP_RATE = 0.4
"""Share of passes that swap one of the three highest cards for a random other card."""


class EasyBot:
    """Beginner-like play; deterministic for a given seed and view."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._basic = BasicBot(seed)

    def choose_moon(self, view: PlayerView) -> MoonScoring:
        """How its moon scores: see ``hearts.bots.moon.better_moon_scoring``."""
        return better_moon_scoring(view)

    def choose_pass(self, view: PlayerView) -> list[Card]:
        """The three highest cards, with an occasional slip."""
        rng = decision_rng(self.seed, view, "easy-pass")
        chosen = self._basic.choose_pass(view)
        if rng.random() < PASS_SLIP_RATE:
            others = [c for c in view.hand if c not in chosen]
            chosen[rng.randrange(3)] = rng.choice(others)
        return chosen

    def choose_play(self, view: PlayerView) -> Card:
        """Usually the cautious beginner's card; sometimes any legal card."""
        legal = view.legal_plays
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view, "easy-play")
        if rng.random() < MISTAKE_RATE:
            return rng.choice(legal)
        trick = view.trick
        if trick is not None and trick.cards and QUEEN_OF_SPADES in legal and \
                trick.cards[0].suit != QUEEN_OF_SPADES.suit:
            return QUEEN_OF_SPADES  # void in the led suit: everybody knows to drop the Queen
        return self._basic.choose_play(view)
