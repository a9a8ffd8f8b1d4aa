"""The daily deal's share in Chromium, on a pinned clock (3 December 2026, UTC): the link
in the result plays the same deal, a past day's link plays that day's, a bad one is said
and loses nothing; the Share button uses the system's share sheet where there is one
(``navigator.share``, stubbed in the page) and copies otherwise (the clipboard, stubbed)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable

import pytest
from tablepage import TablePage
from test_daily_and_record import near_the_end

from web import formats, words
from web.daily import DAILY_LEVEL, daily_seed

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

DAY = datetime.date(2026, 12, 3)
NOON = datetime.datetime(2026, 12, 3, 12, 0, tzinfo=datetime.UTC)

SHEET = """window.shared = [];
navigator.share = async data => { window.shared.push(data); };"""
"""A share sheet that takes what it's given (the page's own is the system's)."""
NO_SHEET = """delete Navigator.prototype.share; window.copied = [];
navigator.clipboard.writeText = async text => { window.copied.push(text); };"""
"""A browser with no share sheet, whose clipboard the test reads."""


REFUSING_SHEET = """window.copied = [];
navigator.share = () => Promise.reject(new DOMException("not now", "NotAllowedError"));
navigator.clipboard.writeText = async text => { window.copied.push(text); };"""
"""A share sheet that refuses at once (as one does outside a click): the page copies."""


def pinned(open_table: Callable[..., TablePage], name: str, script: str = "") -> TablePage:
    table = open_table(name=name, timezone_id="UTC")
    table.page.clock.install(time=NOON)  # time flows from noon on the pinned day
    if script:
        table.page.add_init_script(script)
    return table


def finished_daily(table: TablePage) -> str:
    """Play today's daily from its last card; the share text the page shows."""
    table.goto("?speed=instant")
    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(
        formats.Saved(near_the_end(daily_seed(DAY)), daily=DAY.isoformat()))})
    while table.wait_input() == "play":
        table.play_one()
    assert table.state() == "over"
    return table.page.input_value("#share-text")


def said(table: TablePage) -> str:
    page = table.page
    page.wait_for_function("document.querySelector('#summary .copy-said').textContent !== ''")
    return page.inner_text("#summary .copy-said")


def test_a_daily_link_plays_that_days_deal_and_a_bad_one_loses_nothing(
        open_table: Callable[..., TablePage]) -> None:
    table = pinned(open_table, "daily-link")
    page = table.page
    table.goto("?speed=instant&seed=3")
    table.pass_cards()  # a game under way
    before = table.saved_game_json()
    for bad, message in (("2026-13-01", words.daily_link_bad("2026-13-01")),
                         ("2026-12-09", words.daily_link_early(datetime.date(2026, 12, 9)))):
        table.goto(f"?speed=instant&daily={bad}")
        assert page.inner_text("#notice") == message
        assert table.saved_game_json() == before  # nothing lost
        assert page.evaluate("location.search") == "?speed=instant"  # read once
        assert not page.is_visible("#confirm-new[open]")
    past = datetime.date(2026, 11, 30)
    table.goto("?speed=instant&daily=2026-11-30")
    page.wait_for_selector("#confirm-new[open]")  # asks first, as New game does
    asked = words.daily_ask(past, DAY, DAILY_LEVEL)  # it names the daily and its level
    assert page.inner_text("#confirm-new-title") == asked.title == \
        "Play the daily deal of 30 November 2026?"
    assert page.inner_text("#confirm-new-desc") == asked.text
    assert page.inner_text("#confirm-new-game") == asked.go
    page.click("#keep-playing")
    page.click("#new-game")  # the menu's New game asks its own question again
    assert page.inner_text("#confirm-new[open] #confirm-new-title") == words.CONFIRM_NEW
    assert page.inner_text("#confirm-new-game") == words.NEW_GAME_ASK.go
    page.click("#keep-playing")
    assert table.saved_game_json() == before
    table.goto("?speed=instant&daily=2026-11-30")
    page.wait_for_selector("#confirm-new[open]")
    page.click("#confirm-new-game")
    table.wait_input()
    saved = table.storage(formats.KEY_SAVE)
    assert saved["daily"] == "2026-11-30"
    assert json.loads(saved["game"])["seed"] == daily_seed(past)
    assert page.inner_text("#game-badge") == words.daily_badge(past)
    assert words.daily_start(past, DAILY_LEVEL) in table.status()
    hand = table.hand()
    table.reload()  # the link was read once: no question, the same daily
    assert not page.is_visible("#confirm-new[open]")
    assert table.hand() == hand and table.storage(formats.KEY_SAVE)["daily"] == "2026-11-30"


def test_the_share_button_opens_the_share_sheet_with_the_link(
        open_table: Callable[..., TablePage], base_url: str) -> None:
    table = pinned(open_table, "daily-sheet", SHEET)
    share = finished_daily(table)
    link = f"{base_url}/?daily=2026-12-03"
    assert share.startswith("Hearts daily 2026-12-03: ") and share.endswith(
        f" — play it: {link}")
    assert table.page.inner_text("#copy-share") == words.SHARE_BUTTON
    table.page.click("#copy-share")
    assert said(table) == words.SHARED
    assert table.page.evaluate("window.shared") == [{"text": share}]
    # the link in it, opened, plays the same deal: today's daily, at once (nothing at stake)
    table.page.goto(link.replace("?", "?speed=instant&"))
    table.wait_ready()
    saved = table.storage(formats.KEY_SAVE)
    assert saved["daily"] == "2026-12-03" and json.loads(saved["game"])["seed"] == \
        daily_seed(DAY)
    assert table.state() == "pass" and not table.page.is_visible("#confirm-new[open]")


@pytest.mark.parametrize("script", [NO_SHEET, REFUSING_SHEET], ids=["none", "refusing"])
def test_without_a_share_sheet_the_result_is_copied(
        open_table: Callable[..., TablePage], base_url: str, script: str) -> None:
    """(and with no error in the console: a refused sheet is handled, not left hanging)"""
    table = pinned(open_table, "daily-copy", script)
    share = finished_daily(table)
    assert share.endswith(f" — play it: {base_url}/?daily=2026-12-03")
    table.page.click("#copy-share")
    assert said(table) == words.SHARE_COPIED
    assert table.page.evaluate("window.copied") == [share]
