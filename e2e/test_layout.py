"""The whole table fits one screen, without scrolling, on phones (both ways up) and desktop.

At each size, after the pass (a full hand of 13) and again mid-hand, every card of your
hand, the trick, the line that says what to do (#prompt, #alert), the three seats and the
toolbar must lie inside the viewport, with the page not scrolled; cards stay >= 32 px wide.
On a touch screen the toolbar's key badges (<kbd>) are hidden. Screenshots of each size go
to e2e/artifacts/layout-<when>-<size>.png (<when> is $LAYOUT_SHOTS, "after" by default).
A dialog taller than the screen opens at its top; the game's end keeps its button in sight.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from tablepage import ARTIFACTS, TablePage

from tests.scripted import finished_game
from web import formats

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

# label: (width, height, touch)
SIZES = {
    "320x640": (320, 640, True),
    "360x740": (360, 740, True),
    "390x844": (390, 844, True),
    "844x390": (844, 390, True),
    "740x360": (740, 360, True),
    "1440x900": (1440, 900, False),
}
WHEN = os.environ.get("LAYOUT_SHOTS", "after")

MEASURE = """() => {
    const box = el => { const r = el.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                width: r.width, height: r.height}; };
    const one = sel => box(document.querySelector(sel));
    const visible = el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
    return {
        innerWidth, innerHeight,
        scrollTop: document.scrollingElement.scrollTop,
        scrollLeft: document.scrollingElement.scrollLeft,
        cards: [...document.querySelectorAll('#hand [data-card]')].map(box),
        boxes: {
            trick: one('#trick'), prompt: one('#prompt'), alert: one('#alert'),
            toolbar: one('.toolbar'),
            north: one('.seat-north'), west: one('.seat-west'), east: one('.seat-east'),
        },
        kbd: [...document.querySelectorAll('.toolbar kbd')].filter(visible).length,
    };
}"""


def problems_in(m: dict[str, Any]) -> list[str]:
    """Everything that does not fit, in words."""
    found = []
    if m["scrollTop"] or m["scrollLeft"]:
        found.append(f"scrolled to {m['scrollLeft']},{m['scrollTop']}")
    width, height = m["innerWidth"], m["innerHeight"]
    named = [(f"card {i}", b) for i, b in enumerate(m["cards"])] + list(m["boxes"].items())
    for name, b in named:
        if b["top"] < 0 or b["left"] < 0 or b["bottom"] > height + .5 or b["right"] > width + .5:
            found.append(f"{name} outside {width}x{height}: "
                         f"({b['left']:.0f},{b['top']:.0f})-({b['right']:.0f},{b['bottom']:.0f})")
    narrow = [round(b["width"]) for b in m["cards"] if b["width"] < 32]
    if narrow:
        found.append(f"cards narrower than 32 px: {narrow}")
    return found


def summary(m: dict[str, Any]) -> str:
    cards = m["cards"]
    bottom = max(b["bottom"] for b in cards)
    return (f"{m['innerWidth']}x{m['innerHeight']}: {len(cards)} cards "
            f"{min(b['width'] for b in cards):.0f} px wide, hand bottom {bottom:.0f}, "
            f"prompt bottom {m['boxes']['prompt']['bottom']:.0f}, "
            f"toolbar height {m['boxes']['toolbar']['height']:.0f}")


@pytest.mark.parametrize("label", list(SIZES))
def test_the_table_fits_one_screen(open_table: Callable[..., TablePage], label: str) -> None:
    width, height, touch = SIZES[label]
    table = open_table(viewport={"width": width, "height": height}, name=f"layout-{label}",
                       **({"has_touch": True, "is_mobile": True} if touch else {}))
    page = table.page
    table.goto("?speed=instant&seed=3")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"layout-{WHEN}-{label}-passing.png"))
    for card in table.hand()[:3]:
        table.click_card(card)
    passing = page.evaluate(MEASURE)  # the Pass button shows, three cards are raised
    page.click("#pass")
    page.wait_for_function("document.querySelector('#pass').hidden")
    table.wait_input()
    after_pass = page.evaluate(MEASURE)
    table.play_one()
    mid_hand = page.evaluate(MEASURE)
    page.screenshot(path=str(ARTIFACTS / f"layout-{WHEN}-{label}.png"))
    print(f"\nlayout {WHEN} passing    {summary(passing)}"
          f"\nlayout {WHEN} after pass {summary(after_pass)}"
          f"\nlayout {WHEN} mid-hand   {summary(mid_hand)}")

    assert len(after_pass["cards"]) == 13
    found = [f"passing: {p}" for p in problems_in(passing)]
    found += [f"after the pass: {p}" for p in problems_in(after_pass)]
    found += [f"mid-hand: {p}" for p in problems_in(mid_hand)]
    if touch:
        if mid_hand["kbd"]:
            found.append(f"{mid_hand['kbd']} key badges shown on a touch screen")
    elif not mid_hand["kbd"]:
        found.append("the key badges are missing on the desktop")
    assert not found, f"{label}:\n" + "\n".join(found)


def test_the_more_menu_on_a_phone_keeps_every_button(open_table: Callable[..., TablePage]
                                                     ) -> None:
    """On a phone the less-used buttons fold into a More menu; opened, each is on screen,
    reachable by Tab and keeps its name."""
    table = open_table(viewport={"width": 320, "height": 640}, name="layout-more",
                       has_touch=True, is_mobile=True)
    page = table.page
    table.goto("?speed=instant&seed=3")
    names = {"new-game": "New game", "hint": "Hint", "undo": "Undo",
             "last-trick": "Last trick", "open-table": "Play with friends",
             "settings-button": "Settings", "help-button": "Keys",
             "play-online": "Play online", "daily-button": "Daily deal",
             "code-button": "Game code", "record-button": "Record",
             "coach-button": "Review the last hand"}
    assert page.inner_text("#more > summary") == "More"
    page.focus("#more summary")
    page.keyboard.press("Enter")
    assert page.evaluate("document.querySelector('#more').open")
    for ident, name in names.items():
        assert page.locator(".toolbar").get_by_role("button", name=name, exact=True
                                                    ).get_attribute("id") == ident
    page.screenshot(path=str(ARTIFACTS / f"layout-{WHEN}-320x640-more.png"))
    for ident in ("last-trick", "open-table", "settings-button", "help-button",
                  "daily-button", "record-button", "coach-button"):
        assert page.is_visible(f"#{ident}"), ident
        b = page.eval_on_selector(f"#{ident}", "e => e.getBoundingClientRect().toJSON()")
        assert b["left"] >= 0 and b["right"] <= 320 and b["bottom"] <= 640, (ident, b)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#more') !== null")
    page.click("#settings-button")
    page.wait_for_selector("#settings[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings:not([open])", state="attached")


def test_on_a_desktop_the_toolbar_is_one_row_and_the_rest_is_under_more(
        open_table: Callable[..., TablePage]) -> None:
    table = open_table(viewport={"width": 1440, "height": 900}, name="layout-desktop-more")
    page = table.page
    table.goto("?speed=instant&seed=3")
    tops = page.eval_on_selector_all(
        ".toolbar button, .toolbar summary",
        "els => els.filter(e => e.checkVisibility()).map(e => e.getBoundingClientRect().top)")
    assert len(tops) >= 9 and max(tops) - min(tops) < 5, tops  # one row
    assert not page.is_visible("#record-button")
    page.click("#more-games > summary")
    page.click("#record-button")
    page.wait_for_selector("#record[open]")
    assert not page.evaluate("document.querySelector('#more-games').open")  # folded again


IN_SIGHT = """sel => { const d = document.querySelector(sel).getBoundingClientRect();
    const inside = el => { const r = el.getBoundingClientRect();
        return r.height > 0 && r.top >= d.top - 1 && r.bottom <= d.bottom + 1
            && r.bottom <= innerHeight + 1; };
    const dialog = document.querySelector(sel);
    return {taller: dialog.scrollHeight > dialog.clientHeight,
            title: inside(dialog.querySelector('h2')),
            button: inside(dialog.querySelector('.sheet-actions button')),
            focused: document.activeElement.id}; }"""


@pytest.mark.parametrize("label", ["320x640", "844x390", "1440x900"])
def test_a_dialog_taller_than_the_screen_opens_with_its_title_and_button_in_sight(
        open_table: Callable[..., TablePage], label: str) -> None:
    """The game's end (its chart and every hand's points) and Settings run past a phone's
    screen: each opens at its top, its title in sight; the game's end keeps its button,
    which has the focus as ever, in sight at the bottom."""
    width, height, touch = SIZES[label]
    table = open_table(viewport={"width": width, "height": height}, name=f"tall-{label}",
                       **({"has_touch": True, "is_mobile": True} if touch else {}))
    page = table.page
    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(
        formats.Saved(finished_game(), summary=None, counted=True))})
    assert table.state() == "over"
    over = page.evaluate(IN_SIGHT, "#summary")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"tall-over-{label}.png"))
    assert over == {"taller": over["taller"], "title": True, "button": True,
                    "focused": "summary-new-game"}, over
    page.keyboard.press("Escape")
    page.wait_for_selector("#summary:not([open])", state="attached")
    if not page.is_visible("#settings-button"):
        page.click("#more > summary")  # on a phone, Settings is under More
    page.click("#settings-button")
    page.wait_for_selector("#settings[open]")
    settings = page.evaluate(IN_SIGHT, "#settings")
    page.screenshot(path=str(ARTIFACTS / f"tall-settings-{label}.png"))
    assert settings["title"], settings
    if label == "320x640":
        assert over["taller"] and settings["taller"]  # the case this test is about
