"""Nothing lost, nothing breaks: the table under reloads, hostile storage, odd input, long
play and its own errors.

Like every e2e test, each one here also fails on any console error, page error, Python
traceback or off-origin request (see conftest.py); the error-report test removes only the
console lines of the fault it injects itself.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import ViewportSize
from tablepage import TablePage

from hearts import Game, Phase
from web import formats

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

INSTANT = "?speed=instant"
STATE_JS = "document.documentElement.dataset.state"


# --- reading the whole position off the page ---

def position(t: TablePage) -> dict[str, Any]:
    """Everything the person can see of the game, plus the stored game itself."""
    page = t.page
    saved = t.storage(formats.KEY_SAVE)
    return {
        "state": t.state(),
        "hand": t.hand(),
        "selected": t.marked("selected"),
        "received": t.marked("received"),
        "playable": t.playable(),
        "trick": t.trick(),
        "scores": t.scores(),
        "summary": t.summary_row() if t.state() in ("summary", "over") else None,
        "pass-dir": page.inner_text("#pass-dir"),
        "hearts": page.inner_text("#hearts-state"),
        "won": page.inner_text("#stat-won"),
        "best": page.inner_text("#stat-best"),
        "game": saved["game"],
        "saved-selected": saved["selected"],
        "saved-summary": saved["summary"],
    }


def plays_of(game_json: str) -> tuple[str, str]:
    """(everything but the plays, the plays) of a stored game's text form."""
    head, _, plays = Game.from_json(game_json).to_text().partition(" plays=")
    return head, plays.strip("-")


def south_played(game_json: str) -> int:
    game = Game.from_json(game_json)
    return sum(1 for seat, _ in game.view(0).plays() if seat == 0)


def wait_state(t: TablePage, *states: str, timeout: float = 60_000) -> str:
    t.page.wait_for_function(f"states => states.includes({STATE_JS})", arg=list(states),
                             timeout=timeout)
    return t.state()


# --- 1. resume anywhere ---

KINDS = ("passing, cards picked", "after passing", "your turn, leading", "your turn, mid-trick",
         "a computer's turn", "hand summary", "game over")


def test_resume_at_seeded_reload_points_across_a_whole_game(table: TablePage) -> None:
    """Reload at 20+ points chosen by a seed, covering every kind of moment of a game: the
    same position comes back, the clock never goes back, and the stored game only ever
    grows by the moves made (nothing played twice, nothing skipped)."""
    rng = random.Random(6)
    page = table.page
    table.load_with_storage({formats.KEY_SETTINGS: formats.dump_settings(
        formats.Settings(speed="fast", level="easy"))}, "?speed=instant&seed=606")
    reloads: dict[str, int] = dict.fromkeys(KINDS, 0)
    clock = 0
    history: list[str] = []  # every stored game seen, in order

    def check_growth(now: str) -> None:
        if history and history[-1] != now:
            old_head, old_plays = plays_of(history[-1])
            new_head, new_plays = plays_of(now)
            if old_head == new_head:  # same hand: only new plays, none lost or repeated
                assert new_plays.startswith(old_plays), (history[-1], now)
        history.append(now)

    def reload_here(kind: str) -> None:
        nonlocal clock
        before = position(table)
        table.reload()
        after = position(table)
        assert after == before, f"reload at {kind!r} changed the position"
        seconds = table.clock_seconds()
        assert seconds >= clock, (kind, seconds, clock)
        clock = seconds
        reloads[kind] += 1
        check_growth(after["game"])

    def maybe(kind: str, chance: float = 0.2) -> None:
        if reloads[kind] == 0 or rng.random() < chance:
            reload_here(kind)

    def computers_turn_reload() -> None:
        """At game speed: play a card, reload while the computers are still to play."""
        nonlocal clock
        page.goto(f"{table.origin}/?seed=606")
        table.wait_ready()
        if table.state() != "play":
            return
        game_before = table.saved_game_json()
        card = table.playable()[0]
        table.click_card(card)
        page.wait_for_function(
            "card => !document.querySelector(`#hand [data-card='${card}']`)", arg=card)
        played = table.saved_game_json()
        assert south_played(played) == south_played(game_before) + 1
        page.goto(f"{table.origin}/{INSTANT}")
        table.wait_ready()
        now = table.saved_game_json()
        assert plays_of(now)[1].startswith(plays_of(played)[1]) or \
            plays_of(now)[0] != plays_of(played)[0]
        assert south_played(now) in (south_played(played), 0)  # 0: a new hand began
        assert card not in table.hand()
        reloads["a computer's turn"] += 1
        check_growth(played)
        check_growth(now)
        clock = max(clock, table.clock_seconds())

    while True:
        state = table.wait_input()
        check_growth(table.saved_game_json())
        if state == "over":
            maybe("game over", 1.0)
            break
        if state == "summary":
            maybe("hand summary", 0.3)
            table.next_hand()
            continue
        if state == "pass":
            hand = table.hand()
            picked = rng.sample(hand, 3)
            for number, card in enumerate(picked):
                table.click_card(card)
                if number < 2:
                    maybe("passing, cards picked", 0.12)
            table.page.click("#pass")
            table.wait_input()
            maybe("after passing", 0.3)
            continue
        kind = "your turn, mid-trick" if table.trick() else "your turn, leading"
        maybe(kind, 0.05)
        if rng.random() < 0.03 or reloads["a computer's turn"] == 0:
            computers_turn_reload()
            continue
        table.play_one()

    total = sum(reloads.values())
    print(f"reload points: {total}: {reloads}; clock {clock} s")
    assert total >= 20 and all(reloads.values()), reloads
    final = Game.from_json(table.saved_game_json())
    assert final.phase is Phase.GAME_OVER
    stats = table.storage(formats.KEY_STATS)
    assert stats["played"] == 1  # the finished game counted once, whatever the reloads
    assert clock > 0


# --- 2. hostile storage ---

STATS = formats.Stats(played=3, won=1, best=52, total_ms=1_234_000)


def mid_game(seed: int = 31, plays: int = 5) -> formats.Saved:
    """A game after passing with a few cards played, South to play next or soon."""
    game = Game.new(seed=seed)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[-3:])
    for _ in range(plays):
        game.play(game.legal_plays()[0])
    return formats.Saved(game, clock_ms=83_000)


def with_game(saved: formats.Saved, **changes: Any) -> str:
    """A stored save with the game's own JSON fields changed."""
    data = json.loads(formats.dump_save(saved))
    game = json.loads(data["game"])
    game.update(changes)
    data["game"] = json.dumps(game)
    return json.dumps(data)


def with_fields(saved: formats.Saved, **changes: Any) -> str:
    return json.dumps({**json.loads(formats.dump_save(saved)), **changes})


def load_fresh(t: TablePage, items: dict[str, str], query: str = INSTANT) -> None:
    """Replace all of localStorage with ``items`` (from a page that isn't the table, so
    nothing saves over them) and open the table."""
    t.page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    t.page.goto(f"{t.origin}/pyodide/pyodide-lock.json")
    t.page.evaluate("""items => { localStorage.clear();
        for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }""", items)
    t.goto(query)


def notice_text(t: TablePage) -> str:
    return "" if t.page.is_hidden("#notice") else t.page.inner_text("#notice")


def hostile_cases() -> list[tuple[str, dict[str, str], list[str], str]]:
    """(name, what storage holds, words the notice must say, the stats line expected)."""
    good = mid_game()
    stats = formats.dump_stats(STATS)
    kept = "Won 1 of 3"
    deal = json.loads(good.game.to_json())["deal"]
    duplicated = [deal[0], deal[0], deal[2], deal[3]]
    return [
        ("garbage JSON", {formats.KEY_SAVE: "{{{ not json", formats.KEY_STATS: stats},
         ["saved game", "new game"], kept),
        ("wrong shape", {formats.KEY_SAVE: json.dumps([1, 2, 3]), formats.KEY_STATS: stats},
         ["saved game"], kept),
        ("future schema", {formats.KEY_SAVE: with_fields(good, schema=7),
                           formats.KEY_STATS: json.dumps({"schema": 9, "played": 99})},
         ["newer version", "stats"], "Won 0 of 0"),
        ("truncated save", {formats.KEY_SAVE: formats.dump_save(good)[:400],
                            formats.KEY_STATS: stats}, ["saved game"], kept),
        ("impossible cards", {formats.KEY_SAVE: with_game(good, deal=duplicated),
                              formats.KEY_STATS: stats}, ["saved game"], kept),
        ("impossible history", {formats.KEY_SAVE: with_game(good, history=[[20, 10, 0, 0]]),
                                formats.KEY_STATS: stats}, ["saved game"], kept),
        ("rules this page doesn't know", {formats.KEY_SAVE: with_game(
            good, rules={"end_score": 0, "jokers": True})}, ["saved game"], "Won 0 of 0"),
        ("huge values", {formats.KEY_SAVE: with_fields(good, clock_ms=1e300),
                         formats.KEY_STATS: json.dumps({"schema": 1, "played": 10**30,
                                                      "won": 1, "best": 1, "total_ms": 0})},
         ["clock", "stats"], "Won 0 of 0"),
        ("too deep to parse", {formats.KEY_SAVE: "[" * 24_000 + "]" * 24_000,
                               formats.KEY_STATS: stats}, ["saved game"], kept),
        ("keys from another app", {"todo.items": '["milk"]', "hearts": "42",
                                   "hearts.save.bak": "x", formats.KEY_STATS: stats}, [], kept),
        ("picked cards not in the hand", {
            formats.KEY_SAVE: with_fields(formats.Saved(Game.new(seed=4)), selected=["XX", "2C"]),
            formats.KEY_STATS: stats}, ["cards you had picked"], kept),
        ("an Undo step from another game", {
            formats.KEY_SAVE: with_fields(good, undo=Game.new(seed=5).to_json(), undo_hand=1,
                                        undo_trick=1),
            formats.KEY_STATS: stats}, ["Undo"], kept),
        ("only the best score damaged", {
            formats.KEY_STATS: json.dumps({**json.loads(stats), "best": "fifty"}),
            formats.KEY_SETTINGS: json.dumps({"schema": 1, "speed": "warp", "level": "easy"})},
         ["best score", "settings"], kept),
    ]


def test_hostile_storage_never_breaks_the_page(table: TablePage) -> None:
    """A dozen kinds of bad stored data: the page reaches data-ready, says in plain words
    what it reset, keeps what was valid (the stats when only the save is bad, the game when
    only the page's state around it is bad), and stores clean data again."""
    failures = []
    for name, items, words, stats_line in hostile_cases():
        load_fresh(table, items)
        problems = []
        notice = notice_text(table)
        for word in words:
            if word.lower() not in notice.lower():
                problems.append(f"notice lacks {word!r}")
        if not words and notice:
            problems.append("a notice where nothing was reset")
        if re.search(r"Traceback|Error|\{|\bNone\b|schema", notice):
            problems.append("notice is not plain words")
        if table.page.inner_text("#stat-won") != stats_line:
            problems.append(f"stats shown: {table.page.inner_text('#stat-won')}")
        for key, loader in ((formats.KEY_SAVE, formats.load_save), (formats.KEY_STATS,
                                                                formats.load_stats),
                            (formats.KEY_SETTINGS, formats.load_settings)):
            text = table.page.evaluate("key => localStorage.getItem(key)", key)
            if loader(text)[1] is not None:
                problems.append(f"{key} still bad after loading")
        if name == "keys from another app":
            kept = table.page.evaluate("localStorage.getItem('todo.items')")
            problems += [] if kept == '["milk"]' else ["another app's key was touched"]
        if name == "picked cards not in the hand":
            table.pass_cards()  # passing works with a clean selection
        if name == "an Undo step from another game":
            if table.page.is_enabled("#undo"):
                problems.append("Undo offered from another game")
            if table.saved_game_json() != mid_game().game.to_json() and \
                    plays_of(table.saved_game_json())[0] != plays_of(mid_game().game.to_json())[0]:
                problems.append("the game itself was not kept")
        if problems:
            failures.append(f"{name}: {'; '.join(problems)} (notice: {notice!r})")
    assert not failures, "\n".join(failures)


# --- 3. no storage ---

NO_STORAGE = """Object.defineProperty(window, "localStorage", {configurable: true,
    get() { throw new DOMException("The operation is insecure.", "SecurityError"); }});"""
QUOTA = """(() => { const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
        if (window.__full) throw new DOMException("The quota has been exceeded.",
                                                  "QuotaExceededError");
        return setItem.call(this, key, value); }; })();"""


def test_storage_that_throws_on_access_still_plays_with_a_notice(
        open_table: Callable[..., TablePage]) -> None:
    """Storage disabled (private mode, a blocked site): the game plays a whole hand and says
    that progress won't be kept; a reload starts again instead of failing."""
    table = open_table()
    table.page.add_init_script(NO_STORAGE)
    table.goto("?speed=instant&seed=8")
    assert "won't be kept" in notice_text(table)
    row = table.play_hand()
    assert sum(row) in (26, 78)
    table.next_hand()
    table.reload()
    assert table.state() == "pass" and table.scores() == [0, 0, 0, 0]
    assert "won't be kept" in notice_text(table)


def test_storage_full_mid_game_plays_on_with_a_notice(
        open_table: Callable[..., TablePage]) -> None:
    """The quota runs out mid-pass: a notice says progress from here won't be kept, the hand
    plays to its end, and a reload comes back to the last position that was stored."""
    table = open_table()
    table.page.add_init_script(QUOTA)
    table.goto("?speed=instant&seed=9")
    hand = table.hand()
    table.click_card(hand[0])
    table.click_card(hand[4])
    assert notice_text(table) == ""
    table.page.evaluate("window.__full = true")
    table.click_card(hand[7])
    assert "storage is full" in notice_text(table)
    table.page.click("#pass")
    row = table.play_hand()
    assert sum(row) in (26, 78)
    table.reload()  # the quota is back: the last stored position returns, intact
    assert table.state() == "pass"
    assert table.hand() == hand and table.marked("selected") == [hand[0], hand[4]]
    assert notice_text(table) == ""


# --- 4. odd input ---

HIDE_JS = """hidden => {
    Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
    Object.defineProperty(document, "visibilityState", {configurable: true,
                          get: () => hidden ? "hidden" : "visible"});
    document.dispatchEvent(new Event("visibilitychange")); }"""


def south_plays(t: TablePage) -> int:
    return south_played(t.saved_game_json())


def test_double_clicks_rapid_clicks_and_clicks_out_of_turn(table: TablePage) -> None:
    """Passing: rapid taps toggle exactly, a fourth card is refused, a double-clicked Pass
    passes once. Playing: a double-clicked card plays one card, never two."""
    table.goto("?speed=instant&seed=14")
    page = table.page
    hand = table.hand()
    for _ in range(5):  # five quick taps: selected (odd)
        table.click_card(hand[0])
    page.dblclick(f'#hand [data-card="{hand[1]}"]')  # two taps: back to unselected
    assert table.marked("selected") == [hand[0]]
    table.click_card(hand[2])
    table.click_card(hand[3])
    table.click_card(hand[4])  # a fourth: refused
    assert table.marked("selected") == [hand[0], hand[2], hand[3]]
    page.dblclick("#pass")
    table.wait_input()
    game = Game.from_json(table.saved_game_json())
    assert game.phase is not Phase.PASS
    assert not {hand[0], hand[2], hand[3]} & set(table.hand())
    assert len(table.hand()) + south_plays(table) == 13
    doubles = 0
    while (state := table.wait_input()) == "play" and doubles < 12:
        hand_number = Game.from_json(table.saved_game_json()).hand_number
        before = south_plays(table)
        card = table.playable()[0]
        page.dblclick(f'#hand [data-card="{card}"]', force=True)
        page.wait_for_function(
            "card => !document.querySelector(`#hand [data-card='${card}']`)", arg=card)
        table.wait_input()
        if Game.from_json(table.saved_game_json()).hand_number == hand_number:
            assert south_plays(table) == before + 1, f"a double click on {card} played twice"
        doubles += 1
    assert state in ("play", "summary", "over")


def test_input_during_computer_turns_resizes_and_a_hidden_tab(table: TablePage) -> None:
    """At game speed: clicks and keys while the computers play are ignored (no card of
    yours moves, nothing is played for you; a click says whose turn it is); resizing or
    rotating mid-trick and hiding the tab don't stall the table; the clock stops while the
    tab is hidden."""
    table.page.clock.install()  # time flows as usual, and the test may jump it ahead
    table.load_with_storage({formats.KEY_SETTINGS: formats.dump_settings(
        formats.Settings(speed="fast", level="easy"))}, "?seed=23")
    page = table.page
    table.pass_cards()
    sizes: list[ViewportSize] = [{"width": 360, "height": 740}, {"width": 740, "height": 360},
             {"width": 1280, "height": 860}]
    told_to_wait = 0
    for turn in range(6):
        state = table.wait_input()
        if state != "play":
            break
        before = south_plays(table)
        hand = table.hand()
        card = table.playable()[0]
        table.click_card(card)
        if table.state() != "wait":
            continue  # nothing left for the computers this time
        # the page's timers stand still while the test clicks and types out of turn, or
        # the computers could finish meanwhile and Enter would play a card in turn
        table.pause_clock()
        if table.state() != "wait":
            page.clock.resume()
            continue
        for other in hand[:4]:  # clicks and keys out of turn
            if other != card and table.state() == "wait":
                page.click(f'#hand [data-card="{other}"]', force=True, timeout=2000,
                           no_wait_after=True)
        if "Wait for your turn" in page.inner_text("#alert"):
            told_to_wait += 1
        page.keyboard.press("Enter")
        page.keyboard.press("h")
        page.clock.resume()
        if turn % 3 == 0:
            page.set_viewport_size(sizes[turn // 3 % 3])
        if turn % 3 == 1:
            clock = table.clock_seconds()
            page.evaluate(HIDE_JS, True)
            page.clock.run_for(2500)  # 2.5 s of the page's timers and clock, at once
            page.evaluate(HIDE_JS, False)
            assert table.clock_seconds() - clock <= 1, "the clock ran while hidden"
        state = table.wait_input()
        if state == "play" and Game.from_json(table.saved_game_json()).tricks:
            now = Game.from_json(table.saved_game_json())
            if south_plays(table) >= before:
                assert south_plays(table) == before + 1, "a card was played for you"
            assert len(table.hand()) == 13 - sum(1 for s, _ in now.view(0).plays() if s == 0)
    page.set_viewport_size({"width": 1280, "height": 860})
    assert told_to_wait, "a click out of turn should say whose turn it is"


def test_keys_and_clicks_while_the_summary_is_open(table: TablePage) -> None:
    """The hand summary is open: the hint key, arrows, Space and clicks on the table change
    nothing; then Enter on Next hand goes on."""
    table.goto("?speed=instant&seed=15")
    table.play_hand()
    assert table.state() == "summary"
    before = position(table)
    page = table.page
    for key in ("h", "H", "ArrowLeft", "ArrowRight", "Home", "End", "u", "Tab", "Shift+Tab"):
        page.keyboard.press(key)
    page.mouse.click(640, 700)
    assert table.state() == "summary"
    after = position(table)
    assert after["game"] == before["game"] and after["scores"] == before["scores"]
    page.focus("#next-hand")
    page.keyboard.press("Enter")
    assert table.wait_input() == "pass"


# --- 6. errors are visible, never silent ---

# A fault injected from outside: after ``window.__faultAfter`` more draws of the table, the
# call the page makes at the end of each draw (``heartsKeepTable``, web/static/boot.js)
# throws, so the page's Python gets an exception it never expected. (Not a lookup the draw
# makes: the felt finds its nodes once and keeps them.)
FAULT = """(() => { let keep;
    Object.defineProperty(window, "heartsKeepTable", { configurable: true,
        set(f) { keep = f; },
        get() { return keep && function (...args) {
            if (window.__faultAfter !== undefined && window.__faultAfter-- <= 0) {
                throw new Error("injected fault");
            }
            return keep.apply(this, args); }; } }); })();"""


def forget_injected(t: TablePage) -> None:
    """The console errors of the injected fault are expected; any other still fails."""
    t.errors[:] = [e for e in t.errors if "injected fault" not in e]


def test_an_unexpected_error_is_shown_copied_stored_and_offered_back(
        open_table: Callable[..., TablePage]) -> None:
    """An exception in a click handler, then one in the computers' turn: each opens the
    error dialog (input to the table is ignored meanwhile), Copy details puts the position's
    text form and the traceback on the clipboard, New game starts afresh; the report is
    stored, and the next load offers to go back to the last good position, which comes back
    exactly."""
    table = open_table(permissions=["clipboard-read", "clipboard-write"])
    page = table.page
    page.add_init_script(FAULT)
    table.goto("?speed=instant&seed=12")
    table.pass_cards()
    assert table.state() == "play"
    good_game = table.saved_game_json()

    # 1. in a click handler
    page.evaluate("window.__faultAfter = 0")
    table.click_card(table.playable()[0])
    page.wait_for_selector("#error-panel[open]")
    assert "Something went wrong" in page.inner_text("#error-panel")
    page.keyboard.press("h")  # the table takes no input under the error dialog
    assert table.marked("hinted") == []
    page.click("#error-copy")
    page.wait_for_function("document.querySelector('#error-copied').textContent.length > 0")
    copied = str(page.evaluate("navigator.clipboard.readText()"))
    assert "position: seed=" in copied and "Traceback" in copied and "injected fault" in copied
    crash = formats.load_crash(page.evaluate("localStorage.getItem('hearts.crash')"))
    assert crash is not None and "injected fault" in crash.details
    assert crash.good is not None and json.loads(crash.good)["game"] == good_game
    page.evaluate("delete window.__faultAfter")
    page.click("#error-new")
    assert table.wait_input() == "pass" and table.scores() == [0, 0, 0, 0]
    assert page.evaluate("localStorage.getItem('hearts.crash')") is None
    forget_injected(table)

    # 2. in the computers' turn (the click's own redraw passes, the next one fails)
    table.pass_cards()
    before_click = position(table)
    page.evaluate("window.__faultAfter = 1")
    table.click_card(table.playable()[0])
    page.wait_for_selector("#error-panel[open]")
    forget_injected(table)
    table.reload()  # closing the tab or reloading is what a stuck player does
    page.wait_for_selector("#restore")
    assert "problem last time" in page.inner_text("#restore")
    page.click("#restore-go")
    page.wait_for_function("!document.querySelector('#restore')")
    table.wait_ready()
    assert position(table) == before_click
    assert page.evaluate("localStorage.getItem('hearts.crash')") is None
    table.play_one()  # and the game goes on

    # 3. Close instead of New game: the computers' turn the error cut short goes on
    while table.state() != "play":
        table.next_hand() if table.state() == "summary" else table.pass_cards()
    page.evaluate("window.__faultAfter = 1")
    table.click_card(table.playable()[0])
    page.wait_for_selector("#error-panel[open]")
    page.evaluate("delete window.__faultAfter")
    page.click("#error-close")
    assert table.wait_input() in ("play", "summary")  # not stuck waiting for the computers
    assert page.evaluate("!document.querySelector('#error-panel[open]')")
    forget_injected(table)


# --- 5. long play: memory and DOM size, game after game ---

WASM_WATCH = """(() => {
    const Memory = WebAssembly.Memory;
    const seen = window.__wasmMemories = [];
    const keep = instance => { try { for (const value of Object.values(instance.exports))
        if (value instanceof Memory && !seen.includes(value)) seen.push(value); } catch (e) {} };
    WebAssembly.Memory = new Proxy(Memory, { construct(target, args) {
        const memory = new target(...args); seen.push(memory); return memory; } });
    for (const name of ["instantiate", "instantiateStreaming"]) {
        const original = WebAssembly[name];
        if (!original) continue;
        WebAssembly[name] = async function (...args) {
            const result = await original.apply(this, args);
            keep(result.instance || result);
            return result; };
    }
})();"""

# Plays the person's side from inside the page (fewer round trips than Playwright clicks):
# first three cards to pass, first playable card, Next hand; returns at the game over screen.
PLAY_GAME_JS = """async () => {
    const state = () => document.documentElement.dataset.state;
    const waiting = () => !["pass", "play", "summary", "over"].includes(state());
    // Resolves at the table's next state change (its data-state attribute is written).
    const changed = () => new Promise(resolve => {
        const watch = new MutationObserver(() => { watch.disconnect(); resolve(); });
        watch.observe(document.documentElement,
                      {attributes: true, attributeFilter: ["data-state"]});
    });
    const yieldToPage = () => new Promise(resolve => setTimeout(resolve, 0));
    const start = performance.now();
    let actions = 0;
    while (performance.now() - start < 300000) {
        while (waiting()) await changed();
        const now = state();
        if (now === "over") return actions;
        if (now === "summary") document.querySelector("#next-hand").click();
        else if (now === "pass") {
            for (let i = 0; i < 3; i++)
                document.querySelector("#hand [data-card]:not(.selected)").click();
            document.querySelector("#pass").click();
        } else document.querySelector("#hand [data-card][aria-disabled='false']").click();
        actions++;
        await yieldToPage();
    }
    return -1;
}"""


def measure(t: TablePage, cdp: Any) -> dict[str, int]:
    cdp.send("HeapProfiler.collectGarbage")
    cdp.send("HeapProfiler.collectGarbage")
    heap = cdp.send("Runtime.getHeapUsage")
    counters = cdp.send("Memory.getDOMCounters")
    return {
        "js_heap": int(heap["usedSize"]),
        "dom_nodes": int(t.page.evaluate("document.getElementsByTagName('*').length")),
        "dom_nodes_all": int(counters["nodes"]),
        "listeners": int(counters["jsEventListeners"]),
        "wasm": int(t.page.evaluate(
            "Math.max(0, ...window.__wasmMemories.map(m => m.buffer.byteLength))")),
    }


def whole_games_without_growth(t: TablePage, games: int) -> list[dict[str, int]]:
    """Play ``games`` whole games at instant speed; measure at the start of each new one."""
    page = t.page
    t.page.add_init_script(WASM_WATCH)
    t.goto("?speed=instant&seed=40")
    cdp = page.context.new_cdp_session(page)
    figures = []
    for number in range(games):
        actions = page.evaluate(PLAY_GAME_JS)
        assert actions > 0, "the game got stuck"
        assert t.state() == "over"
        page.click("#summary-new-game")
        assert t.wait_input() == "pass"
        figures.append({"game": number + 1, "actions": int(actions), **measure(t, cdp)})
        print(figures[-1])
    stats = t.storage(formats.KEY_STATS)
    assert stats["played"] == games
    first, last = figures[0], figures[-1]  # game 1 warms caches up; compare from there
    assert last["dom_nodes"] <= first["dom_nodes"] + 20, figures
    assert last["dom_nodes_all"] <= first["dom_nodes_all"] * 1.2 + 500, figures
    assert last["listeners"] <= first["listeners"] + 20, figures
    assert last["js_heap"] <= first["js_heap"] * 1.15 + 2_000_000, figures
    if first["wasm"]:
        assert last["wasm"] <= first["wasm"] + 8 * 2**20, figures
    return figures


def test_three_whole_games_leave_memory_and_dom_flat(table: TablePage) -> None:
    """Three whole games at instant speed: after the first, the JS heap (after GC), the
    live and total DOM node counts, the listeners and Python's wasm memory don't grow
    (twenty games in the slow run below)."""
    whole_games_without_growth(table, 3)


@pytest.mark.slow
def test_twenty_whole_games_leave_memory_and_dom_flat(table: TablePage) -> None:
    whole_games_without_growth(table, 20)
