"""The menu's Daily deal, Game code and Record: the two dialogs and the Copy buttons.

A thin view: the words and markup come from ``web.words`` and ``web.table.record_page``, the
games are started by the game against the computers (``SoloGames``; through the table's
New game confirmation when a game is under way). These act on the game against the
computers only, so at a private table they say so instead.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable
from typing import Protocol

from hearts import Game, Rules
from web import daily, formats, words
from web.browser import Browser, DomEvent, Element
from web.record import gamecode
from web.storage import Records
from web.table import record_page
from web.table.controller import Table
from web.table.seat import Seat
from web.tasks import Tasks

__all__ = ["RecordDialogs", "SoloGames"]


class SoloGames(Seat, Protocol):
    """What these dialogs ask of the game against the computers (``web.seats.solo``'s
    ``LocalSeat``, which sits above this module and is handed in by ``web.main``)."""

    @property
    def game(self) -> Game: ...
    @property
    def saved(self) -> formats.Saved: ...
    def start_daily(self, day: datetime.date | None = None) -> None: ...
    def play_code(self, seed: int, rules: Rules) -> None: ...
    def code(self) -> str: ...
    def under_way(self) -> bool: ...


class RecordDialogs:
    """``#record`` and ``#code``, the Daily deal button, and every ``[data-copy]`` button."""

    def __init__(self, browser: Browser, table: Table, local: SoloGames,
                 records: Records) -> None:
        self.browser = browser
        self.table = table
        self.local = local
        self.records = records
        self.tasks = Tasks()
        self.record = browser.element("record")
        self.code = browser.element("code")
        self.selected = record_page.CURRENT

    def q(self, name: str) -> Element:
        return self.browser.element(name)

    def wire(self) -> None:
        listen = self.browser.listen
        listen(self.q("daily-button"), "click", lambda e: self.on_daily())
        listen(self.q("code-button"), "click", lambda e: self.open_code())
        listen(self.q("record-button"), "click", lambda e: self.open_record())
        listen(self.q("code-form"), "submit", self.on_code_submit)
        listen(self.q("record-history"), "click", self.on_history)
        listen(self.browser.document, "click", self.on_copy)
        for dialog in (self.record, self.code):
            self.table.dialogs.watch(dialog)
        for name in ("daily-button", "code-button", "record-button"):
            self.q(name).disabled = False

    def _here(self) -> bool:
        """Whether the table shows the game against the computers (else say why not)."""
        if self.table.seat is self.local:
            return True
        self.table.say_now(words.AWAY_FROM_COMPUTERS)
        return False

    # --- the daily deal and codes -----------------------------------------------------------

    def on_daily(self) -> None:
        if self.table.page.ready and self._here():
            today = self.browser.today()
            self.table.on_new_game(then=self.local.start_daily,
                                   asking=words.daily_ask(today, today, daily.DAILY_LEVEL))

    def play_link(self, text: str) -> None:
        """A daily's link (``?daily=2026-12-01``): play that day's deal, asking first if a
        game is under way, as New game does; a day that can't be played is said, and the
        game goes on."""
        try:
            day = daily.link_day(text, self.browser.today())
        except daily.LinkError as error:
            self.table.view.add_notice(str(error))
            return
        if self.local.saved.daily != day.isoformat() or not self.local.under_way():
            self.table.on_new_game(then=lambda: self.local.start_daily(day),
                                   asking=words.daily_ask(day, self.browser.today(),
                                                          daily.DAILY_LEVEL))

    def open_code(self) -> None:
        if not self.table.page.ready or not self._here():
            return
        self.q("code-mine").value = self.local.code()
        self.q("code-error").textContent = ""
        self.q("code-input").value = ""
        self.table.dialogs.open(self.code, self.q("code-input"))

    def on_code_submit(self, event: DomEvent) -> None:
        event.preventDefault()
        try:
            seed, rules = gamecode.decode_game(str(self.q("code-input").value))
        except gamecode.CodeError as error:
            self.q("code-error").textContent = str(error)
            self.q("code-input").focus()
            return
        self.table.dialogs.close(self.code)
        self.table.on_new_game(then=lambda: self.local.play_code(seed, rules))

    # --- the record ---------------------------------------------------------------------------

    def _current(self) -> record_page.Current | None:
        game = self.local.game
        if not self.local.under_way() or not game.hand_history:
            return None
        return record_page.Current(tuple(game.hand_history), game.rules.end_score)

    def open_record(self) -> None:
        if not self.table.page.ready:
            return
        current = self._current()
        games = self.records.record.games
        self.selected = record_page.CURRENT if current is not None else str(len(games) - 1)
        self.q("record-stats").innerHTML = record_page.stats_html(
            self.records.record, self.browser.today(), self.browser.address())
        self.draw_history()
        self.table.dialogs.open(self.record, self.q("record-title"))

    def draw_history(self) -> None:
        current = self._current()
        games = self.records.record.games
        self.q("record-history").innerHTML = record_page.history_html(games, current, self.selected)
        self.q("record-chart").innerHTML = record_page.chart_html(games, current, self.selected)

    def on_history(self, event: DomEvent) -> None:
        button = self.browser.el(event.target.closest("[data-game]"))
        if button is None:
            return
        self.selected = str(button.dataset.game)
        for other in self.q("record-history").querySelectorAll("[data-game]"):
            other.setAttribute("aria-pressed", "true" if other == button else "false")
        self.q("record-chart").innerHTML = record_page.chart_html(
            self.records.record.games, self._current(), self.selected)

    # --- Copy buttons -------------------------------------------------------------------------

    def on_copy(self, event: DomEvent) -> None:
        """A Copy button (``data-copy``), or the daily's Share (``data-share``)."""
        button = self.browser.el(event.target.closest("[data-copy], [data-share]"))
        if button is None:
            return
        share = button.hasAttribute("data-share")
        field = self.browser.by_id(str(button.dataset.share if share else button.dataset.copy))
        box = self.browser.el(button.closest(".copy-box"))
        said = self.browser.query(".copy-said", box) if box is not None else None
        if field is not None:
            text = str(field.value)
            sharing = self.browser.share(text, field) if share else None  # (in the click)
            self.tasks.spawn(self._copy(text, field, said, sharing))

    async def _copy(self, text: str, field: Element | None, said: Element | None,
                    sharing: Awaitable[str] | None = None) -> None:
        """Copy (or await the share), and say so inside the dialog (the page behind a
        modal dialog is inert, its live region may go unheard)."""
        if sharing is not None:
            message = words.SHARE_SAID[await sharing]
        else:
            copied = await self.browser.copy(text, field)
            message = words.COPIED if copied else words.COPY_BY_HAND
        if said is not None:
            said.textContent = message
        elif message:
            self.table.say_now(message)
