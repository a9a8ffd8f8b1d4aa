"""Accessibility of the table: axe-core in every phase at four screen sizes, keyboard only,
the live regions, focus, and screenshots to look at (e2e/artifacts/a11y-*.png).

axe-core comes from npm (a pinned devDependency) and is injected into the page by the test
only: it is never part of the site. Each phase is audited at every size; any serious or
critical violation fails the test, and every phase's results are printed (pytest -s) and
written to e2e/artifacts/axe-results.json.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tablepage import ARTIFACTS, TablePage, valid_hand_scores

from hearts import Game
from tests.scripted import finished_game
from web import formats

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(420)]

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"320x640": (320, 640), "390x844": (390, 844), "768x1024": (768, 1024),
         "1440x900": (1440, 900)}
# Checked for horizontal scrolling only (plus a screenshot): a 1280 px window at 200% zoom,
# and a phone on its side.
EXTRA = {"zoom200-640x450": (640, 450), "landscape-844x390": (844, 390)}
BLOCKING = ("serious", "critical")
NAMES = ("You", "West", "North", "East")

# Records every text written to the live regions, in order (set up before the page runs).
RECORD_LIVE = """
window.__said = [];
document.addEventListener('DOMContentLoaded', () => {
  for (const id of ['status', 'alert']) {
    const el = document.getElementById(id);
    new MutationObserver(records => {
      for (const r of records) for (const n of r.addedNodes) {
        const t = n.textContent.replace(/\\u00a0/g, '').trim();
        if (t) window.__said.push([id, t]);
      }
    }).observe(el, {childList: true});
  }
});
"""


# --- axe ------------------------------------------------------------------------------------

def run_axe(page: Any) -> list[dict[str, Any]]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))  # inline: no request, nothing added to the site
    return list(page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(' ') + ' — ' + n.failureSummary
                                    .replace(/\\s+/g, ' ').slice(0, 240))}));
    }"""))


class Audit:
    """axe results and screenshots per phase and size."""

    def __init__(self, table: TablePage) -> None:
        self.table = table
        self.results: dict[str, dict[str, list[dict[str, Any]]]] = {}

    def phase(self, name: str, sizes: dict[str, tuple[int, int]] = SIZES,
              extra: bool = True) -> None:
        page = self.table.page
        per_size: dict[str, list[dict[str, Any]]] = {}
        for label, (width, height) in {**sizes, **(EXTRA if extra else {})}.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("new Promise(r => requestAnimationFrame(() => r()))")
            assert self.table.no_horizontal_overflow(), f"{name} at {label}: sideways scroll"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            # From the top of the page down to the line under the table (the rules below
            # are plain text): what a player scrolls through.
            page.evaluate("window.scrollTo(0, 0)")
            bottom = page.evaluate("Math.ceil(document.querySelector('#status')"
                                   ".getBoundingClientRect().bottom + 8)")
            page.screenshot(path=str(ARTIFACTS / f"a11y-{name}-{label}.png"), full_page=True,
                            clip={"x": 0, "y": 0, "width": width,
                                  "height": max(height, bottom)})
            if label in sizes:
                per_size[label] = run_axe(page)
        self.results[name] = per_size
        summary = []
        for label, violations in per_size.items():
            worst = [f"{v['id']}({v['impact']}, {len(v['nodes'])})" for v in violations]
            summary.append(f"{label}: {', '.join(worst) or 'no violations'}")
        print(f"axe {name}: " + "; ".join(summary))
        blocking = [f"{label} {v['id']} ({v['impact']}): {v['help']}\n    "
                    + "\n    ".join(v["nodes"][:4])
                    for label, violations in per_size.items() for v in violations
                    if v["impact"] in BLOCKING]
        assert not blocking, f"axe, phase {name}:\n" + "\n".join(blocking)

    def save(self) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "axe-results.json").write_text(json.dumps(self.results, indent=1))


def test_every_phase_passes_axe_at_every_size(open_table: Callable[..., TablePage]) -> None:
    table = open_table(name="a11y")
    page = table.page
    audit = Audit(table)

    # Loading: hold the interpreter module back until the page has been audited.
    held: list[Any] = []
    page.route("**/static/start.mjs", lambda route: held.append(route))
    # (not "domcontentloaded": a module script or preload of start.mjs would hold that too)
    page.goto(f"{table.origin}/?speed=instant&seed=4", wait_until="commit")
    page.wait_for_function("document.readyState !== 'loading'")
    assert page.evaluate("!document.documentElement.dataset.ready")
    audit.phase("0-loading", extra=False)
    assert held, "the interpreter module was not requested"
    for route in held:
        route.continue_()
    page.unroute("**/static/start.mjs")
    table.wait_ready()

    # The audit is live: a nameless button is caught (then taken away again).
    page.evaluate("document.body.insertAdjacentHTML('beforeend',"
                  " '<button id=\"axe-canary\"></button>')")
    assert "button-name" in [v["id"] for v in run_axe(page)]
    page.evaluate("document.querySelector('#axe-canary').remove()")

    assert table.state() == "pass"
    hand = table.hand()
    table.click_card(hand[0])
    table.click_card(hand[4])
    page.keyboard.press("h")  # hint marks three cards
    audit.phase("1-passing")

    page.click("#settings-button")
    assert page.evaluate("document.querySelector('#settings').matches(':modal')")
    audit.phase("2-settings")
    page.check('#settings input[name="deck"][value="four"]')
    page.click("#settings button[type=submit]")
    assert not page.is_visible("#settings")
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    assert table.storage("hearts.settings")["deck"] == "four"

    page.keyboard.press("?")
    assert page.is_visible("#help")
    audit.phase("3-help")
    page.keyboard.press("Escape")
    assert not page.is_visible("#help")

    table.click_card(hand[0])
    table.click_card(hand[4])
    table.pass_cards()
    while not (table.trick() and table.unplayable()) or not page.is_enabled("#last-trick"):
        assert table.state() == "play"
        table.play_one()
    audit.phase("4-playing")

    page.click("#last-trick")
    assert len(table.trick()) == 4
    audit.phase("5-trick-review")
    page.click("#last-trick")

    table.play_hand()
    assert table.state() == "summary"
    assert page.evaluate("document.querySelector('#summary').matches(':modal')")
    audit.phase("6-hand-summary")

    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(
        formats.Saved(finished_game(), summary=None, counted=True))})
    assert table.state() == "over"
    audit.phase("7-game-over")

    page.emulate_media(media="print")
    audit.phase("8-printed", sizes={"768x1024": SIZES["768x1024"]}, extra=False)
    page.emulate_media(media="screen")
    audit.save()


# --- keyboard, live regions, focus ----------------------------------------------------------

def said(table: TablePage) -> list[tuple[str, str]]:
    return [(str(x[0]), str(x[1])) for x in table.page.evaluate("window.__said")]


def polite_since(table: TablePage, start: int) -> list[str]:
    return [text for region, text in said(table)[start:] if region == "status"]


def card_name(notation: str) -> str:
    from hearts import Card
    return Card.parse(notation).name


def trick_sentences(trick: Any) -> tuple[list[str], str]:
    plays = [f"{'You' if seat == 0 else NAMES[seat]} played the {card.name}."
             for seat, card in trick.plays()]
    who = "You take" if trick.winner == 0 else f"{NAMES[trick.winner]} takes"
    points = trick.points
    worth = f" ({points} point{'s' if points != 1 else ''})" if points else ""
    return plays, f"{who} the trick{worth}."


def test_a_hand_by_keyboard_alone_with_its_announcements(
        open_table: Callable[..., TablePage]) -> None:
    table = open_table(name="keys", reduced_motion="reduce")
    page = table.page
    page.add_init_script(RECORD_LIVE)
    table.goto("?speed=instant&seed=8")

    focused = table.focused

    def name_of(card: str) -> str:
        return page.text_content(f'#hand [data-card="{card}"] .sr-only') or ""

    # One tab stop: Tab reaches the hand once, and the next Tab leaves it.
    for _ in range(30):
        if focused() in table.hand():
            break
        page.keyboard.press("Tab")
    assert focused() in table.hand()
    assert page.eval_on_selector_all("#hand [tabindex='0']", "els => els.length") == 1
    stop = focused()
    page.keyboard.press("Shift+Tab")
    assert focused() not in table.hand()
    page.keyboard.press("Tab")
    assert focused() == stop
    page.keyboard.press("Tab")
    assert focused() not in table.hand()
    page.keyboard.press("Shift+Tab")
    hand = table.hand()
    assert focused() == stop
    page.keyboard.press("End")
    assert focused() == hand[-1]
    page.keyboard.press("Home")
    assert focused() == hand[0]
    for suit in "SHDC":
        page.keyboard.press(f"Shift+{suit}")
        mine = [c for c in hand if c[1] == suit]
        if mine:
            assert focused() == mine[0], suit
        else:
            assert page.inner_text("#status").startswith("You have no ")

    def go_to(card: str) -> None:
        """By suit jump, then arrows: the way a player who knows the hand moves."""
        page.keyboard.press(f"Shift+{card[1]}")
        cards = table.hand()
        here = cards.index(str(focused()))
        key = "ArrowRight" if cards.index(card) > here else "ArrowLeft"
        for _ in range(abs(cards.index(card) - here)):
            page.keyboard.press(key)
        assert focused() == card

    # Pass the three hinted cards by keyboard (Enter and Space both choose).
    page.keyboard.press("h")  # (the hard player's search, in slices: wait for it)
    page.wait_for_function("document.querySelectorAll('#hand .card.hinted').length === 3")
    hinted = table.marked("hinted")
    assert len(hinted) == 3
    assert table.status().startswith("Hint:")
    for number, card in enumerate(hinted):
        go_to(card)
        page.keyboard.press("Enter" if number % 2 else " ")
        assert name_of(card).startswith(f"{card_name(card)}, selected"), name_of(card)
    assert sorted(table.marked("selected")) == sorted(hinted)
    for _ in range(10):
        if focused() == "pass":
            break
        page.keyboard.press("Shift+Tab")
    assert focused() == "pass"
    before_pass = len(said(table))
    page.keyboard.press("Enter")
    assert table.wait_input() == "play"
    assert focused() in table.hand(), "focus goes back to the hand after passing"
    assert focused() in table.playable(), "to a card you can play, now that it's your turn"
    received = [card_name(c) for c in table.marked("received")]
    first = polite_since(table, before_pass)
    assert any(text.startswith("You received ") and all(n in text for n in received)
               for text in first), first

    # The first trick, announced: every card in order, then who took it, batched.
    saw_error = False
    start = before_pass
    tricks_done = 0
    while table.wait_input() == "play":
        page.keyboard.press("t")
        assert page.inner_text("#status").startswith(("On the table:", "No cards on the table"))
        if not saw_error and table.unplayable():
            bad = table.unplayable()[0]
            go_to(bad)
            reason = name_of(bad).split("can't play: ")[1]
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.querySelector('#alert').textContent")
            alert = page.inner_text("#alert")
            assert alert.lower().startswith(reason), (alert, reason)
            assert bad in table.hand()
            saw_error = True
        page.keyboard.press("H")  # (the keys take either case)
        page.wait_for_function("document.querySelectorAll('#hand .card.hinted').length")
        (card,) = table.marked("hinted")
        go_to(card)
        cards = table.hand()
        index = cards.index(card)
        neighbour = cards[index + 1] if index + 1 < len(cards) else (
            cards[index - 1] if index else None)
        if neighbour is not None:  # mark the element: it must keep the focus, unreplaced
            page.eval_on_selector(f'#hand [data-card="{neighbour}"]', "e => e.__mine = 1")
        page.keyboard.press("Enter")
        page.wait_for_function("n => document.querySelectorAll('#hand [data-card]').length < n"
                               " || ['summary','over'].includes("
                               "document.documentElement.dataset.state)", arg=len(cards))
        state = table.wait_input()
        if state == "play" and neighbour is not None and neighbour in table.playable():
            assert page.evaluate("document.activeElement.__mine === 1"), \
                "focus moved while the computers played"
        elif state == "play" and neighbour is not None:  # your turn, on a card you can't play
            assert focused() == table.playable()[0], "the focus goes to a card you can play"
        saved = Game.from_json(table.saved_game_json())
        if tricks_done == 0 and saved.view(0).tricks:
            tricks_done = 1
            trick = saved.view(0).tricks[0]
            plays, won = trick_sentences(trick)
            messages = polite_since(table, start)
            text = " ".join(messages)
            positions = [text.find(p) for p in plays]
            assert all(p >= 0 for p in positions) and positions == sorted(positions), \
                (plays, messages)
            ending = [m for m in messages if won in m]
            assert ending and ending[0].endswith(won), (won, messages)
            # batched: no message is a lone computer card
            lone = [m for m in messages if m.count(" played the ") == 1
                    and not m.startswith("You played") and "Your turn" not in m
                    and "takes the trick" not in m and "take the trick" not in m]
            assert not lone, messages
            print("first trick announced as:", *messages, sep="\n  ")
        if state == "play" and saved.view(0).tricks:
            page.keyboard.press("l")
            assert page.inner_text("#status").startswith("Last trick:")
            assert page.get_attribute("#last-trick", "aria-pressed") == "true"
            page.keyboard.press("Escape")
            page.keyboard.press("s")
            assert page.inner_text("#status").startswith("Scores:")
    assert saw_error, "no unplayable card came up to check the assertive region"
    assert table.state() == "summary"
    assert valid_hand_scores(table.summary_row())
    assert focused() == "next-hand"
    assert page.evaluate("document.querySelector('#summary').matches(':modal')")
    for _ in range(4):  # the modal dialog keeps the focus
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('#summary')")
    assert any(t.startswith("Hand 1 is over. Points this hand:")
               for t in polite_since(table, start))

    # Help opens over the table and gives the focus back; Esc on a hand summary moves on.
    page.keyboard.press("?")
    assert page.evaluate("document.querySelector('#help').matches(':modal')")
    page.keyboard.press("Escape")
    assert focused() == "next-hand"
    page.keyboard.press("Escape")
    assert table.wait_input() == "pass"
    assert not page.is_visible("#summary")
    assert focused() in table.hand()
    motion = page.evaluate("""() => {
        const root = document.documentElement;
        root.classList.remove('instant');  // ?speed=instant switches every transition off
        const value = getComputedStyle(document.querySelector('#hand .card')).transitionProperty;
        root.classList.add('instant');
        return value; }""")
    assert motion == "opacity", motion  # prefers-reduced-motion: fades only
