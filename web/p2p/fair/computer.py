"""A computer's seat at a fair table, played by one of the people's pages. No I/O.

With fewer than four people, a computer plays each seat left over. Its cards must be known
to whoever plays it, so one page (drawn: ``seating.Seating``) holds that seat's keys as
well as its person's: it runs a second ``FairTable`` for the seat, in the same mesh, and the
hard player moves for it from that table's own ``PlayerView`` — exactly what the seat's
keys show, no more. The others check its every message as they would a person's (a card it
holds, following suit), and its page never shows its person the computer's cards.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from web.p2p.fair.table import FairTable
from web.players import Bot, choose_play
from web.slow_steps import timed

__all__ = ["COMPUTER_PAUSE", "FairComputer"]

COMPUTER_PAUSE = 0.8
"""Seconds between a computer's turn coming and its card, so people see each card land."""


class FairComputer:
    """The computer at ``table.seat``, played on this page by ``bot``."""

    def __init__(self, table: FairTable, bot: Bot, *, now: Callable[[], float],
                 pause: Callable[[], float] = lambda: COMPUTER_PAUSE) -> None:
        """``pause``: seconds before each card (the person's chosen pace)."""
        self.table = table
        self.bot = bot
        self.now = now
        self.pause = pause
        self._due: tuple[object, ...] | None = None
        self._since = 0.0

    def _what(self) -> tuple[object, ...] | None:
        """What the table waits for the computer to do now, and at which point of the hand."""
        t = self.table
        what = t.waiting_for_me()
        return None if what is None else (what, t.hand_number, len(t.transcript.plays))

    async def move(self, sleep: Callable[[float], Awaitable[None]]) -> bool:
        """Make the computer's move if one is due and its pause is over; whether it moved.
        The hard player's search yields between slices (``choose_play``): if the table moved
        on meanwhile (it closed, say), the card is not played."""
        due = self._what()
        if due != self._due:
            self._due, self._since = due, self.now()
        if due is None or self.now() - self._since < (0 if due[0] == "ready" else self.pause()):
            return False
        t = self.table
        with timed("computer's view"):
            view = t.view()
        if view is None:
            return False
        if due[0] == "ready":
            with timed("computer's next hand"):
                t.next_hand()
        elif due[0] == "pass":
            with timed("computer's pass"):
                t.choose_pass(tuple(self.bot.choose_pass(view)))
        else:
            card = await choose_play(self.bot, view)
            await sleep(0)
            if self._what() != due:
                return False
            with timed("computer's play"):
                t.play(card)
        self._due = None
        return True
