"""The hint: the card (or three cards when passing) the advisor recommends, and why.

It is the ``normal`` player's own decision (``decide_play`` / ``decide_pass``), so the
person is advised exactly as the normal computer players play.
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.bots.normal import decide_pass, decide_play
from hearts.cards import Card
from hearts.view import Phase, PlayerView

__all__ = ["Hint", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    """Recommended cards (one to play, or three to pass) and a sentence saying why."""

    cards: tuple[Card, ...]
    reason: str


def hint(view: PlayerView) -> Hint:
    """The advice for the seat of ``view``.

    During passing (before this seat has chosen) it recommends three cards; on this
    seat's turn to play, one card. Raises ValueError when there is nothing to advise.

    >>> from hearts import Game
    >>> game = Game.new(seed=3)
    >>> advice = hint(game.view(0))
    >>> len(advice.cards), advice.reason.startswith("Pass the ")
    (3, True)
    """
    if view.phase is Phase.PASS:
        if view.passed is not None:
            raise ValueError("this seat has already chosen its cards to pass")
        choice = decide_pass(view)
        return Hint(tuple(choice.cards), choice.reason)
    if view.phase is Phase.PLAY and view.my_turn:
        played = decide_play(view)
        return Hint((played.card,), played.reason)
    raise ValueError("there is nothing to advise: it is not this seat's turn")
