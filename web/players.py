"""The computer players and the hint, as the table uses them.

A thin adapter over ``hearts.bots``: ``make(level, seed)`` and ``hint(view)``. A bot
that offers ``choose_play_steps(view)`` (a generator that returns the card) is driven a
slice at a time so the browser gets control back between slices. If ``hearts.bots`` (or
one level of it) is not there, a plain fallback player keeps the table playable.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from hearts import Card, PlayerView
from hearts.rules import MoonScoring

__all__ = ["Hint", "choose_play", "hint", "make"]


class _Bot(Protocol):
    def choose_pass(self, view: PlayerView) -> list[Card]: ...
    def choose_play(self, view: PlayerView) -> Card: ...
    def choose_moon(self, view: PlayerView) -> MoonScoring: ...


@dataclass(frozen=True)
class Hint:
    """Cards the advisor recommends and one sentence saying why."""

    cards: tuple[Card, ...]
    reason: str


class _Fallback:
    """Plays the lowest legal card and passes the three highest: only used without bots."""

    def choose_pass(self, view: PlayerView) -> list[Card]:
        return sorted(view.hand, key=lambda c: (c.points > 0, c.rank))[-3:]

    def choose_play(self, view: PlayerView) -> Card:
        return min(view.legal_plays, key=lambda c: (c.rank, c.suit))

    def choose_moon(self, view: PlayerView) -> MoonScoring:
        return MoonScoring.OTHERS_PLUS_26


def make(level: str, seed: int) -> _Bot:
    """A computer player of ``level`` (easy / normal / hard), falling back to a lower one."""
    try:
        from hearts import bots
    except ImportError:
        return _Fallback()
    maker = getattr(bots, "make", None)
    if maker is None:
        return _Fallback()
    for name in (level, "normal", "easy"):
        try:
            return maker(name, seed)  # type: ignore[no-any-return]
        except (ValueError, KeyError, NotImplementedError, ImportError):
            continue
    return _Fallback()


def hint(view: PlayerView) -> Hint:
    """The advisor's recommendation for South's view (three cards when passing)."""
    advisor: Any = None
    try:
        from hearts import bots
        advisor = getattr(bots, "hint", None)
    except ImportError:
        pass
    if advisor is not None:
        result = advisor(view)
        cards = tuple(getattr(result, "cards", ()))
        reason = str(getattr(result, "reason", ""))
        if cards:
            return Hint(cards, reason)
    fallback = _Fallback()
    if view.phase.value == "pass":
        return Hint(tuple(fallback.choose_pass(view)),
                    "Passing your highest cards keeps you from winning tricks.")
    return Hint((fallback.choose_play(view),), "Your lowest card is the safest play.")


async def choose_play(bot: _Bot, view: PlayerView) -> Card:
    """The bot's play, yielding to the browser between slices of its search if it can."""
    steps = getattr(bot, "choose_play_steps", None)
    if steps is None:
        return bot.choose_play(view)
    generator: Iterator[Any] = steps(view)
    while True:
        try:
            next(generator)
        except StopIteration as stop:
            card = stop.value
            if isinstance(card, Card):
                return card
            return bot.choose_play(view)
        await asyncio.sleep(0)
