"""The coach in the page, without a browser: the hand it reviews is the one South played,
kept across a reload; the setting is stored like the others; the review reads as a list."""

from __future__ import annotations

import asyncio
import json
import random

from hearts import Card, CardPlayed, Game
from hearts.coach import Coach, gap
from hearts.seathand import SeatHand
from tests.solo_page import local_seat, person_move, settle
from web import formats, words
from web.formats import Stats
from web.seats.solo import LocalSeat
from web.storage import MemoryStorage
from web.table.coach_panel import review_html
from web.table.model import HandResult, PageState, SeatSnapshot, build


def finish_first_hand(seed: int = 5, undo_at: int | None = None
                      ) -> tuple[LocalSeat, MemoryStorage, list[SeatHand]]:
    """Play hand 1 against the computers (the person's moves at random, one Undo if asked)."""
    seat, memory, _ = local_seat(seed=seed)
    got: list[SeatHand] = []
    seat.solo.books.on_hand = got.append
    rng = random.Random(seed)
    mine = 0

    async def run() -> None:
        nonlocal mine
        for _ in range(500):
            await settle(seat)
            snap = seat.snapshot()
            if snap.stage == "scores":
                return
            if snap.stage == "play" and snap.may_play:
                mine += 1
                if mine == undo_at:
                    person_move(seat, snap, rng)
                    await settle(seat)
                    seat.undo()
                    await settle(seat)
                    continue
            person_move(seat, snap, rng)
        raise AssertionError("the hand never ended")

    asyncio.run(run())
    return seat, memory, got


def hand_one_plays(game: Game) -> list[tuple[int, str]]:
    plays: list[tuple[int, str]] = []
    for event in game.events:
        if isinstance(event, CardPlayed):
            if len(plays) == 52:
                break
            plays.append((event.seat, event.card.notation))
    return plays


def test_the_hand_just_finished_is_recorded_as_south_played_it() -> None:
    seat, memory, got = finish_first_hand()
    record = seat.last_hand
    assert record is not None and record.complete and got == [record]
    assert [(s, c.notation) for s, c in record.plays] == hand_one_plays(seat.game)
    assert record.hand_number == 1 and record.seat == 0
    assert seat.snapshot().reviewable
    assert formats.KEY_COACH in memory.items


def test_an_undo_during_the_hand_leaves_the_record_true_to_the_cards_played() -> None:
    seat, _, _ = finish_first_hand(seed=6, undo_at=4)
    record = seat.last_hand
    assert record is not None
    assert [(s, c.notation) for s, c in record.plays] == hand_one_plays(seat.game)
    record.decisions()  # replays through the engine without a complaint


def test_after_a_reload_the_last_hand_is_still_there_to_review() -> None:
    seat, memory, _ = finish_first_hand()
    again, _, _ = local_seat(memory.items)
    assert again.last_hand == seat.last_hand
    assert again.snapshot().reviewable


def test_a_damaged_or_foreign_last_hand_is_not_reviewed() -> None:
    seat, memory, _ = finish_first_hand()
    text = memory.items[formats.KEY_COACH]
    game = seat.game
    assert formats.load_last_hand(text, game) == seat.last_hand
    data = json.loads(text)
    data["hand"]["plays"] = data["hand"]["plays"][:-3]
    for bad in (json.dumps(data), text[:-5], "[]", None, '{"schema": 9}'):
        assert formats.load_last_hand(bad, game) is None
    assert formats.load_last_hand(text, Game.new(seed=1)) is None  # another game's hand


def test_a_new_game_has_no_last_hand() -> None:
    seat, _, _ = finish_first_hand()
    seat.new_game()
    assert seat.last_hand is None and not seat.snapshot().reviewable


def test_the_coach_setting_is_kept_and_a_damaged_one_is_reset() -> None:
    settings = formats.Settings(coach=False)
    loaded, note = formats.load_settings(formats.dump_settings(settings))
    assert loaded.coach is False and note is None
    data = json.loads(formats.dump_settings(settings))
    data["coach"] = "no"
    loaded, note = formats.load_settings(json.dumps(data))
    assert loaded.coach is True and note is not None
    del data["coach"]  # saved before the coach existed: on, silently
    loaded, note = formats.load_settings(json.dumps(data))
    assert loaded.coach is True and note is None


def test_the_review_reads_as_a_list_of_thirteen_plays_with_the_costly_ones_marked() -> None:
    seat, _, _ = finish_first_hand()
    assert seat.last_hand is not None
    review = Coach(iterations=300, pass_deals=40, threshold=0.3).review(seat.last_hand)
    text = review_html(review)
    assert text.count("<li") == 13
    assert text.count('class="flagged"') == len(review.flagged)
    assert text.count('class="why"') == len(review.flagged)
    assert "<h3>" in text and '<ol class="coach-plays">' in text


def test_each_reason_is_one_sentence_naming_the_cards() -> None:
    king, queen, ten = Card.parse("KS"), Card.parse("QS"), Card.parse("TH")
    said = {
        kind: words.coach_reason(kind, king, ten, led=True, cost=2.5, seat=1, points=1,
                                 trick=9)
        for kind in ("queen_dropped", "own_queen", "took_points", "duck", "could_drop",
                     "kept_card", "expected")}
    assert said["queen_dropped"] == "Leading the K♠\ufe0e let West drop the Q♠\ufe0e on you."
    assert said["took_points"] == "Leading the K♠\ufe0e won trick 9 and its 1 point."
    assert said["kept_card"] == "Keeping the 10♥\ufe0e took 1 point in trick 9."
    assert said["expected"] == ("The hard player expected about 2.5 points fewer for you "
                                "with the 10♥\ufe0e.")
    for text in said.values():
        assert text.endswith(".") and text.count(". ") == 0 and text[0].isupper()
    assert "Playing the K♠" in words.coach_reason("queen_dropped", king, queen, led=False,
                                                  cost=1, seat=3, points=0, trick=2)


def test_the_summary_offers_a_review_only_for_a_hand_the_coach_has() -> None:
    seat, _, _ = finish_first_hand()
    snap = seat.snapshot()
    model = build(snap, PageState(ready=True, coach="The coach found it."), Stats())
    assert model.summary is not None and model.summary.review
    assert model.summary.coach == "The coach found it."
    other = SeatSnapshot(view=snap.view, stage="scores", result=HandResult(1, (0, 0, 13, 13)))
    model = build(other, PageState(ready=True, coach="stale"), Stats())
    assert model.summary is not None and not model.summary.review and not model.summary.coach


def test_a_play_with_a_better_card_gives_the_hard_players_two_figures() -> None:
    seven, ace = Card.parse("7D"), Card.parse("AD")
    flagged = words.coach_play(4, seven, ace, forced=False, gap="costly", cost=1.2,
                               value=3.4, best_value=2.2)
    assert flagged == ("Trick 4: the 7♦\ufe0e cost about 1.2 points: about 3.4 points "
                       "expected for the hand with it, about 2.2 points with the hard "
                       "player's card, the A♦\ufe0e.")
    close = words.coach_play(4, seven, ace, forced=False, gap="worse", cost=0.5,
                             value=0.5, best_value=0.0)
    assert "about 0.5 points expected" in close and "no points with the A♦" in close
    # One legal card, not one card left: following clubs with the only club held.
    forced = words.coach_play(1, Card.parse("KC"), Card.parse("KC"), forced=True,
                              gap="even", cost=0.0, value=0.0, best_value=0.0)
    assert forced == "Trick 1: the K♣\ufe0e, the only card you could play."


def _said(value: float, best_value: float) -> str:
    """What the coach says of a 7♦ worth ``value`` against an A♦ worth ``best_value``,
    with the coach's own rounding and scale (``hearts.coach``)."""
    shown, best_shown = round(value, 1), round(best_value, 1)
    cost = round(shown - best_shown, 1)
    return words.coach_play(4, Card.parse("7D"), Card.parse("AD"), forced=False,
                            gap=gap(cost), cost=cost, value=shown, best_value=best_shown)


def test_one_size_of_gap_has_one_phrase() -> None:
    # The two tricks: 3.7 against 2.7 and 3.5 against 2.5, both a gap of 1 point
    # as shown, whatever the digits after: both "cost about 1 point".
    for value, best_value in ((3.66, 2.69), (3.5, 2.5), (3.54, 2.46)):
        assert "cost about 1 point:" in _said(value, best_value)
    # A gap under the threshold, as shown: never "cost"; under half of it: "nearly as good".
    assert ", nearly as good as the A♦" in _said(3.1, 2.7)
    assert ", a little worse than the A♦" in _said(3.2, 2.7)
    assert ", a little worse than the A♦" in _said(3.64, 2.7)
    assert ", as good as any" in _said(2.72, 2.69)
    # The same gap anywhere on the scale of points reads the same.
    for base in (0.0, 1.3, 5.0, 9.9):
        assert _said(base + 0.4, base).startswith("Trick 4: the 7♦\ufe0e, nearly as good "
                                                  "as the A♦\ufe0e:")
        assert "cost about 2 points" in _said(base + 2.0, base)


def test_the_pass_uses_the_same_scale() -> None:
    mine, theirs = [Card.parse(c) for c in ("9C", "QH", "KS")], \
        [Card.parse(c) for c in ("9H", "QH", "KS")]

    def said(cost: float, value: float) -> str:
        return words.coach_pass(mine, theirs, same=False, gap=gap(cost), cost=cost,
                                value=value, best_value=round(value - cost, 1))

    assert "yours cost about 1.9 points" in said(1.9, 6.0)
    assert "yours did a little worse" in said(0.6, 6.0)
    assert "yours did nearly as well" in said(0.2, 6.0)
    assert "yours did as well" in said(0.0, 6.0)


def test_the_reviews_costs_are_the_gaps_between_its_figures_as_shown() -> None:
    seat, _, _ = finish_first_hand()
    assert seat.last_hand is not None
    review = Coach(iterations=300, pass_deals=40, threshold=0.3).review(seat.last_hand)
    text = review_html(review)
    compared = [p for p in review.plays if not p.forced and p.cost >= 0.05]
    assert compared  # (this hand has plays with a better card to show)
    for play in compared:
        assert play.cost == round(play.value - play.best_value, 1)
        assert play.flagged == (play.gap == "costly") == (play.cost >= 0.3)
        assert words.coach_play(play.trick, play.card, play.best, forced=False,
                                gap=play.gap, cost=play.cost, value=play.value,
                                best_value=play.best_value) in text.replace("&#x27;", "'")
