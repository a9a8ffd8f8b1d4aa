"""The hand summary: drawn over the hand it sums up, with that hand's story in words."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace

from hearts import Card, Game
from hearts.story import HandStory
from tests.solo_page import local_seat, person_move, settle
from web import words
from web.table.model import PageState, SummaryModel, TableModel, build
from web.table.view import summary_html

PAGE = PageState(ready=True)


def first_summary(seed: int) -> TableModel:
    """The table model as the first hand's summary opens, in a game against computers."""
    async def run() -> TableModel:
        seat, _, _ = local_seat(seed=seed)
        rng = random.Random(seed)
        while seat.snapshot().result is None:
            person_move(seat, seat.snapshot(), rng)
            await settle(seat)
        return build(seat.snapshot(), PAGE)

    return asyncio.run(run())


def test_the_felt_behind_the_summary_is_the_hand_just_over() -> None:
    m = first_summary(5)
    assert m.state == "summary" and m.deal == 1 and m.summary is not None
    assert m.pass_chip.startswith("Hand 1: pass left")
    assert [s.held for s in m.seats] == [0, 0, 0, 0] and m.hand == ()
    assert len(m.trick) == 4 and sum("winner" in c.classes for c in m.trick) == 1


def test_the_summary_tells_who_took_the_queen_and_the_hearts_in_order() -> None:
    m = first_summary(5)
    s = m.summary
    assert s is not None
    symbols = [symbol for symbol, _ in s.story]
    assert symbols[-2:] == ["Q♠\ufe0e", "♥\ufe0e"]
    hearts = s.story[-1][1]
    counts = [int(n) for n in re.findall(r"(?:You|West|North|East) (\d+)", hearts)]
    assert len(counts) == 4 and sum(counts) == 13
    queen = s.story[-2][1]
    taker = ["You", "West", "North", "East"].index(queen.split(": ")[1].split(" took")[0])
    row = s.rows[0]  # no moon with easy computers here: the points are the story's
    assert row[taker] == 13 + counts[taker]
    assert s.totals_line == words.totals_text(s.totals, 0)
    text = re.sub(r"<[^>]+>", "", summary_html(s))  # as a screen reader reads it
    assert text.index("Points this hand") < text.index("Queen of spades") \
        < text.index("Hearts taken") < text.index("Totals:")


def test_the_story_of_a_moon_stopped_and_the_jack() -> None:
    story = HandStory((0, 12, 1, 0), 1, 3, None, (1, 2), (0, 12, 1, 0))
    assert words.story_lines(story, 0) == (
        ("☾\ufe0e", "North stopped West's moon."),
        ("Q♠\ufe0e", "Queen of spades: West took it, 13 points."),
        ("J♦\ufe0e", "Jack of diamonds: East took it, 10 points off."),
        ("♥\ufe0e", "Hearts taken: You 0, West 12, North 1, East 0."))
    assert words.story_lines(story, 1)[0][1] == "North stopped your moon."


def test_the_red_suits_symbols_are_drawn_red() -> None:
    s = SummaryModel("Hand 1 is over", "", "", "Points", (), (), 1, (0, 0, 0, 0),
                     "next-hand", "Next hand", story=(("♥\ufe0e", "Hearts taken: …"),))
    assert 'class="sym red" aria-hidden="true">♥' in summary_html(s)
    assert Card.parse("QS").short == "Q♠"


def test_a_table_waiting_behind_the_summary_counts_down_and_leaves_the_person_time() -> None:
    from web.table.held import MARGIN, left_to_read, reading
    from web.table.model import HandResult, SeatSnapshot

    game = Game.new(seed=3)
    scored = SeatSnapshot(view=game.view(0), stage="scores",
                          result=HandResult(1, (3, 10, 13, 0)))
    assert reading(scored, PAGE)  # what the person reads stays: a new table waits
    assert not reading(scored, PageState(ready=False))
    playing = replace(scored, stage="pass", result=None)
    assert not reading(playing, PAGE)  # they moved on: the table waiting is shown
    over = replace(scored, stage="over")
    assert reading(over, PAGE) and not reading(over, PageState(ready=True, dismissed=True))
    dealing = SeatSnapshot(view=None, stage="connecting")
    assert left_to_read(dealing) is None  # no clock runs there yet: no hurry
    assert left_to_read(replace(playing, turn_left=30)) == 30 - MARGIN
    assert left_to_read(replace(playing, turn_left=MARGIN)) == 0  # now: time to pass
    # the summary says the countdown, in place
    m = build(scored, PageState(ready=True, next_in=12))
    assert m.summary is not None and m.summary.next_in == words.next_hand_in(12)
    assert 'id="summary-next-in"' in summary_html(m.summary)
    assert build(scored, PAGE).summary.next_in == ""  # type: ignore[union-attr]
