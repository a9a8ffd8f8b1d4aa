"""The computers' turns at the solo table: a move of the person's and all that follows it.

``Turns`` is when the computers move here: their passes with the person's, then, after each
of the person's moves (or at ``kick``: a game started, a move taken back, a new hand), a
card at a time until it is the person's turn again. Each of their moves is the one every
table runs (``web.players``: ``due``, the search in slices, ``Computers.make``); ``Turns``
runs a move, tells what it caused at the person's pace (``Presenter``), and lets them play,
all as one background job that a new generation stops where it is (undo, a new game, the
table leaving). What the moves mean for the game's record, and what to say once they are
done, is the game's flow (``Solo``: ``web.seats.solo_flow.SoloFlow``). No DOM: pauses are
injected.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from hearts import Card, Event, Game, Phase
from web import formats, players
from web.seats.narrator import Presenter
from web.table.seat import News
from web.tasks import Tasks

__all__ = ["Solo", "Turns"]


class Solo(Protocol):
    """What the turns ask of the seat they run for."""

    news: News

    @property
    def saved(self) -> formats.Saved: ...
    @property
    def bots(self) -> players.Computers: ...
    @property
    def game(self) -> Game: ...

    def record(self, new: list[Event], start: int) -> None:
        """The engine's events ``new`` (from ``start`` on) happened: note and save them."""

    def turns_done(self) -> None:
        """The computers are done for now: say what the person may do next."""


class Turns:
    """The computers' turns of one seat: at most one job in flight, ``busy`` meanwhile."""

    def __init__(self, seat: Solo, *, speed: Callable[[], str],
                 sleep: Callable[[float], Awaitable[None]], clock: Callable[[], float],
                 on_error: Callable[[BaseException], None],
                 on_good: Callable[[], None]) -> None:
        self.seat = seat
        self.speed = speed
        self.sleep = sleep
        self.clock = clock
        self.on_error = on_error
        self.on_good = on_good
        self.generation = 0
        """Bumped to stop a computer turn in flight (undo, new game, the table leaving)."""
        self.busy = False
        self.playing_out = False
        """The rest of the hand is being played out (South's cards too)."""
        self.presenter = Presenter(self.pace, sleep)
        self.seen = len(seat.game.events)
        """The game's events told so far."""
        self.tasks = Tasks(on_error=self._failed)

    def pace(self) -> str:
        """The pace of the table: a hand played out goes at least at the fast pace."""
        pace = self.speed()
        return "fast" if self.playing_out and pace in ("slow", "normal") else pace

    def stop(self) -> None:
        """Stop the turn in flight where it is (the game stays as it is)."""
        self.generation += 1
        self.busy = False
        self.playing_out = False
        self.presenter.clear()

    def caught_up(self) -> None:
        """The game was replaced or taken back: what it holds now is told already."""
        self.seen = len(self.seat.game.events)

    def kick(self) -> None:
        """Let the computers play if a move of theirs is due (after start, undo, a new
        hand); a game saved between two passes finishes them."""
        game = self.seat.game
        if self.busy or self.seat.saved.summary is not None:
            return
        if game.phase is Phase.PASS and game.pass_chosen(0):
            self.act(self.computers_pass)
        elif self.due() is not None:
            self.act(lambda: None)

    def computers_pass(self) -> None:
        """The computers choose their passes: with the person's, as one exchange."""
        self.seat.bots.pass_for(self.seat.game, (1, 2, 3))

    def act(self, move: Callable[[], None]) -> None:
        """Run a move, present what it caused, then let the computers play."""
        if self.busy:
            return
        self.busy = True
        self.seat.news.changed()
        self.tasks.spawn(self._run(move, self.generation), on_done=self.on_good)

    def computer(self, seat: int) -> bool:
        """Whether ``seat`` is the computers' to move: West, North and East, and South's
        cards while the hand is played out (its moon's choice stays the person's)."""
        return seat != 0 or (self.playing_out and self.seat.game.phase is Phase.PLAY)

    def due(self) -> players.Move | None:
        """The computers' move now (``players.due``): a card or a moon's choice. Their
        passes go with the person's (``computers_pass``), and nothing moves while a hand's
        summary is on show."""
        if self.seat.saved.summary is not None:
            return None
        move = players.due(self.seat.game, self.computer)
        return None if move is None or move.kind == "pass" else move

    async def _run(self, move: Callable[[], None], generation: int) -> None:
        seat = self.seat

        def current() -> bool:
            return generation == self.generation

        try:
            move()
            await self._present(generation)
            while current() and (due := self.due()) is not None:
                seat.news.changed()
                card = await self._card(due.seat) if due.kind == "play" else None
                if not current():
                    return
                seat.bots.make(seat.game, due, card)
                await self._present(generation)
        finally:
            if current():
                self.busy = False
                if seat.saved.summary is not None:
                    self.playing_out = False
                seat.turns_done()

    async def _card(self, player: int) -> Card:
        """``player``'s card at the table's pace: a computer's search (its thinking counts
        toward the pause before its card), or South's when the hand is played out."""
        game = self.seat.game
        pause = self.presenter.delays()[0]
        if player != 0:
            return await self.seat.bots.play(game.view(player), player, pause=pause,
                                             since=self.clock(), clock=self.clock,
                                             sleep=self.sleep)
        if pause > 0:
            await self.sleep(pause)
        return game.legal_plays()[0]  # played out: any legal card gives the same points

    def _failed(self, error: BaseException) -> None:
        self.busy = False
        self.on_error(error)

    async def _present(self, generation: int) -> None:
        """Note and save the engine's new events, then tell them in order (trick pauses
        included): a reload in the middle of a pause loses nothing."""
        game = self.seat.game
        start = self.seen
        new = game.events[start:]
        self.seen = len(game.events)
        self.seat.record(new, start)
        await self.presenter.tell(new, lambda: self.seat.game.view(0), self.seat.news,
                                  lambda: generation == self.generation)
