"""A table of people outlives whoever goes: reload, leave and vanish at every stage of a
hand, at a fair table of two and of three people (``web/friends/fair_room.py``,
``web/friends/fair_back.py``) and at a host's table of friends (``web/p2p/host.py``), on the
fake network of ``test_friends_session``.

Every walk asserts the same three things: nobody's scores are lost (the hands scored before
are the game's still, at every page that stays, and at the page that comes back); a hand
the page left after its deal counts as far as it went, the rest on the seat that left, at
every page alike — never dealt again, so going is no way to undo a hand (a page that
reloads within its grace takes that very hand up instead: ``test_fair_rejoin``); and the
game goes on while one person remains (the pages that stay are dealt their next hand, or
the one left alone plays on against the computers).
"""

from __future__ import annotations

import asyncio

import pytest

from tests.online_pages import Network, Page, begun_by_code, play_out_hosted_hand, until
from tests.test_fair_session import (
    back,
    committed_only,
    dealt,
    fair_pages,
    play_out,
    reload,
    scored,
    seat_of,
    sit,
    turned,
    untaken,
)
from web import words
from web.friends.session import Role
from web.p2p.fair.table import GONE_GRACE, FairStage
from web.p2p.host import HostTable
from web.p2p.protocol import Intent
from web.seats.fair import FairSeat

STAGES = ("pass", "mid-trick", "between hands")
EVENTS = ("leave", "vanish", "reload")


async def _to_stage(seats: list[FairSeat], stage: str) -> None:
    """Play on until the hand stands at ``stage``."""
    if stage == "pass":
        return
    if stage == "between hands":
        await play_out(seats)
        await scored(seats)
        return
    for seat in seats:  # mid-trick: passed, and two cards of the first trick played
        snap = seat.snapshot()
        assert snap.view is not None
        for card in snap.view.hand[:3]:
            seat.toggle(card)
        seat.pass_cards()
    for _ in range(2):
        await until(lambda: any(s.snapshot().may_play for s in seats), "a person's turn")
        mover = next(s for s in seats if s.snapshot().may_play)
        view = mover.snapshot().view
        assert view is not None
        mover.play(view.legal_plays[0])
    # every page has seen both cards and opened the cards passed to it (in its own slices)
    await until(lambda: all(len(s.table.transcript.plays) >= 2
                            and s.table.stage is FairStage.PLAYING for s in seats),
                "two cards on the table")


async def _goes(network: Network, pages: list[Page], event: str) -> Page | None:
    """The last page's person goes by ``event``; the page that came back, if any."""
    going = pages[-1]
    staying = pages[:-1]
    if event == "leave":
        going.session.leave()
    else:
        reloaded, kept = reload(network, going)
        if event == "reload":
            await back(reloaded, kept)
            return reloaded
        await until(lambda: all(p.session.fair is not None and p.session.fair.away
                                for p in staying), "the seat shown away")
        for page in staying:
            page.clock[0] += page.session.grace
    await until(lambda: all(p.session.fair is not None and p.session.fair.leaving
                            for p in staying), "the others see it gone")
    for page in staying:
        page.clock[0] += GONE_GRACE
    return None


@pytest.mark.parametrize("event", EVENTS)
@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("people", [2, 3])
def test_whoever_goes_at_any_stage_no_score_is_lost_and_the_game_goes_on(
        people: int, stage: str, event: str) -> None:
    async def run() -> None:
        network, pages = fair_pages(people=people)
        seats = await sit(pages)
        await _to_stage(seats, stage)
        places = [s.table.seat for s in seats]
        fair = pages[-1].session.fair
        assert fair is not None
        held = () if fair.computer is None else (fair.computer.table.seat,)
        hand = seats[-1].table.if_left(places[-1], held)  # what leaving the hand costs
        assert (hand is None) == (stage == "between hands")
        assert stage != "pass" or hand == untaken(places[-1])  # no trick taken yet
        history = [*seats[0].table.history, *([] if hand is None else [hand])]
        came_back = await _goes(network, pages, event)
        staying = pages[:-1]
        if came_back is not None and hand is not None:  # the same hand goes on
            again = [*seats[:-1], seat_of(came_back)]
            assert all(seat_of(p) is s for p, s in zip(staying, seats, strict=False))
            assert again[-1].table.seat == places[-1] and again[-1].notice == words.FAIR_RESUMED
            assert again[-1].table.hand_number == seats[0].table.hand_number
            await play_out(again)
            await scored(again)
            assert len({tuple(s.table.history) for s in again}) == 1
            assert again[0].table.history[:-1] == history[:-1]  # the scores before kept
            return
        if came_back is not None:  # everyone sits again, at their own seats
            staying = [*staying, came_back]
        if len(staying) == 1:  # alone: the game goes on against the computers
            page = staying[0]
            await until(lambda: page.session.role is Role.HOSTING, "carried on alone")
            hosting = page.session.hosting
            assert hosting is not None
            assert hosting.host.game.hand_history == turned(history, places[0])
            assert hosting.host.stage() == "pass" and hosting.host.started
            return
        await until(lambda: all(dealt(p) and seat_of(p) not in seats for p in staying),
                    "the people still there dealt the next hand")
        for n, page in enumerate(staying):
            seat = seat_of(page)
            assert seat.table.seat == places[n]
            assert seat.table.history == history and len(seat.table.hand()) == 13
            assert page.session.role is Role.FAIR
        if came_back is not None:  # told what the hand it left counts
            assert seat_of(came_back).notice == words.fair_back(
                "" if hand is None else words.fair_left_hand(places[-1], hand, places[-1]))
    asyncio.run(run())


def test_whoever_goes_during_the_first_draw_leaves_the_others_a_table() -> None:
    """During a draw for the seats, before anyone sat: the others draw without the page
    gone, and play (no score yet to lose)."""
    async def run() -> None:
        _, pages = fair_pages(people=3)
        quitter = await committed_only(pages)
        fair = quitter.session.fair
        assert fair is not None
        quitter.session.page_leaving()  # a vanish: no goodbye
        fair.done = True
        await until(lambda: all(p.session.fair is not None and fair.me in p.session.fair.gone
                                for p in pages[:2]), "the others see it go")
        for page in pages[:2]:
            page.clock[0] += GONE_GRACE
        await until(lambda: all(map(dealt, pages[:2])), "the two dealt")
        assert all(seat_of(p).table.history == [] for p in pages[:2])
    asyncio.run(run())


# --- the host-dealt table: a friend goes, the host's game keeps every score -----------------
def _host_to_stage(host: HostTable, stage: str) -> None:
    """Move the host's game (every seat, people's too) until it stands at ``stage``."""
    if stage == "pass":
        return
    if stage == "between hands":
        play_out_hosted_hand(host)
        return
    for seat in host.waiting_for():  # mid-trick: passed, two cards of the first trick
        host.act(seat, Intent("pass", tuple(host.game.hand(seat)[:3])))
    while len(host.game.plays) < 2:
        if host.due():
            host.computer_step()
        else:
            for seat in host.waiting_for():
                host.act(seat, Intent("play", (host.game.legal_plays()[0],)))


@pytest.mark.parametrize("event", EVENTS)
@pytest.mark.parametrize("stage", STAGES)
def test_a_friend_who_goes_at_any_stage_of_a_hosts_table_loses_no_score(
        stage: str, event: str) -> None:
    async def run() -> None:
        network, clock = Network(), [0.0]
        host_page, (guest, other) = await begun_by_code(network, clock, 2)
        hosting = host_page.session.hosting
        assert hosting is not None
        host = hosting.host
        _host_to_stage(host, stage)
        hosting.flush()
        history = list(host.game.hand_history)
        state = guest.session.seat.state
        assert state is not None
        seat = state.view.seat
        hand = set(host.game.hand(seat))
        if event == "leave":
            guest.session.leave()
            await until(lambda: host.kind(seat) == "computer", "the computer in the seat")
        else:
            kept = guest.seat_kept[-1]
            assert kept is not None
            guest.session.page_leaving()
            guest.session.peer.unmeet("table")
            await until(lambda: host.kind(seat) == "away", "the seat waiting")
            if event == "vanish":
                clock[0] += host.grace + 1
                await until(lambda: host.kind(seat) == "computer", "the grace over")
            else:
                again = Page(network, clock)
                again.session.back_to_table(kept)
                await until(lambda: again.session.seat.state is not None, "back at the seat")
                back_state = again.session.seat.state
                assert back_state is not None and back_state.view.seat == seat
                await until(lambda: again.session.seat.state is not None
                            and set(again.session.seat.state.view.hand) == hand,
                            "the same cards")
                assert host.kind(seat) == "friend"
        assert host.game.hand_history == history and not host.closed
        assert other.session.role is Role.SEATED  # nobody else lost their table
        if stage != "between hands":  # the game goes on: the hand is played out
            play_out_hosted_hand(host)
            assert host.game.hand_history[:len(history)] == history
            assert len(host.game.hand_history) == len(history) + 1
    asyncio.run(run())
