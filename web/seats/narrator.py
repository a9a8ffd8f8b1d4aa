"""Telling a game's events as they come: each card as it lands, a finished trick on show a
moment before it slides to its taker, the hand's and the game's end.

``Presenter`` turns the engine's events (``hearts.events``) into ``News`` for the table at
the person's pace, so one batch of sentences is heard per trick. No DOM, no clock of its
own: the pauses are injected.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from hearts import Event, PassesExchanged, PlayerView, Trick, TrickWon
from web import words
from web.table.seat import News
from web.table.sound import cue_of
from web.told import Played, of_event

__all__ = ["DELAYS", "Presenter"]

DELAYS = {"slow": (1.1, 1.6, 0.45), "normal": (0.6, 1.0, 0.35), "fast": (0.25, 0.5, 0.25),
          "instant": (0.0, 0.0, 0.0)}
"""Seconds: before each computer card, a completed trick on show, the trick sliding away."""
RECEIVED_HOLD = {"slow": 1.4, "normal": 0.9, "fast": 0.6, "instant": 0.0}
"""Seconds the table holds after the passes are exchanged, before anyone leads: the cards
received fly in (``web.table.motion``: about 0.7 s at the normal pace) and are seen, marked,
in the hand before the first card is played."""


class Presenter:
    """What is on show between two events: a finished trick, the seat it slides to."""

    def __init__(self, speed: Callable[[], str],
                 sleep: Callable[[float], Awaitable[None]]) -> None:
        self.speed = speed
        self.sleep = sleep
        self.shown: Trick | None = None
        self.collecting: int | None = None

    def clear(self) -> None:
        self.shown = None
        self.collecting = None

    def delays(self) -> tuple[float, float, float]:
        return DELAYS[self.speed()]

    async def tell(self, events: Sequence[Event], view: Callable[[], PlayerView], news: News,
                   current: Callable[[], bool]) -> None:
        """Tell ``events`` from the side of ``view()``'s seat; stop as soon as ``current()``
        is false (the table moved on: undo, a new game)."""
        for index, event in enumerate(events):
            if not current():
                return
            after = events[index + 1] if index + 1 < len(events) else None
            if isinstance(after, TrickWon):
                # The trick's last card lands on the trick it completes (the game has
                # moved on to the next one): it is on show from this card on.
                self.shown = Trick(after.leader, after.cards, after.seat)
            if isinstance(event, TrickWon):
                await self._trick(event, view().seat, news, current)
            elif isinstance(event, PassesExchanged):
                news.say(words.received_text(view()), show=True)
                hold = RECEIVED_HOLD[self.speed()]
                if hold:
                    news.flush()  # heard now, not after the first trick
                    news.changed()  # the received cards start on their way in
                    await self.sleep(hold)
            else:
                told = of_event(event)
                news.say(words.told_text(told, view().seat), show=True)
                news.cue(cue_of(told, view().seat))
                if isinstance(told, Played):
                    news.changed(fresh=str(told.card))
        news.changed()

    async def _trick(self, event: TrickWon, me: int, news: News,
                     current: Callable[[], bool]) -> None:
        _, show, slide = self.delays()
        self.shown = Trick(event.leader, event.cards, event.seat)
        news.changed()
        news.cue("trick")
        if show:
            await self.sleep(show)
        if not current():
            return
        news.say(words.told_text(of_event(event), me), show=True)
        news.flush()  # one message per trick: its cards and who took it
        if slide:
            self.collecting = event.seat
            news.changed()
            await self.sleep(slide)
            if not current():
                return
        self.clear()
