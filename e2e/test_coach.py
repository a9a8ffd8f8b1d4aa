"""The coach in the browser: a finished hand reviewed play by play, in slices, in a proper
dialog; its setting kept; the last hand still reviewable after a reload.

Screenshots to look at: e2e/artifacts/coach-*.png (the hand summary with its Review
button, the Coach dialog working and done, at phone and desktop sizes).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from tablepage import ARTIFACTS, TablePage
from test_a11y import BLOCKING, run_axe

from web import words

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

SIZES = {"390x844": (390, 844), "320x640": (320, 640), "1440x900": (1440, 900)}
DONE = "#coach[data-state='done']"


def shoot(table: TablePage, name: str, show: str = "") -> None:
    """A screenshot of the window at every size (e2e/artifacts/coach-<name>-<size>.png),
    scrolled to the element ``show`` if given."""
    page = table.page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        if show:
            page.locator(show).first.evaluate("el => el.scrollIntoView({block: 'center'})")
        page.evaluate("new Promise(r => requestAnimationFrame(() => r()))")
        page.screenshot(path=str(ARTIFACTS / f"coach-{name}-{label}.png"))
    page.set_viewport_size({"width": 1440, "height": 900})


def open_menu_coach(table: TablePage) -> None:
    """Review the last hand, from the menu (the More menu folds it away on phones)."""
    page = table.page
    for menu in ("#more > summary", "#more-games > summary"):
        if not page.is_visible("#coach-button") and page.is_visible(menu):
            page.click(menu)
    page.click("#coach-button")
    page.wait_for_selector("#coach[open]")


def set_coach(table: TablePage, on: bool) -> None:
    page = table.page
    page.click("#settings-button")
    page.wait_for_selector("#settings[open]")
    page.set_checked('#settings input[name="coach"]', on)
    page.click("#settings button[type=submit]")
    page.wait_for_selector("#settings:not([open])", state="attached")


FIGURES = re.compile(r"(no points|about ([\d.]+) points?) expected for the hand with it, "
                     r"(no points|about ([\d.]+) points?) with")
PHRASES = ("cost about", "nearly as good as", "a little worse than", "as good as any",
           "the only card")


def phrase_of(line: str) -> str:
    """The coach's phrase for a play (the first of ``PHRASES`` its line says)."""
    return next(p for p in PHRASES if p in line)


def phrase_for_gap(line: str) -> str:
    """The phrase the scale gives the gap between the line's two figures, as shown."""
    found = FIGURES.search(line)
    if found is None:
        return phrase_of(line)  # (no second figure: as good as any, or the only card)
    mine, best = (float(found.group(g) or 0) for g in (2, 4))
    gap = round(mine - best, 1)
    return "cost about" if gap >= 1 else "a little worse than" if gap >= 0.5 else \
        "nearly as good as" if gap > 0 else "as good as any"


def test_a_finished_hand_is_reviewed_play_by_play(open_table: Callable[..., TablePage]
                                                   ) -> None:
    table = open_table(name="coach")
    page = table.page
    table.goto("?speed=instant&seed=3")
    table.play_hand()
    # Coach after each hand is on: the review runs at once, its line lands in the summary.
    page.wait_for_selector("#summary-review")
    page.wait_for_function("document.querySelector('#summary-coach').textContent"
                           ".startsWith('The coach found')", timeout=60_000)
    assert page.evaluate("document.activeElement.id") == "next-hand"  # focus kept
    shoot(table, "summary")
    page.focus("#summary-review")
    page.keyboard.press("Enter")
    page.wait_for_selector(DONE)
    assert page.evaluate("document.activeElement.id") == "coach-title"
    assert page.inner_text("#coach-title") == "Coach: hand 1"
    plays = page.eval_on_selector_all("#coach-body .coach-plays > li",
                                      "els => els.map(e => e.dataset.trick)")
    assert plays == [str(n) for n in range(1, 14)]
    assert page.inner_text("#coach-progress").startswith("Points lost to mistakes")
    flagged = page.locator("#coach-body li.flagged").count()
    costly = flagged + page.locator("#coach-body .coach-pass.flagged").count()
    note = page.inner_text("#summary-coach")
    assert (costly == 0) == note.startswith("The coach found no costly")
    assert page.locator("#coach-body h3").count() == 2
    lines = page.eval_on_selector_all("#coach-body .coach-plays > li",
                                      "els => els.map(e => e.textContent)")
    assert [phrase_for_gap(line) for line in lines] == [phrase_of(line) for line in lines]
    shoot(table, "done")
    if flagged:
        shoot(table, "flagged", "#coach-body li.flagged")
    violations = [v for v in run_axe(page) if v["impact"] in BLOCKING]
    assert not violations, violations
    page.keyboard.press("Escape")
    page.wait_for_selector("#coach:not([open])", state="attached")
    assert page.is_visible("#summary")  # back on the summary, at its Review button
    assert page.evaluate("document.activeElement.id") == "summary-review"


def test_with_the_coach_off_a_review_waits_to_be_asked_and_the_setting_is_kept(
        open_table: Callable[..., TablePage]) -> None:
    table = open_table(name="coach-off")
    page = table.page
    table.goto("?speed=instant&seed=5")
    open_menu_coach(table)  # nothing finished yet: it says so
    assert page.inner_text("#coach-progress") == words.COACH_NO_HAND
    page.keyboard.press("Escape")
    set_coach(table, False)
    assert table.storage("hearts.settings")["coach"] is False
    table.reload()
    page.click("#settings-button")
    page.wait_for_selector("#settings[open]")
    assert not page.is_checked('#settings input[name="coach"]')
    page.click("#settings button[type=submit]")
    table.play_hand()
    page.wait_for_selector("#summary-review")
    assert page.inner_text("#summary-coach") == ""  # no review started by itself
    page.click("#summary-review")
    page.wait_for_selector("#coach[data-state='working'], " + DONE)
    if page.evaluate("document.querySelector('#coach').dataset.state") == "working":
        assert page.inner_text("#coach-progress").startswith("Reviewing")
        shoot(table, "working")
    page.wait_for_selector(DONE)
    assert page.locator("#coach-body .coach-plays > li").count() == 13


def test_after_a_reload_the_last_hand_can_still_be_reviewed(
        open_table: Callable[..., TablePage]) -> None:
    table = open_table(name="coach-reload")
    page = table.page
    table.goto("?speed=instant&seed=7")
    table.play_hand()
    table.next_hand()
    table.reload()
    open_menu_coach(table)
    page.wait_for_selector(DONE)
    assert page.inner_text("#coach-title") == "Coach: hand 1"
    assert page.locator("#coach-body .coach-plays > li").count() == 13


FRAMES = """() => { window.__frames = {gaps: [], stop: false};
  let last = performance.now();
  const step = now => { window.__frames.gaps.push(now - last); last = now;
                        if (!window.__frames.stop) requestAnimationFrame(step); };
  requestAnimationFrame(step); }"""


def test_the_page_keeps_drawing_while_the_coach_reviews(open_table: Callable[..., TablePage]
                                                         ) -> None:
    """Asked for, the review runs in slices: the browser draws frames all along (the
    longest gap between two is printed, with the review's time) and a key still works."""
    table = open_table(name="coach-frames")
    page = table.page
    table.goto("?speed=instant&seed=3")
    set_coach(table, False)
    table.play_hand()
    page.wait_for_selector("#summary-review")
    page.evaluate(FRAMES)
    started = page.evaluate("performance.now()")
    page.click("#summary-review")
    page.wait_for_selector("#coach[data-state='working']")
    page.keyboard.press("Escape")  # the dialog closes at once; the review carries on
    page.wait_for_selector("#coach:not([open])", state="attached")
    page.wait_for_function("document.querySelector('#summary-coach').textContent"
                           ".startsWith('The coach found')", timeout=60_000)
    took = page.evaluate("performance.now()") - started
    gaps = page.evaluate("window.__frames.stop = true, window.__frames.gaps")
    longest = max(gaps)
    print(f"\ncoach review of hand 1 in Chromium: {took / 1000:.1f} s, {len(gaps)} frames, "
          f"longest gap between frames {longest:.0f} ms")
    assert took > 500  # a real review, long enough to freeze a page that didn't yield
    assert longest < 400, f"the page froze for {longest:.0f} ms during the review"


def test_following_the_hint_the_coach_finds_no_costly_play(
        open_table: Callable[..., TablePage]) -> None:
    table = open_table(name="coach-hint")
    page = table.page
    table.goto("?speed=instant&seed=4")

    def hinted(count: int) -> list[str]:
        page.click("#hint")  # (the hard player's search, in slices)
        page.wait_for_function(
            "n => document.querySelectorAll('#hand .card.hinted').length === n", arg=count)
        assert table.status().startswith("Hint:")
        return table.marked("hinted")

    table.pass_cards(hinted(3))
    while table.wait_input() == "play":
        before = len(table.hand())
        table.click_card(hinted(1)[0])
        page.wait_for_function(
            "n => document.querySelectorAll('#hand [data-card]').length < n", arg=before)
    page.wait_for_selector("#summary-review")
    page.click("#summary-review")
    page.wait_for_selector(DONE, timeout=60_000)
    assert page.locator("#coach-body li.flagged, #coach-body .coach-pass.flagged").count() == 0
    assert page.inner_text("#coach-progress") == words.coach_lost(0.0)
    assert "the hard player would pass the same three" in page.inner_text("#coach-body")
    assert table.errors == []
