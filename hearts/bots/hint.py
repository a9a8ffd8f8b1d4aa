"""The hint: the card (or three cards when passing) the hard player would choose, and why.

One voice with the coach (``hearts.coach``): the hint is the choice of the very player the
coach reviews with (``advisor()``: the hard player with the coach's seed and playouts, no
time cap), from the same view, so following the hint never earns the coach's criticism.
The pass is the hard player's own three (its heuristic pass); a play is the card its
search expects to cost least. Deterministic: the same view always gets the same hint, on
CPython and Pyodide, however fast the machine.

The reason: when the normal player (``hearts.bots.normal``) would choose the same, its
sentence; for a pass, the normal player's words for those three cards; for a card the
normal player wouldn't play, the search's figures (``expected``, and ``other`` /
``other_expected``: the next best card), which the page words.

``hint_steps`` is a generator that yields between slices of the search (``chunk_ms``), so
a page stays responsive while it works, as it does for the computers' turns.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from hearts.bots.normal import decide_pass, decide_play, explain_pass
from hearts.cards import Card
from hearts.steps import run
from hearts.view import Phase, PlayerView

if TYPE_CHECKING:
    from hearts.bots.hard import HardBot

__all__ = ["ADVISOR_PLAYOUTS", "ADVISOR_SEED", "Hint", "advisor", "hint", "hint_steps"]

ADVISOR_SEED: Final = 17
"""The seed of the hard player behind the hint and the coach."""
ADVISOR_PLAYOUTS: Final = 1500
"""Its playouts per play (see ``hearts.coach.COACH_ITERATIONS`` for the figures)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """Recommended cards (one to play, or three to pass) and why: a sentence, or (when
    ``reason`` is "") the search's figures."""

    cards: tuple[Card, ...]
    reason: str
    expected: float | None = None
    """The points the hard player expects for the hand with the card (its figures)."""
    other: Card | None = None
    """The next best card, by the same search."""
    other_expected: float | None = None


def advisor(chunk_ms: float = 10.0) -> HardBot:
    """The hard player of the hint and the coach: fixed seed and playouts, no time cap."""
    from hearts.bots.hard import HardBot  # (only when asked for: the others load fast)
    return HardBot(ADVISOR_SEED, budget_ms=None, iterations=ADVISOR_PLAYOUTS,
                   chunk_ms=chunk_ms)


def hint(view: PlayerView) -> Hint:
    """The advice for the seat of ``view``, at once (``hint_steps`` run to the end).

    >>> from hearts import Game
    >>> game = Game.new(seed=3)
    >>> advice = hint(game.view(0))
    >>> len(advice.cards), advice.reason.startswith("Pass the ")
    (3, True)
    """
    return run(hint_steps(view))


def hint_steps(view: PlayerView, bot: HardBot | None = None
               ) -> Generator[None, None, Hint]:
    """The advice for the seat of ``view``, yielding between slices of the search.

    During passing (before this seat has chosen) three cards; on this seat's turn to play,
    one card. Raises ValueError when there is nothing to advise.
    """
    bot = bot or advisor()
    if view.phase is Phase.PASS:
        if view.passed is not None:
            raise ValueError("this seat has already chosen its cards to pass")
        cards = tuple(sorted((yield from bot.choose_pass_steps(view))))
        normal = decide_pass(view)
        if set(normal.cards) == set(cards):
            return Hint(cards, normal.reason)
        return Hint(cards, explain_pass(view, cards))
    if not (view.phase is Phase.PLAY and view.my_turn):
        raise ValueError("there is nothing to advise: it is not this seat's turn")
    values = yield from bot.play_values_steps(view)
    card, expected = min(values, key=lambda item: item[1])
    normal_play = decide_play(view)
    if dict(values)[normal_play.card] <= expected:  # the same card, or one as good
        return Hint((normal_play.card,), normal_play.reason)
    # (the normal player's card is worse, so there is a next best)
    other, other_expected = min((item for item in values if item[1] > expected),
                                key=lambda item: item[1])
    return Hint((card,), "", expected, other, other_expected)
