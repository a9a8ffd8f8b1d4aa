"""The draw for a fair table's seats (web/p2p/fair/seating.py): commit, then reveal.

Four draws exchange their messages as the mesh would; a page that made itself the lowest
id no longer sits first, and one that changes its bytes after seeing the others' is refused.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.groups import SMALL
from web.p2p.fair.cheats import SeatGrabber
from web.p2p.fair.seating import DrawError, OtherRound, SeatDraw, where

IDS = ["0000-cheat", "k2", "m7", "z9"]


def draw_all(draws: list[SeatDraw]) -> None:
    """Every page's messages to every other page, each page's in order, until quiet."""
    queues = {(a.me, b.me): [a.commit_text()] for a in draws for b in draws if a is not b}
    by_id = {d.me: d for d in draws}
    while any(queues.values()):
        for (sender, receiver), queue in list(queues.items()):
            if queue:
                for out in by_id[receiver].received(sender, queue.pop(0)):
                    for other in by_id:
                        if other != receiver:
                            queues[(receiver, other)].append(out)


def draws(seed: int, cheat: type[SeatDraw] = SeatDraw, pages: int = 4) -> list[SeatDraw]:
    ids = IDS[:pages]
    return [(cheat if n == 0 else SeatDraw)(me, [i for i in ids if i != me],
                                            SMALL.codes[n], random.Random(seed * 10 + n),
                                            SMALL, computer_key=SMALL.codes[10 + n])
            for n, me in enumerate(ids)]


def test_the_four_pages_draw_the_same_seats_and_the_same_table_name() -> None:
    four = draws(1)
    draw_all(four)
    orders = [d.order() for d in four]
    assert orders[0] is not None and sorted(orders[0]) == sorted(IDS)
    assert all(o == orders[0] for o in orders)
    assert len({d.name() for d in four}) == 1
    assert all(d.keys == {me: SMALL.codes[n] for n, me in enumerate(IDS)} for d in four)
    seating = four[0].seating()
    assert seating is not None and not any(seating.computer)
    assert seating.keys == tuple(SMALL.codes[IDS.index(p)] for p in seating.pages)


@pytest.mark.parametrize("pages", [2, 3])
def test_fewer_people_draw_who_plays_each_computer_one_each_before_any_page_gets_two(
        pages: int) -> None:
    runners: Counter[str] = Counter()
    seats: Counter[int] = Counter()
    for seed in range(40):
        drawing = draws(seed, pages=pages)
        draw_all(drawing)
        seating = drawing[0].seating()
        assert seating is not None
        assert all(d.seating() == seating for d in drawing)
        assert sum(seating.computer) == 4 - pages
        people = [p for p, c in zip(seating.pages, seating.computer, strict=True) if not c]
        assert sorted(people) == sorted(IDS[:pages])  # every person has a seat of their own
        played = [p for p, c in zip(seating.pages, seating.computer, strict=True) if c]
        assert len(set(played)) == len(played)  # two people and two computers: one each
        for seat, (page, computer) in enumerate(zip(seating.pages, seating.computer,
                                                    strict=True)):
            n = IDS.index(page)
            assert seating.keys[seat] == SMALL.codes[10 + n if computer else n]
        runners.update(played)
        seats[seating.person("0000-cheat")] += 1
    assert set(runners) == set(IDS[:pages])  # drawn, not by id
    assert set(seats) == {0, 1, 2, 3}


def test_the_lowest_id_no_longer_sits_first() -> None:
    """Seats came from sorted ids, so a page that made its id lowest was always seat 0."""
    seats: Counter[int] = Counter()
    for seed in range(40):
        four = draws(seed)
        draw_all(four)
        order = four[1].order()
        assert order is not None
        seats[order.index("0000-cheat")] += 1
    assert set(seats) == {0, 1, 2, 3} and max(seats.values()) < 20


def test_a_page_that_changes_its_bytes_after_seeing_the_others_is_refused() -> None:
    four = draws(2, SeatGrabber)
    with pytest.raises(DrawError) as caught:
        draw_all(four)
    assert caught.value.peer == "0000-cheat"
    assert all(d.order() is None for d in four[1:])  # no honest page took the seats


HEX = "0" * 64


@pytest.mark.parametrize("text", [
    "not json", '{"v":1,"t":"fair_draw"}', '{"v":1,"t":"fair_draw","round":"R","commit":"ab"}',
    '{"v":1,"t":"fair_draw","round":"R","reveal":"' + HEX + '"}',  # a reveal before its commit
    '{"v":1,"t":"fair_draw","round":"R","commit":"' + HEX + '","reveal":"' + HEX + '"}',
    '{"v":1,"t":"fair_draw","round":"R","commit":"' + HEX + '"}',  # no signing key
    '{"v":1,"t":"fair_draw","round":"R","commit":"' + HEX + '","key":"1","bot":"1","at":""}',
    '{"v":1,"t":"fair_draw","reveal":"' + HEX + '"}',  # no round
])
def test_a_broken_draw_message_names_its_sender(text: str) -> None:
    draw = draws(3)[1]
    with pytest.raises(DrawError) as caught:
        draw.received("z9", text.replace('"R"', f'"{draw.round}"'))
    assert caught.value.peer == "z9"
    assert not isinstance(caught.value, OtherRound)


def test_a_message_of_a_draw_among_other_pages_is_not_taken_nor_breaks_this_one() -> None:
    """A page left while the seats were drawn: the others draw again without it, and a
    message of the draw before (sent before the page left) is kept out of the new one."""
    before = draws(5, pages=3)
    again = draws(6, pages=2)
    with pytest.raises(OtherRound):
        again[1].received(before[0].me, before[0].commit_text())
    with pytest.raises(OtherRound):
        again[1].received(before[0].me, before[0].reveal_text())
    assert again[1].commits.keys() == {again[1].me} and again[1].reveals.keys() == {again[1].me}
    draw_all(again)
    assert again[0].order() == again[1].order() is not None


def test_a_second_commit_is_refused() -> None:
    a, b = draws(4)[:2]
    b.received(a.me, a.commit_text())
    with pytest.raises(DrawError):
        b.received(a.me, a.commit_text())


def test_a_reveal_that_overtakes_another_pages_commit_waits_for_it() -> None:
    """Each page's messages come in order, but not across pages: a reveal (sent once its
    page had every commit) may reach a page before the last commit does."""
    a, b, c, d = draws(3)
    assert b.received(a.me, a.commit_text()) == []
    assert b.received(c.me, c.commit_text()) == []
    assert b.received(a.me, a.reveal_text()) == []  # before d's commit: held, not refused
    assert a.me not in b.reveals
    assert b.received(d.me, d.commit_text()) == [b.reveal_text()]
    assert a.me in b.reveals
    with pytest.raises(DrawError):
        b.received(a.me, a.reveal_text())  # a second reveal is still refused


def test_a_draw_again_keeps_the_seated_peoples_seats_and_draws_a_newcomers_among_the_free(
        ) -> None:
    fixed = {"k2": 2}  # k2 sat at seat 2; m7 comes to take a computer's seat
    newcomer_seats: Counter[int] = Counter()
    for seed in range(30):
        two = [SeatDraw(me, [i for i in ("k2", "m7") if i != me], SMALL.codes[n],
                        random.Random(seed * 10 + n), SMALL, computer_key=SMALL.codes[10 + n],
                        fixed=fixed, at=where([(1, 2, 3, 20)], fixed))
               for n, me in enumerate(("k2", "m7"))]
        draw_all(two)
        seating = two[0].seating()
        assert seating is not None and two[1].seating() == seating
        assert seating.person("k2") == 2
        newcomer_seats[seating.person("m7")] += 1
        assert sum(seating.computer) == 2
    assert set(newcomer_seats) == {0, 1, 3}  # drawn among the free seats, never the kept one


def test_pages_that_disagree_on_the_scores_or_the_kept_seats_never_draw_together() -> None:
    history = [(1, 2, 3, 20)]
    assert where(history, {"k2": 2}) != where([(1, 2, 20, 3)], {"k2": 2})
    assert where(history, {"k2": 2}) != where(history, {"k2": 1})
    assert where(history, {"k2": 2}).startswith("2:")
    honest = SeatDraw("k2", ["m7"], SMALL.codes[0], random.Random(1), SMALL,
                      fixed={"k2": 2}, at=where(history, {"k2": 2}))
    told_a_lie = SeatDraw("m7", ["k2"], SMALL.codes[1], random.Random(2), SMALL,
                          fixed={"k2": 1}, at=where(history, {"k2": 1}))
    with pytest.raises(OtherRound):
        honest.received("m7", told_a_lie.commit_text())
    assert honest.round != told_a_lie.round and honest.seating() is None


@pytest.mark.parametrize("fixed", [{}, {"k2": 2, "m7": 2}, {"k2": 4}, {"zz": 0}])
def test_a_draw_again_needs_each_kept_seat_its_own_and_held_by_a_page_of_the_draw(
        fixed: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        SeatDraw("k2", ["m7"], SMALL.codes[0], random.Random(1), SMALL, fixed=fixed)
