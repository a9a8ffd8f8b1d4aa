"""A private table in Chromium: a host and three guests, each in its own browser context.

They connect over WebRTC on this machine with codes copied by hand (as people would), pass,
play a whole hand (the host in the dialog, each guest on the felt table from its own seat:
its hand in ``#hand``, dimmed cards refused with the reason, the hint), a guest drops and
the computer takes the seat, a new friend is invited to it, and the host closes the table.
Chromium runs with real IP addresses in its candidates (``WebRtcHideLocalIpsWithMdns`` off)
so nothing depends on mDNS; on a machine where no network address can be gathered at all
the test is skipped, saying so.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import DESKTOP, PHONE, ROOT
from tablepage import TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

WEBRTC_FLAGS = ["--disable-features=WebRtcHideLocalIpsWithMdns"]
PROBE = """async () => {
  const pc = new RTCPeerConnection();
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


class Seat:
    """One person's page: a TablePage (errors, requests) plus the friends dialog."""

    def __init__(self, browser: Any, base_url: str, name: str) -> None:
        self.context = browser.new_context(viewport=DESKTOP, service_workers="block")
        self.table = TablePage(self.context.new_page(), base_url, name)
        self.page = self.table.page
        self.closed = False
        self.guest = False
        """A guest plays on the felt table (``#hand``, ``#pass``); the host in the dialog."""

    def ready(self) -> None:
        self.page.wait_for_selector("html[data-ready='true']", state="attached", timeout=90_000)
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
    seat.page.click("#open-table")  # opens the table at once, with an invite per seat
    seat.wait_data("stage", "lobby")


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
    if again:
        old = host.page.input_value(f"{row} .invite-link")
        host.click(f"{row} [data-act='invite']")
        link = wait_link(host, seat, old, stale)
    else:
        link = wait_link(host, seat, "", stale)
    code = link.split("#join=", 1)[1]
    assert len(code) <= 160, code
    CODES["invite"].append(len(code))
    guest.page.goto(link)
    guest.ready()
    guest.page.wait_for_selector(f"{DIALOG}[open] #fr-join-note", state="visible")
    assert "#join" not in guest.page.url, "the code stays out of the address bar"
    guest.page.wait_for_function("document.querySelector('#answer-code').value.length > 20",
                                 timeout=30_000)
    answer = guest.page.input_value("#answer-code")
    assert len(answer) <= 140, answer
    CODES["answer"].append(len(answer))
    host.page.fill(f"{row} .answer", answer)
    started = time.monotonic()
    host.click(f"{row} .connect")
    guest.wait_data("connected", "true")
    took = time.monotonic() - started
    CODES["connect"].append(took)
    guest.wait_data("connected", "true")
    host.page.wait_for_function(
        f"document.querySelector('#fr-kind-{seat}').textContent === 'a friend is playing'")
    assert guest.data("seat") == str(seat)
    guest.guest = True
    guest.page.wait_for_selector(f"{DIALOG}[open]", state="hidden")
    return took


def pass_three(seat: Seat) -> None:
    if seat.guest:
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
        return
    cards = seat.page.eval_on_selector_all(
        "#fr-hand [data-card]", "els => els.slice(0, 3).map(e => e.dataset.card)")
    for card in cards:
        seat.click(f"#fr-hand [data-card='{card}']")
    seat.click("#fr-pass")
    seat.page.wait_for_selector("#fr-pass", state="hidden")


def play_turn(seat: Seat) -> None:
    if seat.guest:
        page = seat.page
        before = page.eval_on_selector_all("#hand [data-card]", "els => els.length")
        page.click("#hand [data-card][aria-disabled='false']")
        page.wait_for_function(
            "n => document.querySelectorAll('#hand [data-card]').length < n"
            " || document.querySelector('#friends').dataset.stage !== 'play'", arg=before)
        return
    before = seat.page.eval_on_selector_all("#fr-hand [data-card]", "els => els.length")
    seat.click("#fr-hand [data-card][aria-disabled='false']")
    try:
        seat.page.wait_for_function(
            "n => document.querySelectorAll('#fr-hand [data-card]').length < n"
            " || document.querySelector('#friends').dataset.stage !== 'play'", arg=before)
    except Exception as error:
        raise AssertionError(f"{seat.table.name}: {seat.page.inner_text('#fr-prompt')!r} "
                             f"{seat.page.inner_text('#fr-stage')!r} {seat.data('waiting')}"
                             ) from error


def refuse_dimmed(seat: Seat) -> bool:
    """On a guest's turn, a dimmed card is refused with the reason its name gives."""
    page = seat.page
    dimmed = page.eval_on_selector_all(
        "#hand .card.dim[aria-disabled='true']",
        "els => els.map(e => [e.dataset.card, e.querySelector('.sr-only').textContent])")
    if not dimmed:
        return False
    card, label = dimmed[0]
    reason = label.split("can't play: ", 1)[1].rstrip(".")
    page.click(f"#hand [data-card='{card}']", force=True)
    page.wait_for_function("r => document.querySelector('#alert').textContent.toLowerCase()"
                           ".includes(r.toLowerCase())", arg=reason)
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
        if seat.guest and "refused" in checks and not checks["refused"]:
            checks["refused"] = refuse_dimmed(seat)
        if seat.guest and "hint" in checks and not checks["hint"]:
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
    assert north.inner_text(".seat-north .name") == "South (host)"
    assert north.get_attribute(".seat-west", "data-seat") == "3"
    assert north.eval_on_selector_all("#hand [data-card]", "e => e.length") == 13
    assert north.inner_text("#prompt").startswith("Pass 3 cards")
    # The hint during passing: three cards of the guest's own hand.
    west = guests[1].page
    west.click("#hint")
    west.wait_for_function("document.querySelectorAll('#hand .card.hinted').length === 3")
    pass_three(host)
    host.page.wait_for_function(
        "document.querySelector('#fr-stage').textContent.startsWith('Waiting for')")
    assert host.data("waiting") == "1,2,3"
    pass_three(guests[1])
    west.wait_for_function("document.querySelector('#prompt').textContent"
                           " === 'Waiting for North and East…'")
    # A preset reaction reaches the host.
    west.click("#reactions [data-react='nice']")
    host.page.wait_for_function("document.querySelector('#fr-log').textContent"
                                ".includes('Nice one!')")
    for guest in (guests[2], guests[3]):
        pass_three(guest)
    for s in everyone:
        s.wait_data("stage", "play")
        hand = "#hand" if s.guest else "#fr-hand"
        s.page.wait_for_function(f"document.querySelectorAll('{hand} [data-card]').length"
                                 " === 13")
    north.screenshot(path=str(ARTIFACTS / "private-table-guest.png"))
    north.set_viewport_size(PHONE)
    north.screenshot(path=str(ARTIFACTS / "private-table-guest-phone.png"))
    north.set_viewport_size(DESKTOP)

    # A dimmed card is refused: by the host's engine in the host's dialog, on the felt
    # table with the rules' reason for a guest.
    leader = next(s for s in everyone if s.data("turn") == "true")
    if not leader.guest:
        dimmed = leader.page.eval_on_selector_all(
            "#fr-hand [data-card][aria-disabled='true']", "els => els.map(e => e.dataset.card)")
        leader.click(f"#fr-hand [data-card='{dimmed[0]}']", force=True)
        leader.page.wait_for_function("document.querySelector('#fr-prompt').textContent"
                                      ".includes('2')")

    checks = {"refused": False, "hint": False}
    play_until_scores(everyone, checks)
    assert checks == {"refused": True, "hint": True}, checks
    for s in everyone:
        s.wait_data("stage", "scores")
        if s.guest:
            s.page.click("#summary #next-hand")
        else:
            s.click("#fr-ready")
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

    # The host closes the table: every guest is told.
    host.click("#fr-leave")
    for s in (guests[1], guests[3], again):
        s.wait_data("closed", "true")
        assert "The host closed the table." in s.page.inner_text("#fr-error")
