"""Tables through relays: friends join by a table's link or typed code, strangers by Play
online — through a Nostr relay started here (``e2e/nostr_relay.mjs``), never the public ones
(``?relay=``).

The host shares one code; a friend opens the link, another types the code; both are seated
with nothing sent back by hand, and the game starts at all three pages. A mistyped code is
refused at once, in plain words. Four pages that press Play online sit at one fair table; two
sit at a fair one with two computers once the wait is over. A page alone in the lobby deals
itself a table with computers, which its page runs: a page that comes online during a hand
is seated there and takes a computer's seat from the next, and when the page that runs the
table closes, the other carries it on with the same scores. A player who stalls is played
for when the turn timer runs out (``?turn=5`` here); pages that join the lobby again and
again shouting junk don't disturb a table in progress.

Seat-in times go to the test's output: a line per page seated, from its click (Play online,
Join) to its ``#table[data-people]`` showing the people it was seated with, timed by the
page's own clock; from opening the link (its load included) for a friend who comes by link;
and the median and p95 of each kind at the end.
"""

from __future__ import annotations

import itertools
import json
import statistics
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import ROOT
from tablepage import ARTIFACTS
from test_private_table import DIALOG, Seat, keep_alerts, open_all, play_turn, wait_alert

from hearts import Card
from web import words
from web.friends.joining import STUN

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]
SEAT_IN: dict[str, list[float]] = {}

WATCH_SEAT_IN = """([button, people]) => { window.seatIn = new Promise(resolve => {
    let clicked = null;
    document.addEventListener('click', event => {
        if (clicked === null && event.target.closest(button)) clicked = performance.now();
    }, true);
    const table = document.querySelector('#table');
    const observer = new MutationObserver(() => {
        if (clicked !== null && Number(table.dataset.people) >= people) {
            observer.disconnect();
            resolve((performance.now() - clicked) / 1000);
        }
    });
    observer.observe(table, {attributes: true, attributeFilter: ['data-people']});
}); }"""


RECORD_ICE_SERVERS = """window.iceServers = [];
const Made = window.RTCPeerConnection;
window.RTCPeerConnection = function (config, ...rest) {
    for (const server of (config && config.iceServers) || [])
        window.iceServers.push(...[].concat(server.urls));
    return new Made(config, ...rest);
};
window.RTCPeerConnection.prototype = Made.prototype;"""


def watch_seat_in(pages: list[Seat], button: str, people: int) -> None:
    """Time each page from its next click on ``button`` until its table shows ``people``
    people (read by ``seat_in``)."""
    for seat in pages:
        seat.page.evaluate(WATCH_SEAT_IN, [button, people])


def seat_in(pages: list[Seat], kind: str) -> None:
    """Record and print the seat-in time of each page watched (``watch_seat_in``)."""
    for seat in pages:
        seconds = float(seat.page.evaluate("window.seatIn"))
        SEAT_IN.setdefault(kind, []).append(seconds)
        print(f"\nseat-in {kind}: {seat.table.name} {seconds:.2f} s")


def p95(times: list[float]) -> float:
    """The 95th percentile, nearest rank (the worst of fewer than 20)."""
    ordered = sorted(times)
    return ordered[max(0, -(-len(ordered) * 95 // 100) - 1)]


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
    every = [seconds for times in SEAT_IN.values() for seconds in times]
    for kind, times in [*SEAT_IN.items(), ("all", every)]:
        if times:
            print(f"\nseat-in {kind}: median {statistics.median(times):.2f} s, "
                  f"p95 {p95(times):.2f} s, max {max(times):.2f} s over {len(times)}")


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
    by_link.page.wait_for_selector("#table[data-people='2']", state="attached",
                                   timeout=60_000)
    SEAT_IN.setdefault("by link (page load included)", []).append(time.monotonic() - started)
    print(f"\nseat-in by link (page load included): {by_link.table.name} "
          f"{time.monotonic() - started:.2f} s")
    assert "#t=" not in by_link.page.url  # the code leaves the address bar

    typed = Seat(browser, base_url, "code-typed")
    seats.append(typed)
    typed.page.goto(f"{origin}/?speed=instant&relay={relay}")
    typed.ready()
    typed.page.click("#open-table")
    typed.page.fill(f"{DIALOG} #join-code", code.lower().replace("-", " "))
    watch_seat_in([typed], "#join", 3)
    typed.click("#join")
    typed.wait_data("connected", "true", timeout=60_000)
    seat_in([typed], "by typed code")

    assert {by_link.data("seat"), typed.data("seat")} == {"1", "2"}
    assert typed.page.evaluate("window.heartsP2P.meetings()") == ["table"]
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



def _press_play_online_together(pages: list[Seat], relay: str, people: int | None,
                                script: str | None = None) -> None:
    """Load every page (``script``: an init script for each first), press Play online on
    each, and wait until each sits at a table of ``people`` (None: of two or more)."""
    for seat in pages:
        if script is not None:
            seat.context.add_init_script(script)
    open_all(pages, f"?speed=instant&relay={relay}")
    watch_seat_in(pages, "#play-online", people or 2)
    for seat in pages:
        seat.page.click("#play-online")
    table = f"#table[data-people='{people}']" if people else \
        "#table[data-people]:not([data-people='1'])"
    for seat in pages:
        seat.page.wait_for_selector(table, state="attached", timeout=60_000)


def test_four_pages_that_play_online_sit_at_one_table(browser: Any, base_url: str,
                                                      relay: str, seats: list[Seat]) -> None:
    pages = [Seat(browser, base_url, f"online-{n}") for n in range(4)]
    seats.extend(pages)
    # every ICE server a connection is given, kept for the end
    _press_play_online_together(pages, relay, 4, RECORD_ICE_SERVERS)
    seat_in(pages, "online, 4 people")
    # Four people: a fair table, which no page runs (e2e/test_fair_table.py plays it).
    assert [seat.data("role") for seat in pages] == ["fair"] * 4
    # Seated, nobody is in the lobby's room any more: they stopped announcing themselves.
    for seat in pages:
        assert seat.page.evaluate("window.heartsP2P.meetings()") == ["fair"]
    for seat in pages:
        seat.page.wait_for_function("document.documentElement.dataset.state === 'pass'")
        assert not seat.table.errors, seat.table.errors
    pages[0].page.screenshot(path=str(ARTIFACTS / "online-seated.png"))
    # The only STUN server asked is the one the dialog names (not the library's own list).
    for seat in pages:
        assert set(seat.page.evaluate("window.iceServers")) == {STUN}


COUNT_PAIRED = """window.paired = 0;
// Trystero builds a pool of offers whoever comes: a connection counts once it is given
// another page's description (an answer to its offer, or an offer to answer)
const given = new WeakSet();
const setRemote = RTCPeerConnection.prototype.setRemoteDescription;
RTCPeerConnection.prototype.setRemoteDescription = function (...args) {
    if (!given.has(this)) { given.add(this); window.paired++; }
    return setRemote.apply(this, args);
};"""


LOBBY_KINDS = (30440, 30441, 20440)


def _count_events(into: list[tuple[float, int]]) -> Callable[[Any], None]:
    """A page's ``websocket`` listener: (when, kind) of every event it sends a relay."""
    def sent(frame: Any) -> None:
        text = frame if isinstance(frame, str) else ""
        if text.startswith('["EVENT"'):
            try:
                kind = int(json.loads(text)[1]["kind"])
            except (ValueError, KeyError, IndexError, TypeError):
                return
            into.append((time.monotonic(), kind))

    def listen(socket: Any) -> None:
        socket.on("framesent", sent)
    return listen


def test_six_pages_that_play_online_together_are_all_seated_in_small_tables(
        browser: Any, base_url: str, relay: str, seats: list[Seat]) -> None:
    """Six people press Play online at once: the relay lobby seats every one of them (two
    tables of three, or four and two), and no page connects to more than three others."""
    pages = [Seat(browser, base_url, f"online-six-{n}") for n in range(6)]
    seats.extend(pages)
    _press_play_online_together(pages, relay, None, COUNT_PAIRED)
    for seat in pages:
        _wait_state(seat, "pass")
    seat_in(pages, "online, 6 people")
    people = [int(seat.page.get_attribute("#table", "data-people") or 0) for seat in pages]
    paired = [int(seat.page.evaluate("window.paired")) for seat in pages]
    print(f"\nsix at once: tables of {sorted(people)}, peer connections {paired}")
    assert sorted(people) in ([2, 2, 4, 4, 4, 4], [3] * 6), people
    assert [seat.data("role") for seat in pages] == ["fair"] * 6
    assert all(count <= 3 for count in paired), paired
    for seat in pages:
        assert not seat.table.errors, seat.table.errors


@pytest.mark.slow
def test_a_full_table_sends_no_lobby_events_once_seated(
        browser: Any, base_url: str, relay: str, seats: list[Seat]) -> None:
    """Four pages seated together: in the minute after their first hand is dealt none sends
    a lobby event (no door: every seat has a person), and the events Trystero sends in the
    table's own room are counted (docs/protocol.md, "Quiet once seated")."""
    pages = [Seat(browser, base_url, f"online-quiet-{n}") for n in range(4)]
    seats.extend(pages)
    sent: dict[str, list[tuple[float, int]]] = {}
    for seat in pages:
        seat.page.on("websocket", _count_events(sent.setdefault(seat.table.name, [])))
    _press_play_online_together(pages, relay, 4)
    for seat in pages:
        _wait_state(seat, "pass")
    start = time.monotonic()
    pages[0].page.wait_for_timeout(60_000)
    lobby = [sum(1 for at, kind in events if at >= start and kind in LOBBY_KINDS)
             for events in sent.values()]
    room = [sum(1 for at, kind in events if at >= start and kind not in LOBBY_KINDS)
            for events in sent.values()]
    print(f"\nseated at a full table, one minute: lobby events sent {lobby}, "
          f"events sent in the table's room {room}")
    assert lobby == [0] * 4, lobby
    assert all(seat.page.evaluate("window.heartsP2P.meetings()") == ["fair"] for seat in pages)


def test_two_pages_online_play_with_two_computers_after_the_wait(
        browser: Any, base_url: str, relay: str, seats: list[Seat]) -> None:
    pages = [Seat(browser, base_url, f"online-pair-{n}") for n in range(2)]
    seats.extend(pages)
    open_all(pages, f"?speed=instant&relay={relay}")
    watch_seat_in(pages, "#play-online", 2)
    for seat in pages:
        seat.page.click("#play-online")
    pages[1].page.wait_for_function(
        "document.querySelector('#fr-online-state').textContent.includes('2 players')",
        timeout=30_000)
    pages[1].page.screenshot(path=str(ARTIFACTS / "online-looking.png"))
    # While it looks, the page says what it goes through: the relays, by name, and STUN.
    # (behind Details: the dialog's first screen is the countdown and one button)
    looking = pages[1].page.text_content(f"{DIALOG} #fr-online") or ""
    assert relay.split("://")[1] in looking and "stun.l.google.com" in looking
    for seat in pages:
        seat.page.wait_for_selector("#table[data-people='2']", state="attached",
                                    timeout=60_000)
        _wait_state(seat, "pass")
    seat_in(pages, "online, 2 people, the default wait")
    for seat in pages:  # seated, the dialog says what kind of table this is
        seat.show_dialog()
        assert seat.page.inner_text("#friends-title") == "Play online"
        intro = seat.page.inner_text(f"{DIALOG} #fr-intro")
        assert "This is a fair table" in intro and "Each computer plays on" in intro
        # nothing of a private table's: no invites, no way to connect left to choose
        assert not seat.page.is_visible(f"{DIALOG} #fr-invites")
        assert not seat.page.is_visible(f"{DIALOG} #fr-net")
        seat.hide_dialog()
    kinds = pages[0].page.eval_on_selector_all(
        "#table .seat .name", "els => els.map(e => e.textContent)")
    assert sum("(computer)" in name for name in kinds) == 2, kinds


def _wait_state(seat: Seat, state: str, timeout: float = 90_000) -> None:
    """Wait for the felt's state (at a fair table the dialog shows no host's stage); the
    deal of a fair table takes several seconds of every page's work."""
    seat.page.wait_for_function("s => document.documentElement.dataset.state === s",
                                arg=state, timeout=timeout)


def _pass_all(pages: list[Seat]) -> None:
    for seat in pages:
        seat.wait_data("stage", "pass")
        for card in seat.table.hand()[:3]:
            seat.table.click_card(card)
        seat.page.click("#pass")


def _pass_and_play_a_hand(pages: list[Seat]) -> None:
    """Every person passes three cards, then plays a legal card whenever it is their turn,
    until the hand is scored."""
    _pass_all(pages)
    for _ in range(60):
        pages[0].page.wait_for_function(
            "() => { const d = document.querySelector('#friends').dataset;"
            " return d.stage !== 'pass' && (d.stage !== 'play' || d.waiting !== ''); }",
            timeout=30_000)
        if pages[0].data("stage") != "play":
            return
        for seat in pages:
            if seat.data("turn") == "true":
                play_turn(seat)
                break
    raise AssertionError("the hand did not finish")


def _shoot(page: Any, name: str) -> None:
    """Screenshots at a phone's size and a desktop's, to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((320, 640), (390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"))


def _alone_then_late(pages: list[Seat]) -> tuple[Seat, list[Seat]]:
    """The first page presses Play online alone and, the wait over, plays the computers;
    the others press it during that hand and wait, told they sit down when it ends."""
    host, late = pages[0], pages[1:]
    host.page.click("#play-online")
    host.wait_data("role", "host", timeout=60_000)
    host.wait_data("stage", "pass")
    for seat in late:
        started = time.monotonic()
        keep_alerts(seat.page)
        seat.page.click("#play-online")
        seat.page.wait_for_function(
            "t => document.querySelector('#fr-intro').textContent === t",
            arg=words.FAIR_LATE, timeout=30_000)
        print(f"\nlate arrival: at the table's door after {time.monotonic() - started:.2f} s")
        assert seat.data("role") == "fair"
    return host, late


def test_a_person_who_comes_to_a_lone_pages_game_sits_with_it_at_a_fair_table_next_hand(
        browser: Any, base_url: str, relay: str, seats: list[Seat]) -> None:
    pages = [Seat(browser, base_url, f"online-late-{n}") for n in range(3)]
    seats.extend(pages)
    open_all(pages, f"?speed=instant&wait=4&relay={relay}")
    host, (quitter, late) = _alone_then_late(pages)
    _shoot(late.page, "online-late-waiting")
    assert host.page.inner_text("#stat-where") == words.HOSTING_KIND
    # Alone with the computers, nobody waits for the person: no turn clock at all.
    assert host.page.locator("#turn-clock").count() == 0
    _shoot(host.page, "online-lone-page")
    # One of the newcomers changes their mind (Escape) while told a table is under way:
    # back to their own game, out of the table's room, which frees the seat.
    own = quitter.table.hand()
    quitter.page.keyboard.press("Escape")
    quitter.page.wait_for_function(
        f"!document.querySelector('{DIALOG}').open && "
        f"!document.querySelector('{DIALOG}').dataset.role")
    quitter.page.wait_for_function("!window.heartsP2P.meetings().length")
    assert quitter.table.hand() == own
    # The newcomer never joins the lone page's game, which that page deals: it waits.
    _pass_and_play_a_hand([host])
    late.page.wait_for_selector("#table[data-people='2']", state="attached", timeout=60_000)
    # The lone page's person reads the hand's summary: a newcomer doesn't cut it short.
    # The fair table waits behind it, its countdown said, until they move on.
    summary = host.page.locator("#summary[open]")
    assert summary.is_visible() and host.page.get_attribute("#table", "data-people") == "1"
    host.page.wait_for_function(
        "document.querySelector('#summary-next-in').textContent.includes('next hand in')",
        timeout=60_000)
    _shoot(host.page, "online-summary-kept")
    assert summary.is_visible()
    host.page.click("#next-hand")
    for seat in (host, late):
        seat.page.wait_for_selector("#table[data-people='2']", state="attached",
                                    timeout=60_000)
        _wait_state(seat, "pass")
        assert seat.data("role") == "fair"
        assert seat.page.inner_text("#stat-where") == words.FAIR_KIND
        assert not seat.table.errors, seat.table.errors
    pages = [host, late]
    hands = [set(seat.table.hand()) for seat in pages]
    assert all(len(hand) == 13 for hand in hands) and not hands[0] & hands[1]
    assert host.data("seat") == "0" and late.data("seat") != "0"  # the lone page keeps its seat
    # The one who changed their mind was never pulled in.
    assert quitter.data("role") == "" and quitter.table.hand() == own
    assert not quitter.page.evaluate("window.heartsP2P.meetings().length")
    # Both the same totals: the lone page's first hand counts.
    assert sum(host.table.scores()) in (26, 78)  # 78: a moon shot
    assert host.table.scores() == late.table.scores()
    wait_alert(late.page, "You sit at", news=True)
    # Out of the lobby once seated; the page that lets people in is there while a computer
    # plays a seat.
    meetings = sorted(tuple(seat.page.evaluate("window.heartsP2P.meetings()"))
                      for seat in pages)
    assert meetings == [("fair",), ("fair", "lobby")], meetings
    for seat in pages:
        _shoot(seat.page, f"online-late-seated-{seat.data('seat')}")


def test_my_own_relay_chosen_in_the_dialog_is_kept_and_used(
        browser: Any, base_url: str, relay: str, seats: list[Seat]) -> None:
    host, friend = Seat(browser, base_url, "own-relay-host"), Seat(browser, base_url,
                                                                    "own-relay-friend")
    seats.extend([host, friend])
    host.page.goto(f"{host.table.origin}/?speed=instant")  # no ?relay=: the public ones
    host.ready()
    host.page.click("#open-table")
    host.page.wait_for_selector(f"{DIALOG}[open]")
    assert "nos.lol" in host.page.inner_text(f"{DIALOG} #fr-paste .fr-relays")
    host.page.evaluate("document.querySelector('#fr-settings').open = true")
    host.click("input[name='fr-relay'][value='own']")
    host.page.fill(f"{DIALOG} #fr-relay-url", "relay.example.org")
    host.page.press(f"{DIALOG} #fr-relay-url", "Tab")
    assert "wss://" in host.page.inner_text(f"{DIALOG} #fr-error")
    host.page.fill(f"{DIALOG} #fr-relay-url", relay)
    host.page.press(f"{DIALOG} #fr-relay-url", "Tab")
    assert host.page.inner_text(f"{DIALOG} #fr-error") == ""
    host.page.screenshot(path=str(ARTIFACTS / "own-relay-dialog.png"))
    host.table.reload()
    host.ready()
    host.page.click("#open-table")
    host.page.wait_for_selector(f"{DIALOG}[open]")
    assert host.page.input_value(f"{DIALOG} #fr-relay-url") == relay
    assert relay.split("://")[1] in host.page.inner_text(f"{DIALOG} #fr-paste .fr-relays")
    host.click("#host-table")
    host.click("#fr-share-button")
    host.page.wait_for_function(
        f"document.querySelector('{DIALOG} #table-code').value.length > 0")
    code = host.page.input_value(f"{DIALOG} #table-code")
    friend.page.goto(f"{friend.table.origin}/?speed=instant&relay={relay}")
    friend.ready()
    friend.page.click("#open-table")
    friend.page.fill(f"{DIALOG} #join-code", code)
    friend.click("#join")
    friend.wait_data("role", "guest")
    friend.page.wait_for_selector("#table[data-people='2']", state="attached",
                                  timeout=30_000)


def test_a_stalling_player_is_played_for_when_their_time_runs_out(
        browser: Any, base_url: str, relay: str, seats: list[Seat]) -> None:
    pages = [Seat(browser, base_url, f"online-stall-{n}") for n in range(2)]
    seats.extend(pages)
    mover, staller = pages
    staller.page.clock.install()  # time flows as usual, and the test may jump it ahead
    open_all(pages, f"?speed=instant&turn=20&wait=6&relay={relay}")
    watch_seat_in(pages, "#play-online", 2)
    for seat in pages:
        seat.page.click("#play-online")
    for seat in pages:
        seat.page.wait_for_selector("#table[data-people='2']", state="attached",
                                    timeout=60_000)
        _wait_state(seat, "pass")
    seat_in(pages, "online, 2 people, 6 s wait")
    dealt = staller.table.hand()
    keep_alerts(staller.page)
    # The turn clock beside the prompt counts down a second at a time.
    clock = staller.page.locator("#prompt #turn-clock")
    clock.wait_for()
    seen = [int(clock.get_attribute("data-seconds") or 0)]
    for _ in range(3):
        staller.page.clock.run_for(1000)
        staller.page.wait_for_function(
            "s => Number(document.querySelector('#turn-clock').dataset.seconds) < s",
            arg=seen[-1])
        seen.append(int(clock.get_attribute("data-seconds") or 0))
    steps = [a - b for a, b in itertools.pairwise(seen)]
    assert seen[0] <= 20 and all(1 <= step <= 2 for step in steps), seen
    assert clock.inner_text() == words.turn_clock(seen[-1])
    _shoot(staller.page, "online-turn-clock")
    for card in mover.table.hand()[:3]:
        mover.table.click_card(card)
    mover.page.click("#pass")
    # At a fair table nobody else can move for a person: their own page passes for them
    # once their time is out, and says which three cards went.
    staller.page.clock.fast_forward(20_000)
    wait_alert(staller.page, "were passed for you", news=True)
    said = next(a["text"] for a in staller.page.evaluate("window.heartsAlerts")
            if "Time's up" in a["text"])
    passed = [card for card in dealt if Card.parse(card).short in said]
    assert len(passed) == 3, said
    _wait_state(staller, "play", timeout=30_000)  # its three cards went without it
    assert staller.table.hand() != dealt and len(staller.table.hand()) == 13
    assert not set(passed) & set(staller.table.hand())
    _shoot(staller.page, "online-times-up")
    # Play online at the table shows the table (no refusal in red); leaving it is news,
    # and the dialog offers to look again rather than a private table's choices.
    staller.page.click("#play-online")
    staller.page.wait_for_selector(f"{DIALOG}[open] #fr-leave", state="visible")
    assert staller.page.inner_text(f"{DIALOG} #fr-error") == ""
    staller.click("#fr-leave")
    staller.page.wait_for_selector(f"{DIALOG} #fr-retry", state="visible")
    assert staller.page.inner_text(f"{DIALOG} #fr-fair-closed") == words.FAIR_LEFT
    assert staller.page.get_attribute(f"{DIALOG} #fr-fair-closed", "data-tone") == "news"
    assert staller.page.inner_text(f"{DIALOG} #fr-retry") == words.PLAY_ONLINE_AGAIN
    assert not staller.page.is_visible(f"{DIALOG} #host-table")
    _shoot(staller.page, "online-left")


FLOODER = """([relay, rounds]) => { window.flood = (async () => {
    // a stranger on the lobby's relay, a new key each round: it reads the open doors and
    // sends each junk notes, knocks for a table that isn't its, a flood of knocks, and
    // LOOKs that aren't of the lobby's shape
    const room = await import('/static/room.js');
    let sent = 0, met = 0;
    const doors = new Map();
    const tag = 'hearts-v4-0-0';
    const now = () => Math.floor(Date.now() / 1000);
    for (let round = 0; round < rounds; round++) {
        const wire = room.lobbyWire({relays: [relay]}, {
            event: (sub, event) => { doors.set(event.pubkey, event.tags[0][1]); },
            stored: () => {}});
        wire.subscribe('doors', [{kinds: [30441], '#t': [tag]}]);
        await new Promise(done => setTimeout(done, 500));
        for (const [door, table] of doors) {
            met++;
            const junk = ['{', 'x'.repeat(5000), '{"v":4,"t":"welcome","table":"' + table + '"}',
                          '{"v":4,"t":"knock","table":"XXXXXXXXXX","look":"a"}',
                          ...Array(10).fill('{"v":4,"t":"knock","table":"' + table +
                                            '","look":"' + round + '"}')];
            for (const text of junk) { await wire.publish(20440, [], text, door, now()); sent++; }
        }
        for (const content of ['{"v":4,"came":1}', '{"v":3,"came":' + Date.now() + '}', '[]']) {
            await wire.publish(30440, [['d', 'look'], ['t', tag]], content, null, now());
            sent++;
        }
        await new Promise(done => setTimeout(done, 1000));
        wire.close();
    }
    return [met, sent];
})(); }"""


def test_a_flood_of_lobby_joins_does_not_break_the_table_in_progress(
        browser: Any, base_url: str, relay: str, seats: list[Seat]) -> None:
    pages = [Seat(browser, base_url, "online-flood")]
    seats.extend(pages)
    open_all(pages, f"?speed=instant&wait=4&relay={relay}")
    pages[0].page.click("#play-online")
    pages[0].wait_data("role", "host", timeout=60_000)
    pages[0].wait_data("stage", "pass")
    # Strangers on the lobby's relay, again and again under new keys, send junk to every
    # open door they read (the table's page files one, offering its three computer seats).
    context = browser.new_context()
    flooders = [context.new_page() for _ in range(4)]
    for flooder in flooders:
        flooder.goto(f"{pages[0].table.origin}/no-such-page")
    for flooder in flooders:
        flooder.evaluate(FLOODER, [relay, 4])
    _pass_all(pages)
    for seat in pages:
        seat.wait_data("stage", "play")
    results = [flooder.evaluate("window.flood") for flooder in flooders]
    context.close()
    met, sent = sum(r[0] for r in results), sum(r[1] for r in results)
    print(f"\nlobby flood: 16 strangers found {met} doors and sent {sent} junk events")
    assert met > 0
    for _ in range(8):  # the table plays on, its people and computers as they were
        for seat in pages:
            if seat.data("turn") == "true":
                play_turn(seat)
    for seat in pages:
        seat.page.wait_for_selector("#table[data-people='1']", state="attached")
        assert not seat.table.errors, seat.table.errors
