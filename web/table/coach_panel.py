"""The Coach dialog: the review of the last finished hand, worked out in slices.

``CoachPanel`` keeps South's record of the last hand (``hearts.seathand.SeatHand``, from
the ``LocalSeat``), runs ``hearts.coach.Coach.review_steps`` as a background task that
gives the browser control back between slices (as the computers' search does), and draws
the ``#coach`` dialog: a progress line while it works, then the pass and the plays trick
by trick, the costly ones marked with their reason and cost, and the hand's points lost
to mistakes. With the "Coach after each hand" setting on, a review starts as soon as a
hand ends (its result shows in the hand summary); off, only on demand.
``review_html`` is pure (pytest reads it).
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Awaitable, Callable

from hearts.coach import Coach, HandReview, Progress
from hearts.seathand import SeatHand
from web import words
from web.browser import Browser, Element
from web.storage import Records
from web.table.dialogs import Dialogs
from web.tasks import Tasks

__all__ = ["CoachPanel", "review_html"]


def review_html(review: HandReview) -> str:
    """The dialog's body for a finished review: the pass, then the plays (a list).

    (The total, points lost to mistakes, goes in the dialog's status line.)"""
    e = html.escape
    parts = [f'<p class="coach-about">{e(words.COACH_ABOUT)}</p>',
             f'<h3>{e(words.COACH_PASS_HEAD)}</h3>']
    p = review.passing
    if p is None:
        parts.append(f'<p class="coach-pass">{e(words.COACH_NO_PASS)}</p>')
    else:
        cls = "coach-pass flagged" if p.flagged else "coach-pass"
        parts.append(f'<p class="{cls}">' + e(words.coach_pass(
            p.passed, p.suggested, same=p.same, gap=p.gap, cost=p.cost,
            value=p.value, best_value=p.best_value)) + "</p>")
    parts.append(f'<h3>{e(words.COACH_PLAYS_HEAD)}</h3><ol class="coach-plays">')
    for play in review.plays:
        line = e(words.coach_play(play.trick, play.card, play.best, forced=play.forced,
                                  gap=play.gap, cost=play.cost, value=play.value,
                                  best_value=play.best_value))
        if play.flagged and play.reason is not None:
            r = play.reason
            why = words.coach_reason(r.kind, r.card, r.best, led=r.led, cost=r.cost,
                                     seat=r.seat, points=r.points, trick=r.trick)
            parts.append(f'<li class="flagged" data-trick="{play.trick}"><strong>{line}</strong>'
                         f' <span class="why">{e(why)}</span></li>')
        else:
            parts.append(f'<li data-trick="{play.trick}">{line}</li>')
    parts.append("</ol>")
    return "".join(parts)


class CoachPanel:
    """The ``#coach`` dialog and the review it shows (see the module docstring)."""

    def __init__(self, browser: Browser, dialogs: Dialogs, records: Records, *,
                 on_note: Callable[[str], None],
                 last_hand: Callable[[], SeatHand | None],
                 hands_played: Callable[[], int],
                 on_error: Callable[[BaseException], None] = lambda error: None,
                 coach: Callable[[], Coach] = Coach,
                 pause: Callable[[], Awaitable[None]] = lambda: asyncio.sleep(0)) -> None:
        """``on_note``: the summary's coach line changed; ``last_hand``: the seat's record
        of its last finished hand; ``hands_played``: finished hands of its game."""
        self.browser = browser
        self.dialogs = dialogs
        self.records = records
        self.on_note = on_note
        self.last_hand = last_hand
        self.hands_played = hands_played
        self.coach = coach
        self.pause = pause
        self.tasks = Tasks(on_error=self._failed)
        self.on_error = on_error
        self.record: SeatHand | None = None
        self.review: HandReview | None = None
        self.progress: Progress | None = None
        self.failed = False
        self.generation = 0
        self.dialog: Element | None = browser.by_id("coach")
        self.drawn = ""
        """The body's markup as last written."""

    # --- what starts a review ------------------------------------------------------------

    def hand_over(self, record: SeatHand) -> None:
        """A hand ended: review it now if the person wants the coach after each hand."""
        self._use(record)
        if self.records.settings.coach:
            self._start()
        self.on_note(self.note())

    def open(self) -> None:
        """Show the review of the last hand (starting it if needed) in the dialog."""
        record = self.last_hand()
        if record is not None:
            self._use(record)
            if self.review is None and self.progress is None and not self.failed:
                self._start()
        self.draw()
        if self.dialog is not None:
            self.dialogs.open(self.dialog, self.browser.query("#coach-title", self.dialog))

    def note(self) -> str:
        """The summary's coach line ("" when the coach has nothing to say yet)."""
        if self.review is not None:
            return words.coach_note(self.review.lost, len(self.review.flagged)
                                    + (1 if self.review.passing is not None
                                       and self.review.passing.flagged else 0))
        if self.progress is not None:
            return words.COACH_WORKING
        return ""

    def _use(self, record: SeatHand) -> None:
        if record != self.record:
            self.generation += 1  # a review of another hand in flight stops
            self.record = record
            self.review = None
            self.progress = None
            self.failed = False

    def _start(self) -> None:
        if self.record is None or self.progress is not None or self.review is not None:
            return
        self.progress = Progress(0, 0, 1)
        self.tasks.spawn(self._run(self.record, self.generation))

    async def _run(self, record: SeatHand, generation: int) -> None:
        steps = self.coach().review_steps(record)
        shown = -1
        while True:
            try:
                progress = next(steps)
            except StopIteration as done:
                review: HandReview = done.value
                break
            if generation != self.generation:
                return
            self.progress = progress
            if progress.trick != shown:
                shown = progress.trick
                self.draw()
            await self.pause()
            if generation != self.generation:
                return
        self.review = review
        self.progress = None
        self.draw()
        self.on_note(self.note())

    def _failed(self, error: BaseException) -> None:
        """A bug in the review: the dialog says so, the table plays on (the trace goes
        to the console through ``on_error``)."""
        self.progress = None
        self.failed = True
        self.draw()
        self.on_note("")
        self.on_error(error)

    # --- drawing ---------------------------------------------------------------------------

    def draw(self) -> None:
        """Write the dialog's title, progress line and body for where the review is."""
        dialog = self.dialog
        if dialog is None:
            return
        title = self.browser.query("#coach-title", dialog)
        line = self.browser.query("#coach-progress", dialog)
        body = self.browser.query("#coach-body", dialog)
        record = self.last_hand()
        if record is not None and record == self.record:
            heading = words.coach_title(record.hand_number)
        else:
            heading = "Coach"
        status, content = "", ""
        if record is None:
            status = words.COACH_NOT_KEPT if self.hands_played() else words.COACH_NO_HAND
        elif self.failed:
            status = words.COACH_FAILED
        elif self.review is not None:
            status = words.coach_lost(self.review.lost)
            content = review_html(self.review)
        elif self.progress is not None:
            status = words.coach_progress(self.progress.trick)
            content = f'<p class="coach-about">{html.escape(words.COACH_GOES_ON)}</p>'
        _set_text(title, heading)
        _set_text(line, status)
        if body is not None and self.drawn != content:
            body.innerHTML = content
            self.drawn = content
        dialog.dataset.state = ("done" if self.review is not None and record is not None
                                else "working" if self.progress is not None else "idle")


def _set_text(node: Element | None, text: str) -> None:
    if node is not None and str(node.textContent) != text:
        node.textContent = text
