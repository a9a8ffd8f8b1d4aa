"""What every computer player offers: choose three cards to pass, choose a card to play,
and (under the house rule "the shooter chooses") how its moon scores."""

from __future__ import annotations

from typing import Protocol

from hearts.cards import Card
from hearts.rules import MoonScoring
from hearts.view import PlayerView

__all__ = ["Bot"]


class Bot(Protocol):
    """A computer player. It sees only a ``PlayerView`` and is deterministic per seed and view."""

    def choose_pass(self, view: PlayerView) -> list[Card]:
        """Three cards of ``view.hand`` to pass."""
        ...

    def choose_play(self, view: PlayerView) -> Card:
        """One card of ``view.legal_plays``."""
        ...

    def choose_moon(self, view: PlayerView) -> MoonScoring:
        """``OTHERS_PLUS_26`` or ``SHOOTER_MINUS_26`` when ``view.moon_chooser`` is its seat."""
        ...
