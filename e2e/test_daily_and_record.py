"""The daily deal, game codes and the record in Chromium: the menu starts them, a finished
daily gives its share text and chart, the Record dialog lists the game, a friend's code
deals the same hand; axe on the new dialogs, and screenshots to look at
(e2e/artifacts/daily-*.png)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable

import pytest
from tablepage import ARTIFACTS, TablePage
from test_a11y import BLOCKING, run_axe

from hearts import Game, Phase, Rules
from hearts.bots import make
from web import formats, words
from web.daily import DAILY_LEVEL, daily_seed, place_of
from web.record import gamecode
from web.record.history import KEY_RECORD, FinishedGame, Record, Tally, dump_record

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

SIZES = {"390x844": (390, 844), "320x640": (320, 640), "1440x900": (1440, 900)}


def browser_today(table: TablePage) -> datetime.date:
    y, m, d = table.page.evaluate("(() => { const d = new Date();"
                                  " return [d.getFullYear(), d.getMonth() + 1, d.getDate()]; })()")
    return datetime.date(y, m, d)


def menu(table: TablePage, button: str) -> None:
    """Click a button of the toolbar's More menu (folded away on a phone)."""
    page = table.page
    for menu in ("#more > summary", "#more-games > summary"):
        if not page.is_visible(f"#{button}") and page.is_visible(menu):
            page.click(menu)
    page.click(f"#{button}")


def axe_clean(table: TablePage, where: str) -> None:
    blocking = [f"{v['id']} ({v['impact']}): {v['help']} {v['nodes'][:3]}"
                for v in run_axe(table.page) if v["impact"] in BLOCKING]
    assert not blocking, f"axe, {where}:\n" + "\n".join(blocking)


EMPTY_BELOW = """(() => {
  const d = document.querySelector('dialog[open]');
  if (!d) return 0;
  const top = d.getBoundingClientRect().top - d.scrollTop;
  const bottom = Math.max(...[...d.children].map(c => c.getBoundingClientRect().bottom));
  return d.scrollHeight - (bottom - top);
})()"""
"""Pixels an open dialog scrolls on past its last content (its padding: about 16)."""


# (the message of a failure: what sticks out of the dialog, and how far)
WIDEST = """(() => {
  const d = document.querySelector('dialog[open]'), right = d.getBoundingClientRect().right;
  return [...d.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > right - 1)
    .map(e => `${e.tagName}#${e.id} ends at ${Math.round(e.getBoundingClientRect().right)}`)
    .slice(0, 8).join(', ') + ` (the dialog at ${Math.round(right)})`; })()"""


def shots(table: TablePage, name: str) -> None:
    """Screenshots at phone and desktop sizes, with no sideways scrolling."""
    page = table.page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("new Promise(r => requestAnimationFrame(() => r()))")
        assert table.no_horizontal_overflow(), f"{name} at {label}: sideways scroll"
        assert page.evaluate("(() => { const d = document.querySelector('dialog[open]');"
                             " return !d || d.scrollWidth <= d.clientWidth; })()"), \
            f"{name} at {label}: the dialog scrolls sideways " + page.evaluate(WIDEST)
        assert page.evaluate(EMPTY_BELOW) < 40, f"{name} at {label}: blank scrolling at the end"
        page.screenshot(path=str(ARTIFACTS / f"daily-{name}-{label}.png"))
        if page.evaluate("(() => { const d = document.querySelector('dialog[open]');"
                         " if (!d || d.scrollHeight <= d.clientHeight) return false;"
                         " d.scrollTop = d.scrollHeight; return true; })()"):
            page.evaluate("new Promise(r => requestAnimationFrame(() => "
                          "requestAnimationFrame(() => r())))")
            page.screenshot(path=str(ARTIFACTS / f"daily-{name}-{label}-end.png"))
            page.evaluate("document.querySelector('dialog[open]').scrollTop = 0")
    page.set_viewport_size({"width": 1280, "height": 860})


def near_the_end(seed: int) -> Game:
    """The game of ``seed`` played by easy computers, at South's last card of the game."""
    game = Game.new(seed=seed)
    bots = [make("easy", s) for s in range(4)]
    last = None
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, bots[seat].choose_pass(game.view(seat)))
            continue
        player = game.to_play
        assert player is not None
        seat = player
        if seat == 0:
            last = game.to_json()
        game.play(bots[seat].choose_play(game.view(seat)))
    assert last is not None
    return Game.from_json(last)


def test_the_daily_deal_starts_from_the_menu_and_stays_the_daily(
        table: TablePage) -> None:
    table.goto("?speed=instant&seed=3")
    table.pass_cards()  # a game under way: the daily asks first, like New game
    before = table.saved_game_json()
    menu(table, "daily-button")
    table.page.wait_for_selector("#confirm-new[open]")
    today = browser_today(table)
    asked = words.daily_ask(today, today, DAILY_LEVEL)  # the daily names itself
    assert table.page.inner_text("#confirm-new-title") == "Start today's daily deal?"
    assert table.page.inner_text("#confirm-new-desc") == asked.text
    assert table.page.inner_text("#confirm-new-game") == asked.go == "Play the daily deal"
    table.page.click("#keep-playing")
    assert table.saved_game_json() == before
    menu(table, "daily-button")
    table.page.click("#confirm-new-game")
    table.wait_input()
    today = browser_today(table)
    saved = table.storage(formats.KEY_SAVE)
    assert saved["daily"] == today.isoformat()
    assert json.loads(saved["game"])["seed"] == daily_seed(today)
    assert words.daily_start(today, DAILY_LEVEL) in table.status()
    hand = table.hand()
    table.reload()  # a reload mid-daily: still the daily, same cards
    assert table.storage(formats.KEY_SAVE)["daily"] == today.isoformat()
    assert table.hand() == hand
    assert table.page.inner_text("#game-badge") == words.daily_badge(today)
    table.screenshot("daily-under-way")
    # Settings says the daily keeps its own level, whatever is chosen there.
    table.page.click("#settings-button")
    assert table.page.inner_text("#level-note") == words.daily_level_note(DAILY_LEVEL)
    table.page.keyboard.press("Escape")
    menu(table, "code-button")
    assert table.page.input_value("#code-mine") == gamecode.encode(daily_seed(today))


def test_a_finished_daily_gives_its_result_to_share_its_chart_and_its_record(
        open_table: Callable[..., TablePage], base_url: str) -> None:
    table = open_table(name="daily", permissions=["clipboard-read", "clipboard-write"])
    table.goto("?speed=instant")
    today = browser_today(table)
    game = near_the_end(daily_seed(today))
    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(
        formats.Saved(game, daily=today.isoformat()))})
    while table.wait_input() == "play":
        table.play_one()
    assert table.state() == "over"
    page = table.page
    totals = table.scores()
    mine = totals[0]
    share = words.share_text(today, mine, place_of(totals), 1,
                             link=f"{base_url}/?daily={today.isoformat()}")
    assert page.inner_text("#summary .share-result") == share
    assert page.input_value("#share-text") == share
    chart = page.locator("#summary svg.chart")
    assert chart.get_attribute("role") == "img" and chart.locator("polyline").count() == 4
    hands = len(game.hand_history) + 1
    assert page.locator("#summary table.chart-table tbody tr").count() == hands
    assert str(mine) in page.inner_text("#summary table.chart-table tbody tr:last-child")
    assert gamecode.encode(daily_seed(today)) in page.inner_text("#summary .code-line")
    page.click("#copy-share")
    page.wait_for_function("document.querySelector('#summary .copy-said').textContent !== ''")
    assert page.evaluate("navigator.clipboard.readText()") == share
    axe_clean(table, "the daily's game over")
    shots(table, "game-over")

    page.keyboard.press("Escape")  # the game-over dialog closes; then the Record
    menu(table, "record-button")
    page.wait_for_selector("#record[open]")
    record = page.inner_text("#record")
    assert "Daily streak: 1 day. Play the daily deal tomorrow to make it 2." in record
    assert share in record
    items = page.locator("#record-history [data-game]")
    assert items.count() == 1 and "daily deal" in items.first.inner_text()
    assert items.first.get_attribute("aria-pressed") == "true"
    assert page.locator("#record-chart svg.chart polyline").count() == 4
    assert page.locator("#record-chart table.chart-table tbody tr").count() == hands
    assert "Hard" in page.inner_text("#record table.by-level")
    stored = table.storage("hearts.record")
    assert stored["days"] == {today.isoformat(): [mine, place_of(totals)]}
    axe_clean(table, "the Record dialog")
    shots(table, "record")
    assert "Won" in page.inner_text("#stat-won") and page.inner_text("#stat-won") != "Won 0 of 0"


def test_a_game_code_deals_the_same_first_hand(table: TablePage) -> None:
    table.goto("?speed=instant&seed=77")
    assert not table.page.is_visible("#game-badge")
    first = table.hand()
    menu(table, "code-button")
    page = table.page
    code = page.input_value("#code-mine")
    assert gamecode.decode(code) == 77
    axe_clean(table, "the Game code dialog")
    shots(table, "code")
    page.keyboard.press("Escape")
    table.page.click("#new-game")
    table.wait_input()
    other = table.hand()
    assert other != first
    menu(table, "code-button")
    typo = code[:-1] + ("0" if code[-1] != "0" else "1")
    page.fill("#code-input", typo)
    page.click("#code-play")
    assert page.inner_text("#code-error") == words.CODE_TYPO
    assert page.is_visible("#code[open]") and table.hand() == other  # nothing lost
    page.fill("#code-input", code.lower().replace("-", " "))
    page.click("#code-play")
    page.wait_for_function("!document.querySelector('#code').open")
    table.wait_input()
    assert table.hand() == first
    assert json.loads(table.saved_game_json())["seed"] == 77


def test_the_history_names_each_games_rules_and_charts_the_one_chosen(
        open_table: Callable[..., TablePage]) -> None:
    """Three past games, one under house rules: each listed with its level and rules, and
    choosing one draws its chart (screenshots: daily-history-*.png)."""
    table = open_table(name="history")
    table.goto("?speed=instant")
    today = browser_today(table)
    house = Rules(jd_bonus=True, end_score=50)
    record = Record()
    record.add(FinishedGame(today - datetime.timedelta(days=2), "normal", words.HOUSE_RULES,
                            False, gamecode.encode(5, house),
                            ((3, 13, 0, 10), (16, -10, 0, 10), (0, 26, 0, -10),
                             (-10, 0, 13, 13)), Tally(0, 1, 1), 50))
    record.add(FinishedGame(today - datetime.timedelta(days=1), "hard", "", True,
                            gamecode.encode(daily_seed(today)), ((6, 7, 6, 7),) * 8,
                            Tally(), 100))
    record.add(FinishedGame(today, "easy", "", False, gamecode.encode(9),
                            ((0, 26, 0, 0), (26, 0, 0, 0), (0, 0, 13, 13)) * 3, Tally(1)))
    table.load_with_storage({KEY_RECORD: dump_record(record)})
    menu(table, "record-button")
    page = table.page
    page.wait_for_selector("#record[open]")
    items = page.locator("#record-history [data-game]")
    assert items.count() == 3
    assert "easy computers" in items.nth(0).inner_text()
    assert "daily deal" in items.nth(1).inner_text()
    assert "normal computers · J♦ −10 · to 50" in items.nth(2).inner_text()
    assert page.locator("#record-chart table.chart-table tbody tr").count() == 9
    items.nth(2).click()
    assert items.nth(2).get_attribute("aria-pressed") == "true"
    assert page.locator("#record-chart table.chart-table tbody tr").count() == 4
    assert "end 50" in (page.text_content("#record-chart svg") or "")
    assert "Normal" in page.inner_text("#record table.by-level")
    axe_clean(table, "the Record dialog with three games")
    shots(table, "history")
