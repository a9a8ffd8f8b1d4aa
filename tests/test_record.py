"""The daily deal, game codes, the record of finished games and its chart (``web.record``)."""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import itertools
import json
import random

import pytest

from hearts import Card, Game, Rules
from hearts.events import HandScored, TrickWon
from hearts.rules import MoonScoring, PassCycle
from tests.solo_page import Heard, no_wait, person_move, settle
from web import formats, words
from web.daily import DAILY_LEVEL, daily_link, daily_seed, place_of, streak
from web.record import chart, gamecode, history
from web.record.history import FinishedGame, Record, Tally, by_level, hand_tally
from web.seats.solo import LocalSeat
from web.storage import MemoryStorage, Records, Storage
from web.table import record_page

DAY = datetime.date(2026, 12, 1)
ADDRESS = "https://hearts.example/play/"
"""The page's address the seats of these tests are at (a daily's link starts with it)."""


# --- the daily deal ------------------------------------------------------------------------

def test_the_daily_seed_is_the_sha256_of_the_date_and_the_same_every_time() -> None:
    digest = hashlib.sha256(b"hearts-daily-2026-12-01").digest()
    assert daily_seed(DAY) == int.from_bytes(digest[:5], "big") == daily_seed(
        datetime.date(2026, 12, 1))


def test_each_day_has_its_own_daily_deal() -> None:
    days = [DAY + datetime.timedelta(days=n) for n in range(366)]
    seeds = {daily_seed(day) for day in days}
    assert len(seeds) == len(days)
    assert Game.new(daily_seed(days[0])).hand(0) != Game.new(daily_seed(days[1])).hand(0)


def test_a_streak_counts_consecutive_days_up_to_today_or_yesterday() -> None:
    played = {DAY - datetime.timedelta(days=n) for n in (0, 1, 2, 4)}
    assert streak(played, DAY) == 3
    assert streak(played, DAY + datetime.timedelta(days=1)) == 3  # today not played yet
    assert streak(played, DAY + datetime.timedelta(days=2)) == 0  # a whole day missed
    assert streak(set(), DAY) == 0


def test_places_share_the_better_place_on_a_tie() -> None:
    assert place_of((43, 20, 60, 101)) == 2
    assert place_of((20, 20, 60, 101)) == 1
    assert place_of((101, 20, 60, 43)) == 4


def test_the_share_text_gives_the_score_and_place_and_no_card() -> None:
    text = words.share_text(DAY, 43, 2, 3)
    assert text == "Hearts daily 2026-12-01: 43 points, 2nd of 4 · streak 3"
    assert not any(card.name in text or card.notation in text
                   for card in (Card.parse(n) for n in ("QS", "AH", "2C")))


# --- game codes ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 31, 32, 7, 2**40 - 1, 2**53 - 1,
                                  *random.Random(3).sample(range(2**53), 50)])
def test_a_game_code_gives_back_its_seed(seed: int) -> None:
    code = gamecode.encode(seed)
    assert gamecode.decode(code) == seed
    assert gamecode.decode(code.lower().replace("-", " ")) == seed


def test_new_games_have_short_codes() -> None:
    code = gamecode.encode(gamecode.new_seed(random.Random(1)))
    assert len(code.replace("-", "")) <= 9


def test_a_code_is_read_with_the_letters_people_mistake_for_digits() -> None:
    seed = ((1 * 32 + 0) * 32 + 10) * 32**3 + 1 * 32  # digits 1 0 A 0 1 0
    code = gamecode.encode(seed)
    assert code.startswith("10A0-10")
    typed = code.replace("0", "o").replace("1", "l")
    assert gamecode.decode(typed) == seed


def test_every_single_mistyped_character_is_refused() -> None:
    code = gamecode.encode(987_654_321_012).replace("-", "")
    for i, original in enumerate(code):
        for other in gamecode.ALPHABET:
            if other != original:
                typo = code[:i] + other + code[i + 1:]
                with pytest.raises(gamecode.CodeError) as refused:
                    gamecode.decode(typo)
                assert str(refused.value) == words.CODE_TYPO


@pytest.mark.parametrize(("text", "said"), [
    ("", words.CODE_EMPTY), ("  - ", words.CODE_EMPTY), ("7K", words.CODE_LENGTH),
    ("7K2M-9QXA-B7K2M", words.CODE_LENGTH),
])
def test_what_isnt_a_code_is_refused_in_words(text: str, said: str) -> None:
    with pytest.raises(gamecode.CodeError) as refused:
        gamecode.decode(text)
    assert str(refused.value) == said


def test_a_code_with_signs_names_them() -> None:
    with pytest.raises(gamecode.CodeError, match=r"it has \? U"):
        gamecode.decode("7KU?-9QXA")


# --- the record ------------------------------------------------------------------------------

def _game(total_you: int = 40, level: str = "normal", daily: bool = False, hands: int = 5,
          day: datetime.date = DAY, tally: Tally | None = None) -> FinishedGame:
    rows = [(total_you // hands, 26 - total_you // hands, 0, 0)] * hands
    return FinishedGame(day, level, "", daily, gamecode.encode(hands), tuple(rows),
                        tally or Tally())


def test_the_record_round_trips_through_storage() -> None:
    record = Record()
    record.add(_game(40, "hard", daily=True, tally=Tally(1, 2, 3)))
    record.add(_game(90, "easy"))
    loaded, note = history.load_record(history.dump_record(record))
    assert note is None
    assert loaded == record


def test_the_history_keeps_the_newest_games_only() -> None:
    record = Record()
    for n in range(history.MAX_GAMES + 25):
        record.add(_game(hands=1 + n % 20, day=DAY - datetime.timedelta(days=n)))
    assert len(record.games) == history.MAX_GAMES
    assert record.games[-1].day == DAY - datetime.timedelta(days=history.MAX_GAMES + 24)
    loaded, note = history.load_record(history.dump_record(record))
    assert note is None and len(loaded.games) == history.MAX_GAMES


def test_the_daily_results_keep_the_newest_days_only_and_the_streak_whole() -> None:
    record = Record()
    for n in reversed(range(history.MAX_DAYS + 30)):  # one daily a day, oldest first
        record.add(_game(20, daily=True, day=DAY - datetime.timedelta(days=n)))
    assert len(record.days) == history.MAX_DAYS
    assert min(record.days) == DAY - datetime.timedelta(days=history.MAX_DAYS - 1)
    loaded, note = history.load_record(history.dump_record(record))
    assert note is None and loaded.days == record.days
    assert streak(loaded.days, DAY) == history.MAX_DAYS


@pytest.mark.parametrize("text", ["{not json", "[]", '{"schema": 1}', '{"schema": 99}',
                                  '{"schema": 1, "games": 3, "days": {}}'])
def test_an_unreadable_record_starts_again_and_says_so(text: str) -> None:
    record, note = history.load_record(text)
    assert record == Record()
    assert note is not None and "record" in note


def test_a_damaged_game_is_left_out_and_the_rest_kept() -> None:
    record = Record()
    record.add(_game(40))
    record.add(_game(50, daily=True))
    data = json.loads(history.dump_record(record))
    data["games"].insert(1, {**data["games"][0], "hands": "1.2.3"})
    data["days"]["2026-13-01"] = [3, 1]
    loaded, note = history.load_record(json.dumps(data))
    assert loaded == record
    assert note == "2 entries of your record could not be read and were left out; the rest is kept."


def test_a_damaged_record_leaves_the_rest_of_storage_alone() -> None:
    stats = formats.dump_stats(formats.Stats(3, 1, 40))
    memory = MemoryStorage({history.KEY_RECORD: "{broken", formats.KEY_STATS: stats})
    records = Records(Storage(lambda: memory), lambda text: None)
    assert records.stats == formats.Stats(3, 1, 40)
    assert records.record == Record()
    assert "Your record was unreadable" in records.notes


def test_only_the_first_daily_of_a_day_counts() -> None:
    record = Record()
    first = _game(40, daily=True)
    assert record.add(first)
    assert not record.add(_game(10, daily=True))
    assert record.days == {DAY: (40, first.place)} and first.totals[0] == 40
    assert len(record.games) == 2


def test_stats_by_level_count_wins_and_points_per_hand() -> None:
    won = FinishedGame(DAY, "hard", "", False, "000", ((5, 21, 26, 100),), Tally())
    lost = FinishedGame(DAY, "hard", "", False, "000", ((60, 0, 20, 30), (41, 0, 0, 0)),
                        Tally())
    easy = _game(30, "easy", hands=3)
    levels = by_level([won, easy, lost])
    assert [s.level for s in levels] == ["easy", "hard"]
    hard = levels[1]
    assert (hard.played, hard.won, hard.win_rate) == (2, 1, 50)
    assert hard.per_hand == pytest.approx((5 + 60 + 41) / 3)


def _trick(seat: int, cards: str, number: int = 1) -> TrickWon:
    played = tuple(Card.parse(cards[i:i + 2]) for i in range(0, len(cards), 2))
    return TrickWon(seat, seat, played, 0, number)


def _scored(points: tuple[int, int, int, int], moon: int | None = None) -> HandScored:
    return HandScored(1, points, points, points, moon)


def test_a_moon_shot_by_the_person_is_counted() -> None:
    tricks = [_trick(0, "QS2H3H4H"), _trick(0, "5H6H7H8H"), _trick(0, "9HTHJHQH"),
              _trick(0, "KHAH2C3C")]
    assert hand_tally(tricks, _scored((26, 0, 0, 0), moon=0)) == Tally(1, 0, 1)


def test_a_point_card_taken_from_a_would_be_shooter_is_a_moon_stopped() -> None:
    tricks = [_trick(1, "QS2H3H4H"), _trick(1, "5H6H7H8H"), _trick(1, "9HTHJHQH"),
              _trick(0, "KH2C3C4C"), _trick(1, "AH5C6C7C")]
    assert hand_tally(tricks, _scored((1, 25, 0, 0))) == Tally(0, 1, 0)


def test_points_shared_out_are_no_moon_stopped() -> None:
    # West took all the point cards but the person's few; but only 5 of them: no moon run
    tricks = [_trick(0, "QS2H3H4H"), _trick(0, "5H6H7H8H"), _trick(0, "9HTHJH2C"),
              _trick(1, "QHKHAH3C"), _trick(2, "4C5C6C7C")]
    assert hand_tally(tricks, _scored((24, 3, 0, 0))) == Tally(0, 0, 1)
    # two other seats share the rest: nobody was on course for the moon
    tricks = [_trick(0, "2H3C4C5C"), _trick(1, "QS3H4H5H"), _trick(2, "6H7H8H9H"),
              _trick(1, "THJHQHKH"), _trick(2, "AH6C7C8C")]
    assert hand_tally(tricks, _scored((1, 17, 8, 0))) == Tally(0, 0, 0)


# --- the chart -------------------------------------------------------------------------------

HANDS = [(13, 0, 3, 10), (0, 26, 0, 0), (26, 0, 0, 0), (5, 5, 10, 6)]
NAMES = ("You", "West", "North", "East")


def test_the_chart_draws_each_total_hand_by_hand_from_zero() -> None:
    c = chart.build(HANDS, NAMES, 100)
    left, top, right, _ = c.plot
    zero_y = dict(c.y_ticks)[0]
    for line in c.lines:
        xs = [x for x, _ in line.points]
        assert line.points[0] == (left, zero_y)
        assert len(line.points) == len(HANDS) + 1 and xs == sorted(xs) and xs[-1] == right
    assert [line.total for line in c.lines] == [44, 31, 13, 16]
    assert c.totals[1] == (13, 26, 3, 10)
    ys = {line.seat: line.points[-1][1] for line in c.lines}
    assert ys[0] < ys[1] < ys[3] < ys[2]  # a higher total is drawn higher up (smaller y)
    assert c.end is not None and c.end[0] == 100 and top <= c.end[1] < ys[0]


def test_the_scale_grows_past_the_end_score_and_below_zero() -> None:
    c = chart.build([(26, 26, 26, 0), (26, 26, 26, 0), (26, 26, 26, 0), (26, 26, 26, -26)],
                    NAMES, 100)
    values = [v for v, _ in c.y_ticks]
    assert min(values) <= -26 and max(values) >= 104
    _, top, _, bottom = c.plot
    assert all(top <= y <= bottom for line in c.lines for _, y in line.points)


def test_the_names_at_the_lines_ends_never_overlap() -> None:
    c = chart.build([(6, 7, 6, 7)] * 3, NAMES, 100)
    ys = sorted(line.label_y for line in c.lines)
    assert all(b - a >= chart.LABEL_GAP - 1e-9 for a, b in itertools.pairwise(ys))
    _, top, _, bottom = c.plot
    assert all(top <= y <= bottom for y in ys)


def test_names_crowded_at_the_bottom_are_pushed_up_inside_the_chart() -> None:
    placed = chart.spread([100, 100, 100, 100], 13, 10, 100)
    assert sorted(placed) == [61, 74, 87, 100]


def test_the_chart_has_a_table_twin_with_the_same_totals() -> None:
    c = chart.build(HANDS, NAMES, 100)
    twin = chart.table_html(c)
    assert twin.count("<tr>") == len(HANDS) + 1
    assert "<td>44</td><td>31</td><td>13</td><td>16</td>" in twin
    drawn = chart.svg(c)
    assert drawn.count("<polyline") == 4 and all(f">{n}</text>" in drawn for n in NAMES)
    assert 'role="img"' in drawn and "aria-label=" in drawn


def test_the_record_dialog_lists_games_newest_first_and_charts_the_chosen_one() -> None:
    record = Record()
    record.add(_game(40, "hard", day=DAY - datetime.timedelta(days=1)))
    record.add(_game(90, "easy", daily=True))
    current = record_page.Current(((3, 20, 3, 0),))
    listed = record_page.history_html(record.games, current, "0")
    assert listed.index("This game") < listed.index("1 Dec 2026") < listed.index("30 Nov 2026")
    assert listed.count('aria-pressed="true"') == 1
    assert "<polyline" in record_page.chart_html(record.games, current, "1")
    empty = record_page.chart_html(record.games, None, "current")
    assert empty.startswith('<p class="record-empty">')
    stats = record_page.stats_html(record, DAY)
    assert "Daily streak: 1 day. Play the daily deal tomorrow" in stats
    assert "Hearts daily 2026-12-01: 90 points" in stats


def test_the_charts_heading_says_who_won_not_the_line_chosen_above_it() -> None:
    record = Record()
    record.add(_game(40, "hard", day=DAY - datetime.timedelta(days=1)))
    game = record.games[0]
    drawn = record_page.chart_html(record.games, None, "0")
    heading = drawn[drawn.index("<h3"):drawn.index("</h3>")]
    line = words.game_line(game.day, game.level, game.house_rules, game.daily, game.totals[0],
                           game.place, len(game.hands))
    assert line in record_page.history_html(record.games, None, "0") and line not in drawn
    assert game.totals == (40, 90, 0, 0)
    assert heading.endswith(">North and East shared the win with 0 points.")
    assert words.chart_title([9, 38, 60, 23], record_page.NAMES, True) == "You won with 9 points."
    current = record_page.Current(((3, 20, 3, 0), (10, 6, 0, 10)))
    drawn = record_page.chart_html(record.games, current, record_page.CURRENT)
    assert "North leads so far with 3 points." in drawn
    assert words.current_line(2) not in drawn
    assert words.chart_title([13, 13, 20, 80], record_page.NAMES, True) == \
        "You and West shared the win with 13 points."
    assert words.chart_title([0, 1, 25, 0], record_page.NAMES, False) == \
        "You and East lead so far with 0 points."


# --- the game against the computers ----------------------------------------------------------

def _seat(memory: MemoryStorage, today: datetime.date = DAY) -> tuple[LocalSeat, Heard]:
    records = Records(Storage(lambda: memory), lambda text: None)
    records.settings.level = "easy"
    seat = LocalSeat(records, speed=lambda: "instant", sleep=no_wait, today=lambda: today,
                     address=ADDRESS)
    heard = Heard()
    seat.attach(heard)
    return seat, heard


def test_the_daily_deal_is_dealt_from_the_date_against_hard_computers() -> None:
    memory = MemoryStorage()
    seat, heard = _seat(memory)
    seat.start_daily()
    assert seat.game.seed == daily_seed(DAY) and seat.saved.daily == "2026-12-01"
    assert seat.solo.level == DAILY_LEVEL == "hard"
    assert seat.bots[1].__class__ is not _seat(MemoryStorage())[0].bots[1].__class__
    assert any(said.startswith(words.daily_start(DAY, "hard")) for said in heard.said)
    assert seat.snapshot().badge == "Daily deal, 1 Dec 2026"
    assert seat.solo.level_note() == words.daily_level_note("hard")  # Settings says so
    assert "against hard computers" in seat.solo.level_note()
    assert _seat(MemoryStorage())[0].solo.level_note() == ""
    again, _ = _seat(memory)  # a reload mid-daily
    assert again.saved.daily == "2026-12-01" and again.solo.level == "hard"
    assert gamecode.decode(again.code()) == daily_seed(DAY)


def test_a_daily_mark_that_doesnt_fit_the_game_is_dropped() -> None:
    saved = formats.Saved(Game.new(5), daily="2026-12-01")
    loaded, note = formats.load_save(formats.dump_save(saved))
    assert loaded is not None and loaded.daily is None
    assert note is not None and "daily deal" in note


def test_playing_a_code_deals_the_same_game() -> None:
    seat, _ = _seat(MemoryStorage())
    first = seat.game
    seat.new_game()
    assert seat.game.seed != first.seed
    seat.play_code(gamecode.decode(gamecode.encode(first.seed)))
    assert seat.game.seed == first.seed and seat.game.hand(0) == first.hand(0)
    assert seat.saved.daily is None and seat.saved.from_code
    assert seat.snapshot().badge == words.code_badge(gamecode.encode(first.seed))


@pytest.mark.parametrize("rules", [
    Rules(jd_bonus=True), Rules(end_score=50, qs_breaks_hearts=True),
    Rules(moon_scoring=MoonScoring.SHOOTER_CHOOSES, pass_cycle=PassCycle.NO_HOLD,
          end_score=150, no_points_on_first_trick=False, must_break_hearts=False),
])
def test_a_game_under_house_rules_has_a_code_that_carries_them(rules: Rules) -> None:
    code = gamecode.encode(123_456_789, rules)
    assert code.startswith("U")
    assert gamecode.decode_game(code) == (123_456_789, rules)
    assert gamecode.decode_game(code.lower()) == (123_456_789, rules)
    clean = code.replace("-", "")
    for at in range(1, len(clean)):  # a typo anywhere after the U is refused
        for other in gamecode.ALPHABET:
            typed = clean[:at] + other + clean[at + 1:]
            if typed != clean:
                with pytest.raises(gamecode.CodeError):
                    gamecode.decode_game(typed)


def test_the_history_names_each_games_house_rules() -> None:
    house = Rules(jd_bonus=True, end_score=50)
    record = Record()
    record.add(FinishedGame(DAY, "hard", words.HOUSE_RULES, False,
                            gamecode.encode(7, house), ((3, 13, 0, 10),) * 3, Tally(), 50))
    record.add(_game(40))
    loaded, _ = history.load_record(history.dump_record(record))
    listed = record_page.history_html(loaded.games, None, "0")
    assert "hard computers · J♦ −10 · to 50 · 9 points, 2nd" in listed
    assert listed.count("J♦") == 1  # the other game, under the standard rules: none


def test_the_standard_rules_keep_a_code_without_a_rules_marker() -> None:
    assert gamecode.encode(99, Rules()) == gamecode.encode(99)
    assert gamecode.decode_game(gamecode.encode(99)) == (99, Rules())
    # Rules the settings can't make (an end score of 30): the same deals, standard rules.
    assert gamecode.encode(99, Rules(end_score=30)) == gamecode.encode(99)


def test_playing_a_house_rules_code_deals_the_same_game_under_the_same_rules() -> None:
    seat, _ = _seat(MemoryStorage())
    rules = Rules(jd_bonus=True, end_score=50)
    seat.play_code(*gamecode.decode_game(gamecode.encode(4242, rules)))
    assert seat.game.seed == 4242 and seat.game.rules == rules
    assert seat.code().startswith("U")


def _finish(seat: LocalSeat) -> None:
    rng = random.Random(2)

    async def run() -> None:
        for _ in range(3_000):
            await settle(seat)
            snap = seat.snapshot()
            if snap.stage == "over":
                return
            person_move(seat, snap, rng)
        raise AssertionError("the game never ended")

    asyncio.run(run())


def test_a_finished_daily_goes_in_the_record_with_its_share_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.seats.solo_game.DAILY_LEVEL", "easy")  # fast computers for the test
    memory = MemoryStorage()
    seat, _ = _seat(memory)
    seat.start_daily()
    _finish(seat)
    record, note = history.load_record(memory.items[history.KEY_RECORD])
    assert note is None and len(record.games) == 1
    game = record.games[0]
    totals = seat.game.scores
    assert game.daily and game.day == DAY and game.totals == totals
    assert game.hands == tuple(seat.game.hand_history)
    assert record.days == {DAY: (totals[0], place_of(totals))}
    snap = seat.snapshot()
    assert snap.share == words.share_text(DAY, totals[0], place_of(totals), 1,
                                          link=f"{ADDRESS}?daily=2026-12-01")
    assert snap.share_note == "" and snap.code == gamecode.encode(daily_seed(DAY))
    assert json.loads(memory.items[formats.KEY_STATS])["played"] == 1


def test_the_tally_of_a_game_adds_up_its_hands() -> None:
    memory = MemoryStorage()
    seat, _ = _seat(memory)
    _finish(seat)
    game = history.load_record(memory.items[history.KEY_RECORD])[0].games[0]
    moons = sum(1 for row in seat.game.hand_history if sorted(row) == [0, 26, 26, 26]
                and row[0] == 0)
    assert game.tally.moons == moons
    assert 0 <= game.tally.queens <= len(game.hands)
    assert not game.daily and game.level == "easy"


def test_a_second_daily_the_same_day_shares_the_first_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.seats.solo_game.DAILY_LEVEL", "easy")
    memory = MemoryStorage()
    seat, _ = _seat(memory)
    seat.start_daily()
    _finish(seat)
    first = seat.snapshot().share
    seat.records.record.days[DAY] = (999, 4)  # so the second result surely differs
    seat.start_daily()
    _finish(seat)
    snap = seat.snapshot()
    assert snap.share == words.share_text(DAY, 999, 4, 1, link=daily_link(ADDRESS, DAY)) \
        != first
    assert snap.share_note == words.DAILY_FIRST_ONLY
    assert len(seat.records.record.games) == 2


def test_the_streak_is_said_for_none_one_and_several_days() -> None:
    assert words.streak_text(0).startswith("Daily streak: none yet")
    assert words.streak_text(1) == ("Daily streak: 1 day. Play the daily deal tomorrow to "
                                    "make it 2.")
    assert words.streak_text(3) == "Daily streak: 3 days in a row."
