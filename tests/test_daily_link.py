"""The daily deal's share: the link that plays the same deal (``?daily=…``, read back by
``web.options`` and ``web.daily.link_day``), the help said in the text, a daily
played long after its day kept out of the streak, and ``Browser.share`` (the share sheet,
else a copy) with a stand-in window."""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import pytest

from web import formats, options, words
from web.browser import Browser
from web.daily import LinkError, counts_for_day, daily_link, daily_seed, link_day, place_of
from web.record import gamecode, history
from web.record.history import FinishedGame, Record, Tally
from web.storage import MemoryStorage
from web.table import record_page

from .test_record import ADDRESS, _finish, _seat

DAY = datetime.date(2026, 12, 3)


# --- the link and reading it back ------------------------------------------------------------

def test_the_link_is_the_page_address_with_the_day() -> None:
    assert daily_link("https://hearts.example/play/", DAY) == \
        "https://hearts.example/play/?daily=2026-12-03"


def test_the_address_option_keeps_the_daily_as_written() -> None:
    assert options.parse("?daily=2026-12-01").daily == "2026-12-01"
    assert options.parse("?speed=instant&daily=nope").daily == "nope"
    assert options.parse("?daily=").daily == ""  # asked for, with nothing: said, not ignored
    assert options.parse("?speed=instant").daily is None
    assert options.parse("?daily=2026-12-01&seed=4").seed == 4  # the others as before


def test_a_link_plays_today_a_past_day_or_tomorrow() -> None:
    assert link_day("2026-12-03", DAY) == DAY
    assert link_day(" 2025-02-28 ", DAY) == datetime.date(2025, 2, 28)
    assert link_day("2026-12-04", DAY) == datetime.date(2026, 12, 4)  # a friend a day ahead


@pytest.mark.parametrize("text", ["", "yesterday", "2026-13-01", "2026-02-30", "20261201",
                                  "2026-12-01x"])
def test_a_link_that_is_not_a_day_says_so(text: str) -> None:
    with pytest.raises(LinkError) as caught:
        link_day(text, DAY)
    assert str(caught.value) == words.daily_link_bad(text)
    assert "?daily=2026-12-01" in str(caught.value) and "Your game goes on." in str(caught.value)


def test_a_link_to_a_day_still_to_come_says_so() -> None:
    with pytest.raises(LinkError) as caught:
        link_day("2026-12-05", DAY)
    assert str(caught.value) == ("The daily deal of 5 December 2026 isn't out yet: its link "
                                 "plays from that day on. Your game goes on.")


def test_a_long_bad_value_is_shown_cut_short() -> None:
    assert "x" * 21 not in words.daily_link_bad("x" * 500)
    assert "“nothing”" in words.daily_link_bad("  ")


# --- the text ---------------------------------------------------------------------------------

def test_the_shared_text_ends_with_the_link_after_the_help() -> None:
    link = daily_link(ADDRESS, DAY)
    assert words.share_text(DAY, 110, 4, 1, 1, 2, link=link) == (
        "Hearts daily 2026-12-03: 110 points, 4th of 4 · streak 1 · 1 undo, 2 hints"
        f" — play it: {ADDRESS}?daily=2026-12-03")
    assert words.share_text(DAY, 5, 1, 3, link=link) == (
        f"Hearts daily 2026-12-03: 5 points, 1st of 4 · streak 3 — play it: {link}")


def test_the_records_share_box_has_the_link_and_a_share_button() -> None:
    record = Record()
    record.days[DAY] = (40, 2)
    stats = record_page.stats_html(record, DAY, ADDRESS)
    assert f"— play it: {ADDRESS}?daily=2026-12-03" in stats
    assert 'data-share="share-text"' in stats and words.SHARE_BUTTON in stats


def test_a_finished_daily_from_a_past_days_link_shares_that_day_and_its_help(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.seats.solo_game.DAILY_LEVEL", "easy")
    memory = MemoryStorage()
    seat, _ = _seat(memory, today=DAY)
    past = datetime.date(2026, 11, 30)
    seat.start_daily(past)
    assert seat.game.seed == daily_seed(past) and seat.saved.daily == "2026-11-30"
    seat.hinted()
    _finish(seat)
    snap = seat.snapshot()
    totals = seat.game.scores
    assert snap.share.startswith(f"Hearts daily 2026-11-30: {totals[0]} point")
    assert " · 1 hint — play it: https://hearts.example/play/?daily=2026-11-30" in snap.share
    # three days late: in the history, not the day's result, and the page says why
    assert seat.records.record.games[-1].daily and seat.records.record.days == {}
    assert snap.share_note == words.DAILY_LATE
    saved, _ = formats.load_save(formats.dump_save(seat.saved))  # a reload says the same
    assert saved is not None and seat.solo.books.daily_result(saved)[1] == words.DAILY_LATE


def test_a_daily_counts_on_its_day_and_a_day_either_side_only() -> None:
    assert counts_for_day(DAY, DAY)
    assert counts_for_day(DAY, DAY + datetime.timedelta(days=1))  # finished after midnight
    assert counts_for_day(DAY + datetime.timedelta(days=1), DAY)  # a friend a day ahead
    assert not counts_for_day(DAY, DAY + datetime.timedelta(days=2))
    record = Record()
    game = FinishedGame(DAY, "hard", "", True, gamecode.encode(5), ((0, 26, 0, 0),), Tally())
    assert not record.add(game, counts=False) and record.days == {} and record.games == [game]
    assert record.add(game) and record.days == {DAY: (0, 1)}


# --- Browser.share ------------------------------------------------------------------------------

class JsError(Exception):
    """A JavaScript rejection as Pyodide raises it: the error's name in its text."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name}: the browser said no")
        self.name = name


class Navigator:
    def __init__(self, sheet: str | None, clipboard: bool = True) -> None:
        """``sheet``: None (no share sheet), "ok", or the name of the error it rejects with."""
        self.shared: list[Any] = []
        self.copied: list[str] = []
        if sheet is not None:
            self.share = self._share
        self.clipboard = self
        self.works = clipboard

    def _share(self, data: Any) -> Any:
        self.shared.append(data)  # (the sheet opens at the call: a promise settles later)

        async def settled() -> None:
            if self.sheet_error:
                raise JsError(self.sheet_error)
        return settled()

    sheet_error = ""

    async def writeText(self, text: str) -> None:
        if not self.works:
            raise JsError("NotAllowedError")
        self.copied.append(text)


class Window:
    def __init__(self, navigator: Navigator) -> None:
        self.navigator = navigator


def share(navigator: Navigator) -> str:
    browser = Browser(document=None, window=Window(navigator), create_proxy=lambda f: f,
                      null=None)
    async def run() -> str:
        return await browser.share("Hearts daily …")
    return asyncio.run(run())


def test_the_share_sheet_gets_the_text_where_there_is_one() -> None:
    navigator = Navigator("ok")
    assert share(navigator) == "shared"
    assert navigator.shared == [{"text": "Hearts daily …"}] and navigator.copied == []


def test_the_share_sheet_is_asked_for_in_the_click_not_later() -> None:
    navigator = Navigator("ok")
    browser = Browser(document=None, window=Window(navigator), create_proxy=lambda f: f,
                      null=None)
    pending = browser.share("Hearts daily …")
    assert navigator.shared == [{"text": "Hearts daily …"}]  # before anything is awaited

    async def settle() -> str:
        return await pending
    assert asyncio.run(settle()) == "shared"


def test_closing_the_share_sheet_is_no_error_and_copies_nothing() -> None:
    navigator = Navigator("ok")
    navigator.sheet_error = "AbortError"
    assert share(navigator) == "cancelled" and navigator.copied == []
    assert words.SHARE_SAID["cancelled"] == ""


def test_a_refused_share_sheet_or_none_copies_instead() -> None:
    navigator = Navigator("ok")
    navigator.sheet_error = "NotAllowedError"
    assert share(navigator) == "copied" and navigator.copied == ["Hearts daily …"]
    plain = Navigator(None)
    assert share(plain) == "copied" and plain.copied == ["Hearts daily …"]
    assert share(Navigator(None, clipboard=False)) == "selected"  # no field to select in
    assert words.SHARE_SAID["copied"] == words.SHARE_COPIED


def test_the_confirmations_first_words_are_the_ones_the_page_puts_back() -> None:
    """The daily's question gives way to the page's own again: index.html's words are the
    New game confirmation's (``words.NEW_GAME_ASK``)."""
    from pathlib import Path
    page_html = " ".join((Path(__file__).resolve().parent.parent / "index.html")
                         .read_text().split())
    title, text, go = words.NEW_GAME_ASK
    assert f'<h2 id="confirm-new-title">{title}</h2>' in page_html
    assert f'<p id="confirm-new-desc">{text}</p>' in page_html
    assert f'id="confirm-new-game" class="primary">{go}</button>' in page_html


def test_the_daily_deals_question_names_the_daily_and_its_level() -> None:
    today = words.daily_ask(DAY, DAY, "hard")
    assert today.title == "Start today's daily deal?"
    assert "daily deal throws it away" in today.text and "against hard computers" in today.text
    assert today.go == "Play the daily deal"
    linked = words.daily_ask(DAY - datetime.timedelta(days=2), DAY, "hard")
    assert linked.title == "Play the daily deal of 1 December 2026?"
    assert words.daily_start(DAY, "hard") == "The daily deal of 3 December 2026, against hard " \
        "computers."


# --- the help a counted daily took, kept in the record -------------------------------------------

def test_the_record_keeps_a_counted_dailys_help_for_its_share() -> None:
    record = Record()
    game = FinishedGame(DAY, "hard", "", True, gamecode.encode(5), ((0, 26, 0, 0),), Tally())
    assert record.add(game, helps=(1, 2)) and record.helps == {DAY: (1, 2)}
    assert not record.add(game, helps=(5, 5)) and record.helps == {DAY: (1, 2)}  # the first
    loaded, note = history.load_record(history.dump_record(record))
    assert note is None and loaded.helps == {DAY: (1, 2)} and loaded.days == record.days
    assert "· streak 1 · 1 undo, 2 hints — play it:" in record_page.stats_html(loaded, DAY, ADDRESS)
    # a record kept before helps were kept reads as none; a damaged entry is said, the rest kept
    text = history.dump_record(record)
    assert history.load_record(text.replace(',"helps":{"2026-12-03":[1,2]}', ""))[0].helps == {}
    damaged, note = history.load_record(text.replace("[1,2]", '[1,"x"]'))
    assert damaged.helps == {} and damaged.days == record.days and note is not None


def test_a_second_daily_shares_the_first_ones_result_and_help(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.seats.solo_game.DAILY_LEVEL", "easy")
    memory = MemoryStorage()
    seat, _ = _seat(memory, today=DAY)
    seat.start_daily()
    seat.hinted()
    _finish(seat)
    first = seat.snapshot().share
    assert " · 1 hint — play it:" in first
    seat.start_daily()  # again the same day, with no help: the first result, with its hint
    _finish(seat)
    snap = seat.snapshot()
    mine = (seat.game.scores[0], place_of(seat.game.scores))
    assert snap.share == first
    assert snap.share_note == ("" if seat.records.record.days[DAY] == mine
                               else words.DAILY_FIRST_ONLY)
