"""The table on screen at once: a repeat visit paints the saved table before Python is up.

web/static/boot.js keeps a copy of the felt at every draw and paints it at the next start
(``<html data-painted>``), inert but for the hand, whose taps are kept for Python, until
Python's first draw takes it over in place. A probe
added before the page's own scripts records what was on the screen at each step (the cards,
where the table's parts were) and every layout shift.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from conftest import DESKTOP, PHONE
from playwright.sync_api import Route
from tablepage import TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

KEY = "hearts.felt"

# window.__start: what the page showed when the copy was painted (``painted``), in its first
# frame (``first``), once the document was parsed (``loaded``: still before Python), at
# data-ready (``ready``) and two frames after it (``after``), and every layout shift.
PROBE = """
(() => {
  const t = window.__start = {shifts: [], painted: null, loaded: null, ready: null,
                              after: null, first: null};
  new PerformanceObserver(list => {
    for (const e of list.getEntries())
      t.shifts.push({value: e.value, at: e.startTime, input: e.hadRecentInput});
  }).observe({type: "layout-shift", buffered: true});
  const cards = sel => [...document.querySelectorAll(sel)].map(e => e.dataset.card);
  const look = () => ({
    at: performance.now(),
    painted: document.documentElement.dataset.painted === "true",
    ready: document.documentElement.dataset.ready === "true",
    // (everything on the felt but the hand, which keeps taps for Python; the hand)
    inert: [[...document.querySelectorAll("#table > :not(#hand)")].every(e => e.inert),
            document.getElementById("hand")?.inert ?? null],
    copy: localStorage.getItem("hearts.felt"),
    loader: document.getElementById("loader") &&
            getComputedStyle(document.getElementById("loader")).display,
    hand: cards("#hand [data-card]"),
    trick: cards("#trick [data-card]"),
    seats: [...document.querySelectorAll(".seat[data-seat]")].map(e => e.textContent
      .replace(/\\s+/g, " ").trim()),
    prompt: document.getElementById("prompt")?.textContent ?? null,
    rects: Object.fromEntries(["stats", "table", "hand", "trick", "prompt", "rules"].map(id => {
      const r = document.getElementById(id)?.getBoundingClientRect();
      return [id, r ? [r.x, r.y, r.width, r.height].map(v => Math.round(v * 10) / 10) : null];
    })),
  });
  new MutationObserver(() => {
    const root = document.documentElement;
    if (t.painted === null && root.dataset.painted) t.painted = look();
    if (t.ready === null && root.dataset.ready === "true") {
      t.ready = look();
      requestAnimationFrame(() => requestAnimationFrame(() => { t.after = look(); }));
    }
  }).observe(document, {attributes: true, subtree: true,
                        attributeFilter: ["data-painted", "data-ready"]});
  document.addEventListener("DOMContentLoaded", () => { t.loaded = look(); });
  // just before the page's first frame (no frame while the felt is being parsed)
  requestAnimationFrame(() => { t.first = look(); });
})();
"""


def probe(table: TablePage) -> dict[str, Any]:
    table.page.wait_for_function("window.__start && window.__start.after !== null")
    result: dict[str, Any] = table.page.evaluate("window.__start")
    return result


def kept_copy(table: TablePage) -> dict[str, Any]:
    """The copy of the table as it is drawn now, once boot.js has written it."""
    table.page.wait_for_function(
        """key => { const c = JSON.parse(localStorage.getItem(key) || "null");
                    const hand = [...document.querySelectorAll("#hand [data-card]")]
                      .map(e => e.dataset.card).join(" ");
                    return c !== null && c.state === document.documentElement.dataset.state
                      && c.table.includes(`data-card="${hand.split(" ").pop()}"`); }""",
        arg=KEY)
    copy: dict[str, Any] = table.storage(KEY)
    return copy


def mid_trick(table: TablePage) -> None:
    """Pass, then play until it is the person's turn with cards on the felt."""
    table.pass_cards()
    for _ in range(13):
        table.wait_input()
        if table.state() == "play" and table.trick():
            return
        table.play_one()
    raise AssertionError("never the person's turn with cards on the table")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_repeat_visit_paints_the_saved_table_and_python_takes_it_over_in_place(
        open_table: Callable[..., TablePage], viewport: dict[str, int]) -> None:
    table = open_table(viewport)
    table.page.add_init_script(PROBE)
    table.goto("?speed=instant&seed=5")
    first = probe(table)
    assert first["painted"] is None  # a first visit: nothing saved, the ordinary loader
    assert first["loaded"]["loader"] != "none"
    # ...over a felt dealt face down, laid out as the first draw: nothing moves when Python
    # turns the cards up (the empty prompt has no box to move).
    assert first["loaded"]["hand"] == [] and len(first["after"]["hand"]) == 13
    laid_out = ("stats", "table", "hand", "trick", "rules")
    assert ({part: first["loaded"]["rects"][part] for part in laid_out}
            == {part: first["after"]["rects"][part] for part in laid_out})
    moved = [s for s in first["shifts"] if s["at"] <= first["after"]["at"] and s["value"] > 0]
    assert moved == [], moved
    mid_trick(table)
    hand, trick = table.hand(), table.trick()
    copy = kept_copy(table)
    assert copy["state"] == "play" and copy["version"] not in ("", "dev")

    table.reload()
    seen = probe(table)
    painted, loaded, ready, after = seen["painted"], seen["loaded"], seen["ready"], seen["after"]
    # Painted before Python was up: the same cards as Python's first draw, inert, and the
    # quiet line over the prompt (which keeps the real prompt's box).
    assert painted is not None and not painted["ready"] and painted["at"] < ready["at"]
    assert loaded["painted"] and loaded["inert"] == [True, False] and loaded["loader"] == "none"
    assert painted["hand"] == loaded["hand"] == after["hand"] == hand
    assert seen["first"]["hand"] == hand  # in the first frame: no empty felt shown before
    assert painted["trick"] == after["trick"] == trick
    assert loaded["seats"] == after["seats"]
    assert table.page.evaluate("getComputedStyle(document.getElementById('prompt'), "
                               "'::after').content") == "none"  # gone once ready
    # Nothing moved between the paint and Python's first draw.
    assert loaded["rects"] == after["rects"]
    moved = [s for s in seen["shifts"] if s["at"] <= after["at"] and s["value"] > 0]
    assert moved == [], moved
    assert not after["painted"]
    table.page.wait_for_function("![...document.querySelectorAll('#table > *')]"
                                 ".some(e => e.inert)")
    assert table.page.evaluate("document.documentElement.dataset.start") == "plain"


def held_start(table: TablePage) -> Callable[[], None]:
    """Reload with PyScript's module held back (Python can't take over the painted table)
    until the returned function lets it go; returns once the saved table is painted."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    table.page.route("**/pyscript/core.js", hold)
    table.page.reload(wait_until="commit")
    table.page.wait_for_selector("html[data-painted]", state="attached")

    def release() -> None:
        table.page.wait_for_function("1")  # (the route's request has arrived by now)
        assert held, "PyScript's module was never asked for"
        for route in held:
            route.continue_()
        table.page.unroute("**/pyscript/core.js", hold)
        table.wait_ready()
    return release


def tap(table: TablePage, selector: str) -> None:
    """A real tap (the mouse) in the middle of what ``selector`` finds."""
    box = table.page.locator(selector).bounding_box()
    assert box is not None
    table.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_taps_on_the_painted_table_are_kept_and_made_once_python_is_up(
        open_table: Callable[..., TablePage]) -> None:
    table = open_table()
    table.goto("?speed=instant&seed=5")
    hand = table.hand()  # the pass
    kept_copy(table)
    release = held_start(table)
    # Choose two cards and take one back, before Python is up: each shows at once.
    for card in (hand[0], hand[2], hand[2], hand[4]):
        tap(table, f'#hand [data-card="{card}"]')
    tap(table, "#pass-dir")  # the rest of the painted table takes no tap
    assert table.page.evaluate("document.documentElement.dataset.painted") == "true"
    assert table.marked("selected") == [hand[0], hand[4]]
    release()
    assert table.marked("selected") == [hand[0], hand[4]]  # Python made them
    table.click_card(hand[5])
    table.page.click("#pass")
    assert table.wait_input() == "play"
    # On your turn: a dimmed card tapped before Python is up isn't played, and Python says
    # why; a playable one is taken at once (raised) and played once Python is up.
    for _ in range(13):
        if table.state() == "play" and table.unplayable():
            break
        table.play_one()
    dimmed, playable = table.unplayable()[0], table.playable()[0]
    kept_copy(table)
    release = held_start(table)
    tap(table, f'#hand [data-card="{dimmed}"]')
    assert table.marked("selected") == []
    release()
    name = table.page.text_content(f'#hand [data-card="{dimmed}"] .sr-only') or ""
    table.page.wait_for_function("document.querySelector('#alert').textContent")
    assert table.page.inner_text("#alert").lower().startswith(
        name.split("can't play: ")[1]), name  # the refusal, said: no error lost
    assert dimmed in table.hand() and table.state() == "play"
    kept_copy(table)
    release = held_start(table)
    tap(table, f'#hand [data-card="{playable}"]')
    tap(table, f'#hand [data-card="{table.playable()[-1]}"]')  # one card a turn: ignored
    assert table.marked("selected") == [playable]
    release()
    table.page.wait_for_function(
        "c => !document.querySelector(`#hand [data-card='${c}']`)", arg=playable)
    assert table.errors == []


def test_a_copy_that_is_corrupt_stale_finished_or_foreign_is_ignored_and_deleted(
        open_table: Callable[..., TablePage]) -> None:
    table = open_table()
    table.page.add_init_script(PROBE)
    table.goto("?speed=instant&seed=7")
    table.pass_cards()
    table.wait_input()
    good = kept_copy(table)
    hand = table.hand()
    bad = {
        "not JSON": '{"version": "',
        "another version": json.dumps({**good, "version": "0ld"}),
        "a finished game": json.dumps({**good, "state": "over"}),
        "something that runs": json.dumps(
            {**good, "table": good["table"] + '<img src="x" onerror="window.ran = 1">'}),
        "another page's table": json.dumps({**good, "table": '<p id="hand">hi</p>'}),
        "fields of the wrong kind": json.dumps({**good, "table": 5}),
    }
    failures = []
    for name, text in bad.items():
        table.load_with_storage({KEY: text}, "?speed=instant&seed=7")
        loaded = probe(table)["loaded"]
        if loaded["painted"] or loaded["loader"] == "none":
            failures.append(f"{name}: painted")
        if loaded["copy"] is not None:
            failures.append(f"{name}: not deleted")
        if table.hand() != hand:
            failures.append(f"{name}: the game was not resumed")
        if table.page.evaluate("window.ran === 1"):
            failures.append(f"{name}: ran")
    assert not failures, failures
    # A good copy again is painted (what the cases above changed is what kept them out).
    table.load_with_storage({KEY: json.dumps(good)}, "?speed=instant&seed=7")
    assert probe(table)["loaded"]["painted"]


def test_a_finished_game_or_a_table_of_friends_leaves_no_copy(
        open_table: Callable[..., TablePage]) -> None:
    """What the page's draws tell boot.js (web.browser.Browser.keep_drawn): a game over or
    a table that isn't the local game drops the copy; a draw before ready keeps it."""
    table = open_table()
    table.goto("?speed=instant&seed=5")
    for state, local, kept in (("loading", True, True), ("over", True, False),
                               ("play", False, False)):
        table.page.evaluate("heartsKeepTable('pass', true)")
        kept_copy(table)
        table.page.evaluate("([state, local]) => heartsKeepTable(state, local)", [state, local])
        assert (table.storage(KEY) is not None) == kept, (state, local)
