"""House rules on the page, without a browser: the Settings' rules deal the next new game,
a game keeps its own, the table names them, and the shooter's choice (a person is asked, a
computer chooses) goes through the seat like any other move."""

from __future__ import annotations

import asyncio

from hearts import Card, Game, Phase, Rules
from hearts.rules import MoonScoring, PassCycle
from tests.scripted import game_from
from tests.solo_page import Heard, no_wait, settle
from web import formats, words
from web.seats.solo import LocalSeat
from web.storage import MemoryStorage, Records, Storage
from web.table.model import PageState, build
from web.table.settings import house_rule_change, house_rule_values

CHOOSES = Rules(moon_scoring=MoonScoring.SHOOTER_CHOOSES)
HISTORY = [(13, 13, 0, 0), (0, 13, 13, 0), (0, 0, 13, 13)]
TOP = ["AC", "KC", "QC", "JC", "AD", "KD", "QD", "AS", "KS", "AH", "KH", "QH", "JH"]


def moon_game(shooter: int, rules: Rules = CHOOSES) -> Game:
    """The 4th hand (no passing): ``shooter`` holds the top cards and takes every trick."""
    seats = "SWNE"
    other = seats[(shooter + 1) % 4]
    dealt = game_from({seats[shooter]: "=" + " ".join(TOP), other: "2C"}, history=HISTORY)
    game = Game.from_deal([dealt.hand(s) for s in range(4)], history=HISTORY, rules=rules)
    top = iter(TOP)
    while game.phase is Phase.PLAY:
        game.play(next(top) if game.to_play == shooter else game.legal_plays()[0])
    return game


STANDARD = Rules()


def seat_with(game: Game | None = None, rules: Rules = STANDARD) -> tuple[LocalSeat, Heard]:
    records = Records(Storage(lambda: MemoryStorage()), lambda text: None)
    records.settings.level = "easy"
    records.settings.rules = rules
    if game is not None:
        records.saved = formats.Saved(game)
    seat = LocalSeat(records, speed=lambda: "instant", sleep=no_wait, seed=3)
    heard = Heard()
    seat.attach(heard)
    return seat, heard


def test_a_new_game_is_dealt_under_the_settings_house_rules() -> None:
    house = Rules(end_score=50, jd_bonus=True)
    seat, _ = seat_with(rules=house)
    assert seat.game.rules == house  # nothing saved: the first game uses them too
    seat.records.settings.rules = Rules(pass_cycle=PassCycle.NO_HOLD)
    assert seat.game.rules == house  # the game in progress keeps its rules
    seat.new_game()
    assert seat.game.rules == Rules(pass_cycle=PassCycle.NO_HOLD)


def test_the_table_names_the_house_rules_of_the_game_it_shows() -> None:
    seat, _ = seat_with(rules=Rules(end_score=50, jd_bonus=True))
    model = build(seat.snapshot(), PageState(ready=True))
    assert model.house_line == "House rules: J♦ −10 · to 50"
    assert len(model.house_rules) == 2 and "Jack of diamonds counts −10" in model.house_rules[0]
    plain, _ = seat_with()
    model = build(plain.snapshot(), PageState(ready=True))
    assert model.house_line == "" and model.house_rules == ()


def test_the_person_who_shot_the_moon_is_asked_and_the_choice_scores_it() -> None:
    async def run() -> LocalSeat:
        seat, _ = seat_with(moon_game(0))
        snap = seat.snapshot()
        assert snap.stage == "moon" and snap.may_choose_moon and not snap.may_play
        model = build(snap, PageState(ready=True))
        assert model.state == "moon" and model.moon_choice
        assert model.prompt == words.MOON_TITLE
        seat.choose_moon("shooter_chooses")  # not a choice: nothing happens
        assert seat.game.phase is Phase.MOON
        seat.choose_moon("shooter_minus_26")
        await settle(seat)
        return seat

    seat = asyncio.run(run())
    assert seat.game.hand_history[-1] == (-26, 0, 0, 0)
    snap = seat.snapshot()
    assert snap.stage == "scores" and not snap.may_choose_moon
    summary = build(snap, PageState(ready=True)).summary
    assert summary is not None
    assert summary.moon == "You shot the moon! 26 points come off your score."
    saved, notice = formats.load_save(formats.dump_save(seat.saved))
    assert notice is None and saved is not None and saved.summary is not None


def test_a_reload_while_the_person_chooses_comes_back_to_the_question() -> None:
    game = _before_last_lead(moon_game(0))  # South leads the J♥; the computers follow

    async def run() -> LocalSeat:
        seat, _ = seat_with(game)
        assert seat.snapshot().may_play
        seat.play(Card.parse("JH"))
        await settle(seat)
        return seat

    seat = asyncio.run(run())
    assert seat.game.phase is Phase.MOON
    saved, notice = formats.load_save(formats.dump_save(seat.saved))
    assert notice is None and saved is not None  # nothing to reset: no Undo step is kept
    again, _ = seat_with(saved.game)
    assert again.snapshot().may_choose_moon


def _before_last_lead(game: Game) -> Game:
    """``game`` (a moon by South) at South's lead of the last trick."""
    plays = game.to_text().split("plays=")[1].split()[0]
    text = game.to_text().replace(plays, plays[:-8])
    before = Game.from_text(text, game.rules)
    assert before.to_play == 0 and [str(c) for c in before.legal_plays()] == ["JH"]
    return before


def test_a_computer_that_shot_the_moon_chooses_by_itself() -> None:
    async def run() -> LocalSeat:
        seat, _ = seat_with(moon_game(1))
        snap = seat.snapshot()
        assert snap.stage == "moon" and not snap.may_choose_moon
        seat.choose_moon("shooter_minus_26")  # the person can't choose for West
        await settle(seat)
        return seat

    seat = asyncio.run(run())
    assert seat.game.hand_history[-1] in ((26, 0, 26, 26), (0, -26, 0, 0))
    assert seat.snapshot().stage == "scores"
    model = build(seat.snapshot(), PageState(ready=True))
    assert model.summary is not None and model.summary.moon.startswith("West shot the moon")


def test_while_a_computer_chooses_the_prompt_says_so() -> None:
    async def run() -> str:
        seat, _ = seat_with(moon_game(2))
        seat.stop()  # hold the computers: look at the moment before North chooses
        prompt = build(seat.snapshot(), PageState(ready=True)).prompt
        await settle(seat)
        return prompt

    assert asyncio.run(run()) == words.moon_waiting("North")


def test_the_settings_controls_set_each_house_rule() -> None:
    rules = Rules()
    for name, value, checked in [("rule-qs", "on", True), ("rule-first", "on", True),
                                 ("rule-lead", "on", True), ("rule-jd", "on", True),
                                 ("rule-moon", "shooter_chooses", False),
                                 ("rule-end", "150", False),
                                 ("rule-pass", "left_right_across", False)]:
        changed = house_rule_change(rules, name, value, checked)
        assert changed is not None
        rules = changed
    assert rules == Rules(end_score=150, qs_breaks_hearts=True, no_points_on_first_trick=False,
                          must_break_hearts=False, jd_bonus=True,
                          moon_scoring=MoonScoring.SHOOTER_CHOOSES,
                          pass_cycle=PassCycle.NO_HOLD)
    assert house_rule_values(rules) == {
        "rule-qs": True, "rule-first": True, "rule-lead": True, "rule-jd": True,
        "rule-moon": "shooter_chooses", "rule-end": "150", "rule-pass": "left_right_across"}
    assert house_rule_change(rules, "rule-end", "75", False) is None
    assert house_rule_change(rules, "rule-moon", "everyone_wins", False) is None
    assert house_rule_change(rules, "speed", "fast", False) is None


def test_each_house_rule_has_its_words_on_the_table_and_in_the_rules_text() -> None:
    one_change = [Rules(qs_breaks_hearts=True), Rules(no_points_on_first_trick=False),
                  Rules(must_break_hearts=False), Rules(jd_bonus=True),
                  Rules(shoot_the_moon=False), Rules(moon_scoring=MoonScoring.SHOOTER_MINUS_26),
                  Rules(moon_scoring=MoonScoring.SHOOTER_CHOOSES),
                  Rules(pass_cycle=PassCycle.NO_HOLD), Rules(end_score=150)]
    lines = [words.house_rules_line(rules) for rules in one_change]
    assert all(line.startswith("House rules: ") and " · " not in line for line in lines)
    assert len(set(lines)) == len(lines)
    sentences = [words.house_rules_sentences(rules) for rules in one_change]
    assert all(len(said) == 1 and said[0].endswith(".") for said in sentences)
    assert words.house_rules_line(Rules()) == "" and words.house_rules_sentences(Rules()) == ()
