"""A private table in Chromium: a host and three guests, each in its own browser context.

They connect over WebRTC on this machine with codes copied by hand (as people would), pass,
play a whole hand (everyone on the felt table from their own seat, the host too: its hand
in ``#hand``, dimmed cards refused with the reason, the hint), a guest drops and
the computer takes the seat, a new friend is invited to it, and the host closes the table.
A changed guest page sends tampered messages on its real data channel (another seat's
cards, a seat field, out of turn, a card not held, oversized, not JSON, a flood): each is
refused and logged, the game and the other seats carry on, and what crossed each guest's
channel holds no hidden card but its own. The host's page reloads mid-hand: the game
carries on where it was and the guest comes back with a new invite; the host then carries
the closed table's game on alone against the computers (and, in a short test, straight from
a reopened page's saved table, which a reload then keeps as the single-player game). The
steps use the
issue's stable hooks (``#open-table``, ``[data-invite-seat]``, ``#answer-code``); code
lengths and connect times go to ``e2e/artifacts/private-table-figures.json``.
Chromium runs with real IP addresses in its candidates (``WebRtcHideLocalIpsWithMdns`` off)
so nothing depends on mDNS; on a machine where no network address can be gathered at all
the test is skipped, saying so.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import DESKTOP, PHONE, ROOT
from playwright.sync_api import Error as PlaywrightError
from tablepage import TablePage
from test_a11y import run_axe
from test_reliability import FAULT, forget_injected

from web import words

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

WEBRTC_FLAGS = ["--disable-features=WebRtcHideLocalIpsWithMdns"]
PROBE = """async () => {
  const pc = new (window.__RealPeerConnection || RTCPeerConnection)();
  pc.createDataChannel("probe");
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise(done => {
    if (pc.iceGatheringState === "complete") return done();
    pc.onicegatheringstatechange = () => pc.iceGatheringState === "complete" && done();
    setTimeout(done, 8000);
  });
  const found = (pc.localDescription.sdp.match(/^a=candidate:\\S+ 1 udp /gim) || []).length;
  pc.close();
  return found;
}"""
DIALOG = "#friends"
CODES: dict[str, list[float]] = {"invite": [], "answer": [], "connect": []}
"""Code lengths and connect times seen in this run (printed at the end, for the notes)."""
ARTIFACTS = ROOT / "e2e" / "artifacts"


@pytest.fixture(scope="module")
def rtc_browser(browser_type: Any, browser_type_launch_args: dict[str, Any]) -> Iterator[Any]:
    """Chromium with real addresses in WebRTC candidates, for predictable codes."""
    args = {**browser_type_launch_args,
            "args": [*browser_type_launch_args.get("args", []), *WEBRTC_FLAGS]}
    browser = browser_type.launch(**args)
    yield browser
    browser.close()


def open_all(seats: list[Seat], query: str) -> None:
    """Load every page at ``origin/query`` at once, then wait for each to be ready: the
    pages start side by side instead of one after the other."""
    for seat in seats:
        seat.page.goto(f"{seat.table.origin}/{query}", wait_until="commit")
    for seat in seats:
        seat.ready()


class Seat:
    """One person's page: a TablePage (errors, requests) plus the friends dialog."""

    def __init__(self, browser: Any, base_url: str, name: str) -> None:
        self.context = browser.new_context(viewport=DESKTOP, service_workers="block")
        self.table = TablePage(self.context.new_page(), base_url, name)
        self.page = self.table.page
        self.closed = False

    def ready(self) -> None:
        self.table.wait_loaded(90_000)
        self.page = self.table.page  # a new tab, if the first crashed while loading
        self.page.wait_for_selector("#open-table:not([disabled])", timeout=30_000)

    def data(self, key: str) -> str:
        return str(self.page.evaluate(f"document.querySelector('{DIALOG}').dataset.{key} || ''"))

    def wait_data(self, key: str, value: str, timeout: float = 30_000) -> None:
        self.page.wait_for_function(
            f"v => document.querySelector('{DIALOG}').dataset.{key} === v", arg=value,
            timeout=timeout)

    def click(self, selector: str, force: bool = False) -> None:
        # force: dimmed cards carry aria-disabled, which Playwright would refuse to click
        self.page.click(f"{DIALOG} {selector}", force=force)

    def show_dialog(self) -> None:
        """The host's invites and table controls: Play with friends opens them again."""
        if not self.page.evaluate(f"document.querySelector('{DIALOG}').open"):
            self.page.click("#open-table")
        self.page.wait_for_selector(f"{DIALOG}[open]")

    def hide_dialog(self) -> None:
        """Back to the felt table (the dialog is modal: the table waits behind it)."""
        if self.page.evaluate(f"document.querySelector('{DIALOG}').open"):
            self.click("#fr-close")
        self.page.wait_for_selector(f"{DIALOG}:not([open])", state="attached")

    def close(self) -> None:
        if not self.closed:
            self.context.close()
            self.closed = True


@pytest.fixture(scope="module", autouse=True)
def figures() -> Iterator[None]:
    """Write the code lengths and connect times seen to e2e/artifacts (for the notes)."""
    yield
    if CODES["connect"]:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "private-table-figures.json").write_text(json.dumps(CODES, indent=1))


@pytest.fixture
def people(rtc_browser: Any, base_url: str) -> Iterator[list[Seat]]:
    """Pages opened by the test (host first); their errors and off-origin requests fail it."""
    opened: list[Seat] = []
    yield opened  # the test adds its pages
    problems: list[str] = []
    for seat in opened:
        problems += seat.table.errors
        problems += [f"off-origin request: {url}" for url in seat.table.requests
                     if not (url.startswith(base_url + "/") or url.startswith(("data:", "blob:")))]
        seat.close()
    assert not problems, "\n".join(problems)


def open_host(seat: Seat) -> None:
    seat.page.goto(f"{seat.table.origin}/?speed=instant&grace=2")
    seat.ready()
    found = seat.page.evaluate(PROBE)
    if not found:
        pytest.skip("WebRTC found no network address on this machine (only a loopback "
                    "interface?), so browsers here can't connect to each other")
    seat.page.click("#open-table")  # the dialog: opening a table is a step of its own
    seat.page.click("#host-table")  # a table, with an invite per seat
    seat.wait_data("stage", "lobby")
    assert seat.page.inner_text("#stat-where") == "Hosting a private table"


def invite_row(seat: int) -> str:
    """The stable hook of ``seat``'s invite on the host's page."""
    return f"[data-invite-seat='{seat}']"


def wait_link(host: Seat, seat: int, old: str = "", stale: str = "") -> str:
    """The invite link for ``seat`` once it differs from ``old`` (skips with no network)."""
    row = invite_row(seat)
    host.page.wait_for_function(
        "([link, old, stale]) => { const v = document.querySelector(link).value;"
        " return v.includes('#join=') && v !== old"
        " || !['', stale].includes(document.querySelector('#fr-error').textContent); }",
        arg=[f"{row} .invite-link", old, stale], timeout=30_000)
    error = host.page.inner_text("#fr-error")
    if "No network address" in error:
        pytest.skip(f"no ICE candidate on this machine: {error}")
    assert error in ("", stale), error
    return host.page.input_value(f"{row} .invite-link")


def invite(host: Seat, guest: Seat, seat: int, again: bool = False) -> float:
    """The guest opens ``seat``'s invite link and its answer goes back to the host.

    ``again``: the host first makes a new invite for the seat (its first one came when the
    table opened). Returns the seconds from pressing Connect to the data channel opening.
    """
    row = invite_row(seat)
    stale = host.page.inner_text("#fr-error")  # an earlier step's error: not this one's
    host.show_dialog()
    if again:
        old = host.page.input_value(f"{row} .invite-link")
        host.click(f"{row} [data-act='invite']")
        link = wait_link(host, seat, old, stale)
    else:
        link = wait_link(host, seat, "", stale)
    code = link.split("#join=", 1)[1]
    assert len(code) <= 160, code
    CODES["invite"].append(len(code))
    guest.page.goto("about:blank")  # a fresh load (a link opened in a new tab, as people do)
    guest.page.goto(link)
    guest.ready()
    guest.page.wait_for_selector(f"{DIALOG}[open] #fr-join-note", state="visible")
    assert "#join" not in guest.page.url, "the code stays out of the address bar"
    took = connect(host, guest, seat)
    guest.wait_data("seat", str(seat))  # the host's first state follows the channel opening
    guest.page.wait_for_selector(f"{DIALOG}[open]", state="hidden")
    assert guest.page.inner_text("#stat-where").endswith("device sees all hands")
    return took


def connect(host: Seat, guest: Seat, seat: int) -> float:
    """The guest's answer code goes to the host, who presses Connect, and the channel opens.

    Returns the seconds from pressing Connect to the guest's channel opening.
    """
    guest.page.wait_for_function("document.querySelector('#answer-code').value.length > 20",
                                 timeout=30_000)
    answer = guest.page.input_value("#answer-code")
    assert len(answer) <= 140, answer
    CODES["answer"].append(len(answer))
    host.show_dialog()
    host.page.fill(f"{invite_row(seat)} .answer", answer)
    started = time.monotonic()
    host.click(f"{invite_row(seat)} .connect")
    guest.wait_data("connected", "true")
    took = time.monotonic() - started
    CODES["connect"].append(took)
    host.page.wait_for_function(
        f"document.querySelector('#fr-kind-{seat}').textContent === 'a friend is playing'")
    return took


def pass_three(seat: Seat) -> None:
    """Choose three cards on the felt table (a fourth is refused in words) and pass them."""
    page = seat.page
    cards = page.eval_on_selector_all("#hand [data-card]",
                                      "els => els.slice(0, 4).map(e => e.dataset.card)")
    for card in cards[:3]:
        assert page.is_disabled("#pass"), "Pass waits for exactly three cards"
        page.click(f"#hand [data-card='{card}']")
    page.click(f"#hand [data-card='{cards[3]}']")  # a fourth: refused in words
    page.wait_for_function("document.querySelector('#alert').textContent"
                           ".includes('three cards already')")
    assert page.eval_on_selector_all("#hand .card.selected", "e => e.length") == 3
    page.click("#pass")
    page.wait_for_selector("#pass", state="hidden")


def play_turn(seat: Seat) -> None:
    page = seat.page
    before = page.eval_on_selector_all("#hand [data-card]", "els => els.length")
    page.click("#hand [data-card][aria-disabled='false']")
    try:
        page.wait_for_function(
            "n => document.querySelectorAll('#hand [data-card]').length < n"
            " || document.querySelector('#friends').dataset.stage !== 'play'", arg=before)
    except Exception as error:
        raise AssertionError(f"{seat.table.name}: {page.inner_text('#prompt')!r} "
                             f"{seat.data('waiting')}") from error


def felt_hand(seat: Seat) -> list[str]:
    return sorted(seat.page.eval_on_selector_all("#hand [data-card]",
                                                 "els => els.map(e => e.dataset.card)"))


def wait_still(page: Any) -> None:
    """Wait until nothing moves: a guest's page (its link has no speed=instant) animates."""
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running'"
                           " || a.effect.getComputedTiming().endTime === Infinity)")


def keep_alerts(page: Any) -> None:
    """From now on, keep every text #alert holds, and whether it was drawn as news: news
    said politely just after an alert clears it, sometimes before a poll could read it."""
    page.evaluate("""() => { window.heartsAlerts = [];
        const alert = document.querySelector('#alert');
        new MutationObserver(() => window.heartsAlerts.push(
                {text: alert.textContent, news: alert.classList.contains('news')}))
            .observe(alert, {childList: true, characterData: true, subtree: true}); }""")


def wait_alert(page: Any, text: str, timeout: float = 30_000, news: bool = False) -> None:
    """Wait until #alert has said ``text`` (any case) since ``keep_alerts``, drawn as news
    of the table if ``news`` else as a mistake; if it never does, fail with what it said
    and where the page's online dialog stands."""
    try:
        page.wait_for_function("([r, news]) => window.heartsAlerts.some(a => a.news === news"
                               " && a.text.toLowerCase().includes(r.toLowerCase()))",
                               arg=[text, news], timeout=timeout)
    except PlaywrightError as error:
        said = page.evaluate("window.heartsAlerts")
        where = page.evaluate(f"({{...document.querySelector('{DIALOG}').dataset}})")
        raise AssertionError(f"#alert never said {text!r} (news: {news}): it said {said};"
                             f" {where}") from error


def refuse_dimmed(seat: Seat) -> bool:
    """On a guest's turn, a dimmed card is refused with the reason its name gives."""
    page = seat.page
    # Received cards fly in: a click at a card's place could land on one flying over it.
    wait_still(page)
    dimmed = page.eval_on_selector_all(
        "#hand .card.dim[aria-disabled='true']",
        "els => els.map(e => [e.dataset.card, e.querySelector('.sr-only').textContent])")
    if not dimmed:
        return False
    card, label = dimmed[0]
    reason = label.split("can't play: ", 1)[1].rstrip(".")
    keep_alerts(page)
    page.click(f"#hand [data-card='{card}']", force=True)
    wait_alert(page, reason)
    assert page.eval_on_selector_all(f"#hand [data-card='{card}']", "e => e.length") == 1
    page.screenshot(path=str(ARTIFACTS / "private-table-guest-refused.png"))
    return True


def hint_by_key(seat: Seat) -> None:
    """H on a guest's turn: one card of its own hand is suggested, and said."""
    page = seat.page
    page.keyboard.press("h")
    page.wait_for_function("document.querySelectorAll('#hand .card.hinted').length === 1")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Hint:')")


def play_until_scores(table: list[Seat], checks: dict[str, bool] | None = None) -> None:
    """Each person plays a legal card when the host waits for them, until the hand is scored.

    ``checks``: on guests' turns, once each, refuse a dimmed card and ask for a hint.
    """
    checks = {} if checks is None else checks
    host = table[0]
    for _ in range(60):
        host.page.wait_for_function(
            "() => { const d = document.querySelector('#friends').dataset;"
            " return d.stage !== 'play' || d.waiting !== ''; }", timeout=30_000)
        if host.data("stage") != "play":
            return
        seat = table[int(host.data("waiting"))]
        seat.wait_data("turn", "true")
        if "refused" in checks and not checks["refused"]:
            checks["refused"] = refuse_dimmed(seat)
        if "hint" in checks and not checks["hint"]:
            hint_by_key(seat)
            checks["hint"] = True
        play_turn(seat)
    raise AssertionError("the hand did not finish")


def test_private_table_host_and_three_guests(people: list[Seat], rtc_browser: Any,
                                             base_url: str) -> None:
    def new(name: str) -> Seat:
        seat = Seat(rtc_browser, base_url, name)
        people.append(seat)
        return seat

    host = new("host")
    open_host(host)

    # A mangled answer is refused in words.
    wait_link(host, 1)
    host.page.fill(f"{invite_row(1)} .answer", "not-a-real-code!")
    host.page.wait_for_function("document.querySelector('#fr-kind-1').textContent"
                                ".startsWith('invited')")
    host.click(f"{invite_row(1)} .connect")
    host.page.wait_for_function("document.querySelector('#fr-error').textContent"
                                ".includes(\"isn't an answer code\")")

    guests = {seat: new(f"guest{seat}") for seat in (1, 2, 3)}
    for seat, guest in guests.items():
        invite(host, guest, seat)
        guest.wait_data("stage", "lobby")

    host.click("#fr-begin")
    everyone = [host, *guests.values()]
    for s in everyone:
        s.wait_data("stage", "pass")
    # Each guest sits at the bottom of the felt table, the others around it.
    north = guests[2].page
    north.wait_for_selector("#hand [data-card]")
    assert north.inner_text(".seat-south .name") == "You"
    assert north.inner_text(".seat-north .name") == "South"  # a person: no label
    assert north.get_attribute(".seat-west", "data-seat") == "3"
    # People have names: the host's chosen at its table, North's while seated; a name that
    # breaks the rules (here, an invisible control character) is refused in words.
    host.show_dialog()
    host.page.fill("#my-name", "\u202eAna")
    host.page.press("#my-name", "Tab")
    assert host.page.inner_text("#fr-name-note") == words.NAME_RULE
    host.page.fill("#my-name", "  Ana ")
    host.page.press("#my-name", "Tab")
    assert host.page.input_value("#my-name") == "Ana"
    host.hide_dialog()
    north.wait_for_function("document.querySelector('.seat-north .name').textContent === 'Ana'")
    guests[2].show_dialog()
    north.fill("#my-name", "Bo")
    north.press("#my-name", "Tab")
    guests[2].hide_dialog()
    host.page.wait_for_function(
        "document.querySelector('.seat-north .name').textContent === 'Bo'")
    assert guests[1].page.inner_text(".seat-west .name") == "Bo"  # West has North at its left
    north.screenshot(path=str(ARTIFACTS / "private-names-north.png"))
    assert north.eval_on_selector_all("#hand [data-card]", "e => e.length") == 13
    assert north.inner_text("#prompt").startswith("Pass 3 cards")
    # The hint during passing: three cards of the guest's own hand.
    west = guests[1].page
    west.click("#hint")
    west.wait_for_function("document.querySelectorAll('#hand .card.hinted').length === 3")
    # The host plays on the felt table too, from its own seat.
    assert host.page.inner_text(".seat-north .name") == "Bo"  # the name North chose
    assert host.page.eval_on_selector_all("#hand [data-card]", "e => e.length") == 13
    pass_three(host)
    host.page.wait_for_function("document.querySelector('#prompt').textContent"
                                " === 'Waiting for West, North and East…'")
    assert host.data("waiting") == "1,2,3"
    pass_three(guests[1])
    west.wait_for_function("document.querySelector('#prompt').textContent"
                           " === 'Waiting for North and East…'")
    # A preset reaction reaches the host.
    west.click("#reactions [data-react='nice']")
    host.page.wait_for_function("document.querySelector('#status').textContent"
                                ".includes('West: Nice one!')")
    for guest in (guests[2], guests[3]):
        pass_three(guest)
    for s in everyone:
        s.wait_data("stage", "play")
        s.page.wait_for_function("document.querySelectorAll('#hand [data-card]').length"
                                 " === 13")
    wait_still(north)
    north.screenshot(path=str(ARTIFACTS / "private-table-guest.png"))
    north.set_viewport_size(PHONE)
    wait_still(north)
    north.screenshot(path=str(ARTIFACTS / "private-table-guest-phone.png"))
    north.set_viewport_size(DESKTOP)

    # On someone's turn a dimmed card is refused with the rules' reason, and H gives a hint.
    checks = {"refused": False, "hint": False}
    play_until_scores(everyone, checks)
    assert checks == {"refused": True, "hint": True}, checks
    for s in everyone:
        s.wait_data("stage", "scores")
        s.page.click("#summary #next-hand")
    for s in everyone:
        s.wait_data("hand", "2")
        s.wait_data("stage", "pass")

    # North drops: after the grace period (2 s here) the computer passes for it.
    guests[2].close()
    host.page.wait_for_function(
        "document.querySelector('#fr-kind-2').textContent === 'the computer plays'",
        timeout=60_000)
    host.page.wait_for_function(
        "!document.querySelector('#friends').dataset.waiting.includes('2')")

    # A new friend takes North back mid-game.
    again = new("guest2-again")
    invite(host, again, 2, again=True)
    again.wait_data("stage", "pass")
    assert again.data("hand") == "2"

    # The host closes the table: every guest is told; each page has its own game back.
    host.show_dialog()
    host.click("#fr-leave")
    for s in (guests[1], guests[3], again):
        s.wait_data("closed", "true")
        assert "Ana closed the table." in s.page.inner_text("#fr-error")
    for s in (host, guests[1]):
        s.page.wait_for_selector("#stat-clock", state="visible")
        assert s.page.is_hidden("#stat-where")
    # West, its table gone, opens one of its own.
    guests[1].hide_dialog()
    guests[1].page.click("#open-table")
    guests[1].page.click("#host-table")
    guests[1].wait_data("role", "host")
    wait_link(guests[1], 3)


RECORDER = """(() => {
  // Every text a data channel of this page receives (window.heardOnWire), and the channels
  // (window.wires), so the test can read what crossed and speak as a changed page would.
  window.heardOnWire = [];
  window.wires = [];
  const desc = Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onmessage");
  Object.defineProperty(RTCDataChannel.prototype, "onmessage", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(handler) {
      window.wires.push(this);
      desc.set.call(this, handler && function (event) {
        window.heardOnWire.push(String(event.data));
        return handler.call(this, event);
      });
    },
  });
})();"""
CARD = re.compile(r'"([2-9TJQKA][CDHS])"')


def say_raw(seat: Seat, *texts: str) -> None:
    """Send ``texts`` on the guest's own data channel, as a changed page could."""
    seat.page.evaluate("texts => { const w = window.wires.at(-1);"
                       " for (const t of texts) w.send(t); }", list(texts))


def heard(seat: Seat) -> list[dict[str, Any]]:
    return [json.loads(t) for t in seat.page.evaluate("window.heardOnWire")]


def refusals_heard(seat: Seat) -> int:
    return sum(1 for m in heard(seat) if m["t"] == "refused")


def host_snapshot(host: Seat) -> tuple[str, ...]:
    """What the host's game looks like: stage, waiting, its hand and every seat's row."""
    return (host.data("stage"), host.data("waiting"), host.page.inner_text("#hand"),
            *host.page.eval_on_selector_all("#table .seat", "els => els.map(e => e.innerText)"))


def refused_by_host(host: Seat, guest: Seat, before_host: int, before_guest: int,
                    more: int) -> None:
    """``more`` new refusals, logged by the host and told to the guest."""
    host.page.wait_for_function(
        "n => Number(document.querySelector('#friends').dataset.refused || 0) >= n",
        arg=before_host + more)
    guest.page.wait_for_function(
        "n => window.heardOnWire.filter(t => JSON.parse(t).t === 'refused').length >= n",
        arg=before_guest + more)


def check_only_own_hand(seat: Seat, number: int) -> int:
    """Every message this guest received shows its own hand and no other hidden card.

    A card may appear only if the seat held it (13 dealt + 3 received at most in a hand) or
    it had been played in public by then (tricks, trick, events). Returns the messages checked.
    """
    messages = heard(seat)
    held: dict[int, set[str]] = {}
    public: set[str] = set()
    for message in messages:
        assert set(message) <= {"v", "t", "stage", "view", "kinds", "waiting", "turn_left",
                                "ready", "last_hand", "events", "reason", "seat", "id", "text",
                                "names", "secret"}
        if message["t"] != "state":
            assert not CARD.search(json.dumps(message)), message
            continue
        view = message["view"]
        assert view["seat"] == number, "a state for another seat"
        mine = held.setdefault(view["hand_number"], set())
        mine |= set(view["hand"]) | set(view["passed"] or []) | set(view["received"] or [])
        own: set[str] = set().union(*held.values())
        for trick in [*view["tricks"], view["trick"]]:
            if trick:
                public.update(trick["cards"])
        for event in message["events"]:
            public.update(CARD.findall(json.dumps(event)))
        cards = set(CARD.findall(json.dumps(message)))
        assert cards <= own | public, f"hidden cards leaked: {sorted(cards - own - public)}"
    for hand, cards in held.items():
        assert len(cards) <= 16, f"seat {number} saw {len(cards)} cards as its own in {hand}"
    return len(messages)


def test_tampered_messages_are_refused_and_no_hand_leaks(people: list[Seat], rtc_browser: Any,
                                                        base_url: str) -> None:
    """A changed guest page speaks on its real data channel: everything wrong is refused and
    logged, the host's game and the other seats carry on; no guest hears another hand."""
    host = Seat(rtc_browser, base_url, "host")
    people.append(host)
    open_host(host)
    guests = {}
    for number in (1, 2):
        guest = Seat(rtc_browser, base_url, f"guest{number}")
        guest.context.add_init_script(RECORDER)
        people.append(guest)
        invite(host, guest, number)
        guests[number] = guest
    west, north = guests[1], guests[2]
    host.click("#fr-begin")
    host.page.wait_for_selector(f"{DIALOG}:not([open])", state="attached")
    for s in (host, west, north):
        s.wait_data("stage", "pass")
    host.page.wait_for_function("document.querySelector('#friends').dataset.waiting"
                                " === '0,1,2'")
    host_cards = host.page.eval_on_selector_all("#hand [data-card]",
                                                "els => els.map(e => e.dataset.card)")
    west_cards = west.page.eval_on_selector_all("#hand [data-card]",
                                                "els => els.map(e => e.dataset.card)")
    before = host_snapshot(host)

    # Passing: another seat's cards, a seat named in the message, a play, a huge message,
    # a pass of cards it doesn't hold, a wrong version, not JSON.
    tampered = [
        json.dumps({"v": 1, "t": "pass", "cards": host_cards[:3]}),
        json.dumps({"v": 1, "t": "pass", "seat": 0, "cards": west_cards[:3]}),
        json.dumps({"v": 1, "t": "play", "card": west_cards[0]}),
        json.dumps({"v": 1, "t": "pass", "cards": west_cards[:2] + host_cards[:1]}),
        json.dumps({"v": 2, "t": "ready"}),
        "x" * 60_000,
        "{not json",
    ]
    say_raw(west, *tampered)
    refused_by_host(host, west, 0, 0, len(tampered))
    assert host_snapshot(host) == before, "the host's game changed"
    assert west.page.eval_on_selector_all("#hand [data-card]", "e => e.length") == 13
    host.show_dialog()  # the log of refusals is with the invites
    log = host.page.text_content("#fr-refusals") or ""
    assert "West: pass refused" in log and "breaks the protocol" in log, log

    # The other seats are unaffected: everyone passes for real.
    host.hide_dialog()
    pass_three(host)
    pass_three(west)
    pass_three(north)
    for s in (host, west, north):
        s.wait_data("stage", "play")

    # Playing: out of turn, a card not held (on its own turn), then a flood.
    done = {"turn": False, "held": False, "flood": False}
    table = [host, west, north]
    for _ in range(60):
        host.page.wait_for_function(
            "() => { const d = document.querySelector('#friends').dataset;"
            " return d.stage !== 'play' || d.waiting !== ''; }", timeout=30_000)
        if host.data("stage") != "play":
            break
        seat = int(host.data("waiting"))
        counted = (int(host.data("refused")), refusals_heard(west))
        if seat != 1 and not done["turn"]:
            snapshot = host_snapshot(host)
            card = west.page.eval_on_selector("#hand [data-card]", "e => e.dataset.card")
            say_raw(west, json.dumps({"v": 1, "t": "play", "card": card}))
            refused_by_host(host, west, *counted, 1)
            assert "not your turn" in heard(west)[-1]["reason"]
            assert host_snapshot(host) == snapshot
            done["turn"] = True
        elif seat == 1 and not done["held"]:
            west.wait_data("turn", "true")
            snapshot = host_snapshot(host)
            mine = set(west.page.eval_on_selector_all("#hand [data-card]",
                                                      "els => els.map(e => e.dataset.card)"))
            other = next(c for c in [*host_cards, "2C", "AS", "KH"] if c not in mine)
            say_raw(west, json.dumps({"v": 1, "t": "play", "card": other}))
            refused_by_host(host, west, *counted, 1)
            assert "not in your hand" in heard(west)[-1]["reason"]
            assert host_snapshot(host) == snapshot
            done["held"] = True
        elif seat == 2 and done["turn"] and not done["flood"]:
            # A flood while North thinks: dropped past the bucket, North plays on.
            say_raw(west, *[json.dumps({"v": 1, "t": "ready"})] * 80)
            host.page.wait_for_function(
                "document.querySelector('#fr-refusals').textContent.includes('too many')")
            refused_by_host(host, west, *counted, 2)  # as many as the bucket held, then one
            assert host.page.inner_text("#fr-kind-1") == "a friend is playing"
            done["flood"] = True
        who = table[seat] if seat < 3 else None
        assert who is not None
        who.wait_data("turn", "true")
        if who is west and done["flood"]:
            west.page.wait_for_timeout(300)  # the bucket refills (4 messages a second)
        play_turn(who)
    else:
        raise AssertionError("the hand did not finish")
    for s in (host, west, north):
        s.wait_data("stage", "scores")
    assert done == {"turn": True, "held": True, "flood": True}, done
    assert west.data("closed") == "false" and north.data("closed") == "false"

    # What crossed the channel: each guest only ever heard its own hand.
    assert check_only_own_hand(west, 1) > 10
    assert check_only_own_hand(north, 2) > 10


def test_host_reload_carries_on_and_guests_rejoin(people: list[Seat], rtc_browser: Any,
                                                  base_url: str) -> None:
    """The host's page reloads mid-hand: the guest is told, the game carries on where it was
    with the computer in the guest's seat, and a new invite brings the guest back."""
    host = Seat(rtc_browser, base_url, "host")
    people.append(host)
    open_host(host)
    guest = Seat(rtc_browser, base_url, "guest")
    people.append(guest)
    invite(host, guest, 1)
    host.click("#fr-begin")
    for s in (host, guest):
        s.wait_data("stage", "pass")
    pass_three(host)
    pass_three(guest)
    for s in (host, guest):
        s.wait_data("stage", "play")
    play_turn_if_waiting = [host, guest]
    for _ in range(3):  # a few cards into the hand
        host.page.wait_for_function("document.querySelector('#friends').dataset.waiting"
                                    " !== ''")
        seat = play_turn_if_waiting[int(host.data("waiting"))]
        seat.wait_data("turn", "true")
        play_turn(seat)
    host.page.wait_for_function("document.querySelector('#friends').dataset.waiting !== ''")
    before = (felt_hand(host), host.data("hand"), host.data("waiting"))
    guest_cards = guest.page.eval_on_selector_all("#hand [data-card]",
                                                  "els => els.map(e => e.dataset.card)")

    host.page.reload()
    guest.wait_data("closed", "true")
    told = guest.page.inner_text("#fr-error")
    # The goodbye goes out as the page unloads; if it is cut off, the lost connection says it.
    assert "closed or reloaded" in told or "connection to the host was lost" in told, told
    host.ready()
    host.page.wait_for_selector(f"{DIALOG}[open]")
    host.wait_data("stage", "play")
    assert host.page.inner_text("#fr-intro").startswith("Your private table is back")
    after = (felt_hand(host), host.data("hand"), host.data("waiting"))
    if before[2] == "0":
        assert after == before, "the game carries on where it was"
    else:  # the computer may already have played West's card
        assert after[1] == before[1]
    host.page.wait_for_function(
        "document.querySelector('#fr-kind-1').textContent.startsWith('invited')")

    # The guest takes its seat back with the new invite, holding the same cards or fewer.
    invite(host, guest, 1)
    host.hide_dialog()
    guest.wait_data("stage", "play")
    back = guest.page.eval_on_selector_all("#hand [data-card]",
                                           "els => els.map(e => e.dataset.card)")
    # Up to two fewer: the computer may have ended a trick for it and, winning it, led the next.
    assert set(back) <= set(guest_cards) and len(back) >= len(guest_cards) - 2
    play_until_scores([host, guest])
    # The hand's summary on the felt table; the host moves on, then closes the table while
    # the guest still reads the summary.
    host.page.click("#summary #next-hand")
    scores = host.page.eval_on_selector_all("#table .seat .score", "els => els.map(e => "
                                            "e.textContent)")
    assert scores != ["0", "0", "0", "0"]
    host.show_dialog()
    host.click("#fr-leave")
    guest.wait_data("closed", "true")

    # The host carries the closed table's game on alone: the next hand on the felt table
    # against the computers, with the scores so far.
    host.click("#fr-solo")
    host.page.wait_for_selector(f"{DIALOG}:not([open])", state="attached")
    host.page.wait_for_function("document.querySelectorAll('#hand [data-card]').length === 13")
    assert host.page.inner_text("#prompt").startswith("Pass 3 cards")
    assert host.page.eval_on_selector_all("#table .seat .score", "els => els.map(e => "
                                          "e.textContent)") == scores
    assert host.page.is_visible("#stat-clock")


def test_host_carries_a_saved_table_on_alone(people: list[Seat], rtc_browser: Any,
                                             base_url: str) -> None:
    """The host's page reopens with its private table saved and carries the game on alone
    against the computers: the same hand on the felt table, kept as the single-player save
    (a reload brings back that game, not the private table)."""
    host = Seat(rtc_browser, base_url, "host")
    people.append(host)
    open_host(host)
    host.click("#fr-begin")  # at once, while the invites are still being made
    host.wait_data("stage", "pass")
    host.page.wait_for_selector(f"{DIALOG}:not([open])", state="attached")
    pass_three(host)
    host.wait_data("stage", "play")
    host.page.reload()
    host.ready()
    host.page.wait_for_selector(f"{DIALOG}[open]")
    host.wait_data("stage", "play")
    # The dialog opens on its title, not on a button that Enter or Space would press.
    assert host.page.evaluate("document.activeElement.id") == "friends-title"
    # Only the host's own plays change its hand: the computers may play on meanwhile.
    cards = felt_hand(host)  # the felt table shows the host's seat behind the dialog
    assert len(cards) == 13

    host.click("#fr-solo")
    host.page.wait_for_selector(f"{DIALOG}:not([open])", state="attached")
    host.page.wait_for_function("n => document.querySelectorAll('#hand [data-card]').length"
                                " === n", arg=len(cards))
    assert felt_hand(host) == cards
    host.page.wait_for_selector("#hand [data-card][aria-disabled='false']")  # South's turn
    assert felt_hand(host) == cards

    host.page.reload()
    host.ready()
    host.page.wait_for_function("n => document.querySelectorAll('#hand [data-card]').length"
                                " === n", arg=len(cards))
    assert felt_hand(host) == cards
    assert not host.page.evaluate(f"document.querySelector('{DIALOG}').open")


def test_invites_opened_in_an_open_tab_or_pasted_and_leaving_after_an_error(
        people: list[Seat], rtc_browser: Any, base_url: str) -> None:
    """An invite link opened in a tab that already shows the game is read at once; a code
    pasted into the dialog works too (a mangled one is refused and changes nothing, a good
    one closes the table that page had just opened); each invite has a QR code. A guest's
    error dialog New game leaves the friend's table for a new game of its own, and the
    computer takes the seat."""
    host = Seat(rtc_browser, base_url, "host")
    people.append(host)
    open_host(host)
    links = {seat: wait_link(host, seat) for seat in (1, 2)}
    qr = host.page.locator(f"{invite_row(1)} .fr-qr svg[role='img']")
    assert qr.get_attribute("aria-label") == "QR code of the invite link for West"
    assert host.page.eval_on_selector(f"{invite_row(1)} .fr-qr svg path",
                                      "p => p.getAttribute('d').length") > 500
    host.click(f"{invite_row(1)} .fr-qr summary")
    assert run_axe(host.page) == [], "the host's dialog, its QR code open"

    # West's tab already shows the game: the link changes only the fragment.
    west = Seat(rtc_browser, base_url, "west")
    west.context.add_init_script(FAULT)
    people.append(west)
    west.page.goto(f"{west.table.origin}/")  # the link's own address, so no reload
    west.ready()
    west.page.evaluate("link => { window.sameDocument = true; location.href = link; }",
                       links[1])
    west.page.wait_for_selector(f"{DIALOG}[open] #fr-join-note", state="visible")
    assert west.page.evaluate("window.sameDocument === true"), "the page reloaded"
    assert "#join" not in west.page.url
    connect(host, west, 1)
    west.page.wait_for_selector(f"{DIALOG}[open]", state="hidden")

    # North had opened a table of its own, then pastes the code it was sent instead.
    north = Seat(rtc_browser, base_url, "north")
    people.append(north)
    open_host(north)
    mangled = links[2][:60] + ("y" if links[2][60] == "x" else "x") + links[2][61:]
    north.page.fill("#fr-paste-code", mangled)
    north.click("#fr-join-button")
    north.page.wait_for_function("document.querySelector('#fr-error').textContent"
                                 ".includes('damaged')")
    assert north.data("role") == "host" and north.page.is_visible(f"{invite_row(1)}")
    north.page.fill("#fr-paste-code", links[2].split("#join=", 1)[1])
    north.click("#fr-join-button")
    north.page.wait_for_selector(f"{DIALOG} #fr-join-note", state="visible")
    assert north.data("role") == "guest" and north.page.is_hidden(f"{invite_row(1)}")
    connect(host, north, 2)
    assert north.page.inner_text("#stat-where").endswith("device sees all hands")

    host.hide_dialog()
    host.page.evaluate(f"document.querySelector('{DIALOG} #fr-begin').click()")
    for s in (host, west, north):
        s.wait_data("stage", "pass")
    north.page.wait_for_selector("#hand [data-card]")
    for s in (host, north):
        assert run_axe(s.page) == [], f"{s.table.name} seated at the private table"

    # West's page meets an error; its New game leaves the table for a game of its own.
    west.page.wait_for_selector("#hand [data-card]")
    west.page.evaluate("window.__faultAfter = 0")
    west.page.click("#hand [data-card]")
    west.page.wait_for_selector("#error-panel[open]")
    west.page.evaluate("delete window.__faultAfter")
    forget_injected(west.table)
    west.page.click("#error-new")
    west.page.wait_for_function("document.querySelectorAll('#hand [data-card]').length === 13")
    assert west.page.inner_text(".seat-south .name") == "You"
    assert west.page.inner_text(".seat-west .name") == "West"  # its own table again
    assert west.page.is_visible("#stat-clock")
    host.page.wait_for_function(
        "document.querySelector('#fr-kind-1').textContent === 'the computer plays'")
    assert north.data("closed") == "false"


# --- "My own TURN server": a real TURN server (coturn) on this machine --------------------

FORCE_RELAY = """(() => {
  // The host's page may only use relayed addresses (as behind a strict firewall), so the
  // table can only work through the TURN server; its connections are kept for getStats().
  const Real = window.__RealPeerConnection = RTCPeerConnection;  // for the probe
  window.__pcs = [];
  window.RTCPeerConnection = function (config) {
    const pc = new Real({ ...(config || {}), iceTransportPolicy: "relay" });
    window.__pcs.push(pc);
    return pc;
  };
  window.RTCPeerConnection.prototype = Real.prototype;
})();"""
NO_STUN = """(() => {
  // The guest would ask Google's STUN server for its public address (the host's invite
  // has a relayed address): not from a test, and nothing here reaches the internet.
  const Real = RTCPeerConnection;
  window.RTCPeerConnection = function (config) {
    return new Real({ ...(config || {}), iceServers: [] });
  };
  window.RTCPeerConnection.prototype = Real.prototype;
})();"""
SELECTED_PAIR = """async () => {
  const types = [];
  for (const pc of window.__pcs) {
    if (pc.connectionState !== "connected") continue;
    const stats = await pc.getStats();
    stats.forEach(s => {
      if (s.type === "transport" && s.selectedCandidatePairId) {
        const pair = stats.get(s.selectedCandidatePairId);
        types.push(stats.get(pair.localCandidateId).candidateType);
      }
    });
  }
  return types;
}"""


def machine_address() -> str:
    """This machine's own IPv4 address, the one its host candidates carry (a relay on the
    loopback address can't reach them). No packet is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            pytest.skip("this machine has no IPv4 address besides the loopback")
        return str(probe.getsockname()[0])


def free_port(address: str) -> int:
    """A port free for both UDP and TCP (TURN listens on both)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.bind((address, 0))
            port = int(udp.getsockname()[1])
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as tcp:
                try:
                    tcp.bind((address, port))
                except OSError:
                    continue
        return port


@pytest.fixture
def turn_server(tmp_path: Any) -> Iterator[tuple[str, str, str]]:
    """coturn on this machine with a user name and password: (URL, user, password)."""
    binary = shutil.which("turnserver")
    if binary is None:
        pytest.skip("coturn isn't installed (make test installs it)")
    address = machine_address()
    port = free_port(address)
    server = subprocess.Popen(
        [binary, "-n", f"--listening-ip={address}", f"--relay-ip={address}",
         f"--listening-port={port}", "--min-port=49200", "--max-port=49400",
         "--lt-cred-mech", "--user=hearts:felt-green", "--realm=hearts.test",
         "--no-tls", "--no-dtls", "--no-cli",
         f"--pidfile={tmp_path / 'turn.pid'}", f"--userdb={tmp_path / 'turn.db'}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 15
        while True:  # ready once it takes TCP connections (it listens on UDP alongside)
            assert server.poll() is None, "turnserver stopped"
            try:
                socket.create_connection((address, port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "turnserver didn't start"
                time.sleep(0.1)
        yield f"turn:{address}:{port}", "hearts", "felt-green"
    finally:
        server.terminate()
        server.wait(10)


def test_a_table_through_my_own_turn_server(people: list[Seat], rtc_browser: Any,
                                            base_url: str,
                                            turn_server: tuple[str, str, str]) -> None:
    """The host picks "my own TURN server" (address, user name, password) and its page may
    use relayed addresses only: the invite carries the relay's address, the guest connects
    through it, and a whole hand is played over the relay."""
    url, user, password = turn_server
    host = Seat(rtc_browser, base_url, "host")
    host.context.add_init_script(FORCE_RELAY)
    people.append(host)
    open_host(host)
    # Without a TURN server a relay-only page has no address to offer: said in words.
    host.page.wait_for_function("document.querySelector('#fr-error').textContent"
                                ".includes('No network address')", timeout=30_000)
    host.page.evaluate("document.querySelector('#fr-settings').open = true")
    host.page.check(f"{DIALOG} input[name='fr-net'][value='turn']")
    host.page.fill("#fr-turn-url", url)
    host.page.fill("#fr-turn-user", user)
    host.page.fill("#fr-turn-pass", password)

    guest = Seat(rtc_browser, base_url, "guest")
    guest.context.add_init_script(NO_STUN)
    people.append(guest)
    invite(host, guest, 1, again=True)
    assert "typ relay" in host.page.evaluate(
        "window.__pcs.map(pc => pc.localDescription && pc.localDescription.sdp).join()")
    host.hide_dialog()
    host.page.evaluate(f"document.querySelector('{DIALOG} #fr-begin').click()")
    for s in (host, guest):
        s.wait_data("stage", "pass")
    pass_three(host)
    pass_three(guest)
    play_until_scores([host, guest])
    guest.wait_data("stage", "scores")
    assert host.page.evaluate(SELECTED_PAIR) == ["relay"], "the table went through the relay"


def last_hand_table() -> str:
    """A saved private table (``hearts.friends-table``) at the deal of hand 16, every seat
    between 97 and 98 points: any hand ends the game (26 points, so someone takes 7 or more),
    and hand 16 passes no cards."""
    from hearts import Game
    from web.p2p.host import HostTable
    from web.p2p.saved import table_json
    rows = [(7, 6, 7, 6)] * 8 + [(6, 7, 6, 7)] * 7
    table = HostTable(Game(2024, history=rows))
    table.started = True
    return table_json(table)


def test_game_over_at_a_private_table_and_the_hosts_new_game(people: list[Seat],
                                                             rtc_browser: Any,
                                                             base_url: str) -> None:
    """The last hand of a game at a private table: its end shows the final summary on the
    host's felt table with New game, which deals a new game for the same table."""
    host = Seat(rtc_browser, base_url, "host")
    people.append(host)
    host.page.goto(f"{host.table.origin}/?speed=instant")
    host.ready()
    host.page.evaluate("text => localStorage.setItem('hearts.friends-table', text)",
                       last_hand_table())
    host.page.reload()
    host.ready()
    host.wait_data("hand", "16")
    host.hide_dialog()
    host.wait_data("stage", "play")
    assert host.page.inner_text("#stat-where") == "Hosting a private table"
    play_until_scores([host])
    host.wait_data("stage", "over")
    host.page.wait_for_selector("#summary[open] #summary-new-game")
    assert host.page.inner_text("#summary-title").startswith("Game over — ")
    assert "New game" in host.page.inner_text("#prompt")
    assert host.page.is_enabled("#new-game")
    host.page.click("#summary-new-game")
    host.wait_data("hand", "1")
    host.wait_data("stage", "pass")
    host.page.wait_for_function("document.querySelectorAll('#hand [data-card]').length === 13")
    assert host.page.is_disabled("#new-game")
    assert host.page.eval_on_selector_all("#table .seat .score",
                                          "els => els.map(e => e.textContent)") == ["0"] * 4
