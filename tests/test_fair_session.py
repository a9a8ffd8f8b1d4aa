"""Four pages press Play online and sit at a fair table (web/friends/fair_room.py), on the fake
network of ``test_friends_session``: each page's felt shows a ``FairSeat``, the pages deal
among themselves through the room's mesh, play a whole hand, and audit it; a page that
doesn't follow suit is named to every other page, and the table closes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Callable, Sequence

import pytest

from hearts import Card, Suit
from hearts.rules import Rules
from tests.groups import SMALL
from tests.online_pages import (
    Network,
    Page,
    lone_online,
    play_out_hosted_hand,
    see_each_other,
    settle,
    until,
)
from web import words
from web.friends.fair_back import Kept
from web.friends.fair_names import name_text
from web.friends.fair_room import FairPlay
from web.friends.looking import ALONE_WAIT, GATHER
from web.friends.session import Role
from web.friends.sheet import sheet
from web.p2p.fair.played import left, left_points
from web.p2p.fair.public import PublicHand
from web.p2p.fair.seating import Admit, is_admit
from web.p2p.fair.table import GONE_GRACE, FairStage
from web.p2p.fair.transcript import Cheat, Fault
from web.p2p.fair.wire import message, sender
from web.seats.fair import FairSeat
from web.table.seat import QUIET
from web.told import Played


def untaken(seat: int) -> tuple[int, int, int, int]:
    """A hand ``seat``'s page left before anyone took a point: 25 points on it, and 1 on
    the next player (only a moon shot gives one player all 26)."""
    return left_points((0, 0, 0, 0), seat, Rules())


def fair_pages(cheat: dict[int, str] | None = None, people: int = 4
               ) -> tuple[Network, list[Page]]:
    network = Network()
    pages = [Page(network) for _ in range(people)]
    for n, page in enumerate(pages):
        page.session.fair_group = SMALL
        page.session.cheat = (cheat or {}).get(n, "")
    return network, pages


def seat_of(page: Page) -> FairSeat:
    seat = page.shown[-1]
    assert isinstance(seat, FairSeat)
    return seat


def dealt(page: Page) -> bool:
    """Whether the page sits at a fair table whose cards are dealt."""
    fair = page.session.fair
    return fair is not None and fair.table is not None \
        and fair.table.stage is not FairStage.DEALING and not fair.redrawing


def is_closed(page: Page) -> bool:
    return page.session.role is Role.GUEST_CLOSED


async def into_the_lobby(pages: list[Page]) -> None:
    """Every page presses Play online and meets the others in the lobby; with fewer than
    four, the dealer's wait runs out and they go to a table with computers."""
    for page in pages:
        page.session.play_online()
    await see_each_other(pages, len(pages))
    if len(pages) < 4:  # the dealer's wait, once on every clock the pages keep
        for clock in {id(page.clock): page.clock for page in pages}.values():
            clock[0] += GATHER + 0.5


async def press_play_online(pages: list[Page]) -> None:
    """``into_the_lobby``, then until every page is dealt its cards, or one page closed."""
    await into_the_lobby(pages)
    await until(lambda: all(map(dealt, pages)) or any(map(is_closed, pages)),
                "every page dealt its cards, or one closed")


async def sit(pages: list[Page]) -> list[FairSeat]:
    await press_play_online(pages)
    assert all(p.session.role is Role.FAIR for p in pages)
    return [seat_of(p) for p in pages]


def withhold_reveal(fair: FairPlay | None, to: Callable[[str], bool] = lambda conn: False
                    ) -> None:
    """The page of ``fair`` sends its part of the draw but its reveal (except on the
    connections ``to`` names): the others wait for it."""
    assert fair is not None
    send = fair.send
    fair.send = lambda conn, text: send(conn, text) \
        if '"reveal"' not in text or to(conn) else None


async def saw_it_go(pages: list[Page], gone: str | None) -> None:
    """Until each page's draw noted the page ``gone`` leaving; then their clocks pass
    ``GONE_GRACE`` (what it sent before it left has had time to come)."""
    await until(lambda: all(p.session.fair is not None and gone in p.session.fair.gone
                            for p in pages), "the pages drawing saw it go")
    for page in pages:
        page.clock[0] += GONE_GRACE


async def wait_out_grace(pages: list[Page], seats: list[FairSeat]) -> None:
    """The pages' clocks pass ``GONE_GRACE``, and their timers look (as the page's do):
    until they closed."""
    for page in pages:
        page.clock[0] += GONE_GRACE
    for seat in seats:
        seat.tick(0, True)
    await until(lambda: all(map(is_closed, pages)), "the pages closed")


async def play_out(seats: list[FairSeat]) -> None:
    """Every person passes their three first cards, then plays their first legal card,
    until the hand is played out (or a table closed)."""
    for seat in seats:
        snap = seat.snapshot()
        if snap.may_pass and snap.view is not None:
            for card in snap.view.hand[:3]:
                seat.toggle(card)
            seat.pass_cards()

    def over() -> bool:
        return any(s.table.closed is not None for s in seats) or all(
            s.table.stage not in (FairStage.DEALING, FairStage.PASSING, FairStage.PLAYING)
            for s in seats)
    while True:
        await until(lambda: over() or any(s.snapshot().may_play for s in seats),
                    "a person's turn, or the hand played out")
        if over():
            return
        movers = [s for s in seats if s.snapshot().may_play]
        view = movers[0].snapshot().view
        assert view is not None and len(movers) == 1
        movers[0].play(view.legal_plays[0])


async def scored(seats: list[FairSeat]) -> None:
    """Until every table scored its hand."""
    await until(lambda: all(s.table.stage is FairStage.SCORED for s in seats),
                lambda: f"every table scored: {[s.table.closed for s in seats]}")


def test_four_pages_online_sit_at_a_fair_table_and_play_and_audit_a_hand() -> None:
    async def run() -> None:
        network, pages = fair_pages()
        seats = await sit(pages)
        assert sorted(s.table.seat for s in seats) == [0, 1, 2, 3]
        assert not any(network.rooms[key] for key in network.rooms if key[0] == "lobby")
        snaps = [s.snapshot() for s in seats]
        assert all(s.where == words.FAIR_KIND and s.stage == "pass" for s in snaps)
        hands = [set(s.view.hand) for s in snaps if s.view is not None]
        assert len(set().union(*hands)) == 52  # four hands of 13, each known to one page
        await play_out(seats)
        await scored(seats)
        for seat in seats:
            snap = seat.snapshot()
            assert snap.stage == "scores" and snap.result is not None
            assert snap.note == words.FAIR_HAND
        assert len({s.table.scores for s in seats}) == 1
        assert all(p.session.role is Role.FAIR for p in pages)
        for seat in seats:
            seat.next_hand()
        await until(lambda: all(s.table.hand_number == 2 and len(s.table.hand()) == 13
                                for s in seats), "the next hand dealt")
    asyncio.run(run())


@pytest.mark.parametrize("people", [2, 3])
def test_fewer_people_sit_at_a_fair_table_whose_computers_their_pages_play(people: int) -> None:
    async def run() -> None:
        _, pages = fair_pages(people=people)
        seats = await sit(pages)
        fairs = [p.session.fair for p in pages]
        assert all(f is not None for f in fairs)
        computers = [f.computer for f in fairs if f is not None and f.computer is not None]
        assert len(computers) == 4 - people  # one each, drawn
        mine = {s.table.seat for s in seats}
        theirs = {c.table.seat for c in computers}
        assert len(mine) == people and mine | theirs == {0, 1, 2, 3}
        snaps = [s.snapshot() for s in seats]
        for seat, snap in zip(seats, snaps, strict=True):
            assert snap.where == words.FAIR_KIND and snap.stage == "pass"
            assert [k == "computer" for k in snap.kinds] == [s in theirs for s in range(4)]
            assert "computer" in seat.intro
        await until(lambda: all(c.table.current.dealt for c in computers),
                    "the computers' cards read (in their page's next slices)")
        hands = {s.table.seat: set(s.table.current.dealt or ()) for s in seats}
        hands |= {c.table.seat: set(c.table.current.dealt or ()) for c in computers}
        assert all(len(h) == 13 for h in hands.values()), {s: len(h) for s, h in hands.items()}
        assert len(set().union(*hands.values())) == 52
        for fair in fairs:  # no person's card is known to another person's page
            assert fair is not None and fair.table is not None
            known = set(fair.table.party.known.values())
            if fair.computer is not None:
                known |= set(fair.computer.table.party.known.values())
            for seats_of_page in fair.seats.values():  # the other pages' seats
                assert not known & hands[seats_of_page[0]]
        await play_out(seats)
        await scored(seats)
        # the computers' tables scored it too (and are ready at once for the next deal)
        scores = {s.table.scores for s in seats} | {c.table.scores for c in computers}
        assert len(scores) == 1
        for seat in seats:
            seat.next_hand()
        await until(lambda: all(s.table.hand_number == 2 and len(s.table.hand()) == 13
                                for s in seats), "the next hand dealt")
        assert all(c.table.hand_number == 2 for c in computers)
    asyncio.run(run())


def test_a_page_that_speaks_for_a_seat_it_doesnt_hold_is_named() -> None:
    """At two people and two computers each page holds two seats' keys. A page that sends
    a message in the name of a seat the other page holds — its computer's, say — is refused
    by the mesh (only the page holding a seat speaks for it) and named for it."""
    async def run() -> None:
        _, pages = fair_pages(people=2)
        seats = await sit(pages)
        honest, changed = pages
        fair = changed.session.fair
        assert fair is not None and fair.table is not None
        theirs = next(iter(fair.seats.values()))  # the honest page's two seats
        forged = fair.table.ledger.seal(1, "fair_complain", message("fair_complain"))
        assert sender(forged) == fair.table.seat
        forged = forged.replace(f'"f":{fair.table.seat},', f'"f":{theirs[1]},', 1)
        conn = next(iter(fair.seats))
        changed.session.peer.send(conn, forged)
        await until(lambda: is_closed(honest), "the honest page closed")
        closed = honest.session.seat.closed
        me = seats[0].table.seat
        assert closed == words.fault_text(Fault(fair.table.seat, Cheat.MALFORMED), me) + " " \
            + words.fair_charged(fair.table.seat, me)  # the hand dealt is charged to it
    asyncio.run(run())


async def _gone(pages: list[Page], leaving: Page) -> list[Page]:
    """``leaving``'s person leaves; the others' clocks pass ``GONE_GRACE`` and they draw
    again. The pages still at the table."""
    leaving.session.leave()
    staying = [p for p in pages if p is not leaving]
    await until(lambda: all(p.session.fair is not None and p.session.fair.leaving
                            for p in staying), "the others saw the page go")
    for page in staying:
        page.clock[0] += GONE_GRACE
    old = [p.session.fair.table if p.session.fair else None for p in staying]
    await until(lambda: all(dealt(p) and p.session.fair is not None
                            and p.session.fair.table is not t
                            for p, t in zip(staying, old, strict=True)),
                "the pages still there sat again, dealt")
    return staying


def test_a_page_that_leaves_mid_hand_is_replaced_by_a_computer_and_charged_the_hand(
        ) -> None:
    """Left at the pass, before a trick is taken: the seat that left takes every point
    but the one only a moon shot could add, and the next hand is dealt."""
    async def run() -> None:
        _, pages = fair_pages(people=3)
        seats = await sit(pages)
        gone_seat = seats[2].table.seat
        staying = await _gone(pages, pages[2])
        assert pages[2].session.role is Role.GUEST_CLOSED
        new = [seat_of(p) for p in staying]
        assert all(s is not old for s, old in zip(new, seats, strict=False))
        assert [s.table.seat for s in new] == [s.table.seat for s in seats[:2]]
        fairs = [p.session.fair for p in staying]
        computers = [f.computer for f in fairs if f is not None and f.computer is not None]
        assert len(computers) == 2  # one each: the one there was, and the seat of the page gone
        assert gone_seat in {c.table.seat for c in computers}
        for seat in new:
            assert seat.table.hand_number == 2 and seat.table.scores == untaken(gone_seat)
            assert seat.kinds[gone_seat] == "computer"
            assert seat.notice == words.fair_handed_over(
                [gone_seat], seat.players, seat.table.seat,
                words.fair_left_hand(gone_seat, untaken(gone_seat), seat.table.seat))
            assert "dealt again" not in seat.notice
        await play_out(new)
        await scored(new)
        assert len({s.table.scores for s in new}) == 1
        # the second hand's 26 points, or 78 if a player shot the moon in it
        assert sum(new[0].table.scores) - sum(untaken(gone_seat)) in (26, 3 * 26)
        assert all(p.session.role is Role.FAIR for p in staying)
    asyncio.run(run())


def test_a_page_that_leaves_between_hands_is_replaced_and_the_scores_go_on() -> None:
    async def run() -> None:
        _, pages = fair_pages()
        seats = await sit(pages)
        await play_out(seats)
        await scored(seats)
        scores = seats[0].table.scores
        staying = await _gone(pages, pages[1])
        new = [seat_of(p) for p in staying]
        for seat in new:
            assert seat.table.hand_number == 2 and seat.table.scores == scores
            assert seat.table.history == seats[0].table.history
            assert "dealt again" not in seat.notice and "scores stay" in seat.notice
            assert len(seat.table.hand()) == 13
        assert sum(s.kinds.count("computer") for s in new) == 3  # the one seat, on each page
    asyncio.run(run())


def test_a_revoking_page_is_named_to_every_other_page_and_the_table_closes() -> None:
    async def run() -> None:
        _, pages = fair_pages(cheat={2: "revoke"})
        seats = await sit(pages)
        cheat_seat = seats[2].table.seat
        for seat in seats:
            seat.attach(QUIET)
        await play_out(seats)
        await until(lambda: all(map(is_closed, pages)), "every page closed")
        for n, page in enumerate(pages):
            assert page.dialog_open
            closed = page.session.seat.closed
            me = seats[n].table.seat
            assert closed is not None and "cheated" in closed
            assert closed.endswith(words.fair_charged(cheat_seat, me))  # a revoke never pays
            assert closed.startswith(words.seat_name(cheat_seat, me))
            assert page.shown[-1] is None  # back to the page's own game
    asyncio.run(run())


@pytest.mark.parametrize(("cheat", "kind"), [
    ("short", Cheat.BAD_DECK),       # caught on arrival
    ("undealt", Cheat.NOT_DEALT),    # caught on arrival, at its first card
    ("stacked", Cheat.SHUFFLE),      # its shuffle proof fails: complaints, then the audit
    ("falsepass", Cheat.FALSE_PASS),  # the receiver's cards don't open: the same
    ("marked", Cheat.MARKED),        # non-residues: refused on arrival
    ("framing", Cheat.MARKED),       # p - 1 in a slot it opens: refused on arrival
    ("framethird", Cheat.FALSE_DIGEST),  # a false digest, nothing of it to the third
])
def test_a_page_that_cheats_at_a_step_of_the_deal_is_named_by_every_other_page(
        cheat: str, kind: Cheat) -> None:
    async def run() -> None:
        _, pages = fair_pages(cheat={1: cheat})
        await press_play_online(pages)
        seats = [next(s for s in reversed(p.shown) if isinstance(s, FairSeat)) for p in pages]
        await play_out(seats)
        await until(lambda: all(is_closed(p) for n, p in enumerate(pages) if n != 1),
                    "every other page closed")
        cheater = seats[1].table.seat
        for n, seat in enumerate(seats):
            if n != 1:
                me = seat.table.seat
                fault = seat.table.fault
                assert fault is not None and (fault.seat, fault.kind) == (cheater, kind)
                # a cheat caught once the cards are dealt is charged the hand
                cost = words.fair_charged(cheater, me) if seat.table.transcript.dealt \
                    else words.FAIR_VOID
                assert pages[n].session.seat.closed == f"{words.fault_text(fault, me)} {cost}"
                assert pages[n].session.role is Role.GUEST_CLOSED
    asyncio.run(run())


async def left_alone(pages: list[Page], seats: list[FairSeat], leaving: Page) -> Page:
    """``leaving``'s person leaves a table of two; after ``GONE_GRACE`` the other carries
    the game on alone. That other page."""
    leaving.session.leave()
    assert leaving.session.seat.closed == words.FAIR_LEFT
    stay = next(p for p in pages if p is not leaving)
    await until(lambda: stay.session.fair is not None and stay.session.fair.alone,
                "the page saw the other go")
    await settle(50)
    # A moment's grace, for whatever the page sent before it left ...
    assert stay.session.role is Role.FAIR
    stay.clock[0] += GONE_GRACE
    await until(lambda: stay.session.role is Role.HOSTING
                and stay.session.fair is not None and stay.session.fair.me is not None,
                "the page left alone carries on, its door open")
    return stay


def turned(history: list[tuple[int, int, int, int]], seat: int) -> list[tuple[int, ...]]:
    """The scores by hand as a lone page keeps them: its person's seat is South."""
    return [tuple(row[(s + seat) % 4] for s in range(4)) for row in history]


def test_a_page_left_alone_mid_hand_carries_the_game_on_and_the_hand_is_charged(
        ) -> None:
    """With nobody else to draw again with, the page left plays on against the computers
    (the hand under way can't be opened without the other's keys: it counts as far as it
    went, here every point on the seat that left before a trick was taken)."""
    async def run() -> None:
        _, pages = fair_pages(people=2)
        seats = await sit(pages)
        me, gone = seats[0].table.seat, seats[1].table.seat
        stay = await left_alone(pages, seats, pages[1])
        hosting = stay.session.hosting
        assert hosting is not None and stay.session.seat.closed is None
        host = hosting.host
        assert host.started and host.online and host.game.hand_number == 2
        assert host.game.hand_history == turned([untaken(gone)], me) and host.guests() == 0
        notice = stay.session.seat.notice or ""
        assert notice == words.fair_alone([gone], me, words.fair_left_hand(gone, untaken(gone), me))
        assert "dealt again" not in notice
        assert stay.session.remote is not None and stay.shown[-1] is stay.session.remote
        play_out_hosted_hand(host)  # the game goes on: a hand is played and scored
        assert len(host.game.hand_history) == 2
    asyncio.run(run())


def test_a_page_left_alone_between_hands_keeps_every_score_and_deals_the_next_hand(
        ) -> None:
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        await play_out(seats)
        await scored(seats)
        me = seats[0].table.seat
        history = list(seats[0].table.history)
        stay = await left_alone(pages, seats, pages[1])
        assert stay.session.hosting is not None
        host = stay.session.hosting.host
        assert host.game.hand_history == turned(history, me)
        assert host.game.scores[0] == seats[0].table.scores[me]  # the person's own score
        assert host.game.hand_number == 2
        assert "dealt again" not in (stay.session.seat.notice or "")
        # the door is open: a person who comes sits down with it at the next hand
        late = await come_late(network, stay.clock)
        play_out_hosted_hand(host)
        stay.session.hosting.flush()
        await until(lambda: dealt(stay) and dealt(late), "both pages at a fair table")
        for seat in (seat_of(stay), seat_of(late)):
            assert seat.table.hand_number == 3
            assert seat.table.history[:1] == turned(history, me)
    asyncio.run(run())


@pytest.mark.parametrize("people", [2, 4])
def test_a_page_that_breaks_the_draw_for_the_seats_stops_the_table_from_starting(
        people: int) -> None:
    """A page that wants seat 0 (and at two, the computer it would get) changes its bytes
    once it has seen the others' (``cheats.SeatGrabber``): every other page refuses the
    draw, and nobody is seated."""
    async def run() -> None:
        _, pages = fair_pages(cheat={0: "seat0"}, people=people)
        await press_play_online(pages)
        await until(lambda: all(map(is_closed, pages[1:])), "every other page closed")
        for page in pages[1:]:
            assert page.session.role is Role.GUEST_CLOSED
            assert page.session.seat.closed == words.FAIR_DRAW_BROKEN
            assert not any(isinstance(s, FairSeat) for s in page.shown)
    asyncio.run(run())


async def come_late(network: Network, clock: list[float]) -> Page:
    """A person presses Play online while a table is under way: the lobby sends them there,
    and they wait to be let in."""
    late = Page(network, clock)
    late.session.fair_group = SMALL
    late.session.play_online()
    await until(late.session.online.met, "the newcomer in the lobby")
    await settle()  # its probes answered: it read the table's door
    # alone in a shard where another page looked lately (the table's, seated since): it
    # waits for one more, then knocks at the door
    clock[0] += GATHER + ALONE_WAIT + 0.5
    await until(lambda: late.session.fair is not None and bool(late.session.fair.room),
                "the newcomer met the table's pages")
    fair = late.session.fair
    assert late.session.role is Role.FAIR and fair is not None and fair.table is None
    assert late.dialog_open  # it says what the page waits for: nothing is on the felt yet
    texts = dict(sheet(late.session).texts)
    assert texts["#fr-intro"] == words.FAIR_LATE and texts["#fr-close"] == words.CLOSE
    return late


def _known(page: Page) -> set[object]:
    """Every card whose place this page's tables know: its person's and its computer's."""
    fair = page.session.fair
    assert fair is not None and fair.tables is not None
    return {card for table in fair.tables.all() for card in table.hand()}


def test_a_person_who_comes_to_a_lone_pages_game_sits_with_it_at_a_fair_table_next_hand(
        ) -> None:
    async def run() -> None:
        network, clock = Network(), [0.0]
        lone = await lone_online(network, clock, SMALL)
        hosting = lone.session.hosting
        assert hosting is not None
        late = await come_late(network, clock)
        # the hand under way is the lone page's own, and it never sees the newcomer's cards
        assert lone.session.role is Role.HOSTING and hosting.host.guests() == 0
        play_out_hosted_hand(hosting.host)
        hosting.flush()
        history = hosting.host.game.hand_history
        await until(lambda: dealt(lone) and dealt(late), "both pages at a fair table, dealt")
        assert lone.session.role is Role.FAIR and late.session.role is Role.FAIR
        seats = [seat_of(lone), seat_of(late)]
        assert seats[0].table.seat == 0  # the lone page keeps its seat
        assert seats[1].table.seat in (1, 2, 3)
        for seat in seats:
            assert seat.table.hand_number == 2 and seat.table.history == history
            assert seat.snapshot().where == words.FAIR_KIND
            assert seat.kinds.count("computer") == 2
        assert "You sit at" in seats[1].notice and not late.dialog_open
        assert words.SEAT_NAMES[seats[1].table.seat] in seats[0].notice
        assert not _known(lone) & _known(late)  # each page: its own hand and its computer's
        assert all(len(seat.table.hand()) == 13 for seat in seats)
        await play_out(seats)
        await scored(seats)
        assert seats[0].table.scores == seats[1].table.scores
        assert seats[0].table.history[:1] == history
    asyncio.run(run())


def test_a_person_who_comes_later_takes_a_computers_seat_at_a_fair_table_next_hand() -> None:
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        doors = [p for p in pages if p.session.fair is not None and p.session.fair.is_door()]
        assert len(doors) == 1 and doors[0].session.fair is not None
        assert doors[0].session.fair.open_seats() == 2
        late = await come_late(network, pages[0].clock)
        assert doors[0].session.fair.open_seats() == 1
        assert all(seat_of(p) is s for p, s in zip(pages, seats, strict=True))  # not mid-hand
        await play_out(seats)
        everyone = [*pages, late]
        await until(lambda: all(map(dealt, everyone)) and seat_of(pages[0]) is not seats[0],
                    "the three pages sat again, dealt")
        # the computer's cards too (its table takes its deal in its own slices)
        await until(lambda: sum(map(len, map(_known, everyone))) >= 49, "the computer dealt")
        new = [seat_of(p) for p in everyone]
        assert [s.table.seat for s in new[:2]] == [s.table.seat for s in seats]
        assert new[2].table.seat not in {s.table.seat for s in seats}
        for seat in new:
            assert seat.table.hand_number == 2 and seat.table.history == seats[0].table.history
            assert seat.kinds.count("computer") == 1
        assert sum(p.session.fair.computer is not None for p in everyone  # type: ignore[union-attr]
                   ) == 1
        hands = [_known(p) for p in everyone]
        assert len(set().union(*hands)) == sum(map(len, hands))  # no card known twice
        await play_out(new)
        await scored(new)
    asyncio.run(run())


def test_a_door_that_lies_to_a_newcomer_about_the_scores_seats_nobody() -> None:
    """The page that lets people in tells the newcomer other scores than the table's: the
    newcomer's draw is at another point of the game, so no page deals with it."""
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        late = await come_late(network, pages[0].clock)
        door = next(p.session.fair for p in pages
                    if p.session.fair is not None and p.session.fair.is_door())
        assert door is not None
        send = door.send

        def lying(conn: str, text: str) -> None:
            if is_admit(text) and network.pages.get(network.ends.get(conn, "")) is late.session:
                body = json.loads(text)
                body["history"] = [[0, 0, 0, 26] for _ in body["history"]]
                text = json.dumps(body, separators=(",", ":"))
            send(conn, text)
        door.send = lying
        await play_out(seats)
        fairs = [p.session.fair for p in pages]

        def all_drawing() -> bool:
            newcomer = late.session.fair
            return newcomer is not None and newcomer.draw is not None and all(
                f is not None and f.redrawing and f.draw is not None
                and len(f.draw.commits) == 2 for f in fairs)  # the seated pages' commits
        await until(all_drawing, "the newcomer and the seated pages drawing")
        for page in [*pages, late]:
            page.clock[0] += 30.0
        await until(lambda: is_closed(late), "the newcomer told")
        assert late.session.fair_ended == words.FAIR_LATE_BROKEN
        # the pages seated never had the newcomer's part of their draw: they draw without it
        await until(lambda: all(dealt(p) and seat_of(p) is not s
                                for p, s in zip(pages, seats, strict=True))
                    or any(map(is_closed, pages)), "the seated pages dealt the next hand")
        assert [p.session.fair_ended for p in pages] == [None, None]
        assert all(seat_of(p).kinds.count("computer") == 2 for p in pages)
    asyncio.run(run())


def test_an_admission_from_a_page_that_isnt_the_door_is_not_taken() -> None:
    async def run() -> None:
        _, pages = fair_pages(people=2)
        seats = await sit(pages)
        other = next(p for p in pages if p.session.fair is not None
                     and not p.session.fair.is_door())
        fair = other.session.fair
        assert fair is not None
        conn = next(iter(fair.seats))
        door_fair = next(p.session.fair for p in pages if p is not other)
        assert door_fair is not None
        door_fair.received(conn, Admit(("someone",), {"x": 0, "y": 1}, ()).text())
        assert door_fair.door.admit is None
        assert all(seat_of(p) is s for p, s in zip(pages, seats, strict=True))
    asyncio.run(run())


def test_a_person_waiting_at_a_lone_pages_door_is_told_when_that_page_closes_its_table(
        ) -> None:
    async def run() -> None:
        network, clock = Network(), [0.0]
        lone = await lone_online(network, clock, SMALL)
        late = await come_late(network, clock)
        lone.session.leave()  # End the table
        await until(lambda: is_closed(late), "the newcomer told")
        assert lone.session.role is Role.HOST_CLOSED
        assert late.session.fair_ended == words.FAIR_LATE_NOBODY
    asyncio.run(run())


def test_a_newcomer_who_leaves_while_the_seats_are_drawn_holds_no_table_up() -> None:
    """A person came for a computer's seat and closed the page in the middle of the draw
    that lets them in (after their commit, before their reveal): the pages already seated
    draw again without them, and deal the next hand with the scores kept."""
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        late = await come_late(network, pages[0].clock)
        newcomer = late.session.fair
        assert newcomer is not None and newcomer.me is not None
        withhold_reveal(newcomer)
        await play_out(seats)
        await scored(seats)
        fairs = [p.session.fair for p in pages]
        await until(lambda: all(f is not None and f.redrawing and f.draw is not None
                                and newcomer.me in f.draw.commits for f in fairs),
                    "the seated pages hold the newcomer's commit, and wait for its reveal")
        late.session.leave()
        await saw_it_go(pages, newcomer.me)
        await until(lambda: all(dealt(p) and seat_of(p) is not s
                                for p, s in zip(pages, seats, strict=True))
                    or any(map(is_closed, pages)), "the seated pages sat again, dealt")
        assert not any(map(is_closed, pages))
        new = [seat_of(p) for p in pages]
        assert [s.table.seat for s in new] == [s.table.seat for s in seats]
        for seat in new:
            assert seat.table.hand_number == 2 and seat.table.history == seats[0].table.history
            assert seat.kinds.count("computer") == 2
        await play_out(new)
        await scored(new)
        assert new[0].table.scores == new[1].table.scores
    asyncio.run(run())


async def committed_only(pages: list[Page]) -> Page:
    """``pages`` press Play online and draw for the seats; the last one's commit reaches
    the others, its reveal never does: it, once the others hold its commit."""
    quitter = pages[-1]
    await into_the_lobby(pages)
    await until(lambda: quitter.session.fair is not None, "the quitter at the table")
    fair = quitter.session.fair
    assert fair is not None
    withhold_reveal(fair)
    await until(lambda: all(p.session.fair is not None and p.session.fair.draw is not None
                            and fair.me in p.session.fair.draw.commits for p in pages[:-1]),
                "the others hold the quitter's commit")
    return quitter


def test_a_page_that_leaves_while_the_first_seats_are_drawn_leaves_the_others_a_table(
        ) -> None:
    """Three people pressed Play online; one closed the page after its commit, before its
    reveal: the other two draw again between them, and sit with two computers."""
    async def run() -> None:
        _, pages = fair_pages(people=3)
        quitter = await committed_only(pages)
        staying = pages[:2]
        gone = quitter.session.fair
        assert gone is not None
        quitter.session.leave()
        await saw_it_go(staying, gone.me)
        await until(lambda: all(map(dealt, staying)) or any(map(is_closed, staying)),
                    "the two others dealt")
        assert not any(map(is_closed, staying))
        new = [seat_of(p) for p in staying]
        assert all(s.kinds.count("computer") == 2 for s in new)
        await play_out(new)
        await scored(new)
    asyncio.run(run())


def test_a_newcomer_whose_reveal_reached_one_seated_page_only_holds_no_table_up() -> None:
    """The newcomer's reveal reached one page, which sat with it, and not the other, when it
    left: the one hands its seat over, the other draws again without it, and the two
    pages meet in the same draw."""
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        late = await come_late(network, pages[0].clock)
        newcomer = late.session.fair
        assert newcomer is not None and newcomer.me is not None
        withhold_reveal(newcomer, lambda conn: network.pages.get(network.ends.get(conn, ""))
                        is pages[0].session)  # its reveal reaches the first page only
        await play_out(seats)
        await scored(seats)
        first, second = (p.session.fair for p in pages)
        assert first is not None and second is not None

        def one_sat_one_waits() -> bool:
            return first.seat is not seats[0] and second.draw is not None \
                and newcomer.me in second.draw.commits
        await until(one_sat_one_waits,
                    "the first page sat with the newcomer, the second waits for its reveal")
        late.session.leave()
        await until(lambda: bool(first.leaving) and newcomer.me in second.gone,
                    "both saw it go: the one that sat with it, the one still drawing")
        for page in pages:
            page.clock[0] += GONE_GRACE
        await until(lambda: all(dealt(p) and seat_of(p).kinds.count("computer") == 2
                                for p in pages) or any(map(is_closed, pages)),
                    "both pages sat again without the newcomer, dealt")
        assert not any(map(is_closed, pages))
        new = [seat_of(p) for p in pages]
        for seat in new:
            assert seat.table.hand_number == 2 and seat.table.history == seats[0].table.history
        await play_out(new)
        await scored(new)
        assert new[0].table.scores == new[1].table.scores
    asyncio.run(run())


def test_a_page_left_alone_in_the_first_draw_is_told_at_once() -> None:
    """Two people pressed Play online and one closed the page while the seats were drawn:
    the other is told there is no table once what it sent had time to come, not after the
    whole wait."""
    async def run() -> None:
        _, pages = fair_pages(people=2)
        await into_the_lobby(pages)
        quitter, staying = pages
        await until(lambda: quitter.session.fair is not None, "the quitter at the table")
        fair = quitter.session.fair
        assert fair is not None
        withhold_reveal(fair)
        await until(lambda: staying.session.fair is not None
                    and staying.session.fair.draw is not None
                    and fair.me in staying.session.fair.draw.commits, "its commit in")
        quitter.session.leave()
        await saw_it_go([staying], fair.me)
        await until(lambda: is_closed(staying), "the page left alone told")
        assert staying.session.fair_ended == words.FAIR_NOBODY
    asyncio.run(run())


def test_a_newcomer_who_leaves_a_lone_pages_draw_leaves_its_game_going_on_at_once() -> None:
    async def run() -> None:
        network, clock = Network(), [0.0]
        lone = await lone_online(network, clock, SMALL)
        hosting = lone.session.hosting
        assert hosting is not None
        late = await come_late(network, clock)
        newcomer = late.session.fair
        assert newcomer is not None
        withhold_reveal(newcomer)
        play_out_hosted_hand(hosting.host)
        hosting.flush()
        door = lone.session.fair
        assert door is not None
        await until(lambda: door.draw is not None and newcomer.me in door.draw.commits,
                    "the lone page holds the newcomer's commit")
        late.session.leave()
        await saw_it_go([lone], newcomer.me)
        await until(lambda: door.draw is None, "the lone page gave the draw up")
        assert lone.session.role is Role.HOSTING and lone.session.hosting is hosting
        assert not door.door.newcomers and not door.done
    asyncio.run(run())


def test_a_newcomer_who_closes_the_dialog_while_waiting_to_be_let_in_goes_and_is_let_go(
        ) -> None:
    async def run() -> None:
        network, clock = Network(), [0.0]
        lone = await lone_online(network, clock, SMALL)
        hosting = lone.session.hosting
        door = lone.session.fair
        assert hosting is not None and door is not None
        late = await come_late(network, clock)
        newcomer = late.session.fair
        assert newcomer is not None and newcomer.me is not None
        await until(lambda: newcomer.me in door.door.newcomers, "the door saw the newcomer")
        late.close_dialog()  # Escape, while "A table is under way: you sit down at it…"
        await until(lambda: late.session.role is Role.IDLE, "the newcomer went")
        assert late.session.fair is None and late.shown == [] and late.session.error == ""
        # the table learns it: the door frees the seat, and the lone page's game goes on
        await until(lambda: not door.door.newcomers, "the door let the newcomer go")
        play_out_hosted_hand(hosting.host)
        hosting.flush()
        await settle()
        assert lone.session.role is Role.HOSTING and lone.session.hosting is hosting
        assert door.draw is None and late.session.role is Role.IDLE and late.shown == []
    asyncio.run(run())


def test_a_newcomer_who_leaves_before_being_let_in_just_goes_back_to_their_game() -> None:
    async def run() -> None:
        network, clock = Network(), [0.0]
        await lone_online(network, clock, SMALL)
        late = await come_late(network, clock)
        late.session.leave()  # Leave the table, while waiting to be let in
        await until(lambda: late.session.role is Role.IDLE, "the newcomer went")
        assert late.session.fair_ended is None and not late.dialog_open and late.shown == []
    asyncio.run(run())


def named(page: Page, name: str) -> None:
    """The person of ``page`` chose ``name`` (the page's name field)."""
    page.session.page = dataclasses.replace(page.session.page, name=lambda: name)


def test_names_are_carried_at_a_fair_table_signed_by_their_seat() -> None:
    async def run() -> None:
        _, pages = fair_pages(people=3)
        named(pages[0], "Bob")
        named(pages[1], "Carol")
        seats = await sit(pages)
        bob, carol = seats[0].table.seat, seats[1].table.seat
        await until(lambda: all(s.names[bob] == "Bob" and s.names[carol] == "Carol"
                                for s in seats), "every page shows both names")
        for seat in seats:
            snap = seat.snapshot()
            assert snap.names[bob] == "Bob" and snap.names[seats[2].table.seat] == ""
            me = seat.table.seat
            if me != bob:
                assert words.told_text(Played(bob, Card.parse("2C")), me, seat.names) \
                    == "Bob played the 2 of clubs."
            computers = [s for s, k in enumerate(seat.kinds) if k == "computer"]
            assert all(seat.names[s] == "" for s in computers)
        # a new name is sent again, and one that breaks the rule is not shown
        named(pages[1], "Caro")
        pages[1].session.rename()
        await until(lambda: all(s.names[carol] == "Caro" for s in seats), "the new name")
    asyncio.run(run())


@pytest.mark.parametrize("forgery", ["other seat", "bad signature", "bad name"])
def test_a_page_cannot_put_a_name_on_a_seat_it_doesnt_hold(forgery: str) -> None:
    """A modified page signs a name for another person's seat, sends a name whose
    signature doesn't hold, or a name the rule refuses: none is shown."""
    async def run() -> None:
        _, pages = fair_pages(people=3)
        named(pages[1], "Carol")
        seats = await sit(pages)
        carol = seats[1].table.seat
        await until(lambda: seats[2].names[carol] == "Carol", "Carol's name shown")
        fair = pages[0].session.fair
        assert fair is not None and fair.table is not None
        table, me = fair.table, fair.table.seat
        if forgery == "other seat":  # signed with its own key, for Carol's seat
            text = name_text(SMALL, fair.signing_key, table.name, carol, "Mallory")
        elif forgery == "bad signature":
            good = json.loads(name_text(SMALL, fair.signing_key, table.name, me, "Mallory"))
            good["s"][1] = format(int(good["s"][1], 16) + 1, "x")
            text = json.dumps(good, separators=(",", ":"))
        else:
            text = name_text(SMALL, fair.signing_key, table.name, me, "Mal\u202elory")
        for conn in fair.seats:
            fair.send(conn, text)
        await settle(200)
        assert seats[2].names[carol] == "Carol" and "Mallory" not in seats[2].names
        assert seats[2].names[me] == "" and "Mal\u202elory" not in seats[2].names
        assert pages[2].session.role is Role.FAIR  # a name refused closes nothing
    asyncio.run(run())


class Told:
    """News that keeps what the seat told the person."""

    def __init__(self) -> None:
        self.told: list[str] = []

    def say(self, text: str, show: bool = False) -> None: ...
    def flush(self) -> None: ...
    def alert(self, text: str) -> None: ...
    def tell(self, text: str) -> None:
        self.told.append(text)
    def changed(self, fresh: str | None = None) -> None: ...
    def cue(self, name: str | None) -> None: ...


def reload(network: Network, page: Page) -> tuple[Page, str]:
    """``page``'s tab reloads: it goes without a word (its Python with it), and a new page
    in the same tab reads what it kept for the tab. The new page, and what it kept."""
    kept = page.seat_kept[-1]
    assert kept is not None
    page.session.page_leaving()  # (no goodbye: the seat waits its grace)
    fair = page.session.fair
    assert fair is not None
    fair.done = True  # this page's Python is gone
    return Page(network, page.clock), kept


async def back(page: Page, kept: str) -> None:
    """The reloaded page takes its seat back (its Back to your table)."""
    page.session.fair_group = SMALL
    page.session.back_to_table(kept)
    await until(lambda: dealt(page), "the reloaded page sat again, dealt")


def test_a_reload_gets_the_seat_back_with_its_scores_and_the_seat_shows_away_meanwhile(
        ) -> None:
    async def run() -> None:
        network, pages = fair_pages(people=2)
        named(pages[1], "Carol")
        seats = await sit(pages)
        await play_out(seats)
        await scored(seats)
        history = list(seats[0].table.history)
        carol = seats[1].table.seat
        await until(lambda: seats[0].names[carol] == "Carol", "Carol's name")
        reloaded, kept = reload(network, pages[1])
        assert json.loads(kept)["seat"] == carol and "Carol" not in kept
        await until(lambda: carol in seats[0].away, "Carol's seat shown away")
        assert seats[0].snapshot().kinds[carol] == "away"
        assert pages[0].session.role is Role.FAIR
        named(reloaded, "Carol")
        await back(reloaded, kept)
        await until(lambda: dealt(pages[0]) and seat_of(pages[0]) is not seats[0],
                    "the other page sat again with it")
        again = [seat_of(pages[0]), seat_of(reloaded)]
        assert again[1].table.seat == carol and again[0].table.seat == seats[0].table.seat
        for seat in again:
            assert seat.table.history == history and seat.table.hand_number == 2
            assert not seat.away and seat.kinds[carol] == "friend"
        assert again[1].notice == words.fair_back()  # (between two hands)
        assert "came back" in again[0].notice
        await until(lambda: again[0].names[carol] == "Carol", "the name, sent again")
        await play_out(again)
        await scored(again)
        assert again[0].table.history[:1] == history
    asyncio.run(run())


async def handed_over(pages: list[Page], seats: list[FairSeat], gone: int) -> None:
    """The seat ``gone`` shown away at ``pages`` (sat at ``seats``), their clocks pass its
    grace and ``GONE_GRACE``: until they dealt the next hand without it."""
    await until(lambda: all(gone in s.away for s in seats), "the seat shown away")
    for page in pages:
        page.clock[0] += page.session.grace
    await until(lambda: all(p.session.fair is not None and p.session.fair.leaving
                            for p in pages), "the grace over")
    for page in pages:
        page.clock[0] += GONE_GRACE
    await until(lambda: all(dealt(p) and seat_of(p) is not s
                            for p, s in zip(pages, seats, strict=False)),
                "the pages dealt the next hand without it")


def test_a_page_gone_past_its_grace_is_handed_over() -> None:
    async def run() -> None:
        network, pages = fair_pages(people=3)
        seats = await sit(pages)
        gone_seat = seats[2].table.seat
        reload(network, pages[2])
        await handed_over(pages[:2], seats[:2], gone_seat)
        assert all(seat_of(p).kinds[gone_seat] == "computer" for p in pages[:2])
        # gone at the pass, before a trick was taken: it takes the hand's points
        assert all(seat_of(p).table.history == [untaken(gone_seat)] for p in pages[:2])
    asyncio.run(run())


QUEEN = Card.parse("QS")


async def _to_the_queens_turn(seats: list[FairSeat], holding: bool = True) -> FairSeat:
    """Pass and play legal cards (never the Q♠ while another will do) until it is the turn
    of a person who has played a card and, if ``holding``, still holds the Q♠, another
    having taken points by their last card; else (a computer may hold the Q♠ and drop it
    early) of such a person while 13 points or more are still to be taken. A hand that
    never comes to that is played out and the next dealt. Their seat."""
    def passing() -> None:
        for seat in seats:
            snap = seat.snapshot()
            assert snap.view is not None and snap.may_pass
            for card in [c for c in snap.view.hand if c != QUEEN][:3]:
                seat.toggle(card)
            seat.pass_cards()

    def scored() -> bool:
        return all(s.table.stage is FairStage.SCORED for s in seats)
    passing()
    while True:
        await until(lambda: scored() or any(s.snapshot().may_play for s in seats),
                    "a person's turn, or the hand scored")
        if scored():
            for seat in seats:
                seat.next_hand()
            await until(lambda: all(s.snapshot().may_pass for s in seats), "the next pass")
            passing()
            continue
        mover = next(s for s in seats if s.snapshot().may_play)
        view = mover.snapshot().view
        assert view is not None
        me = mover.table.seat
        taken = _kept_points(mover, me) if any(
            p.seat == me for p in mover.table.transcript.plays) else None
        if taken is not None and (
                QUEEN in view.hand and any(p for s, p in enumerate(taken) if s != me)
                if holding else sum(taken) <= 26 - 13):
            return mover
        mover.play(_steered_card(view.legal_plays))


def _steered_card(legal: Sequence[Card]) -> Card:
    """A legal card that keeps the Q♠ back and gives hearts away while it can, so that
    points are taken before the Q♠ falls: a heart, else any card but the Q♠."""
    return next((c for c in legal if c.suit is Suit.HEARTS),
                next((c for c in legal if c != QUEEN), legal[0]))


def _kept_points(seat: FairSeat, gone: int) -> tuple[int, int, int, int]:
    """The points of the tricks taken when the seat ``gone`` played its last card, as
    ``seat``'s page holds them (a trick it didn't see finished is in the rest)."""
    plays = seat.table.transcript.plays
    last = max(i for i, p in enumerate(plays) if p.seat == gone)
    return PublicHand(tuple(plays[:last + 1])).points()


def test_a_loser_who_leaves_mid_hand_takes_the_rest_and_the_next_hand_follows() -> None:
    """The dodge of issue 39: the person about to be stuck with the Q♠ leaves, hoping the
    hand is dealt again. It counts as far as it went instead: the others keep the points
    of the tricks they took, the seat that left takes every point not yet taken (the Q♠
    among them), and the pages who stay are dealt the next hand."""
    async def run() -> None:
        _, pages = fair_pages()
        seats = await sit(pages)
        loser = await _to_the_queens_turn(seats)
        before = list(loser.table.history)  # a hand played out while looking for the moment
        gone = loser.table.seat
        taken = _kept_points(loser, gone)
        hand = left(loser.table.transcript.plays, gone, (), loser.table.rules)
        assert hand[gone] >= 13 + taken[gone] and sum(hand) == 26  # the Q♠ is its
        assert all(hand[o] == taken[o] for o in range(4) if o != gone), (hand, taken, gone)
        leaving = pages[seats.index(loser)]
        staying = await _gone(pages, leaving)
        for page in staying:
            seat = seat_of(page)
            assert seat.table.hand_number == len(before) + 2
            assert seat.table.history == [*before, hand]
            assert seat.table.scores == tuple(map(sum, zip(*before, hand, strict=True)))
            assert len(seat.table.hand()) == 13
            assert seat.kinds[gone] == "computer"
            assert words.fair_left_hand(gone, hand, seat.table.seat) in seat.notice
            assert "cheat" not in seat.notice  # leaving names nobody
        await play_out([seat_of(p) for p in staying])
        await scored([seat_of(p) for p in staying])
        assert {len(seat_of(p).table.history) for p in staying} == {len(before) + 2}
    asyncio.run(run())


def without_the_hand(kept: str) -> str:
    """What a tab kept, its part of the hand under way lost (a record spoilt, or dropped:
    ``web.p2p.fair.resume``): only its seat can be claimed back."""
    data = json.loads(kept)
    data["hands"] = []
    return json.dumps(data)


def test_a_loser_who_reloads_mid_hand_comes_back_charged() -> None:
    """The same dodge by a reload whose tab lost its part of the hand: the page comes back
    to its seat, the hand it left counted with the rest on it at every page (its own
    included), and the next hand dealt. (With the record, the same hand goes on:
    ``test_fair_rejoin``.)"""
    async def run() -> None:
        network, pages = fair_pages(people=3)
        seats = await sit(pages)
        loser = await _to_the_queens_turn(seats, holding=False)
        before = list(loser.table.history)
        gone = loser.table.seat
        n = seats.index(loser)
        fair = pages[n].session.fair
        assert fair is not None
        held = () if fair.computer is None else (fair.computer.table.seat,)
        hand = left(loser.table.transcript.plays, gone, held, loser.table.rules)
        assert hand[gone] >= 13 and sum(hand) == 26
        reloaded, kept = reload(network, pages[n])
        assert json.loads(kept)["charged"] == list(hand)  # its tab knows what it owes
        await back(reloaded, without_the_hand(kept))
        staying = [p for p in pages if p is not pages[n]]
        await until(lambda: all(dealt(p) and seat_of(p) not in seats for p in staying),
                    "the others sat again with it")
        for page in [*staying, reloaded]:
            seat = seat_of(page)
            assert seat.table.hand_number == len(before) + 2
            assert seat.table.history == [*before, hand]
        assert seat_of(reloaded).table.seat == gone
        assert seat_of(reloaded).notice == words.fair_back(
            words.fair_left_hand(gone, hand, gone))
        assert all(words.fair_left_hand(gone, hand, seat_of(p).table.seat)
                   in (seat_of(p).notice or "") for p in staying)
    asyncio.run(run())


def test_a_page_that_claims_another_seat_without_its_key_is_refused_and_said() -> None:
    """A modified page takes what Carol's tab kept but signs the claim with a key of its
    own (it can't have hers): every page refuses it and says so; Carol comes back."""
    async def run() -> None:
        network, pages = fair_pages(people=3)
        seats = await sit(pages)
        told = [Told() for _ in seats[:2]]
        for seat, news in zip(seats, told, strict=False):
            seat.attach(news)
        carol = seats[2].table.seat
        reloaded, kept = reload(network, pages[2])
        await until(lambda: all(carol in s.away for s in seats[:2]), "Carol's seat away")
        thief = Page(network, pages[0].clock)
        carols = Kept.read(kept)
        assert carols is not None
        forged = dataclasses.replace(carols, key=SMALL.short_key(random.Random(7)))
        thief.session.fair_group = SMALL
        thief.session.back_to_table(forged.text())
        said = words.fair_false_claim(carol, seats[0].table.seat)
        await until(lambda: said in told[0].told, "the claim refused, and said")
        assert all(carol in s.away for s in seats[:2])  # the seat still waits for Carol
        assert not dealt(thief) and all(seat_of(p) is s for p, s in zip(pages, seats[:2],
                                                                        strict=False))
        await back(reloaded, kept)
        assert seat_of(reloaded).table.seat == carol
    asyncio.run(run())


def test_a_burst_of_messages_draws_the_felt_once_the_page_rests() -> None:
    """Each message used to draw the felt at once (150-220 ms on a phone): now what it
    makes due is taken in the loop's next slices, and the felt is drawn when the loop
    rests, or every ``DRAW_SECONDS`` of the page's clock while it is busy: a burst of
    messages, one draw."""
    async def run() -> None:
        _, pages = fair_pages()
        seats = await sit(pages)

        def idle(page: Page) -> bool:  # the next hand's deck made, nothing left to take
            fair = page.session.fair
            assert fair is not None and fair.tables is not None
            table = fair.tables.person
            up = table.upcoming
            return up is not None and len(up.transcript.locks) == 4 and up.party.coded \
                and not up.transcript.unproven() and not table.unsettled
        await until(lambda: all(map(idle, pages)), "every page's next deck made")
        await settle()
        fair, seat = pages[0].session.fair, seats[0]
        assert fair is not None
        drawn: list[int] = []
        draw = seat.update

        def counted() -> None:
            drawn.append(len(drawn))
            draw()
        seat.update = counted  # type: ignore[method-assign]
        for _ in range(3):  # three messages' news, one task after another
            fair._after()
        assert not drawn  # none drawn in the tasks that brought them
        await until(lambda: bool(drawn), "the felt drawn")
        await settle()
        assert drawn == [0]
    asyncio.run(run())
