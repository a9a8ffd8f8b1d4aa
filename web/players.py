"""The computer players and the hint, as the tables use them.

``Computers`` are one game's computer players, one a seat, set up the same way at every
table (the solo game, a hosted private table): each seeded from the game's seed and its
seat, so a reload or a replay meets the same players. ``choose_play`` drives a bot's search
a slice at a time (``choose_play_steps``, a generator that returns the card) so the browser
gets control back between slices; ``Computers.play`` adds the table's pause before the
card. ``hint(view)`` is the advisor's recommendation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator, Iterable
from typing import Protocol, runtime_checkable

from hearts import Card, Game, Phase, PlayerView, bots
from hearts.bots import Bot, Hint

__all__ = ["Bot", "Computers", "Hint", "MakeBot", "Searching", "choose_play", "hint", "make"]

MakeBot = Callable[[str, int], Bot]
"""How a table gets a computer player: ``make(level, seed)``."""
_SEEDS = 2**53


def make(level: str, seed: int) -> Bot:
    """A computer player of ``level`` (easy / normal / hard): ValueError for another."""
    return bots.make(level, seed)


def hint(view: PlayerView) -> Hint:
    """The advisor's recommendation for ``view`` (three cards when passing)."""
    return bots.hint(view)


@runtime_checkable
class Searching(Protocol):
    """A player that searches in slices (the hard one): its play as a generator that yields
    between slices and returns the card."""

    def choose_play_steps(self, view: PlayerView) -> Generator[None, None, Card]: ...


async def choose_play(bot: Bot, view: PlayerView) -> Card:
    """The bot's play, yielding to the browser between slices of its search if it can."""
    if not isinstance(bot, Searching):
        return bot.choose_play(view)
    steps = bot.choose_play_steps(view)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            card: Card = stop.value
            return card
        await asyncio.sleep(0)


class Computers:
    """The computer players of one game at ``level``: ``computers[seat]`` is that seat's."""

    def __init__(self, level: str, seed: int, *, make: MakeBot = make) -> None:
        self.level = level
        self._bots = [make(level, (seed * 4 + seat) % _SEEDS) for seat in range(4)]

    def __getitem__(self, seat: int) -> Bot:
        return self._bots[seat]

    def pass_for(self, game: Game, seats: Iterable[int]) -> None:
        """Every one of ``seats`` that hasn't chosen its pass chooses it now."""
        for seat in seats:
            if game.phase is Phase.PASS and not game.pass_chosen(seat):
                game.choose_pass(seat, self._bots[seat].choose_pass(game.view(seat)))

    def choose_moon(self, game: Game, seat: int) -> None:
        """``seat`` shot the moon and is a computer: it chooses how it scores, at once."""
        game.choose_moon(seat, self._bots[seat].choose_moon(game.view(seat)))

    async def play(self, view: PlayerView, seat: int, *, pause: float, since: float,
                   clock: Callable[[], float],
                   sleep: Callable[[float], Awaitable[None]]) -> Card:
        """``seat``'s card for ``view``, handed over ``pause`` seconds after ``since`` at the
        earliest: the computer's thinking counts toward the table's pause before its card.
        The caller checks that the table hasn't moved on meanwhile."""
        card = await choose_play(self._bots[seat], view)
        left = pause - (clock() - since)
        if left > 0:
            await sleep(left)
        return card
