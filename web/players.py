"""The computer players and the hint, as the tables run them.

``Computers`` are one game's computer players, one a seat, set up the same way at every
table (the solo game, a hosted private table): each seeded from the game's seed and its
seat, so a reload or a replay meets the same players. Every table runs them the same way:
``due`` is the move the game waits for from them (a table says which seats are theirs),
``Computers.play`` searches for a card (``choose_play``: a slice at a time, through
``choose_play_steps``, a generator that returns the card, so the browser gets control back
between slices) and holds it until the table's pause is over, and ``Computers.make`` makes
the move. When to move them is each table's own: the solo table at once after the person's
move, the host's on its clock while it waits for people. ``hint(view)`` is the hint: the hard
player's choice (``hearts.bots.hint``), searched in slices too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar, runtime_checkable

from hearts import Card, Game, Phase, PlayerView, bots
from hearts.bots import Bot, Hint

__all__ = ["Bot", "Computers", "Hint", "MakeBot", "Move", "Searching", "choose_play", "due",
           "hint", "make"]

MakeBot = Callable[[str, int], Bot]
"""How a table gets a computer player: ``make(level, seed)``."""
_SEEDS = 2**53
T = TypeVar("T")


def make(level: str, seed: int) -> Bot:
    """A computer player of ``level`` (easy / normal / hard): ValueError for another."""
    return bots.make(level, seed)


async def hint(view: PlayerView) -> Hint:
    """The hint for ``view`` (three cards when passing): the hard player's choice, searched
    a slice at a time as the computers' turns are, so the page answers meanwhile."""
    return await _sliced(bots.hint_steps(view))


async def _sliced(steps: Generator[None, None, T]) -> T:
    """``steps`` run to its end, giving the browser control back between slices."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: T = stop.value
            return result
        await asyncio.sleep(0)


@runtime_checkable
class Searching(Protocol):
    """A player that searches in slices (the hard one): its play as a generator that yields
    between slices and returns the card."""

    def choose_play_steps(self, view: PlayerView) -> Generator[None, None, Card]: ...


async def choose_play(bot: Bot, view: PlayerView) -> Card:
    """The bot's play, yielding to the browser between slices of its search if it can."""
    if not isinstance(bot, Searching):
        return bot.choose_play(view)
    return await _sliced(bot.choose_play_steps(view))


@dataclass(frozen=True)
class Move:
    """A move the game waits for from the computers: their passes, a card, a moon's
    choice of how it scores."""

    kind: Literal["pass", "play", "moon"]
    seats: tuple[int, ...]
    """Who makes it: every computer seat still to pass, else the one seat."""

    @property
    def seat(self) -> int:
        return self.seats[0]


def due(game: Game, computer: Callable[[int], bool]) -> Move | None:
    """The move ``game`` waits for from the seats that are ``computer(seat)``, if any."""
    if game.phase is Phase.PASS:
        seats = tuple(s for s in range(4) if computer(s) and not game.pass_chosen(s))
        return Move("pass", seats) if seats else None
    if game.phase is Phase.PLAY and game.to_play is not None and computer(game.to_play):
        return Move("play", (game.to_play,))
    if game.phase is Phase.MOON and game.moon_chooser is not None \
            and computer(game.moon_chooser):
        return Move("moon", (game.moon_chooser,))
    return None


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

    def make(self, game: Game, move: Move, card: Card | None = None) -> None:
        """Make ``move`` (only when ``due``): every pass at once, the moon's choice, or the
        card (``card``: the one ``play`` searched for; None, or no longer legal because the
        table moved on while it searched: the computer chooses at once)."""
        if move.kind == "pass":
            self.pass_for(game, move.seats)
        elif move.kind == "moon":
            self.choose_moon(game, move.seat)
        else:
            if card is None or game.why_illegal(card, move.seat) is not None:
                card = self._bots[move.seat].choose_play(game.view(move.seat))
            game.play(card)
