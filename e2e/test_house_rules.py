"""House rules in Chromium: chosen in Settings for the next new game, named on the table
and in the rules text, kept over a reload; the shooter's choice, by keyboard."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from tablepage import ARTIFACTS, TablePage
from test_a11y import BLOCKING, run_axe

from hearts import Game, Phase, Rules
from hearts.rules import MoonScoring
from tests.scripted import game_from
from web import formats, words

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

SIZES = {"390x844": {"width": 390, "height": 844}, "320x640": {"width": 320, "height": 640},
         "1440x900": {"width": 1440, "height": 900}}


def open_settings(table: TablePage) -> None:
    if not table.page.is_visible("#settings-button"):  # phones: it is in the More menu
        table.page.click("#more summary")
    table.page.click("#settings-button")
    table.page.wait_for_selector("#settings[open]")


def done(table: TablePage) -> None:
    table.page.click("#settings button[type=submit]")
    table.page.wait_for_selector("#settings:not([open])", state="attached")


def test_two_house_rules_deal_the_next_game_and_survive_a_reload(table: TablePage) -> None:
    table.goto("?speed=instant&seed=4")
    assert table.page.is_hidden("#house-line") and table.page.is_hidden("#house-rules")
    open_settings(table)
    table.page.check('#settings input[name="rule-jd"]')
    table.page.select_option('#settings select[name="rule-end"]', "50")
    assert "next new game" in table.page.inner_text("#house-note")
    done(table)
    stored = table.storage("hearts.settings")["rules"]
    assert stored["jd_bonus"] is True and stored["end_score"] == 50
    assert table.page.is_hidden("#house-line")  # the game in progress keeps its rules

    table.page.click("#new-game")
    table.wait_input()
    assert table.page.inner_text("#house-line") == "House rules: J♦ −10 · to 50"
    assert table.page.is_visible("#house-rules")
    listed = table.page.inner_text("#house-rules-list")
    assert "Jack of diamonds counts −10" in listed and "at 50 points" in listed
    saved = json.loads(table.saved_game_json())
    assert saved["rules"]["jd_bonus"] is True and saved["rules"]["end_score"] == 50

    table.reload()
    assert table.page.inner_text("#house-line") == "House rules: J♦ −10 · to 50"
    open_settings(table)
    assert table.page.is_checked('#settings input[name="rule-jd"]')
    assert table.page.input_value('#settings select[name="rule-end"]') == "50"
    assert not table.page.is_checked('#settings input[name="rule-qs"]')
    done(table)


def moon_save() -> str:
    """South shot the moon in the 4th hand under "the shooter chooses": the choice waits."""
    top = ["AC", "KC", "QC", "JC", "AD", "KD", "QD", "AS", "KS", "AH", "KH", "QH", "JH"]
    history = [(13, 13, 0, 0), (0, 13, 13, 0), (0, 0, 13, 13)]
    dealt = game_from({"S": "=" + " ".join(top), "W": "2C"}, history=history)
    game = Game.from_deal([dealt.hand(s) for s in range(4)], history=history,
                          rules=Rules(moon_scoring=MoonScoring.SHOOTER_CHOOSES))
    cards = iter(top)
    while game.phase is Phase.PLAY:
        game.play(next(cards) if game.to_play == 0 else game.legal_plays()[0])
    assert game.phase is Phase.MOON
    return formats.dump_save(formats.Saved(game))


def test_the_shooter_chooses_with_the_keyboard(table: TablePage) -> None:
    table.load_with_storage({formats.KEY_SAVE: moon_save()})
    page = table.page
    assert table.state() == "moon"
    page.wait_for_selector("#moon-choice[open]")
    assert page.inner_text("#moon-title") == words.MOON_TITLE
    assert page.get_attribute("#moon-choice", "aria-describedby") == "moon-ask"
    assert page.evaluate("document.activeElement.id") == "moon-plus"
    page.keyboard.press("Escape")  # the hand can't be scored without the choice
    assert page.is_visible("#moon-choice")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "moon-minus"
    page.keyboard.press("Enter")
    assert table.wait_input() == "summary"
    assert table.summary_row() == [-26, 0, 0, 0]
    assert "26 points come off your score" in page.inner_text("#summary")


BOX_ALONE = """[...document.querySelectorAll('#settings label')].filter(label => {
  const box = label.querySelector(':scope > input[type=checkbox]');
  if (!box) return false;
  const range = document.createRange();
  range.setStartAfter(box);
  range.setEndAfter(label.lastChild);
  const first = range.getClientRects()[0];
  return first && first.top >= box.getBoundingClientRect().bottom - 2;
}).map(label => label.textContent.trim())"""
"""The Settings' checkboxes whose sentence starts on a line below the box."""


def blocking(table: TablePage) -> list[str]:
    return [f"{v['id']} ({v['impact']}): {v['nodes'][:2]}" for v in run_axe(table.page)
            if v["impact"] in BLOCKING]


@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_of_the_house_rules(open_table: Callable[..., TablePage],
                                        size: str) -> None:
    """Screenshots into e2e/artifacts/ to look at (and nothing overflows sideways)."""
    settings = formats.Settings(rules=Rules(end_score=50, jd_bonus=True,
                                          moon_scoring=MoonScoring.SHOOTER_CHOOSES))
    table = open_table(SIZES[size], name=f"house-{size}")
    table.load_with_storage({formats.KEY_SETTINGS: formats.dump_settings(settings)},
                            "?speed=instant&seed=9")
    assert table.page.inner_text("#house-line").startswith("House rules:")
    assert table.no_horizontal_overflow()
    table.screenshot("table")
    open_settings(table)
    table.page.locator("#settings fieldset.house").scroll_into_view_if_needed()
    table.screenshot("settings")
    assert not table.page.evaluate(BOX_ALONE), "a box's sentence wrapped below it"
    if size == "390x844":  # axe, once: the Settings with house rules, then the moon's choice
        assert not blocking(table)
    done(table)
    table.page.locator("#house-rules").scroll_into_view_if_needed()
    table.screenshot("rules-text")
    table.load_with_storage({formats.KEY_SAVE: moon_save()})
    table.page.wait_for_selector("#moon-choice[open]")
    table.screenshot("moon-choice")
    if size == "390x844":
        assert not blocking(table)
    assert ARTIFACTS.exists()
