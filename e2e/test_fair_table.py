"""Fair tables in Chromium: four pages press Play online (through the local relay of
``test_table_by_code``) and sit at a fair table, where no page can see another's cards.

A whole hand: the four pages deal among themselves, pass, play every card (each checked at
once by the three other pages) and audit the hand at its end; the timings each page
measured (its share of the deal, each check of another page's card, the audit) are read
from its console and printed. Then one page is opened with ``?cheat=NAME`` (honoured only
with a local ``ws://`` relay; ``web/p2p/fair/cheats.py``): it doesn't follow suit, sends a
short or stacked deck, passes cards other than those it chose, or plays a card it wasn't
dealt. Every other page names it, and how, and the table closes.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import ViewportSize
from tablepage import ARTIFACTS
from test_private_table import DIALOG, Seat, keep_alerts, wait_alert
from test_table_by_code import relay  # noqa: F401  (the local relay, a fixture)

from web import words
from web.p2p.fair.transcript import Cheat, Fault

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(400)]
LINE = re.compile(r"Hearts fair table: hand (\d+), seat (\d), (\w+); deal (\S+) ms; "
                  r"checks (\d+), mean (\S+) ms, max (\S+) ms; audit (\S+) ms")
FIGURES: dict[str, list[float]] = {"seated and dealt (wall)": [], "deal (a page's part)": [],
                                   "check mean": [], "check max": [], "audit": [],
                                   "longest task, Play online to the cards": [],
                                   "longest task, the cards to the verdict": []}
LONG_TASKS = """() => {
  window.__fairLong = [];
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) window.__fairLong.push(entry.duration);
  }).observe({type: "longtask"});
}"""
"""From Play online on, the page's main-thread tasks over 50 ms (Long Tasks API)."""
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
"""Two frames: the page laid out again at a new size (then a screenshot shows it)."""
PHONE: ViewportSize = {"width": 390, "height": 844}
SMALL: ViewportSize = {"width": 320, "height": 640}
DESKTOP: ViewportSize = {"width": 1440, "height": 900}


@pytest.fixture(scope="module", autouse=True)
def figures() -> Iterator[None]:
    yield
    for name, values in FIGURES.items():
        if values:
            print(f"\nfair table, {name}: median {statistics.median(values):.1f}, "
                  f"max {max(values):.1f} over {len(values)}"
                  f" ({'s' if 'wall' in name else 'ms'})")


@pytest.fixture
def pages(browser: Any, base_url: str) -> Iterator[list[Seat]]:
    made = [Seat(browser, base_url, f"fair-{n}") for n in range(4)]
    yield made
    for seat in made:
        seat.close()


def _console(seat: Seat) -> list[str]:
    lines: list[str] = []
    seat.page.on("console", lambda message: lines.append(message.text)
                 if "Hearts fair table:" in message.text else None)
    return lines


def _state(seat: Seat) -> str:
    return str(seat.page.evaluate("document.documentElement.dataset.state || ''"))


def _sit(pages: list[Seat], relay_url: str, cheat: tuple[int, str] | None = None,
         dealt: bool = True, query: str = "") -> list[list[str]]:
    """The pages press Play online and sit at a fair table (fewer than four: once the
    lobby's wait is over, with computers; ``cheat``: the page at that index is opened with
    ``?cheat=NAME``); with ``dealt``, the cards are dealt too."""
    logs = [_console(seat) for seat in pages]
    people = len(pages)
    for n, seat in enumerate(pages):
        extra = query + (f"&cheat={cheat[1]}" if cheat is not None and n == cheat[0] else "")
        if people < 4:
            extra += "&wait=4"
        seat.page.goto(f"{seat.table.origin}/?speed=instant&relay={relay_url}{extra}",
                       wait_until="commit")  # the four start side by side
    for seat in pages:
        seat.ready()
        seat.page.evaluate(LONG_TASKS)
    started = time.monotonic()
    for seat in pages:
        seat.page.click("#play-online")
    if not dealt:
        return logs
    for seat in pages:
        seat.page.wait_for_function(
            "n => document.querySelector('#table').dataset.people === n"
            " && document.documentElement.dataset.state === 'pass'", arg=str(people),
            timeout=90_000)
    if people == 4:
        FIGURES["seated and dealt (wall)"].append(time.monotonic() - started)
    for seat in pages:
        assert seat.data("role") == "fair"
        assert words.FAIR_KIND in seat.page.inner_text("#stat-where")
    return logs


def _checked(seat: Seat, timeout: float) -> None:
    """Until the page says every device checked the hand (its audit passed)."""
    seat.page.wait_for_function(
        "document.querySelector('#prompt').textContent.includes('checked this hand')",
        timeout=timeout)


def _play_hand(pages: list[Seat], shot: str = "", cards: int = 52) -> None:
    """Each person passes three cards, then plays whenever their page lets them (``shot``:
    screenshots of a page once six cards are played; ``cards``: stop once the people
    played that many)."""
    for seat in pages:
        for card in seat.table.hand()[:3]:
            seat.table.click_card(card)
        seat.page.click("#pass")
    _play_on(pages, shot, cards)


def _play_on(pages: list[Seat], shot: str = "", cards: int = 52) -> None:
    """Each person plays whenever their page lets them, to the hand's end (or ``cards``)."""
    played = 0
    until = time.monotonic() + 180
    while time.monotonic() < until:
        states = [_state(seat) for seat in pages]
        if all(s in ("summary", "over") for s in states) or any(
                seat.data("closed") == "true" for seat in pages):
            return
        mover = next((seat for seat, s in zip(pages, states, strict=True) if s == "play"),
                     None)
        playable = mover.table.playable() if mover is not None else []
        if mover is None or not playable:
            pages[0].page.wait_for_timeout(100)
            continue
        before = len(mover.table.hand())
        mover.table.click_card(playable[0])
        mover.page.wait_for_function(
            "n => document.querySelectorAll('#hand [data-card]').length < n", arg=before,
            timeout=20_000)
        played += 1
        if shot and played == 6:
            _shoot(mover, shot)
        if played >= cards:
            return
    raise AssertionError("the hand did not finish")


def _figures(logs: list[list[str]]) -> list[re.Match[str]]:
    found = [m for lines in logs for m in map(LINE.search, lines) if m]
    for m in found:
        FIGURES["deal (a page's part)"].append(float(m[4]))
        if int(m[5]):
            FIGURES["check mean"].append(float(m[6]))
            FIGURES["check max"].append(float(m[7]))
        if m[8] != "-":
            FIGURES["audit"].append(float(m[8]))
    return found


def _shoot(seat: Seat, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone"), (SMALL, "small")):
        seat.page.set_viewport_size(size)
        seat.page.evaluate(FRAMES)
        seat.page.screenshot(path=str(ARTIFACTS / f"fair-{name}-{label}.png"))
    seat.page.set_viewport_size(DESKTOP)


def test_four_pages_play_a_fair_hand_to_the_end_and_every_audit_passes(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    logs = _sit(pages, relay)
    for seat in pages:
        FIGURES["longest task, Play online to the cards"].append(
            float(seat.page.evaluate("Math.max(0, ...window.__fairLong)")))
        seat.page.evaluate("window.__fairLong = []")
    hands = [set(seat.table.hand()) for seat in pages]
    assert len(set().union(*hands)) == 52  # four hands of 13, each on one page only
    _shoot(pages[0], "pass")
    pages[3].show_dialog()  # the dialog says what kind of table this is, and offers Leave
    assert "This is a fair table" in pages[3].page.inner_text(f"{DIALOG} #fr-intro")
    assert pages[3].page.is_visible(f"{DIALOG} #fr-leave")
    _shoot(pages[3], "dialog")
    pages[3].hide_dialog()
    _play_hand(pages, shot="play")
    for seat in pages:
        _checked(seat, timeout=30_000)
        assert _state(seat) == "summary" and seat.data("role") == "fair"
    _shoot(pages[1], "audited")
    for lines in logs:
        assert any("scored" in line for line in lines), lines
    found = _figures(logs)
    assert len(found) == 4 and all(int(m[5]) == 39 for m in found)  # 3 × 13 cards checked
    for seat in pages:
        FIGURES["longest task, the cards to the verdict"].append(
            float(seat.page.evaluate("Math.max(0, ...window.__fairLong)")))
    for seat in pages:
        assert not seat.table.errors, seat.table.errors
        origin = seat.table.origin  # (a blob: URL of the page's own is not a request out)
        assert [u for u in seat.table.requests
                if not u.startswith((origin, "blob:" + origin))] == []


def _with_computers(seated: list[Seat]) -> None:
    """Fewer than four people: each page shows its own 13 cards only (and never the
    computer's it plays), the others' seats as computers, and its dialog says so."""
    people = len(seated)
    hands = [set(seat.table.hand()) for seat in seated]
    assert all(len(hand) == 13 for hand in hands)
    assert len(set().union(*hands)) == 13 * people  # no card shown on two pages
    for seat in seated:
        names = seat.page.eval_on_selector_all("#table .seat .name",
                                               "els => els.map(e => e.textContent)")
        assert sum("(computer)" in name for name in names) == 4 - people, names
    seated[0].show_dialog()
    intro = seated[0].page.inner_text(f"{DIALOG} #fr-intro")
    assert "This is a fair table" in intro and "plays on" in intro, intro
    _shoot(seated[0], f"computers-{people}-dialog")
    seated[0].hide_dialog()
    _shoot(seated[-1], f"computers-{people}-pass")


def _audited_with_computers(seated: list[Seat], logs: list[list[str]]) -> None:
    """The hand played out with computers: every page audits it, having checked each of
    the 39 cards the others played."""
    for seat in seated:  # the audit of two pages on a shared machine
        _checked(seat, timeout=90_000)
        assert _state(seat) == "summary"
    found = _figures(logs)
    assert len(found) == len(seated) and all(int(m[5]) == 39 for m in found)
    for seat in seated:
        assert not seat.table.errors, seat.table.errors


def test_three_people_play_a_fair_hand_with_a_computer_their_pages_play(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    """Three people and a computer: each page shows its own 13 cards only, the computer
    moves, every page audits the hand. (Two people and two computers: in the test of
    names and reloads, which sits two people down anyway.)"""
    seated = pages[:3]
    logs = _sit(seated, relay)
    _with_computers(seated)
    _play_hand(seated)
    _audited_with_computers(seated, logs)


def test_a_page_that_leaves_mid_hand_is_replaced_by_a_computer_and_the_others_play_on(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    """Three people and a computer; one closes its tab once the cards are passed. The two
    others draw again once its seat's wait (``?grace=3``) is over: a computer takes the
    seat of the page gone, the hand it left counts as far as it went (every point on its
    seat, none taken yet), and they play the next hand to its audit."""
    seated = pages[:3]
    _sit(seated, relay, query="&grace=3")  # the seat of the page gone waits 3 s, not 20
    for seat in seated:
        keep_alerts(seat.page)
        for card in seat.table.hand()[:3]:
            seat.table.click_card(card)
        seat.page.click("#pass")
    staying = seated[:2]
    for seat in staying:
        seat.page.wait_for_function(
            "document.documentElement.dataset.state !== 'pass'", timeout=60_000)
    seated[2].close()
    for seat in staying:
        wait_alert(seat.page, "counts as far as it went", timeout=60_000, news=True)
        seat.page.wait_for_function(
            "document.querySelector('#table').dataset.people === '2'"
            " && document.documentElement.dataset.state === 'pass'", timeout=90_000)
        assert seat.data("role") == "fair" and len(seat.table.hand()) == 13
        names = seat.page.eval_on_selector_all("#table .seat .name",
                                               "els => els.map(e => e.textContent)")
        assert sum("(computer)" in name for name in names) == 2, names
    _shoot(staying[0], "handed-over")
    _play_hand(staying)
    for seat in staying:
        _checked(seat, timeout=30_000)
        assert not seat.table.errors, seat.table.errors


@pytest.mark.parametrize(("cheat", "said"), [
    ("seat0", "broke the draw"),                 # it would choose its seat and computer
    ("readcards", "changed the deck while shuffling"),  # it would read others' cards
])
def test_at_two_people_a_page_that_would_steer_the_draw_or_read_cards_is_refused(
        pages: list[Seat], relay: str, cheat: str, said: str) -> None:  # noqa: F811
    seated = pages[:2]
    _sit(seated, relay, cheat=(1, cheat), dealt=False)
    honest = seated[0]
    honest.wait_data("closed", "true", timeout=90_000)
    text = honest.page.inner_text(f"{DIALOG} #fr-fair-closed")
    assert said in text, text
    assert honest.page.locator("#hand [data-card]").count() in (0, 13)
    assert not honest.table.errors, honest.table.errors


def test_a_page_that_revokes_is_named_at_every_other_page(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    logs = _sit(pages, relay, cheat=(2, "revoke"))
    _play_hand(pages)
    for n, seat in enumerate(pages):
        seat.wait_data("closed", "true", timeout=60_000)
        text = seat.page.inner_text(f"{DIALOG} #fr-fair-closed")
        assert "cheated" in text and "all 26 points of this hand" in text, text  # charged
        assert text.startswith("You cheated") == (n == 2), text
    _shoot(pages[0], "cheat-named")
    _figures(logs)
    for seat in pages:
        assert not seat.table.errors, seat.table.errors


def test_a_page_that_plays_its_computer_its_own_way_is_named_and_charged(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    """Two people and two computers; ``?cheat=steer``: the page plays the computer it was
    given by the highest card it may, not as the hard player would. Every card is one the
    computer holds and may play, but the honest page replays the bot, seeded by the table,
    and names the cheat's page, which takes the hand's 26 points."""
    seated = pages[:2]
    _sit(seated, relay, cheat=(1, "steer"))
    _play_hand(seated)
    honest = seated[0]
    honest.wait_data("closed", "true", timeout=120_000)
    text = honest.page.inner_text(f"{DIALOG} #fr-fair-closed")
    what = words.fault_text(Fault(0, Cheat.STEERED), 1).split(" cheated: ", 1)[1]
    assert f" cheated: {what}" in text and "all 26 points of that hand" in text, text
    assert not text.startswith("You"), text
    _shoot(honest, "cheat-steered")
    assert not honest.table.errors, honest.table.errors


@pytest.mark.parametrize(("cheat", "kind"), [
    ("short", Cheat.BAD_DECK),       # caught on arrival, before anyone sees a card
    ("readcards", Cheat.SHUFFLE),    # a tagged slot to read cards: its shuffle proof fails
    ("falsepass", Cheat.FALSE_PASS),  # the cards passed don't open for the receiver
    ("undealt", Cheat.NOT_DEALT),    # caught on arrival, at the page's first card
    ("marked", Cheat.MARKED),        # non-residues to follow the point cards: on arrival
    # after the cards: a false digest and true evidence to two pages, nothing to the third.
    # Out of the default run: it failed once in eleven runs, cause not yet seen (the same
    # attack through the page's own code runs by default in tests/test_fair_session.py).
    pytest.param("framethird", Cheat.FALSE_DIGEST, marks=pytest.mark.slow),
])
def test_a_page_that_cheats_at_the_deal_is_named_at_every_other_page(
        pages: list[Seat], relay: str, cheat: str, kind: Cheat) -> None:  # noqa: F811
    """A page changed to cheat (``web.p2p.fair.cheats``): the three others name it and how;
    caught before anyone holds cards, the hand doesn't count, and once the cards are dealt
    the cheat takes all 26 points of it (stopping a hand never pays)."""
    at_once = cheat in ("short", "readcards", "marked")  # before anyone has 13 cards
    _sit(pages, relay, cheat=(2, cheat), dealt=not at_once)
    if not at_once:
        _play_hand(pages)
    what = words.fault_text(Fault(0, kind), 1).split(" cheated: ", 1)[1]
    for seat in pages[:2] + pages[3:]:
        seat.wait_data("closed", "true", timeout=60_000)
        text = seat.page.inner_text(f"{DIALOG} #fr-fair-closed")
        assert f" cheated: {what}" in text and not text.startswith("You"), text
        assert ("doesn't count" if at_once else "all 26 points") in text, text
    if cheat == "readcards":
        _shoot(pages[0], "cheat-readcards")
    for seat in pages:
        assert not seat.table.errors, seat.table.errors


# Out of the default run for time (it waits out a turn and 30 s): the same attack in both
# orders of the pages' timers is in the unit tests
# (test_fair_table.py::test_a_liar_that_closes_before_the_others_timers_is_still_named).
@pytest.mark.slow
def test_a_page_that_lies_in_its_echo_is_named_and_no_page_shows_its_keys(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    """``?cheat=falseecho``: at the hand's end it says it saw other messages than it did.
    No other page shows its keys; each sends its evidence, and once the table has waited
    a turn and 30 s for the liar's, every other page names it."""
    logs = _sit(pages, relay, cheat=(2, "falseecho"))
    _play_hand(pages)
    what = words.fault_text(Fault(0, Cheat.NO_EVIDENCE), 1).split(" cheated: ", 1)[1]
    for seat in pages[:2] + pages[3:]:
        seat.wait_data("closed", "true", timeout=150_000)
        text = seat.page.inner_text(f"{DIALOG} #fr-fair-closed")
        assert f" cheated: {what}" in text and not text.startswith("You"), text
    for lines in logs:
        assert not any("scored" in line for line in lines), lines
    for seat in pages:
        assert not seat.table.errors, seat.table.errors


def test_a_page_that_keeps_its_keys_after_losing_a_hand_is_named_and_charged(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    """``?cheat=keepkeys``: once the hand is played out it keeps its keys, so that the hand
    it lost won't count. The digests agree and every page relayed them to it: once the
    table has waited a turn (15 s here: ``?turn=15``, still a wide margin for the test's
    own moves) and 30 s, every other page names it and it takes the 26 points."""
    _sit(pages[:2], relay, cheat=(1, "keepkeys"), query="&turn=15")  # waits 15 + 30 s, not 60
    _play_hand(pages[:2])
    honest = pages[0]
    honest.wait_data("closed", "true", timeout=150_000)
    text = honest.page.inner_text(f"{DIALOG} #fr-fair-closed")
    what = words.fault_text(Fault(0, Cheat.NO_KEYS), 1).split(" cheated: ", 1)[1]
    assert f" cheated: {what}" in text and "all 26 points of this hand" in text, text
    _shoot(honest, "cheat-keepkeys")
    assert not honest.table.errors, honest.table.errors


def _my_seat(seat: Seat) -> str:
    """The seat of the page's own person: the plate that says "You"."""
    return str(seat.page.evaluate(
        "[...document.querySelectorAll('#table .seat[data-seat]')]"
        ".find(e => e.querySelector('.name').textContent === 'You').dataset.seat"))


def _plates(seat: Seat) -> list[str]:
    return list(seat.page.eval_on_selector_all("#table .seat .name",
                                               "els => els.map(e => e.textContent)"))


def test_two_people_see_names_a_reload_takes_its_seat_back_and_whoever_stays_plays_on(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    """Bob and Carol chose names: each page shows the other's on its plate; two computers
    sit with them (each page shows its own 13 cards only, and never the computer's it
    plays). They play a hand, and both pages audit it; Carol reloads her tab: her plate
    shows away at Bob's, Back to your table seats her
    again at her seat with the scores as they were. Then Carol leaves at the next hand's
    pass: it counts, the rest of its points on her seat, and Bob's page carries the game on
    against the computers, and his pass goes on."""
    seated = pages[:2]
    for seat, name in zip(seated, ("Bob", "Carol"), strict=True):
        seat.context.add_init_script(f"localStorage.setItem('hearts.name', '{name}')")
    logs = _sit(seated, relay, query="&grace=45")  # (below the 60 s a stalled table waits)
    bob, carol = seated
    for seat, other in ((bob, "Carol"), (carol, "Bob")):
        seat.page.wait_for_function(
            "n => [...document.querySelectorAll('#table .seat .name')]"
            ".some(e => e.textContent === n)", arg=other, timeout=30_000)
        plates = _plates(seat)
        assert "You" in plates and sum("(computer)" in p for p in plates) == 2, plates
    _shoot(bob, "names")
    _with_computers(seated)
    _play_hand(seated)
    _audited_with_computers(seated, logs)
    mine, hers = int(_my_seat(bob)), _my_seat(carol)
    before = bob.table.scores()
    assert sum(before) in (26, 78)
    # Carol reloads: her seat waits for her, shown away, and she takes it back.
    carol.page.reload(wait_until="commit")
    bob.page.wait_for_selector(f'#table .seat[data-seat="{hers}"][data-away="true"]',
                               state="attached", timeout=30_000)
    _shoot(bob, "away")
    carol.ready()
    carol.page.wait_for_selector("#rejoin", state="visible", timeout=30_000)
    keep_alerts(carol.page)
    carol.page.click("#rejoin")
    for seat in seated:
        seat.page.wait_for_function(
            "document.querySelector('#table').dataset.people === '2'"
            " && document.documentElement.dataset.state === 'pass'", timeout=90_000)
        assert seat.data("role") == "fair"
        assert seat.table.scores() == before and len(seat.table.hand()) == 13
    assert _my_seat(carol) == hers
    wait_alert(carol.page, "back at your seat", news=True)
    assert not bob.page.query_selector('#table .seat[data-away="true"]')
    bob.page.wait_for_function(
        "[...document.querySelectorAll('#table .seat .name')]"
        ".some(e => e.textContent === 'Carol')", timeout=30_000)
    _shoot(carol, "back")
    # Carol leaves the table: Bob carries the game on against the computers. (A tab that
    # vanishes goes the same way once its grace is over: tests/test_people_walk.py.)
    keep_alerts(bob.page)
    carol.show_dialog()
    carol.click("#fr-leave")
    wait_alert(bob.page, "Carol left the table", timeout=60_000, news=True)
    bob.wait_data("role", "host", timeout=30_000)
    bob.page.wait_for_function("document.documentElement.dataset.state === 'pass'",
                               timeout=30_000)
    after = bob.table.scores()
    # she left hand 2 at its pass, dealt: it counts as far as it went, no point taken yet,
    # so 25 on her seat and the one only a moon shot could add on the next player's
    charge = [25 if s == int(hers) else int(s == (int(hers) + 1) % 4) for s in range(4)]
    expect = [b + c for b, c in zip(before, charge, strict=True)]
    assert after[0] == expect[mine] and sorted(after) == sorted(expect)  # turned to South
    assert len(bob.table.hand()) == 13
    _shoot(bob, "carried-on")
    bob.table.pass_cards()
    bob.page.wait_for_function("document.documentElement.dataset.state !== 'pass'",
                               timeout=30_000)
    # (WebRTC's own report of the connection the closed tab aborted is no error of ours)
    errors = [e for e in bob.table.errors if "User-Initiated Abort" not in e]
    assert not errors, errors


def test_a_reload_back_after_the_other_went_on_alone_sits_down_anew(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    """Two people; Carol's tab reloads and she comes back after her seat's wait (3 s here)
    ran out, when Bob already plays on alone against the computers: Back to your table is
    answered at once, and she waits to sit down again with him at his next hand, told so
    in plain words (not a table closed on her)."""
    seated = pages[:2]
    _sit(seated, relay, query="&grace=3")
    bob, carol = seated
    carol.page.reload(wait_until="commit")
    bob.wait_data("role", "host", timeout=30_000)  # alone against the computers now
    carol.ready()
    carol.page.wait_for_selector("#rejoin", state="visible", timeout=30_000)
    carol.page.click("#rejoin")
    intro = carol.page.locator(f"{DIALOG} #fr-intro")
    intro.filter(has_text=words.FAIR_BACK_AGAIN).wait_for(timeout=30_000)
    assert carol.data("role") == "fair" and carol.data("closed") != "true"
    # in the table's room again, as a newcomer (off the lobby, where her page offered the
    # seats of the table it sat at for a moment)
    carol.page.wait_for_function("window.heartsP2P.meetings().join() === 'fair'",
                                 timeout=10_000)
    _shoot(carol, "back-anew")
    assert bob.data("role") == "host"


def test_a_reload_mid_hand_takes_the_same_hand_up_and_it_finishes(
        pages: list[Seat], relay: str) -> None:  # noqa: F811
    """Two people pass and play a few cards; one reloads mid-hand. Back to your table
    brings back the same cards (13 less those played) and scores, nothing is dealt again at
    the other page, and the hand is played to its end at both (``web/p2p/fair/resume.py``)."""
    seated = pages[:2]
    _sit(seated, relay, query="&grace=45")
    bob, carol = seated
    _play_hand(seated, cards=3)
    hers = _my_seat(carol)
    hand, scores = carol.table.hand(), carol.table.scores()
    carol.page.reload(wait_until="commit")
    bob.page.wait_for_selector(f'#table .seat[data-seat="{hers}"][data-away="true"]',
                               state="attached", timeout=30_000)
    carol.ready()
    carol.page.wait_for_selector("#rejoin", state="visible", timeout=30_000)
    keep_alerts(carol.page)
    carol.page.click("#rejoin")
    carol.page.wait_for_function(
        "n => document.querySelectorAll('#hand [data-card]').length === n"
        " && document.querySelector('#table').dataset.people === '2'",
        arg=len(hand), timeout=60_000)
    assert carol.table.hand() == hand and carol.table.scores() == scores
    assert _my_seat(carol) == hers
    bob.page.wait_for_function(
        "s => !document.querySelector(`#table .seat[data-seat=\"${s}\"][data-away=\"true\"]`)",
        arg=hers, timeout=30_000)
    _shoot(carol, "resumed")
    _play_on(seated)
    for seat in seated:
        _checked(seat, timeout=60_000)
    assert bob.table.scores() == carol.table.scores() and sum(bob.table.scores()) in (26, 78)
