"""What the page keeps in localStorage, attacked: the loaders in web/formats.py never raise,
keep every part that is still valid, and say in plain words what they reset.

Realistic saves come from ``page_saves``: a whole game played with the page's own
bookkeeping (cards picked to pass, the Undo step, the end-of-hand summary), saved at every
kind of moment. Corruptions come from a seeded generator (several hundred per family) and
from hypothesis (arbitrary JSON and text), derandomized so every run tries the same cases.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts import Game, Phase, Rules
from hearts.events import HandScored
from hearts.rules import MoonScoring, PassCycle
from web import formats

FUZZ = settings(max_examples=300, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# --- realistic saves ---


def page_saves(seed: int) -> Iterator[formats.Saved]:
    """Saves the page makes during one whole game, following app.py's bookkeeping."""
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    saved = formats.Saved(game)
    while True:
        saved.clock_ms += rng.randrange(200, 9000)
        if game.phase is Phase.GAME_OVER:
            yield saved
            return
        if game.phase is Phase.PASS:
            hand = [c.notation for c in game.hand(0)]
            saved.selected = rng.sample(hand, rng.randrange(4))
            yield saved
            game.choose_pass(0, rng.sample(hand, 3))
            saved.selected = []
            yield saved  # between South's pass and the computers' (a reload finishes them)
            for seat in (1, 2, 3):
                game.choose_pass(seat, rng.sample(game.hand(seat), 3))
            continue
        if game.to_play == 0:
            yield saved  # your turn
            saved.undo = formats.UndoStep(game.hand_number, len(game.plays))
        hands_before = len(game.hand_history)
        game.play(rng.choice(game.legal_plays()))
        if len(game.hand_history) > hands_before:
            event = next(e for e in reversed(game.events) if isinstance(e, HandScored))
            saved.summary = formats.Summary(event.hand_number, event.points_taken,
                                          event.scores, event.totals, event.moon_shooter)
            saved.undo = None
            saved.counted = game.phase is Phase.GAME_OVER
            yield saved  # the summary (or the game over screen)
            if game.phase is not Phase.GAME_OVER:
                saved.summary = None
        elif game.to_play != 0 and rng.random() < 0.3:
            yield saved  # a computer's turn


def sample_saves(seed: int, count: int) -> list[str]:
    """``count`` stored saves spread over one game."""
    texts = [formats.dump_save(s) for s in page_saves(seed)]
    rng = random.Random(seed)
    return [texts[0], texts[-1], *rng.sample(texts[1:-1], min(count, len(texts) - 2))]


SAVES = sample_saves(5, 40) + sample_saves(6, 20)
STATS = formats.dump_stats(formats.Stats(played=7, won=3, best=41, total_ms=3_600_000))
SETTINGS = formats.dump_settings(formats.Settings(speed="fast", level="hard"))


# --- what every loader result must satisfy ---

PLAIN = re.compile(r"[A-Z][^{}<>\[\]\\\n]{10,240}[.!]")


def assert_plain_words(notice: str | None) -> None:
    """A notice is a sentence for a person: no JSON, no traceback, no Python names."""
    assert notice is not None
    assert PLAIN.fullmatch(notice), notice
    for word in ("Traceback", "Error", "None", "JSON", "schema", "null", "exception"):
        assert word not in notice, notice


def assert_consistent(saved: formats.Saved) -> None:
    """A loaded save the page can show and continue: every page-state part fits the game."""
    game = saved.game
    assert Game.from_json(game.to_json()).rules == game.rules  # house rules travel with it
    assert 0 <= saved.clock_ms <= formats._MAX_MS
    if saved.selected:
        assert game.phase is Phase.PASS and not game.pass_chosen(0)
        assert len(set(saved.selected)) == len(saved.selected) <= 3
        assert set(saved.selected) <= {c.notation for c in game.hand(0)}
    s = saved.summary
    if s is not None:
        assert s.hand == len(game.hand_history)
        assert s.scores == tuple(game.hand_history[-1]) and s.totals == game.scores
    if saved.undo is not None:
        assert game.phase is Phase.PLAY and saved.undo.hand == game.hand_number
        assert game.plays[saved.undo.plays][0] == 0  # the person's card is the one taken back
    # a fixed point: what was kept stores and loads again without any notice
    again, note = formats.load_save(formats.dump_save(saved))
    assert note is None and again is not None
    assert formats.dump_save(again) == formats.dump_save(saved)


def says_exactly(text: str, dumped: str, **defaults: Any) -> bool:
    """Whether stored ``text`` holds every value of ``dumped`` (an older text may lack a
    field that has a default); unknown extra fields are ignored."""
    data = {**defaults, **json.loads(text)}
    return all(data.get(key) == value for key, value in json.loads(dumped).items())


def load_save_checked(text: str | None) -> tuple[formats.Saved | None, str | None]:
    saved, notice = formats.load_save(text)
    if saved is not None:
        assert_consistent(saved)
    if saved is None and text is not None:
        assert_plain_words(notice)
    if notice is not None:
        assert_plain_words(notice)
    return saved, notice


# --- the page's own saves load back exactly ---


@pytest.mark.parametrize("seed", range(3))
def test_every_save_the_page_makes_loads_back_exactly_without_a_notice(seed: int) -> None:
    count = 0
    for saved in page_saves(seed):
        text = formats.dump_save(saved)
        loaded, notice = formats.load_save(text)
        assert notice is None, (notice, text)
        assert loaded is not None and formats.dump_save(loaded) == text
        assert_consistent(loaded)
        count += 1
    assert count > 100


def test_nothing_stored_is_not_a_problem() -> None:
    assert formats.load_save(None) == (None, None)
    assert formats.load_stats(None) == (formats.Stats(), None)
    assert formats.load_settings(None) == (formats.Settings(), None)
    assert formats.load_crash(None) is None


# --- whole-text corruptions ---

def whole_text_corruptions(rng: random.Random, valid: str) -> Iterator[tuple[str, str]]:
    """(family, text) pairs: the stored text replaced or damaged as a whole."""
    yield "truncated", valid[:rng.randrange(len(valid))]
    yield "garbage", "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(80)))
    yield "garbage bytes", bytes(rng.randrange(256) for _ in range(40)).decode("latin-1")
    data = json.loads(valid)
    data["schema"] = rng.choice([2, 3, 99, 10**20])
    yield "future schema", json.dumps(data)
    data["schema"] = rng.choice([0, -1, "1", 1.0, True, None, [1], {"v": 1}])
    yield "unknown schema", json.dumps(data)
    del data["schema"]
    yield "no schema", json.dumps(data)
    yield "wrong shape", json.dumps(rng.choice([[], [valid], 1, -7.5, "text", None, True,
                                                  {"a": {"b": [1, 2]}}]))
    yield "foreign app", json.dumps({"todos": ["milk"], "theme": "dark", "schema": 1})
    yield "huge", '{"schema":1,"game":"' + "x" * 60_000 + '"}'
    yield "deep", "[" * 40_000 + "]" * 40_000
    yield "doubled", valid + valid
    position = rng.randrange(len(valid))
    yield "one byte changed", valid[:position] + chr(rng.randrange(32, 127)) + valid[position + 1:]
    yield "one byte cut", valid[:position] + valid[position + 1:]


@pytest.mark.parametrize("family", ["save", "stats", "settings", "crash"])
def test_whole_text_corruptions_never_raise_and_say_what_was_reset(family: str) -> None:
    rng = random.Random(family)
    valid = {"save": SAVES, "stats": [STATS], "settings": [SETTINGS],
             "crash": [formats.dump_crash(formats.Crash("details", SAVES[3]))]}[family]
    tried = 0
    for round_ in range(40):
        for kind, text in whole_text_corruptions(rng, valid[round_ % len(valid)]):
            tried += 1
            if family == "save":
                load_save_checked(text)
            elif family == "stats":
                stats, notice = formats.load_stats(text)
                if notice is None:  # silent only when the text says exactly this
                    assert says_exactly(text, formats.dump_stats(stats)), kind
                else:
                    assert_plain_words(notice)
            elif family == "settings":
                current, notice = formats.load_settings(text)
                if notice is None:
                    assert says_exactly(text, formats.dump_settings(current), deck="two",
                                        sound=True, coach=True, play_out=False,
                                        rules=json.loads(formats.dump_settings(
                                            formats.Settings()))["rules"]), kind
                else:
                    assert_plain_words(notice)
            else:
                crash = formats.load_crash(text)
                assert crash is None or isinstance(crash.details, str), kind
    assert tried >= 500


def test_a_future_schema_is_named_as_such() -> None:
    data = json.loads(SAVES[1])
    data["schema"] = 2
    saved, notice = formats.load_save(json.dumps(data))
    assert saved is None and notice is not None and "newer version" in notice


# --- field corruptions of a save: the game survives when only the page's parts are bad ---

HOSTILE = [None, True, False, 0, -1, 1, 3, 13, 2**31, -2**63, 10**30, 1e308, -0.5,
           float("nan"), float("inf"), "", "QS", "x" * 5000, "\u202e\U0001f600", [], [None],
           ["QS", "QS"], ["QS", "2C", "AH", "KD"], ["zz"], {}, {"hand": 1}, [1, 2, 3, 4],
           [[1, 2], [3, 4]]]
PAGE_FIELDS = ["clock_ms", "selected", "summary", "undo", "counted"]


def test_a_damaged_page_field_resets_that_part_only() -> None:
    rng = random.Random(2)
    tried = kept = 0
    for text in SAVES:
        data = json.loads(text)
        for _ in range(12):
            field = rng.choice(PAGE_FIELDS)
            damaged = dict(data)
            damaged[field] = rng.choice(HOSTILE)
            saved, notice = load_save_checked(json.dumps(damaged))
            tried += 1
            assert saved is not None, (field, damaged[field])
            assert saved.game.to_json() == data["game"]  # the game itself is kept
            original = formats.load_save(text)[0]
            assert original is not None
            if formats.dump_save(saved) == text:
                kept += 1
            elif json.loads(formats.dump_save(saved))[field] == damaged[field]:
                pass  # the new value is a valid one (a longer clock, say): kept as it is
            elif notice is None:
                # only harmless differences pass silently: no selection, an unused number
                assert field in ("selected", "counted"), field
                assert field != "selected" or damaged[field] is None
    assert tried >= 500 and kept < tried


def test_page_state_that_contradicts_the_game_is_reset() -> None:
    saves = [s for s in (formats.load_save(t)[0] for t in SAVES) if s is not None]
    passing = next(s for s in saves if s.game.phase is Phase.PASS and not s.game.pass_chosen(0))
    playing = next(s for s in saves if s.game.phase is Phase.PLAY and s.game.tricks)
    summary = next(s for s in saves if s.summary is not None)
    undo = next(s for s in saves
                if s.undo is not None and any(seat != 0 for seat, _ in s.game.plays))
    other = Game.new(seed=999)
    cases = [
        (passing, "selected", [c.notation for c in passing.game.hand(1)][:2]),  # not yours
        (passing, "selected", [passing.game.hand(0)[0].notation] * 2),  # twice
        (playing, "selected", [playing.game.hand(0)[0].notation]),  # not passing now
        (playing, "summary", {"hand": 1, "taken": [26, 0, 0, 0], "scores": [26, 0, 0, 0],
                              "totals": [26, 0, 0, 0], "moon": None}),  # mid-hand
        (summary, "summary", {**summary_json(summary), "totals": [1, 2, 3, 20]}),
        (summary, "summary", {**summary_json(summary), "hand": 40}),
        (undo, "undo", {"hand": undo.game.hand_number + 1, "plays": 0}),  # another hand
        (undo, "undo", {"hand": undo.game.hand_number, "plays": len(undo.game.plays)}),
        (undo, "undo", {"hand": undo.game.hand_number,  # a computer's card, not yours
                        "plays": next(i for i, (seat, _) in enumerate(undo.game.plays)
                                      if seat != 0)}),
        (undo, "undo", other.to_json()),  # an older save's step: another game's position
        (undo, "undo", undo.game.to_json()),  # an older save's step: not before a play
        (playing, "undo", "{}"),
    ]
    for base, field, value in cases:
        data = json.loads(formats.dump_save(base))
        data[field] = value
        saved, notice = load_save_checked(json.dumps(data))
        assert saved is not None and saved.game.to_json() == base.game.to_json()
        assert notice is not None and "reset" in notice, (field, value)
        assert getattr(saved, field) in (None, []), (field, value)


def test_an_older_saves_undo_step_loads_as_the_same_step() -> None:
    """Saves from before the Undo step was two numbers kept the whole game just before the
    person's card, with its hand and trick: they load with the same step, and no notice."""
    steps = 0
    for text in SAVES:
        saved = formats.load_save(text)[0]
        if saved is None or saved.undo is None:
            continue
        before = Game.from_json(saved.game.to_json())
        while len(before.plays) > saved.undo.plays:
            before.pop()
        data = json.loads(text)
        data.update(undo=before.to_json(), undo_hand=saved.game.hand_number,
                    undo_trick=len(before.tricks) + 1)
        older, notice = load_save_checked(json.dumps(data))
        assert notice is None and older is not None and older.undo == saved.undo
        data["undo_trick"] += 1  # an older step that doesn't fit is dropped, and said
        older, notice = load_save_checked(json.dumps(data))
        assert older is not None and older.undo is None and notice is not None
        steps += 1
    assert steps >= 5


def summary_json(saved: formats.Saved) -> dict[str, Any]:
    return json.loads(formats.dump_save(saved))["summary"]  # type: ignore[no-any-return]


# --- corruptions inside the game: impossible cards and history ---

def game_corruptions(rng: random.Random, game_text: str) -> Iterator[dict[str, Any]]:
    game = json.loads(game_text)
    deal = game["deal"]
    for field in game:
        damaged = dict(game)
        damaged[field] = rng.choice(HOSTILE)
        yield damaged
    swapped = list(deal)
    swapped[0], swapped[1] = deal[0][:2] + deal[1][2:], deal[1][:2] + deal[0][2:]
    yield {**game, "deal": swapped}  # a card in two hands, another in none
    yield {**game, "deal": [deal[0]] * 4}
    yield {**game, "deal": [h + "ZZ" for h in deal]}
    yield {**game, "plays": game["plays"] + "2C"}  # played twice
    yield {**game, "plays": "AS" + game["plays"]}
    yield {**game, "plays": game["plays"][:-1]}
    yield {**game, "history": [*game["history"], [26, 0, 0, 0]]}
    yield {**game, "history": [[13, 13, 0, 0], [-5, 31, 0, 0]]}
    yield {**game, "history": [[26, 26, 26, 0]] * 10}  # should already be over
    yield {**game, "history": [[0, 0, 0, 0]] * 2000}
    yield {**game, "passes": ["2C3C4C", None, None, None]}
    yield {**game, "passes": [deal[1][:6]] * 4}
    yield {**game, "rules": {**game["rules"], "end_score": 10_000}}
    yield {**game, "rules": {**game["rules"], "qs_breaks_hearts": True}}
    yield {**game, "rules": {"end_score": "100"}}
    yield {**game, "seed": 10**400}
    yield {**game, "version": 99}
    yield {**game, "format": "chess"}
    yield {**game, "extra": 1}


def test_impossible_cards_and_history_start_a_new_game_with_a_notice() -> None:
    rng = random.Random(3)
    tried = refused = 0
    for text in SAVES:
        outer = json.loads(text)
        for damaged in game_corruptions(rng, outer["game"]):
            try:
                game_text = json.dumps(damaged)
            except ValueError:
                continue
            saved, notice = load_save_checked(json.dumps({**outer, "game": game_text}))
            tried += 1
            if saved is None:
                refused += 1
                assert notice is not None and "new game" in notice
            else:  # the damage happened to describe a possible game: it must be a real one
                assert saved.game.to_json() == Game.from_json(game_text).to_json()
    assert tried >= 1000 and refused > tried // 2


# --- hypothesis: arbitrary JSON and text ---

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=30)


@FUZZ
@given(st.text(max_size=300))
def test_any_text_under_any_key(text: str) -> None:
    load_save_checked(text)
    stats, notice = formats.load_stats(text)
    assert stats.won <= stats.played
    if notice:
        assert_plain_words(notice)
    settings_, notice = formats.load_settings(text)
    assert settings_.speed in formats.SPEEDS and settings_.level in formats.LEVELS
    formats.load_crash(text)


@FUZZ
@given(st.dictionaries(st.sampled_from(["schema", *PAGE_FIELDS, "game", "played", "won",
                                        "best", "total_ms", "speed", "level", "details",
                                        "good", "other"]),
                       JSON_VALUES, max_size=10),
       st.sampled_from([1, 1, 1, 2, None]))
def test_any_json_object_in_our_shape(data: dict[str, Any], schema: int | None) -> None:
    if schema is not None:
        data["schema"] = schema
    text = json.dumps(data)
    load_save_checked(text)
    stats, notice = formats.load_stats(text)
    assert 0 <= stats.won <= stats.played and 0 <= stats.total_ms <= formats._MAX_MS
    assert stats.best is None or stats.played > 0
    if notice:
        assert_plain_words(notice)
    settings_, notice = formats.load_settings(text)
    assert settings_.speed in formats.SPEEDS and settings_.level in formats.LEVELS
    if notice:
        assert_plain_words(notice)
    crash = formats.load_crash(text)
    if crash is not None and crash.good is not None:
        assert formats.load_save(crash.good)[1] is None


@FUZZ
@given(st.sampled_from(SAVES), st.sampled_from([*PAGE_FIELDS, "game", "schema", "new"]),
       JSON_VALUES)
def test_any_value_in_any_field_of_a_real_save(text: str, field: str, value: Any) -> None:
    data = json.loads(text)
    data[field] = value
    saved, _ = load_save_checked(json.dumps(data))
    if field in PAGE_FIELDS or field == "new":
        assert saved is not None and saved.game.to_json() == data["game"]


# --- stats and settings keep what is valid ---

def test_stats_keep_the_valid_parts_and_name_the_reset_one() -> None:
    good = json.loads(STATS)
    for field, value in [("best", 10**9), ("best", "41"), ("total_ms", 1e30), ("total_ms", -1)]:
        stats, notice = formats.load_stats(json.dumps({**good, field: value}))
        assert (stats.played, stats.won) == (7, 3)
        assert_plain_words(notice)
        assert ("best score" if field == "best" else "total time") in str(notice)
        assert (stats.best == 41) == (field != "best")
    for field, value in [("played", -1), ("won", 8), ("won", None), ("played", "7")]:
        stats, notice = formats.load_stats(json.dumps({**good, field: value}))
        assert stats == formats.Stats()
        assert_plain_words(notice)


def test_settings_keep_the_valid_choice() -> None:
    settings_, notice = formats.load_settings(json.dumps({"schema": 1, "speed": "warp",
                                                        "level": "hard"}))
    assert settings_ == formats.Settings("normal", "hard")
    assert_plain_words(notice)


# --- the error report ---

def test_the_error_report_round_trips_and_drops_a_bad_good_position() -> None:
    crash = formats.Crash("position seed=1 …\nTraceback (most recent call last): …", SAVES[4])
    assert formats.load_crash(formats.dump_crash(crash)) == crash
    bad = formats.Crash("details", SAVES[4][:-5])
    assert formats.load_crash(formats.dump_crash(bad)) == formats.Crash("details", None)
    huge = formats.Crash("x" * 100_000, SAVES[4])
    loaded = formats.load_crash(formats.dump_crash(huge))
    assert loaded is not None and len(loaded.details) <= 12_000 and loaded.good == SAVES[4]


def test_json_nested_too_deep_is_refused_before_parsing() -> None:
    """In Pyodide, json.loads on JSON nested thousands deep overflows the browser's stack and
    kills the interpreter (found by e2e/test_reliability.py): the loader must not parse it."""
    for text in ["[" * 24_000 + "]" * 24_000, '{"schema":1,"a":' * 5000 + "1" + "}" * 5000]:
        for loader in (formats.load_save, formats.load_stats, formats.load_settings):
            _value, notice = loader(text)
            assert_plain_words(notice)
        assert formats.load_crash(text) is None
    inner = json.loads(SAVES[2])
    inner["game"] = "[" * 20_000 + "]" * 20_000
    saved, notice = formats.load_save(json.dumps(inner))
    assert saved is None and notice is not None
    inner = json.loads(SAVES[2])
    inner["undo"] = "[" * 20_000 + "]" * 20_000
    load_save_checked(json.dumps(inner))
    assert not formats._too_deep('["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\\"]')


# --- house rules in the settings ---

HOUSE = Rules(end_score=50, jd_bonus=True, moon_scoring=MoonScoring.SHOOTER_CHOOSES,
              pass_cycle=PassCycle.NO_HOLD)


def test_house_rules_are_kept_with_the_settings() -> None:
    settings_ = formats.Settings(level="hard", rules=HOUSE)
    loaded, notice = formats.load_settings(formats.dump_settings(settings_))
    assert loaded == settings_ and notice is None


def test_settings_from_before_house_rules_get_the_standard_rules_silently() -> None:
    loaded, notice = formats.load_settings(json.dumps({"schema": 1, "speed": "fast",
                                                     "level": "easy", "deck": "four",
                                                     "sound": False}))
    assert loaded == formats.Settings("fast", "easy", "four", False, rules=Rules())
    assert notice is None


@pytest.mark.parametrize("rules", [
    {"jd_bonus": "yes"}, {"moon_scoring": "moon_wins"}, {"pass_cycle": 4},
    {"end_score": 75}, {"end_score": 10_000}, {"house_special": True}, [1, 2], "standard",
])
def test_unreadable_house_rules_go_back_to_standard_and_keep_the_other_settings(
        rules: object) -> None:
    good = json.loads(formats.dump_settings(
        formats.Settings("slow", "hard", "four", True, rules=HOUSE)))
    loaded, notice = formats.load_settings(json.dumps({**good, "rules": rules}))
    assert loaded == formats.Settings("slow", "hard", "four", True, rules=Rules())
    assert_plain_words(notice)
    assert "house rules" in str(notice)


def test_a_rule_added_later_keeps_its_default_when_stored_rules_lack_it() -> None:
    good = json.loads(formats.dump_settings(formats.Settings(rules=HOUSE)))
    del good["rules"]["pass_cycle"]
    loaded, notice = formats.load_settings(json.dumps(good))
    assert loaded.rules == replace(HOUSE, pass_cycle=PassCycle.WITH_HOLD) and notice is None


def test_a_game_under_house_rules_is_saved_and_restored_with_them() -> None:
    game = Game.new(seed=8, rules=HOUSE)
    saved, notice = formats.load_save(formats.dump_save(formats.Saved(game)))
    assert notice is None and saved is not None
    assert saved.game.rules == HOUSE


def test_a_lowest_final_score_below_zero_is_kept() -> None:
    """Under shooter −26 or the J♦ a game can end with a total below zero."""
    stats = formats.Stats(played=3, won=1, best=-12, total_ms=1000)
    assert formats.load_stats(formats.dump_stats(stats)) == (stats, None)
