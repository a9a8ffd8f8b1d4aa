"""Play online without surprises, through a Nostr relay started here (``?relay=``).

A person who presses Play online and changes their mind (Escape, or the dialog's Close) stops
looking there and then: the page leaves the lobby and their own game stays, even when another
page deals a table a moment later. With no relay answering, the dialog says so, naming the
relay, offers Try again and the relay setting, and deals nothing.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from conftest import DESKTOP
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import ViewportSize
from tablepage import ARTIFACTS, TablePage
from test_private_table import DIALOG, Seat, keep_alerts, open_all, wait_alert
from test_table_by_code import (
    relay,  # noqa: F401 (the module's relay fixture)
)

from hearts import Card
from web import words

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
        table.page.clock.install()  # time flows as usual, until the test pauses it
        table.goto(f"?speed=instant&wait=2&relay={dead}")
        page = table.page
        page.wait_for_selector("#play-online:not([disabled])")
        before = _hand(page)
        page.clock.pause_at((page.evaluate("Date.now()") + 100) / 1000)  # (in s): its time is ours
        page.click("#play-online")
        # The relay refused at once: said within a second of the page's time, where a slow
        # relay is given RELAY_WAIT_MS (8 s, web/static/p2p.js) to answer.
        retry = page.locator(f"{DIALOG} #fr-retry")
        _within_page_time(page, retry, 1000)
        said = page.inner_text(f"{DIALOG} #fr-fair-closed")  # first, before the choices
        assert "Couldn't reach the place where players meet" in said, said
        assert "127.0.0.1:9" in said, said
        # the choice of another relay shows just below, not inside a closed section
        assert page.is_visible(f"{DIALOG} #fr-relay-set")
        assert "above" not in page.inner_text(f"{DIALOG} #fr-relay-set")
        assert not page.is_visible(f"{DIALOG} #fr-online")  # no countdown
        assert not page.evaluate(LOOKING) and not page.evaluate(IN_LOBBY)
        page.clock.resume()  # (the screenshots wait on animation frames)
        _shoot_all(page, "online-no-relay")
        page.clock.pause_at((page.evaluate("Date.now()") + 100) / 1000)  # (seconds)
        # Tried again: looking, then told again. The refusal may come before a poll would
        # see the page looking, so the page notes it looked (a mutation, not a timer).
        page.evaluate(f"""() => {{
            window.lookedAgain = false;
            new MutationObserver(() => {{ if ({LOOKING}) window.lookedAgain = true; }})
                .observe(document.documentElement, {{attributes: true}});
        }}""")
        page.click(f"{DIALOG} #fr-retry")
        page.wait_for_function("window.lookedAgain", timeout=10_000, polling=50)
        _within_page_time(page, retry, 1000)
        page.clock.resume()
        page.keyboard.press("Escape")
        page.wait_for_function(f"!document.querySelector('{DIALOG}').open")
        assert _hand(page) == before
        assert page.evaluate(f"document.querySelector('{DIALOG}').dataset.role || ''") == ""
    finally:
        context.close()


def _dealt_by_code(host: Seat, guest: Seat) -> None:
    """The host opens a table and shares its code, the guest joins by it, and the host
    begins: until the guest is dealt its cards."""
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


def _within_page_time(page: Any, shown: Any, ms: int, step: int = 50,
                      wait: float = 500) -> None:
    """Move the page's paused clock on ``ms`` at most, ``step`` ms at a time (its timers
    run as it goes; between two steps the page has ``wait`` ms of real time for what its
    sockets bring), until ``shown`` is visible; fail if it isn't by then."""
    for _ in range(ms // step):
        page.clock.run_for(step)
        try:
            shown.wait_for(state="visible", timeout=wait)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"not shown within {ms} ms of the page's time")


def test_a_guest_that_reloads_mid_hand_comes_back_to_its_seat(
        browser: Any, base_url: str, relay: str) -> None:  # noqa: F811
    host, guest = (Seat(browser, base_url, f"reload-{who}") for who in ("host", "guest"))
    try:
        query = f"?speed=instant&grace=60&relay={relay}"
        open_all([host, guest], query)
        _dealt_by_code(host, guest)
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


def test_a_name_typed_through_the_lobbys_wait_is_kept_whole_and_keeps_the_focus(
        browser: Any, base_url: str, relay: str) -> None:  # noqa: F811
    context = browser.new_context(viewport=SIZES["phone"], service_workers="block")
    try:
        table = TablePage(context.new_page(), base_url, "online-typing")
        table.goto(f"?speed=instant&wait=2&relay={relay}")
        page = table.page
        page.wait_for_selector("#play-online:not([disabled])", state="attached")
        _press_play_online(page)
        _wait_until(page, f"{LOOKING} && {IN_LOBBY}", 20_000)
        page.click(f"{DIALOG} #my-name")
        page.keyboard.type("Gabr", delay=150)
        # the lobby's wait ends while they type: a table is found, alone with the computers
        page.wait_for_function(f"document.querySelector('{DIALOG}').dataset.role === 'host'",
                               timeout=30_000)
        page.keyboard.type("iella", delay=150)  # still in the field: no key is a shortcut
        assert page.evaluate(f"document.querySelector('{DIALOG}').open")
        assert page.evaluate("document.activeElement.id") == "my-name"
        assert page.input_value(f"{DIALOG} #my-name") == "Gabriella"
        assert page.inner_text(f"{DIALOG} #fr-status") == words.TABLE_WAITS_FOR_YOU
        assert page.locator("#hand .hinted").count() == 0  # H wasn't taken as a hint
        _shoot_all(page, "online-typing-table-waits")
        page.keyboard.press("Enter")  # the name is kept whole
        page.wait_for_function("localStorage.getItem('hearts.name') !== null"
                               " && localStorage.getItem('hearts.name').includes('Gabriella')")
        page.keyboard.press("Escape")  # then to the table that waited
        page.wait_for_function(f"!document.querySelector('{DIALOG}').open")
        assert page.evaluate(f"document.querySelector('{DIALOG}').dataset.role") == "host"
        assert not table.errors, table.errors
    finally:
        context.close()


def test_the_turn_clock_counts_each_second_at_a_table_by_code_and_says_what_went(
        browser: Any, base_url: str, relay: str) -> None:  # noqa: F811
    host, guest = (Seat(browser, base_url, f"clock-{who}") for who in ("host", "guest"))
    try:
        for seat in (host, guest):
            seat.page.clock.install()  # time flows as usual, and the test may jump it ahead
        # (a turn long enough that a busy machine never runs it out before the jump below)
        open_all([host, guest], f"?speed=instant&turn=60&relay={relay}")
        _dealt_by_code(host, guest)
        guest.hide_dialog()
        # Both people are waited for: each sees their clock, a second at a time.
        for seat in (guest, host):
            clock = seat.page.locator("#prompt #turn-clock")
            clock.wait_for()
            first = int(clock.get_attribute("data-seconds") or 0)
            seat.page.clock.run_for(2000)
            seat.page.wait_for_function(
                "s => Number(document.querySelector('#turn-clock').dataset.seconds) <= s - 2",
                arg=first)
            now = int(clock.get_attribute("data-seconds") or 0)
            assert first <= 60 and 2 <= first - now <= 3, (first, now)
        _shoot_all(guest.page, "clock-by-code")
        keep_alerts(guest.page)
        keep_alerts(host.page)
        dealt = _hand(guest.page)
        # The host's page keeps the table's time: once it is out, it passes for both people,
        # and each is told which three cards went for them.
        host.page.clock.fast_forward(60_000)
        for seat in (guest, host):
            wait_alert(seat.page, "were passed for you", news=True)
        guest.page.wait_for_function("document.documentElement.dataset.state !== 'pass'")
        said = next(a["text"] for a in guest.page.evaluate("window.heartsAlerts")
                    if "Time's up" in a["text"])
        assert said.startswith("Time's up: ") and said.endswith(" were passed for you."), said
        passed = [card for card in dealt if Card.parse(card).short in said]
        assert len(passed) == 3 and not set(passed) & set(_hand(guest.page)), said
        _shoot_all(guest.page, "clock-times-up")
    finally:
        host.close()
        guest.close()


def _shoot_all(page: Any, name: str) -> None:
    """The moment at a phone's sizes and a desktop's, to look at (the size is put back)."""
    size = page.viewport_size
    for width, height in ((320, 640), (390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"))
    page.set_viewport_size(size)


def test_a_closed_tables_code_is_answered_within_seconds(
        browser: Any, base_url: str, relay: str) -> None:  # noqa: F811
    """A table shared by code puts up a sign on the relays while it is open and takes it
    down when it closes: a code looked up after that is told "No table answered" as soon
    as the relays say no sign is up (and a moment's grace is out), not after the whole
    look (12 s of the page's time)."""
    host, guest = (Seat(browser, base_url, f"gone-{who}") for who in ("host", "guest"))
    try:
        open_all([host, guest], f"?speed=instant&relay={relay}")
        host.page.click("#open-table")
        host.page.click("#host-table")
        host.wait_data("stage", "lobby")
        host.click("#fr-share-button")
        host.page.wait_for_function(
            "document.querySelector('#table-code').value.length === 11")
        code = host.page.input_value("#table-code")
        host.click("#fr-leave")  # End the table for everyone
        host.wait_data("closed", "true")
        guest.page.clock.install()
        page = guest.page
        page.click("#open-table")
        page.fill(f"{DIALOG} #join-code", code)
        started = time.monotonic()
        page.clock.pause_at((page.evaluate("Date.now()") + 100) / 1000)  # its time is ours
        guest.click("#join")
        error = page.locator(f"{DIALOG} #fr-error")
        _within_page_time(page, page.locator(f"{DIALOG} #fr-error:has-text('No table')"),
                          4000, step=100, wait=150)
        print(f"\nclosed table's code answered in {time.monotonic() - started:.2f} s "
              f"(wall, the page's clock paused and stepped)")
        assert error.inner_text() == words.NO_TABLE
        page.clock.resume()
        _shoot_all(page, "online-closed-code")
        assert not page.evaluate("window.heartsP2P.meetings().length")
    finally:
        host.close()
        guest.close()
