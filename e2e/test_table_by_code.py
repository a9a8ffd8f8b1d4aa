"""Tables through relays: friends join by a table's link or typed code, strangers by Play
online — through a Nostr relay started here (``e2e/nostr_relay.mjs``), never the public ones
(``?relay=``).

The host shares one code; a friend opens the link, another types the code; both are seated
with nothing sent back by hand, and the game starts at all three pages. A mistyped code is
refused at once, in plain words. Four pages that press Play online sit at one table; two
play with two computers once the wait is over. The seat-in times go to the test's output.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT
from tablepage import ARTIFACTS
from test_private_table import DIALOG, Seat

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]
SEAT_IN: dict[str, list[float]] = {"by code": [], "online (4 pages)": []}


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """A local Nostr relay; its ws:// address."""
    process = subprocess.Popen(["node", str(ROOT / "e2e" / "nostr_relay.mjs"), "0"],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline().split()
    assert line and line[0] == "listening", line
    yield f"ws://127.0.0.1:{line[1]}"
    process.terminate()
    process.wait(10)
    for kind, times in SEAT_IN.items():
        if times:
            print(f"\nseat-in {kind}: median {statistics.median(times):.2f} s, "
                  f"max {max(times):.2f} s over {len(times)}")


@pytest.fixture
def seats(browser: Any, base_url: str) -> Iterator[list[Seat]]:
    made: list[Seat] = []
    yield made
    for seat in made:
        seat.close()


def test_friends_join_by_link_and_by_typed_code(browser: Any, base_url: str, relay: str,
                                                 seats: list[Seat]) -> None:
    host = Seat(browser, base_url, "code-host")
    seats.append(host)
    origin = host.table.origin
    host.page.goto(f"{origin}/?speed=instant&relay={relay}")
    host.ready()
    host.page.click("#open-table")
    host.page.click("#host-table")
    host.wait_data("stage", "lobby")
    host.click("#fr-share-button")
    host.page.wait_for_function("document.querySelector('#table-code').value.length === 11")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    host.page.screenshot(path=str(ARTIFACTS / "table-by-code-shared.png"))
    code = host.page.input_value("#table-code")
    link = host.page.input_value("#fr-room-link")
    assert link.startswith(origin) and "#t=" in link and "&k=" in link
    assert link.split("#t=")[1].replace("&k=", "") == code.replace("-", "")

    by_link = Seat(browser, base_url, "code-link")
    seats.append(by_link)
    started = time.monotonic()
    by_link.page.goto(f"{origin}/?speed=instant&relay={relay}#{link.split('#', 1)[1]}")
    by_link.ready()
    by_link.wait_data("connected", "true", timeout=60_000)
    SEAT_IN["by code"].append(time.monotonic() - started)
    assert "#t=" not in by_link.page.url  # the code leaves the address bar

    typed = Seat(browser, base_url, "code-typed")
    seats.append(typed)
    typed.page.goto(f"{origin}/?speed=instant&relay={relay}")
    typed.ready()
    typed.page.click("#open-table")
    typed.page.fill(f"{DIALOG} #join-code", code.lower().replace("-", " "))
    started = time.monotonic()
    typed.click("#join")
    typed.wait_data("connected", "true", timeout=60_000)
    SEAT_IN["by code"].append(time.monotonic() - started)

    assert {by_link.data("seat"), typed.data("seat")} == {"1", "2"}
    host.click("#fr-begin")
    for seat in (host, by_link, typed):
        seat.wait_data("stage", "pass")
    host.page.screenshot(path=str(ARTIFACTS / "table-by-code-host.png"))
    for seat in (host, by_link, typed):
        assert not seat.table.errors, seat.table.errors
        assert all(url.startswith((origin, "data:", "blob:")) for url in seat.table.requests)


def test_a_mistyped_code_is_refused_in_plain_words(browser: Any, base_url: str, relay: str,
                                                    seats: list[Seat]) -> None:
    guest = Seat(browser, base_url, "code-typo")
    seats.append(guest)
    guest.page.goto(f"{guest.table.origin}/?speed=instant&relay={relay}")
    guest.ready()
    guest.page.click("#open-table")
    guest.page.fill(f"{DIALOG} #join-code", "K7QXM-3TNAX")
    guest.click("#join")
    assert "typo" in guest.page.inner_text(f"{DIALOG} #fr-error")
    guest.page.screenshot(path=str(ARTIFACTS / "table-by-code-typo.png"))
    assert guest.data("connected") == "false"



def test_four_pages_that_play_online_sit_at_one_table(browser: Any, base_url: str,
                                                      relay: str, seats: list[Seat]) -> None:
    pages = [Seat(browser, base_url, f"online-{n}") for n in range(4)]
    seats.extend(pages)
    for seat in pages:
        seat.page.goto(f"{seat.table.origin}/?speed=instant&relay={relay}")
        seat.ready()
    started = time.monotonic()
    for seat in pages:
        seat.page.click("#play-online")
    for seat in pages:
        seat.page.wait_for_selector("#table[data-people='4']", state="attached",
                                    timeout=60_000)
        SEAT_IN["online (4 pages)"].append(time.monotonic() - started)
    assert sorted(seat.data("role") for seat in pages) == ["guest", "guest", "guest", "host"]
    for seat in pages:
        seat.wait_data("stage", "pass")
        assert not seat.table.errors, seat.table.errors
    pages[0].page.screenshot(path=str(ARTIFACTS / "online-seated.png"))


def test_two_pages_online_play_with_two_computers_after_the_wait(
        browser: Any, base_url: str, relay: str, seats: list[Seat]) -> None:
    pages = [Seat(browser, base_url, f"online-pair-{n}") for n in range(2)]
    seats.extend(pages)
    for seat in pages:
        seat.page.goto(f"{seat.table.origin}/?speed=instant&relay={relay}")
        seat.ready()
        seat.page.click("#play-online")
    pages[1].page.wait_for_function(
        "document.querySelector('#fr-online-state').textContent.includes('2 players')",
        timeout=30_000)
    pages[1].page.screenshot(path=str(ARTIFACTS / "online-looking.png"))
    for seat in pages:
        seat.page.wait_for_selector("#table[data-people='2']", state="attached",
                                    timeout=60_000)
        seat.wait_data("stage", "pass")
    kinds = pages[0].page.eval_on_selector_all(
        "#table .seat .name", "els => els.map(e => e.textContent)")
    assert sum("(computer)" in name for name in kinds) == 2, kinds
