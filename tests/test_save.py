"""Save and load: the text form and JSON round-trip; bad input is one clear error."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts import Game, LoadError, Phase, Rules
from hearts.game import SAVE_VERSION
from hearts.rules import MoonScoring, PassCycle


def positions(seed: int, count: int) -> list[Game]:
    """Copies of one random game at ``count`` random moments."""
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    out = [game.copy()]
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in rng.sample(range(4), 4):
                game.choose_pass(seat, rng.sample(game.hand(seat), 3))
                if rng.random() < 0.1:
                    out.append(game.copy())
        else:
            game.play(rng.choice(game.legal_plays()))
            if rng.random() < count / 400:
                out.append(game.copy())
    out.append(game)
    return out


def same_game(a: Game, b: Game) -> None:
    assert a.to_text() == b.to_text()
    assert a.to_json() == b.to_json()
    assert a.phase is b.phase and a.to_play == b.to_play and a.scores == b.scores
    assert a.hand_history == b.hand_history and a.winner == b.winner
    for seat in range(4):
        assert a.view(seat) == b.view(seat)


@pytest.mark.parametrize("seed", range(6))
def test_text_and_json_round_trip_at_every_kind_of_moment(seed: int) -> None:
    for game in positions(seed, 20):
        same_game(Game.from_text(game.to_text()), game)
        same_game(Game.from_json(game.to_json()), game)


def test_the_text_form_reads_like_the_position() -> None:
    game = Game.from_deal(["2C3C4C5C6C7C8C9CTCJCQCKCAC", "2D3D4D5D6D7D8D9DTDJDQDKDAD",
                           "2H3H4H5H6H7H8H9HTHJHQHKHAH", "2S3S4S5S6S7S8S9STSJSQSKSAS"],
                          history=[(13, 13, 0, 0)] * 3, seed=42)
    for card in ["2C", "2D", "2H", "2S", "3C"]:
        game.play(card)
    assert game.to_text() == (
        "seed=42 hist=13.13.0.0,13.13.0.0,13.13.0.0 "
        "deal=2C3C4C5C6C7C8C9CTCJCQCKCAC/2D3D4D5D6D7D8D9DTDJDQDKDAD/"
        "2H3H4H5H6H7H8H9HTHJHQHKHAH/2S3S4S5S6S7S8S9STSJSQSKSAS pass=-/-/-/- plays=2C2D2H2S3C")
    assert game.hand_points == (1, 0, 0, 0)
    assert game.to_play == 1


def test_rules_travel_in_the_json() -> None:
    game = Game.new(seed=1, rules=Rules(end_score=50, qs_breaks_hearts=True))
    assert Game.from_json(game.to_json()).rules == game.rules


def saved(seed: int = 5, plays: int = 30) -> dict[str, object]:
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[:3])
    for _ in range(plays):
        game.play(rng.choice(game.legal_plays()))
    data: dict[str, object] = json.loads(game.to_json())
    return data


def load(data: object) -> Game:
    return Game.from_json(json.dumps(data))


def test_a_card_in_two_hands_is_refused() -> None:
    data = saved()
    deal = list(data["deal"])  # type: ignore[call-overload]
    deal[1] = deal[0][:2] + deal[1][2:]
    data["deal"] = deal
    with pytest.raises(LoadError, match=r"more than one seat|13 cards"):
        load(data)


def test_a_fifty_third_card_is_refused() -> None:
    data = saved()
    deal = list(data["deal"])  # type: ignore[call-overload]
    deal[0] = deal[0] + deal[1][:2]
    data["deal"] = deal
    with pytest.raises(LoadError, match="13 cards"):
        load(data)


def test_an_illegal_history_is_refused() -> None:
    data = saved()
    plays = str(data["plays"])
    data["plays"] = plays[2:4] + plays[0:2] + plays[4:]  # swap the first two plays
    with pytest.raises(LoadError, match="impossible saved game"):
        load(data)


def test_passing_someone_elses_card_is_refused() -> None:
    data = saved()
    passes = list(data["passes"])  # type: ignore[call-overload]
    passes[0], passes[1] = passes[1], passes[0]
    data["passes"] = passes
    with pytest.raises(LoadError, match="not in"):
        load(data)


def test_impossible_history_rows_are_refused() -> None:
    for rows in ([[26, 0, 0, 0]], [[10, 10, 10, 10]], [[-1, 27, 0, 0]], [[0, 26, 26, 26]] * 4):
        data = saved()
        data["history"] = rows
        with pytest.raises(LoadError):
            load(data)


def test_a_save_from_a_newer_version_says_so() -> None:
    data = saved()
    data["version"] = SAVE_VERSION + 1
    with pytest.raises(LoadError, match="newer version"):
        load(data)


@pytest.mark.parametrize("text", ["", "null", "[]", "{}", "42", '"x"', "{" * 5000,
                                  '{"format": "hearts-game"}', "x" * 30_000])
def test_junk_is_refused_with_one_error_type(text: str) -> None:
    with pytest.raises(LoadError):
        Game.from_json(text)


def test_every_truncation_of_a_save_is_refused() -> None:
    text = Game.from_json(json.dumps(saved())).to_json()
    for end in range(len(text)):
        with pytest.raises(LoadError):
            Game.from_json(text[:end])


@pytest.mark.parametrize("text", ["", "seed=1", "seed=x hist=- deal=-/-/-/- pass=-/-/-/- plays=-",
                                  "seed=1 hist=- deal=2C/2D/2H/2S pass=-/-/-/- plays=-"])
def test_bad_position_text_is_refused(text: str) -> None:
    with pytest.raises(LoadError):
        Game.from_text(text)


SAVE_TEXT = Game.from_json(json.dumps(saved())).to_json()


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.data())
def test_mangled_saves_either_load_whole_or_raise_load_error(data: st.DataObject) -> None:
    text = SAVE_TEXT
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        action = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        piece = data.draw(st.text(alphabet='0123456789CDHSTJQKA/.,:"[]{}-= nulrtuefs', max_size=3))
        if action == "delete":
            text = text[:at] + text[at + len(piece) or 1:]
        elif action == "insert":
            text = text[:at] + piece + text[at:]
        else:
            text = text[:at] + piece + text[at + len(piece):]
    try:
        game = Game.from_json(text)
    except LoadError:
        return
    same_game(Game.from_json(game.to_json()), game)  # whatever loads is a whole game


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8),
                                                                      children, max_size=5),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "format": st.sampled_from(["hearts-game", "other"]) | json_values,
    "version": st.sampled_from([1, 2, 0, "1"]) | json_values,
    "rules": st.sampled_from([{}, {"end_score": 0}, {"foo": 1}]) | json_values,
    "seed": st.integers(-5, 2**60) | json_values,
    "history": json_values, "deal": json_values, "passes": json_values, "plays": json_values}))
def test_wrongly_shaped_json_raises_load_error(data: dict[str, object]) -> None:
    try:
        game = Game.from_json(json.dumps(data))
    except LoadError:
        return
    same_game(Game.from_json(game.to_json()), game)


def test_deep_nesting_is_refused_before_parsing() -> None:
    with pytest.raises(LoadError, match="nested far too deeply"):
        Game.from_json("[" * 9 + "]" * 9)
    with pytest.raises(LoadError, match="nested far too deeply"):
        Game.from_json('{"a":' * 9 + "1" + "}" * 9)
    with pytest.raises(LoadError, match="not a saved game"):
        Game.from_json('{"a": "[[[[[[[[[[[[[[[[\\"[[[[[["}')  # brackets in a string don't count


# Saves written by the engine as players' browsers hold them (captured from the code of
# version 1, before the save code moved to hearts/serialize.py). They must keep loading,
# and saving them again must give the very same bytes.
OLD_SAVES = [
    # hand 2, mid-trick, after a full first hand
    '{"format":"hearts-game","version":1,"rules":{"end_score":100,"qs_breaks_hearts":false,'
    '"no_points_on_first_trick":true,"must_break_hearts":true,"shoot_the_moon":true},'
    '"seed":2026,"history":[[1,0,12,13]],"deal":["6C7CAC5D8D9D5H7H2S3STSQSAS",'
    '"2C3C4C5CQD3H6H8HTHJH7S8SKS","8C9CJCQC2D3D4D6DTDJDKD9SJS","TCKC7DAD2H4H9HQHKHAH4S5S6S"],'
    '"passes":["8D9D7H","4C8H8S","8CJC9S","TC2H4H"],"plays":"2C9CKC7CAD5DQD2D6S"}',
    # a finished game under house rules (end at 30, Q♠ breaks hearts)
    '{"format":"hearts-game","version":1,"rules":{"end_score":30,"qs_breaks_hearts":true,'
    '"no_points_on_first_trick":true,"must_break_hearts":true,"shoot_the_moon":true},'
    '"seed":99,"history":[[7,5,0,14],[14,4,0,8],[5,17,0,4]],"deal":['
    '"6CTC4D7DTDQD2H4H5H7H8H3S6S","7CJCQC2D3D8DAD3HJHQH5STSKS","3C5C9CAC9DJDKD9HKH4S7SJSQS",'
    '"2C4C8CKC5D6D6HTHAH2S8S9SAS"],"passes":[null,null,null,null],"plays":'
    '"2C6CJC9C2D9D5D7DJS8S3STSJD6D4D3D4SAS6S5S2STDKSQS3HKH6H5H9HAH7HJH8CTCQCAC5CKC8H7CTH2HQH'
    '7SADKD4CQD8D3C9S4H"}',
    # passing, one seat has chosen
    '{"format":"hearts-game","version":1,"rules":{"end_score":100,"qs_breaks_hearts":false,'
    '"no_points_on_first_trick":true,"must_break_hearts":true,"shoot_the_moon":true},'
    '"seed":5,"history":[],"deal":["3C7C8C9C2DTD2H5H9HTH3S4S6S","5C3D5D6D8D4H8HQHAH2STSKSAS",'
    '"4C6CTCJCQC4D9DQD7HJHKH8SJS","2CKCAC7DJDKDAD3H6H5S7S9SQS"],'
    '"passes":[null,null,"KH8SJS",null],"plays":""}',
]


@pytest.mark.parametrize("text", OLD_SAVES)
def test_saves_of_version_1_load_and_save_to_the_same_bytes(text: str) -> None:
    assert Game.from_json(text).to_json() == text


def test_old_saves_load_to_the_positions_they_recorded() -> None:
    mid_hand, finished, passing = (Game.from_json(text) for text in OLD_SAVES)
    assert (mid_hand.hand_number, mid_hand.phase, mid_hand.scores) == (2, Phase.PLAY,
                                                                       (1, 0, 12, 13))
    assert mid_hand.current_trick is not None and len(mid_hand.current_trick.cards) == 1
    assert finished.phase is Phase.GAME_OVER and finished.winner == 2
    assert finished.scores == (26, 43, 4, 31)
    assert finished.rules == Rules(end_score=30, qs_breaks_hearts=True)
    assert passing.phase is Phase.PASS and passing.pass_chosen(2)
    assert not passing.pass_chosen(0)


# --- the house rules in the save ----------------------------------------------------------

HOUSE = Rules(end_score=50, jd_bonus=True, moon_scoring=MoonScoring.SHOOTER_CHOOSES,
              pass_cycle=PassCycle.NO_HOLD, must_break_hearts=False)


def test_every_rule_travels_in_the_json_and_the_game_keeps_them() -> None:
    game = Game.new(seed=4, rules=HOUSE)
    data = json.loads(game.to_json())
    assert data["version"] == 2 and data["moon"] is None
    assert data["rules"] == {
        "end_score": 50, "qs_breaks_hearts": False, "no_points_on_first_trick": True,
        "must_break_hearts": False, "shoot_the_moon": True, "jd_bonus": True,
        "moon_scoring": "shooter_chooses", "pass_cycle": "left_right_across"}
    rng = random.Random(4)
    while game.hand_number < 5 and game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, rng.sample(game.hand(seat), 3))
        elif game.phase is Phase.MOON:
            assert game.moon_chooser is not None
            game.choose_moon(game.moon_chooser, "shooter_minus_26")
        else:
            game.play(rng.choice(game.legal_plays()))
        loaded = Game.from_json(game.to_json())
        assert loaded.rules == HOUSE
        assert loaded.to_json() == game.to_json()


def test_a_default_game_is_still_saved_as_version_1() -> None:
    data = json.loads(Game.new(seed=4).to_json())
    assert data["version"] == 1
    assert set(data["rules"]) == {"end_score", "qs_breaks_hearts", "no_points_on_first_trick",
                                  "must_break_hearts", "shoot_the_moon"}


def test_an_old_save_without_the_new_rules_loads_with_their_defaults() -> None:
    game = Game.from_json(OLD_SAVES[1])
    assert game.rules.jd_bonus is False
    assert game.rules.moon_scoring is MoonScoring.OTHERS_PLUS_26
    assert game.rules.pass_cycle is PassCycle.WITH_HOLD


@pytest.mark.parametrize(("field", "value", "message"), [
    ("jd_bonus", "yes", "jd_bonus must be true or false"),
    ("moon_scoring", "shooter_wins", "moon_scoring must be one of"),
    ("pass_cycle", None, "pass_cycle must be one of"),
    ("end_score", 0, "end_score must be an int"),
    ("house_special", True, "unknown rules"),
])
def test_bad_rules_in_a_save_are_refused_clearly(field: str, value: object,
                                                 message: str) -> None:
    data = json.loads(Game.new(seed=4, rules=HOUSE).to_json())
    data["rules"][field] = value
    with pytest.raises(LoadError, match=message):
        load(data)


def test_a_version_2_save_needs_every_rule_and_version_1_none_of_the_new() -> None:
    data = json.loads(Game.new(seed=4, rules=HOUSE).to_json())
    del data["rules"]["pass_cycle"]
    with pytest.raises(LoadError, match="lack"):
        load(data)
    old = json.loads(OLD_SAVES[0])
    old["rules"]["jd_bonus"] = True
    with pytest.raises(LoadError, match="unknown rules"):
        load(old)


def test_a_bad_moon_choice_in_a_save_is_refused() -> None:
    data = json.loads(Game.new(seed=4, rules=HOUSE).to_json())
    data["moon"] = "shooter_chooses"
    with pytest.raises(LoadError, match="moon's choice must be"):
        load(data)
    data["moon"] = "shooter_minus_26"  # a valid choice, but no moon waits for one
    with pytest.raises(LoadError, match="no moon waits"):
        load(data)
