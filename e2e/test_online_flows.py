"""Play online without surprises, through a Nostr relay started here (``?relay=``).

A person who presses Play online and changes their mind (Escape, or the dialog's Close) stops
looking there and then: the page leaves the lobby and their own game stays, even when another
page deals a table a moment later. With no relay answering, the dialog says so, naming the
relay, offers Try again and the relay setting, and deals nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import DESKTOP
from playwright.sync_api import ViewportSize
from tablepage import ARTIFACTS, TablePage
from test_private_table import DIALOG, Seat, open_all
from test_table_by_code import (
    relay,  # noqa: F401 (the module's relay fixture)
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

SIZES: dict[str, ViewportSize] = {"phone": {"width": 320, "height": 640},
                                  "desktop": {"width": 1440, "height": 900}}
LOOKING = "document.documentElement.dataset.looking === 'true'"
IN_LOBBY = "window.heartsP2P.meetings().includes('lobby')"


def _press_play_online(page: Any) -> None:
    """Play online, from the More menu where the toolbar has no room for it."""
    if not page.is_visible("#play-online"):
        page.click("#more > summary")
    page.click("#play-online")


def _wait_until(page: Any, condition: str, timeout: float) -> None:
    """Wait for ``condition``; on a timeout, say where the page's session stood."""
    try:
        page.wait_for_function(condition, timeout=timeout)
    except Exception as error:
        state = page.evaluate(f"""() => ({{
            role: document.querySelector('{DIALOG}').dataset.role || '',
            looking: document.documentElement.dataset.looking || '',
            meetings: window.heartsP2P.meetings(),
            error: (document.querySelector('{DIALOG} #fr-error') || {{}}).innerText || ''}})""")
        page.screenshot(path=str(ARTIFACTS / "online-never-held.png"))
        raise AssertionError(f"{condition} never held: {state}") from error


def _hand(page: Any) -> list[str]:
    return [str(card) for card in page.eval_on_selector_all(
        "#hand [data-card]", "cards => cards.map(card => card.dataset.card)")]


@pytest.mark.parametrize("size", list(SIZES))
def test_closing_play_online_stops_looking_and_keeps_the_game(
        browser: Any, base_url: str, relay: str, size: str) -> None:  # noqa: F811
    person = browser.new_context(viewport=SIZES[size], service_workers="block")
    other = Seat(browser, base_url, f"online-other-{size}")
    try:
        table = TablePage(person.new_page(), base_url, f"online-mind-{size}")
        # the longest wait: alone in the lobby, this page deals itself a table once it ends
        table.goto(f"?speed=instant&wait=60&relay={relay}")
        page = table.page
        page.wait_for_selector("#play-online:not([disabled])", state="attached")
        # the person's own game, a hand under way: three cards passed
        passed = table.pass_cards()
        before = _hand(page)
        assert len(before) == 13 and not set(passed) & set(before)
        for close in ("Escape", "#fr-close"):
            _press_play_online(page)
            _wait_until(page, f"{LOOKING} && {IN_LOBBY}", 20_000)
            page.screenshot(path=str(ARTIFACTS / f"online-looking-{size}.png"))
            if close == "Escape":
                page.keyboard.press("Escape")
            else:
                page.click(f"{DIALOG} {close}")
            _wait_until(page, f"!({LOOKING}) && !({IN_LOBBY})", 10_000)
            assert not page.evaluate(f"document.querySelector('{DIALOG}').open")
        # Another page looks now, and deals once its wait is over: alone, not with this one.
        open_all([other], f"?speed=instant&wait=3&relay={relay}")
        other.page.click("#play-online")
        other.wait_data("role", "host", timeout=30_000)
        other.wait_data("stage", "pass")
        assert _hand(page) == before and not page.evaluate(LOOKING)
        assert page.evaluate(f"document.querySelector('{DIALOG}').dataset.role || ''") == ""
        page.screenshot(path=str(ARTIFACTS / f"online-changed-mind-{size}.png"))
        assert not table.errors, table.errors
    finally:
        person.close()
        other.close()


def test_a_relay_that_never_answers_is_said_and_nothing_is_dealt(
        browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    try:
        table = TablePage(context.new_page(), base_url, "online-dead-relay")
        dead = "ws://127.0.0.1:9"  # nothing listens there
        table.goto(f"?speed=instant&wait=2&relay={dead}")
        page = table.page
        page.wait_for_selector("#play-online:not([disabled])")
        before = _hand(page)
        page.click("#play-online")
        page.wait_for_selector(f"{DIALOG} #fr-retry", state="visible", timeout=30_000)
        said = page.inner_text(f"{DIALOG} #fr-error")
        assert "Couldn't reach the place where players meet" in said, said
        assert "127.0.0.1:9" in said, said
        # the choice of another relay shows just below, not inside a closed section
        assert page.is_visible(f"{DIALOG} #fr-relay-set")
        assert "above" not in page.inner_text(f"{DIALOG} #fr-relay-set")
        assert not page.is_visible(f"{DIALOG} #fr-online")  # no countdown
        assert not page.evaluate(LOOKING) and not page.evaluate(IN_LOBBY)
        page.screenshot(path=str(ARTIFACTS / "online-no-relay.png"))
        for size in SIZES.values():
            page.set_viewport_size(size)
            page.screenshot(path=str(ARTIFACTS / f"online-no-relay-{size['width']}.png"))
        page.set_viewport_size(DESKTOP)
        page.click(f"{DIALOG} #fr-retry")  # tried again: looking, then told again
        page.wait_for_function(LOOKING, timeout=10_000)
        page.wait_for_selector(f"{DIALOG} #fr-retry", state="visible", timeout=30_000)
        page.keyboard.press("Escape")
        page.wait_for_function(f"!document.querySelector('{DIALOG}').open")
        assert _hand(page) == before
        assert page.evaluate(f"document.querySelector('{DIALOG}').dataset.role || ''") == ""
    finally:
        context.close()


def test_a_guest_that_reloads_mid_hand_comes_back_to_its_seat(
        browser: Any, base_url: str, relay: str) -> None:  # noqa: F811
    host, guest = (Seat(browser, base_url, f"reload-{who}") for who in ("host", "guest"))
    try:
        query = f"?speed=instant&grace=60&relay={relay}"
        open_all([host, guest], query)
        host.page.click("#open-table")
        host.page.click("#host-table")
        host.wait_data("stage", "lobby")
        host.click("#fr-share-button")
        host.page.wait_for_function("document.querySelector('#table-code').value.length === 11")
        code = host.page.input_value("#table-code")
        guest.page.click("#open-table")
        guest.page.fill(f"{DIALOG} #join-code", code)
        guest.click("#join")
        guest.wait_data("connected", "true", timeout=60_000)
        host.click("#fr-begin")
        guest.wait_data("stage", "pass")
        seat = guest.data("seat")
        # both pass: the hand is under way when the guest's tab reloads
        for person in (host, guest):
            for card in _hand(person.page)[:3]:
                person.page.click(f"#hand [data-card='{card}']")
            person.page.click("#pass")
        guest.wait_data("stage", "play")
        before = _hand(guest.page)
        guest.page.reload()
        guest.ready()
        guest.page.wait_for_selector(f"{DIALOG}[open] #rejoin", state="visible")
        assert host.page.get_attribute(f".seat[data-seat='{seat}']", "data-seat") == seat
        guest.page.screenshot(path=str(ARTIFACTS / "online-back-offer.png"))
        guest.page.click(f"{DIALOG} #rejoin")
        guest.wait_data("connected", "true", timeout=60_000)
        assert guest.data("seat") == seat
        guest.page.wait_for_function("n => document.querySelectorAll('#hand [data-card]')"
                                     ".length === n", arg=len(before))
        assert _hand(guest.page) == before
        for seat_page in (host, guest):
            # Trystero logs the reloading tab's data channel closing under it as an error
            # (it then treats the page as gone, as the table does): nothing of ours
            errors = [e for e in seat_page.table.errors
                      if "Trystero peer error: OperationError: User-Initiated Abort" not in e]
            assert not errors, errors
    finally:
        host.close()
        guest.close()
