"""The solo table's moments in Chromium: the felt's line at each new start, the summary
over the hand it sums up, the pass landing before the first lead, the keyboard's way to
each control, and cards sized to the screen."""

from __future__ import annotations

import itertools

import pytest
from tablepage import TablePage
from test_daily_and_record import menu, near_the_end

from hearts import Game, Phase
from hearts.bots import make
from web import formats
from web.record import gamecode

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def near_hand_end(seed: int) -> Game:
    """The game of ``seed`` played by easy computers, at South's last card of hand 1."""
    game = Game.new(seed=seed)
    bots = [make("easy", s) for s in range(4)]
    while True:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, bots[seat].choose_pass(game.view(seat)))
            continue
        player = game.to_play
        assert player is not None
        seat = player
        if seat == 0 and len(game.hand(0)) == 1:
            return game
        game.play(bots[seat].choose_play(game.view(seat)))


def event_line(table: TablePage) -> str:
    return table.page.inner_text("#event").strip()


def test_the_felt_line_starts_empty_for_each_new_game_and_hand(table: TablePage) -> None:
    """Nothing from a game, or a hand, that is over stays on the felt under the next."""
    table.goto("?speed=instant")
    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(formats.Saved(near_the_end(5)))})
    while table.wait_input() == "play":
        table.play_one()
    assert table.state() == "over"
    assert event_line(table).startswith("Game over.")
    table.page.keyboard.press("Escape")  # the game-over summary closes
    table.page.wait_for_selector("#summary:not([open])", state="attached")
    menu(table, "daily-button")  # the game is over: the daily starts at once
    table.page.wait_for_function("document.documentElement.dataset.state === 'pass'")
    assert event_line(table) == ""
    table.pass_cards()
    while not event_line(table):
        table.play_one()
    menu(table, "code-button")
    table.page.fill("#code-input", gamecode.encode(77))
    table.page.click("#code-play")
    table.page.click("#confirm-new[open] #confirm-new-game")
    table.page.wait_for_function("document.documentElement.dataset.state === 'pass'")
    assert event_line(table) == ""
    # The hand's last card: the summary, then the next hand starts with an empty line.
    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(formats.Saved(near_hand_end(8)))})
    table.play_one()
    assert table.state() == "summary"
    table.next_hand()
    assert event_line(table) == ""


STORY_SYMBOLS_OUT = """(() => {
  const box = document.querySelector('#summary').getBoundingClientRect();
  return [...document.querySelectorAll('#summary-story .sym')].map(sym => {
    const range = document.createRange();
    range.selectNodeContents(sym);
    const glyph = range.getBoundingClientRect(), own = sym.getBoundingClientRect();
    return glyph.left >= own.left - 1 && glyph.left >= box.left && glyph.top >= own.top - 2
      ? null : `${sym.textContent} at ${Math.round(glyph.left)},${Math.round(glyph.top)}, `
             + `its box at ${Math.round(own.left)},${Math.round(own.top)}`;
  }).filter(Boolean);
})()"""
"""The story's symbols drawn outside their own place at the start of their line."""


def test_the_summary_sits_over_the_hand_it_sums_up(table: TablePage) -> None:
    """Behind "Hand 1 is over" the felt shows hand 1 at its end: the last trick taken, no
    cards left; hand 2 is dealt when the summary is dismissed. The story's symbols sit at
    the start of their lines, on a phone too."""
    game = near_hand_end(8)
    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(formats.Saved(game))})
    table.play_one()
    page = table.page
    assert table.state() == "summary"
    assert page.inner_text("#summary-title") == "Hand 1 is over"
    assert page.inner_text("#pass-dir").startswith("Hand 1: pass left")
    assert len(table.trick()) == 4 and page.locator("#trick .winner").count() == 1
    assert table.hand() == []
    assert page.locator(".seat .fan .back").count() == 0
    table.screenshot("summary-over-its-hand")
    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate(STORY_SYMBOLS_OUT) == []
    table.next_hand()
    assert page.inner_text("#pass-dir").startswith("Hand 2: pass right")
    assert table.trick() == [] and len(table.hand()) == 13
    assert page.locator(".seat .fan .back").count() == 39


WATCH_FIRST_LEAD = """() => {
  const hand = () => document.querySelectorAll('#hand [data-card]');
  const flying = () => document.getAnimations().filter(a => a.playState === 'running'
      && a.effect && a.effect.target && a.effect.target.closest
      && a.effect.target.closest('#hand')).length;
  window.__lead = null;
  window.__early = 0;  // frames where the hand could be played with cards still flying in
  const frame = () => {
    if (flying() && document.documentElement.dataset.state === 'play') window.__early++;
    if (window.__lead === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver(() => {
    if (window.__lead === null && document.querySelector('#trick [data-card]'))
      window.__lead = {hand: hand().length, flying: flying(),
                       marked: document.querySelectorAll('#hand .received').length};
  }).observe(document.querySelector('#trick'), {childList: true});
}"""


def test_the_first_lead_waits_for_the_received_cards_to_land(table: TablePage) -> None:
    """At the normal pace, nobody leads (and the keyboard can't play) while the cards
    received are still flying in; they land, marked, before the first card is played."""
    table.load_with_storage({formats.KEY_SETTINGS: formats.dump_settings(
        formats.Settings(speed="normal", level="easy"))}, "?seed=3")
    page = table.page
    for card in table.hand()[:3]:
        table.click_card(card)
    page.evaluate(WATCH_FIRST_LEAD)
    page.click("#pass")
    page.wait_for_function("window.__lead !== null", timeout=30_000)
    lead = page.evaluate("window.__lead")
    early = page.evaluate("window.__early")
    assert lead["flying"] == 0 and early == 0, (lead, early)
    # (South may lead the 2♣ itself: then one card of the 13 has gone to the trick)
    assert lead["hand"] in (12, 13) and lead["marked"] >= 2, lead


def focused(table: TablePage) -> str:
    return str(table.page.evaluate(
        "document.activeElement.id || document.activeElement.dataset.card || ''"))


def test_the_keyboard_reaches_pass_and_every_command(table: TablePage) -> None:
    """Tab goes from the hand to Pass once three cards are chosen; U, N and L do Undo,
    Next hand / New game and Last trick, with their badges and the Keys dialog's list."""
    table.goto("?speed=instant&seed=3")
    page = table.page
    keys = page.keyboard
    page.focus('#hand [data-card][tabindex="0"]')
    for _ in range(3):
        keys.press("Enter")
        keys.press("ArrowRight")
    assert len(table.marked("selected")) == 3
    keys.press("Tab")
    assert focused(table) == "pass"
    keys.press("Shift+Tab")
    assert focused(table) in table.hand()
    keys.press("Tab")
    keys.press("Enter")
    table.page.wait_for_function("document.querySelector('#pass').hidden")
    table.wait_input()
    while not table.page.is_enabled("#undo"):
        page.focus('#hand [data-card][tabindex="0"]')
        for card in table.playable()[:1]:
            page.focus(f'#hand [data-card="{card}"]')
            keys.press("Enter")
        table.wait_input()
    held = table.hand()
    keys.press("Escape")  # (the focus stays where it is: the keys are the page's)
    keys.press("u")
    page.wait_for_function("n => document.querySelectorAll('#hand [data-card]').length > n",
                           arg=len(held))
    table.wait_input()
    keys.press("l")  # read out (and shown, once a trick is over)
    page.wait_for_function("document.querySelector('#status').textContent.includes('trick')")
    assert [page.inner_text(f"#{b} kbd") for b in ("new-game", "undo", "last-trick")] == \
        ["N", "U", "L"]
    keys.press("?")
    page.wait_for_selector("#help[open]")
    listed = page.inner_text("#help .keys")
    assert "Undo" in listed and "Next hand" in listed and "Play out the rest" in listed
    keys.press("Escape")
    keys.press("n")  # a game under way: New game asks first
    page.wait_for_selector("#confirm-new[open]")
    keys.press("Escape")
    # The hand's end: N on its summary deals the next hand.
    table.load_with_storage({formats.KEY_SAVE: formats.dump_save(formats.Saved(near_hand_end(8)))})
    page.focus('#hand [data-card][tabindex="0"]')
    keys.press("Enter")
    page.wait_for_function("document.documentElement.dataset.state === 'summary'")
    assert page.inner_text("#next-hand kbd") == "N"
    keys.press("n")
    page.wait_for_function("document.documentElement.dataset.state === 'pass'")
    assert len(table.hand()) == 13


CARDS = """() => [...document.querySelectorAll('#hand [data-card]')].map(b => {
  const r = b.getBoundingClientRect(), rank = b.querySelector('.corner').getBoundingClientRect();
  return {left: r.left, right: r.right, top: Math.round(r.top), bottom: r.bottom,
          width: r.width, rankRight: rank.right,
          rankPx: parseFloat(getComputedStyle(b.querySelector('.corner .r')).fontSize)};
})"""


ROWS = """(() => { const rows = {};
  for (const b of document.querySelectorAll('#hand [data-card]'))
    rows[b.offsetTop] = (rows[b.offsetTop] || 0) + 1;  // (the layout's row: no lift, no dip)
  return Object.values(rows); })()"""


@pytest.mark.parametrize("size", ["320x640", "390x844", "1440x900"])
def test_cards_are_as_large_as_the_screen_allows(open_table, size: str) -> None:  # type: ignore[no-untyped-def]
    """At least 44 px wide on a phone, in two rows where need be (sharing the cards evenly),
    each rank in sight; side by side without overlapping where the felt has room
    (1440×900)."""
    width, height = (int(v) for v in size.split("x"))
    phone = width < 500
    table = open_table(viewport={"width": width, "height": height}, name=f"cards-{size}",
                       **({"has_touch": True, "is_mobile": True} if phone else {}))
    table.goto("?speed=instant&seed=3")
    table.screenshot("passing")
    cards = table.page.evaluate(CARDS)
    assert len(cards) == 13 and table.no_horizontal_overflow()
    rows = sorted({c["top"] for c in cards})
    print(f"\n{size}: {cards[0]['width']:.1f} px wide, rank {cards[0]['rankPx']:.1f} px, "
          f"{len(rows)} row(s)")
    assert all(c["right"] <= width and c["left"] >= 0 for c in cards)
    if phone:
        assert cards[0]["width"] >= 44 and cards[0]["rankPx"] >= 13
        assert len(rows) <= 2
    else:
        assert cards[0]["width"] >= 70 and len(rows) == 1
    for before, after in itertools.pairwise(cards):
        if after["top"] != before["top"]:
            continue  # a new row
        if phone:
            assert after["left"] >= before["rankRight"], (before, after)  # the rank shows
        else:
            assert after["left"] >= before["right"] - 0.5, (before, after)  # no overlap
    assert max(c["bottom"] for c in cards) <= height  # the hand is on the screen
    if phone:  # two rows share the cards evenly: 8 cards are 4 and 4, not 7 and 1
        table.pass_cards()
        rows_of = {}
        while table.wait_input() == "play" and len(table.hand()) > 7:
            rows_of[len(table.hand())] = sorted(table.page.evaluate(ROWS))
            table.play_one()
        assert rows_of == {13: [6, 7], 12: [6, 6], 11: [5, 6], 10: [5, 5], 9: [4, 5],
                           8: [4, 4]}, rows_of
