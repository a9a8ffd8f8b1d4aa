"""The card table in Chromium: passing, playing, hints, saves, stats, layout (the keyboard:
e2e/test_a11y.py)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from conftest import PHONE
from tablepage import TablePage, valid_hand_scores

from hearts import Game
from tests.scripted import finished_game
from web import formats

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def load_save(table: TablePage, saved: formats.Saved) -> None:
    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(saved)})


def test_a_hand_played_by_clicking(table: TablePage) -> None:
    table.goto("?speed=instant&seed=3")
    assert table.state() == "pass"
    assert "Pass 3 cards to the left ← West" in table.page.inner_text("#prompt")
    assert not table.page.is_visible("#reactions")  # nobody to say them to
    hand = table.hand()
    assert len(hand) == 13
    assert table.page.is_disabled("#pass")
    table.click_card(hand[0])
    table.click_card(hand[1])
    assert table.page.is_disabled("#pass")
    table.click_card(hand[1])  # tap again: unselected
    assert table.marked("selected") == [hand[0]]
    table.click_card(hand[2])
    table.click_card(hand[3])
    assert table.page.is_enabled("#pass")
    table.click_card(hand[4])  # a fourth card is refused
    assert table.marked("selected") == [hand[0], hand[2], hand[3]]
    table.screenshot("1-passing")
    table.page.click("#pass")
    table.wait_input()
    assert not set(table.hand()) & {hand[0], hand[2], hand[3]}
    received = table.marked("received")
    assert len(received) == 3
    shots: list[str] = []

    def on_turn(t: TablePage) -> None:
        if not shots and t.trick():
            shots.append(str(t.screenshot("2-mid-trick")))

    row = table.play_hand(on_turn)
    assert valid_hand_scores(row), row
    assert table.page.is_visible("#summary")
    table.screenshot("3-hand-summary")
    table.next_hand()
    assert table.scores() == row
    assert table.state() == "pass"
    assert "to the right → East" in table.page.inner_text("#prompt")


def test_a_dimmed_card_explains_and_plays_nothing(table: TablePage) -> None:
    table.goto("?speed=instant&seed=5")
    table.pass_cards()
    while not (table.state() == "play" and table.unplayable()):
        assert table.state() == "play"
        table.play_one()
    card = table.unplayable()[0]
    before = (table.hand(), table.trick(), table.saved_game_json())
    reason = Game.from_json(before[2]).why_illegal(card, 0)
    assert reason
    label = table.page.text_content(f'#hand [data-card="{card}"] .sr-only') or ""
    assert label.endswith(f"can't play: {reason[0].lower()}{reason[1:-1]}"), label
    table.click_card(card)  # the reason is said assertively
    table.page.wait_for_function("text => document.querySelector('#alert').textContent === text",
                                 arg=reason)
    assert (table.hand(), table.trick(), table.saved_game_json()) == before
    assert table.state() == "play"


def test_a_whole_game_updates_won_and_best(table: TablePage) -> None:
    table.goto("?speed=instant&seed=21")
    table.page.click("#settings-button")
    table.page.check('#settings input[name="level"][value="easy"]')
    table.page.keyboard.press("Escape")
    assert not table.page.is_visible("#settings")
    assert table.storage("hearts.settings")["level"] == "easy"
    hands = 0
    while True:
        row = table.play_hand()
        hands += 1
        assert valid_hand_scores(row), row
        if table.state() == "over":
            break
        table.next_hand()
    final = table.scores()
    assert max(final) >= 100
    title = table.page.inner_text("#summary h2")
    won = title.endswith("You win!")
    assert won == (final[0] == min(final))
    table.screenshot("4-game-over")
    stats = table.storage("hearts.stats")
    assert (stats["played"], stats["won"], stats["best"]) == (1, int(won), final[0])
    assert table.page.inner_text("#stat-won") == f"Won {int(won)} of 1"
    assert table.page.inner_text("#stat-best") == str(final[0])
    table.reload()  # the finished game and the stats survive a reload, counted once
    assert table.state() == "over"
    assert table.page.inner_text("#stat-won") == f"Won {int(won)} of 1"
    table.page.keyboard.press("Escape")  # closed: the final scores can be opened again
    table.page.wait_for_selector("#summary:not([open])", state="attached")
    assert table.page.is_hidden("#summary-title") or not table.page.is_visible("#summary")
    assert not any(table.page.inner_text(f'[data-seat="{s}"] .taken') for s in range(4))
    table.page.click("#scores-again")
    table.page.wait_for_selector("#summary[open] #summary-new-game")
    assert table.page.is_hidden("#scores-again")
    table.page.click("#summary-new-game")  # the game-over dialog is modal: its own button
    assert table.wait_input() == "pass"
    assert table.scores() == [0, 0, 0, 0]
    assert table.storage("hearts.stats")["played"] == 1
    print(f"whole game: {hands} hands, final {final}")


def test_reload_resumes_mid_pass_and_mid_trick(table: TablePage) -> None:
    table.goto("?speed=instant&seed=13")
    hand = table.hand()
    table.click_card(hand[5])
    table.click_card(hand[9])
    table.reload()
    assert table.state() == "pass"
    assert table.hand() == hand
    assert table.marked("selected") == [hand[5], hand[9]]
    table.click_card(hand[12])
    table.page.click("#pass")
    table.wait_input()
    while not table.trick():
        table.play_one()
    position = (table.hand(), table.trick(), table.scores(), table.saved_game_json(),
                table.marked("received"))
    clock = table.clock_seconds()
    table.reload()
    assert table.state() == "play"
    assert (table.hand(), table.trick(), table.scores(), table.saved_game_json(),
            table.marked("received")) == position
    assert table.clock_seconds() >= clock
    table.play_one()


def test_a_computer_turn_that_was_due_continues_after_reload(table: TablePage) -> None:
    game = Game.new(seed=17)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[:3])
    while game.to_play == 0 or not game.current_trick:
        game.play(game.legal_plays()[0])
    assert game.to_play != 0
    plays = len(game.to_text().split("plays=")[1]) // 2
    load_save(table, formats.Saved(game, clock_ms=65_000))
    assert table.state() in ("play", "summary")
    now = Game.from_json(table.saved_game_json())
    assert len(now.to_text().split("plays=")[1]) // 2 > plays
    assert now.to_play == 0
    assert table.clock_seconds() >= 65


def test_damaged_storage_is_reset_with_a_notice(table: TablePage) -> None:
    table.load_with_storage({
        "hearts.save": '{"schema":1,"game":"{broken',
        "hearts.stats": "not json at all",
        "hearts.settings": json.dumps({"schema": 99}),
    })
    assert table.state() == "pass"
    notice = table.page.inner_text("#notice")
    assert "saved game" in notice and "stats" in notice
    assert table.page.inner_text("#stat-won") == "Won 0 of 0"
    assert json.loads(table.page.evaluate("localStorage.getItem('hearts.stats')"))["played"] == 0


COUNT_PEER_CONNECTIONS = """window.peerConnections = 0;
const Made = window.RTCPeerConnection;
window.RTCPeerConnection = function (...args) {
    window.peerConnections++;
    return new Made(...args);
};"""


def test_every_request_stays_on_the_origin(table: TablePage) -> None:
    table.page.add_init_script(COUNT_PEER_CONNECTIONS)
    table.goto("?seed=2")  # normal speed: the real animations and timers
    table.pass_cards()
    table.page.click("#hint")
    table.play_one()
    urls = table.requests
    # a first visit: the wasm and our zip packed with brotli, not as gzip would send them
    assert any(url.endswith("/pyodide/pyodide.asm.wasm.br") for url in urls)
    assert any(url.endswith("/py/hearts.zip.br") for url in urls)
    assert not any(url.endswith(("/pyodide/pyodide.asm.wasm", "/py/hearts.zip.gz"))
                   for url in urls)
    outside = [url for url in urls if not url.startswith(table.origin + "/")
               and not url.startswith(("data:", "blob:"))]
    assert outside == []
    # Nor anything else: no relay, no peer connection, not even the code that reaches them.
    assert table.sockets == []
    assert not any(url.endswith("/static/room.js") for url in urls)
    assert table.page.evaluate("window.peerConnections") == 0


@pytest.mark.parametrize("width", [320, 360])
def test_phone_has_no_horizontal_scroll(open_table: Callable[..., TablePage],
                                        width: int) -> None:
    table = open_table(viewport={**PHONE, "width": width}, name=f"phone{width}",
                       has_touch=True, is_mobile=True)
    table.goto("?speed=instant&seed=3")
    assert table.no_horizontal_overflow()
    table.click_card(table.hand()[0])
    table.screenshot("1-passing")
    table.click_card(table.hand()[0])
    table.pass_cards()
    assert table.no_horizontal_overflow()
    while not table.trick():
        table.play_one()
    table.screenshot("2-mid-trick")
    row = table.play_hand()
    assert valid_hand_scores(row)
    assert table.no_horizontal_overflow()
    table.screenshot("3-hand-summary")
    load_save(table, formats.Saved(finished_game(), summary=None, counted=True))
    assert table.state() == "over"
    assert table.no_horizontal_overflow()
    table.screenshot("4-game-over")


def test_undo_takes_back_the_last_card_and_the_last_trick_can_be_reviewed(
        table: TablePage) -> None:
    table.goto("?speed=instant&seed=9")
    assert table.page.is_disabled("#undo") and table.page.is_disabled("#last-trick")
    table.pass_cards()
    while not table.page.evaluate("document.querySelector('#hand [data-card]') &&"
                                  " !document.querySelector('#trick [data-card]')"):
        table.play_one()  # until you lead a trick
    before = (table.hand(), table.trick(), table.saved_game_json())
    card = table.play_one()
    assert table.state() == "play" and card not in table.hand()
    assert table.page.is_enabled("#undo")
    table.page.click("#undo")
    table.page.wait_for_function("card => document.querySelector("
                                 "`#hand [data-card=\"${card}\"]`)", arg=card)
    assert table.wait_input() == "play"
    assert (table.hand(), table.trick(), table.saved_game_json()) == before
    assert "Took back" in table.status()
    assert table.page.is_disabled("#undo")
    table.play_one()
    table.page.click("#last-trick")
    assert len(table.trick()) == 4
    assert table.page.inner_text("#trick-caption").startswith("Last trick:")
    assert table.page.get_attribute("#last-trick", "aria-pressed") == "true"
    table.page.click("#last-trick")
    assert len(table.trick()) < 4


def test_looking_at_play_with_friends_leaves_the_game_as_it_was(table: TablePage) -> None:
    """Opening the Play with friends dialog only to look, then closing it, changes nothing:
    a private table opens only with its own button."""
    table.goto("?speed=instant&seed=5")
    table.pass_cards()
    before = (table.saved_game_json(), table.hand(), table.state())
    for close in ("#fr-close", "Escape"):
        table.page.click("#open-table")
        table.page.wait_for_selector("#friends[open] #host-table", state="visible")
        assert table.page.is_hidden("#fr-invites")
        if close == "Escape":
            table.page.keyboard.press("Escape")
        else:
            table.page.click(close)
        table.page.wait_for_selector("#friends:not([open])", state="attached")
        assert (table.saved_game_json(), table.hand(), table.state()) == before
        assert table.page.is_hidden("#stat-where") and table.page.is_enabled("#hint")
        assert table.storage("hearts.friends-table") is None


def test_new_game_asks_before_throwing_a_game_away(table: TablePage) -> None:
    """Mid-game, New game asks first (Keep playing changes nothing); at a game's untouched
    start there is nothing to lose, so it deals at once."""
    table.goto("?speed=instant&seed=6")
    untouched = table.saved_game_json()
    table.page.click("#new-game")  # nothing played yet: no question
    table.page.wait_for_function("t => JSON.parse(localStorage.getItem('hearts.save')).game"
                                 " !== t", arg=untouched)
    assert table.page.is_hidden("#confirm-new")
    table.wait_input()
    table.pass_cards()
    before = table.saved_game_json()
    table.page.click("#new-game")
    table.page.wait_for_selector("#confirm-new[open]")
    table.page.click("#keep-playing")
    table.page.wait_for_selector("#confirm-new:not([open])", state="attached")
    assert table.saved_game_json() == before and len(table.hand()) == 13
    table.page.click("#new-game")
    table.page.click("#confirm-new[open] #confirm-new-game")
    table.page.wait_for_function("document.documentElement.dataset.state === 'pass'")
    assert table.saved_game_json() != before


def test_the_felt_says_the_last_card_played_never_an_older_one(table: TablePage) -> None:
    """Whenever the table waits for you, the line on the felt tells the latest event: the
    last card played, or who took the trick it ended."""
    table.goto("?speed=instant&seed=9")
    table.pass_cards()
    for _ in range(8):
        if table.wait_input() != "play":
            break
        game = Game.from_json(table.saved_game_json())
        said = table.page.inner_text("#event")
        trick = game.current_trick
        if trick is not None and trick.cards:
            seat, card = trick.plays()[-1]
            who = "You" if seat == 0 else ("South", "West", "North", "East")[seat]
            assert said == f"{who} played the {card.name}.", (said, game.to_text())
        elif game.tricks:
            assert "the trick" in said, (said, game.to_text())
        else:  # you lead the hand's first trick: the pass was the last thing to happen
            assert said.startswith("You received"), (said, game.to_text())
        table.play_one()


def test_sounds_play_after_a_click_and_the_switch_is_kept(table: TablePage) -> None:
    table.goto("?speed=instant&seed=4")
    table.pass_cards()  # clicks: the page may make sound now
    table.play_one()
    assert table.page.evaluate("document.documentElement.dataset.cue") in (
        "card", "queen", "trick", "hearts")
    table.page.click("#settings-button")
    table.page.uncheck('#settings input[name="sound"]')
    table.page.keyboard.press("Escape")
    assert table.storage("hearts.settings")["sound"] is False
    table.page.evaluate("delete document.documentElement.dataset.cue")
    table.wait_input()
    table.play_one()
    assert table.page.evaluate("document.documentElement.dataset.cue") is None
    table.reload()
    table.page.click("#settings-button")
    assert not table.page.is_checked('#settings input[name="sound"]')


def test_the_seat_taking_a_trick_lights_up(table: TablePage) -> None:
    """At game speed a finished trick stays on show a moment, its taker's seat marked."""
    table.load_with_storage({formats.KEY_SETTINGS: formats.dump_settings(
        formats.Settings(speed="fast", level="easy"))}, "?seed=3")
    table.pass_cards()
    table.wait_input()
    table.click_card(table.playable()[0])  # and the computers finish the trick at their pace
    box = table.page.wait_for_selector(".seat.took", timeout=30_000)
    assert box is not None
    winner = int(box.get_attribute("data-seat") or -1)
    game = Game.from_json(table.saved_game_json())
    assert game.tricks and game.tricks[0].winner == winner


QUICK_TAP = """([x, y]) => { const hand = document.querySelector('#hand');
    const under = () => document.elementFromPoint(x, y)?.closest('[data-card]')?.dataset.card;
    const before = [...hand.querySelectorAll('[data-card]')].length;
    window.slid = new Promise(done => new MutationObserver((changes, watch) => {
        if (hand.querySelectorAll('[data-card]').length < before) {
            watch.disconnect(); done({at: performance.now(), under: under()}); }
    }).observe(hand, {childList: true}));
}"""


def test_a_quick_second_tap_is_not_taken_by_the_card_sliding_in_and_undo_waits_for_nobody(
        open_table: Callable[..., TablePage]) -> None:
    """On a phone, at the computers' slow pace: the second tap of a quick double tap lands on
    the card that slid into the place of the one played, and does nothing (no "Wait for your
    turn"); a tap just as soon but aimed elsewhere on it counts (it is told to wait); Undo is
    offered while the computers answer, and takes the card back."""
    table = open_table(viewport={"width": 390, "height": 844}, name="quick-taps",
                       has_touch=True, is_mobile=True)
    page = table.page
    page.clock.install()  # the taps' timing is the page's clock's, not the machine's pace
    table.goto("?speed=slow&seed=3")
    table.pass_cards()
    assert table.state() == "play"
    card = table.playable()[0]
    box = page.locator(f'#hand [data-card="{card}"]').bounding_box()
    assert box is not None
    point = [box["x"] + box["width"] / 2, box["y"] + box["height"] * .7]
    page.evaluate(QUICK_TAP, point)  # (watching before the first tap)
    table.pause_clock()
    page.touchscreen.tap(*point)
    page.clock.run_for(40)  # the table redraws; the second tap comes 40 ms after the first
    moved = page.evaluate("window.slid")
    page.touchscreen.tap(*point)  # the second tap, on the card now there
    assert page.evaluate("at => performance.now() - at", moved["at"]) < 300
    assert moved["under"] and moved["under"] != card
    assert page.inner_text("#alert") == ""
    assert moved["under"] in table.hand() and card not in table.hand()
    page.clock.run_for(40)
    page.touchscreen.tap(point[0], point[1] - 30)  # as soon, aimed higher up that card
    assert "Wait for your turn" in page.inner_text("#alert")
    page.clock.resume()
    # The computers are still answering the card (slow pace): Undo takes it back now.
    assert page.evaluate("document.documentElement.dataset.state") == "wait"
    assert page.is_enabled("#undo")
    page.click("#undo")
    page.wait_for_function("card => document.querySelector(`#hand [data-card='${card}']`)",
                           arg=card)
    assert table.wait_input() == "play" and card not in table.trick()


STILL_UNDER_POINTER = """async card => {
    const node = document.querySelector(`#hand [data-card="${card}"]`);
    const frame = () => new Promise(done => requestAnimationFrame(done));
    const tops = new Set();
    for (let i = 0; i < 40; i++) {
        await frame();
        tops.add(Math.round(node.getBoundingClientRect().top));
    }
    return [...tops];
}"""


def test_a_raised_card_under_a_resting_pointer_stands_still(table: TablePage) -> None:
    """A hinted or chosen card stands higher than the rest: a pointer resting on its top
    edge doesn't make it shake (hover lowering it away from the pointer, and back)."""
    page = table.page
    table.goto("?seed=5")  # motion on: transitions run as a person sees them
    page.keyboard.press("h")
    page.wait_for_function("document.querySelectorAll('#hand .card.hinted').length === 3")
    hinted = table.marked("hinted")
    rest = [card for card in table.hand() if card not in hinted]
    table.click_card(rest[0])
    for card in (hinted[0], rest[0]):
        box = page.locator(f'#hand [data-card="{card}"]').bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] * .7, box["y"] + 2)
        page.wait_for_timeout(300)  # the transition into place is over
        assert len(page.evaluate(STILL_UNDER_POINTER, card)) == 1, card
