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
from web import formats, words

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


STEADY = """() => {
    const box = el => el.getBoundingClientRect();
    const felt = box(document.querySelector('#table'));
    const clipped = [...document.querySelectorAll('#table p, #table .chip, #table .plate *')]
        .filter(el => el.textContent.trim() && el.checkVisibility()
                && box(el).width > 1)  // (not a name for screen readers only)
        .filter(el => { const s = getComputedStyle(el), r = box(el);
            const cut = s.overflow !== 'visible' && (el.scrollWidth > el.clientWidth + 1
                || el.scrollHeight > el.clientHeight + 1);
            const clamp = s.webkitLineClamp !== 'none' || s.textOverflow === 'ellipsis'
                && el.scrollWidth > el.clientWidth + 1;
            const out = r.left < felt.left - .5 || r.right > felt.right + .5
                || r.top < felt.top - .5 || r.bottom > felt.bottom + .5;
            return cut || clamp || out; })
        .map(el => `${el.id || el.className}: "${el.textContent.trim().slice(0, 40)}"`);
    const cards = [...document.querySelectorAll('#hand [data-card]')].map(box);
    const rim = parseFloat(getComputedStyle(document.documentElement).fontSize) * .35;
    return {hand: Math.round(box(document.querySelector('#hand')).top), clipped,
            pass: box(document.querySelector('#pass')).bottom,
            bottom: Math.max(...cards.map(r => r.bottom)),
            // how far the cards (raised ones too) stand clear of the felt's wooden rim
            clear: Math.min(...cards.map(r => Math.min(r.left - felt.left, felt.right - r.right,
                                                        felt.bottom - r.bottom))) - rim};
}"""
NEWS = """text => { const alert = document.querySelector('#alert');
    alert.classList.add('news'); alert.textContent = text; }"""


@pytest.mark.parametrize("label", ["320x640", "390x844", "1440x900"])
def test_the_hand_stays_put_and_every_line_on_the_felt_is_read_whole(
        open_table: Callable[..., TablePage], label: str) -> None:
    """The hand's top doesn't move while a hand is played: not for a hint, a card chosen or
    put back, a refusal, news of the table (drawn as a table of people draws it) or the first
    trick's taker on a plate; and no sentence on the felt is cut short meanwhile."""
    width, height, touch = SIZES[label]
    table = open_table(viewport={"width": width, "height": height}, name=f"steady-{label}",
                       **({"has_touch": True, "is_mobile": True} if touch else {}))
    page = table.page
    table.goto("?speed=instant&seed=3")
    seen: dict[str, dict[str, Any]] = {"start": page.evaluate(STEADY)}
    page.click("#hint")
    page.wait_for_selector("#hand .hinted")
    seen["hint"] = page.evaluate(STEADY)
    hand = table.hand()
    for card in hand[:3]:
        table.click_card(card)
    seen["three chosen"] = page.evaluate(STEADY)
    table.click_card(hand[3])  # a fourth: refused, in words
    page.wait_for_function("document.querySelector('#alert').textContent !== ''")
    seen["refused"] = page.evaluate(STEADY)
    table.click_card(hand[2])
    seen["put back"] = page.evaluate(STEADY)
    page.evaluate(NEWS, words.fair_came([0], 0))  # a table's news, at its longest
    seen["news"] = page.evaluate(STEADY)
    page.screenshot(path=str(ARTIFACTS / f"steady-{label}-news.png"))
    table.click_card(hand[2])
    page.click("#pass")
    table.wait_input()
    seen["play"] = page.evaluate(STEADY)
    taken = "() => [...document.querySelectorAll('.seat .taken')].some(e => e.textContent)"
    while table.state() == "play" and not page.evaluate(taken):
        table.play_one()
    seen["first trick taken"] = page.evaluate(STEADY)
    page.screenshot(path=str(ARTIFACTS / f"steady-{label}-trick.png"))
    tops = {when: m["hand"] for when, m in seen.items()}
    print(f"\n{label}: hand top {tops}")
    assert len(set(tops.values())) == 1, tops
    cut = {when: m["clipped"] for when, m in seen.items() if m["clipped"]}
    assert not cut, cut
    assert seen["news"]["bottom"] <= height and seen["news"]["pass"] <= height, seen["news"]
    if not touch:  # the hand, raised cards too, stands clear of the wooden rim
        clear = {when: round(m["clear"], 1) for when, m in seen.items()}
        assert min(clear.values()) >= 4, clear


HEADER = """() => { const box = sel => { const e = document.querySelector(sel);
        const r = e.getBoundingClientRect();
        return r.width > 1 ? {top: r.top, bottom: r.bottom, right: r.right, height: r.height}
                           : null; };
    const stats = document.querySelector('#stats');
    return {h1: box('.top > h1'), stats: box('#stats'), text: stats.innerText,
            line: parseFloat(getComputedStyle(stats).lineHeight)}; }"""
X_IN_SIGHT = """sel => { const d = document.querySelector(sel), x = d.querySelector('.sheet-x');
    d.scrollTop = d.scrollHeight;  // read to the end: the close control is still at the top
    const r = x.getBoundingClientRect(), box = d.getBoundingClientRect();
    return {scrolled: d.scrollTop, top: r.top - box.top, right: box.right - r.right,
            hit: document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === x}; }"""


def test_dialogs_close_from_their_top_or_outside_and_the_header_is_one_line(
        open_table: Callable[..., TablePage]) -> None:
    """On a 320 px phone: the header is one short line, alone and at a table; every dialog
    has its close control at the top, in reach however far it is scrolled; a tap outside or
    Esc closes it, but not over a code being typed, and the Game code field doesn't take the
    focus (the keyboard would cover the dialog); How to play in More opens the rules text
    below the table (the one copy of it), which goes back there once closed."""
    table = open_table(viewport={"width": 320, "height": 640}, name="dialogs-320",
                       has_touch=True, is_mobile=True)
    page = table.page
    table.goto("?speed=instant&seed=3")
    for where in ("", words.HOSTING_KIND):
        if where:  # as a table of people draws it (web/table/view.py's _stats)
            page.evaluate("""w => { const s = document.querySelector('#stat-where');
                s.textContent = w; s.hidden = false;
                document.querySelector('#stat-clock').hidden = true; }""", where)
        head = page.evaluate(HEADER)
        stats, title = head["stats"], head["h1"]
        assert stats["height"] < 1.5 * head["line"] and stats["right"] <= 320, head  # one line
        assert title is None or (stats["top"] < title["bottom"] and
                                 stats["bottom"] > title["top"]), head  # beside the title
        assert ("Best" in head["text"]) == (not where), head
    page.reload()
    table.wait_ready()

    def open_from_more(button: str, dialog: str) -> None:
        page.click("#more > summary")
        page.click(f"#{button}")
        page.wait_for_selector(f"#{dialog}[open]")

    for button, dialog, how in (("settings-button", "settings", "x"),
                                ("help-button", "help", "outside"),
                                ("record-button", "record", "escape"),
                                ("rules-button", "rules-sheet", "x")):
        open_from_more(button, dialog)
        seen = page.evaluate(X_IN_SIGHT, f"#{dialog}")
        assert seen["top"] < 20 and seen["right"] < 20 and seen["hit"], (dialog, seen)
        if dialog == "rules-sheet":
            assert page.evaluate("document.querySelector('#rules').closest('dialog')?.id"
                                 ) == "rules-sheet"
            assert seen["scrolled"] > 0
            page.screenshot(path=str(ARTIFACTS / "dialogs-320x640-rules.png"))
        if how == "x":
            page.click(f"#{dialog} .sheet-x")
        elif how == "outside":
            page.touchscreen.tap(160, 637)  # the backdrop, under the dialog
        else:
            page.keyboard.press("Escape")
        page.wait_for_selector(f"#{dialog}:not([open])", state="attached")
    page.click("#more > summary")  # Play with friends: its content is drawn from a template
    page.click("#open-table")
    page.wait_for_selector("#friends[open]")
    seen = page.evaluate(X_IN_SIGHT, "#friends")
    assert seen["top"] < 20 and seen["right"] < 20 and seen["hit"], ("friends", seen)
    page.click("#friends .sheet-x")
    page.wait_for_selector("#friends:not([open])", state="attached")
    assert page.evaluate("""[document.querySelectorAll('#rules').length,
        document.querySelector('#rules').parentElement.tagName]""") == [1, "MAIN"]
    assert page.locator("text=Four players each play for themselves").count() == 1

    open_from_more("code-button", "code")
    assert table.focused() == "code-title"  # no keyboard over the dialog by itself
    page.fill("#code-input", "7K2M")
    page.touchscreen.tap(160, 637)
    assert page.is_visible("#code[open]")  # a code being typed isn't thrown away
    page.keyboard.press("Escape")
    page.wait_for_selector("#code:not([open])", state="attached")
