"""A private table in Chromium: a host and three guests, each in its own browser context.

They connect over WebRTC on this machine with codes copied by hand (as people would), pass,
play a whole hand, a guest drops and the computer takes the seat, a new friend is invited
to it, and the host closes the table. Chromium runs with real IP addresses in its
candidates (``WebRtcHideLocalIpsWithMdns`` off) so nothing depends on mDNS; on a machine
where no network address can be gathered at all the test is skipped, saying so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import DESKTOP
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

    def ready(self) -> None:
        self.page.wait_for_selector("html[data-ready='true']", state="attached", timeout=90_000)
        self.page.wait_for_selector("#friends-button:not([disabled])", timeout=30_000)

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
    seat.page.click("#friends-button")
    seat.click("[data-act='host']")
    seat.wait_data("stage", "lobby")


def invite(host: Seat, guest: Seat, seat: int) -> None:
    """The host invites ``seat``; the guest opens the link and answers; the host lets in."""
    old = host.page.input_value(f"#fr-link-{seat}")
    host.click(f"#fr-invite-{seat}")
    host.page.wait_for_function(
        f"old => document.querySelector('#fr-link-{seat}').value !== old"
        f" || document.querySelector('#fr-error').textContent !== ''", arg=old, timeout=30_000)
    error = host.page.inner_text("#fr-error")
    if "No network address" in error:
        pytest.skip(f"no ICE candidate on this machine: {error}")
    assert not error, error
    link = host.page.input_value(f"#fr-link-{seat}")
    code = link.split("#join=", 1)[1]
    assert len(code) <= 160, code
    guest.page.goto(link)
    guest.ready()
    guest.page.wait_for_selector(f"{DIALOG}[open] #fr-make-answer", state="visible")
    assert "#join" not in guest.page.url, "the code stays out of the address bar"
    guest.click("#fr-make-answer")
    guest.page.wait_for_function("document.querySelector('#fr-answer').value.length > 20",
                                 timeout=30_000)
    answer = guest.page.input_value("#fr-answer")
    assert len(answer) <= 140, answer
    host.page.fill(f"#fr-code-{seat}", answer)
    host.click(f"#fr-letin-{seat}")
    guest.wait_data("connected", "true")
    host.page.wait_for_function(
        f"document.querySelector('#fr-kind-{seat}').textContent === 'a friend is playing'")
    assert guest.data("seat") == str(seat)


def pass_three(seat: Seat) -> None:
    cards = seat.page.eval_on_selector_all(
        "#fr-hand [data-card]", "els => els.slice(0, 3).map(e => e.dataset.card)")
    for card in cards:
        seat.click(f"#fr-hand [data-card='{card}']")
    seat.click("#fr-pass")
    seat.page.wait_for_selector("#fr-pass", state="hidden")


def play_turn(seat: Seat) -> None:
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


def play_until_scores(table: list[Seat]) -> None:
    """Each person plays a legal card when the host waits for them, until the hand is scored."""
    host = table[0]
    for _ in range(60):
        host.page.wait_for_function(
            "() => { const d = document.querySelector('#friends').dataset;"
            " return d.stage !== 'play' || d.waiting !== ''; }", timeout=30_000)
        if host.data("stage") != "play":
            return
        seat = table[int(host.data("waiting"))]
        seat.wait_data("turn", "true")
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
    host.click("#fr-invite-1")
    host.page.wait_for_function("document.querySelector('#fr-link-1').value !== ''"
                                " || document.querySelector('#fr-error').textContent !== ''")
    host.page.fill("#fr-code-1", "not-a-real-code!")
    host.page.wait_for_function("document.querySelector('#fr-kind-1').textContent"
                                ".startsWith('invited')")
    host.click("#fr-letin-1")
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
    pass_three(host)
    host.page.wait_for_function(
        "document.querySelector('#fr-stage').textContent.startsWith('Waiting for')")
    assert host.data("waiting") == "1,2,3"
    for guest in guests.values():
        pass_three(guest)
    for s in everyone:
        s.wait_data("stage", "play")
        assert len(s.page.eval_on_selector_all("#fr-hand [data-card]", "e => e")) == 13

    # A dimmed card is refused by the host with the engine's reason.
    leader = next(s for s in everyone if s.data("turn") == "true")
    dimmed = leader.page.eval_on_selector_all(
        "#fr-hand [data-card][aria-disabled='true']", "els => els.map(e => e.dataset.card)")
    leader.click(f"#fr-hand [data-card='{dimmed[0]}']", force=True)
    leader.page.wait_for_function("document.querySelector('#fr-prompt').textContent"
                                  ".includes('2')")

    play_until_scores(everyone)
    for s in everyone:
        s.wait_data("stage", "scores")
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
    invite(host, again, 2)
    again.wait_data("stage", "pass")
    assert again.data("hand") == "2"

    # The host closes the table: every guest is told.
    host.click("#fr-leave")
    for s in (guests[1], guests[3], again):
        s.wait_data("closed", "true")
        assert "The host closed the table." in s.page.inner_text("#fr-error")
