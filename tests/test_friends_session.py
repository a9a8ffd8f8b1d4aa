"""Private tables' role state machine (web/friends/session.py and its sides), two pages on
a fake network.

Each page is a ``Session`` with a fake ``Peer``: an offer and an answer are paired when the
host accepts the answer code, then messages go straight to the other page. No browser.
The pages are ``tests.online_pages``'s; a test waits ``until`` what it expects holds.
"""

from __future__ import annotations

import asyncio
import json
import random

from tests.groups import SMALL
from tests.online_pages import (
    Network,
    Page,
    begun_by_code,
    in_lobby,
    lone_online,
    looking_unanswered,
    see_each_other,
    settle,
    until,
)
from web import words
from web.friends.joining import STUN
from web.friends.looking import ALONE_WAIT, GATHER, POLL
from web.friends.session import Role
from web.p2p.tablecode import make_code
from web.seats.remote import RemoteSeat


def test_a_friend_joins_by_invite_and_answer_then_the_host_closes_the_table() -> None:
    async def run() -> None:
        network = Network()
        host, guest = Page(network), Page(network)
        h, g = host.session, guest.session
        h.open_table()
        assert h.role is Role.HOSTING and isinstance(host.shown[-1], RemoteSeat)
        await until(lambda: h.hosting is not None and len(h.hosting.links) == 3
                    and not h.busy, "the three invites made")
        assert h.hosting is not None and sorted(h.hosting.links) == [1, 2, 3]
        link = h.hosting.links[2]
        g.join(link)
        assert g.role is Role.JOINING
        await until(lambda: g.joining is not None and bool(g.joining.code) and not g.busy,
                    "the answer made")
        assert g.joining is not None
        h.host_side.let_in(2, g.joining.code)
        await until(lambda: g.role is Role.SEATED, "the friend seated")
        assert g.role is Role.SEATED and isinstance(guest.shown[-1], RemoteSeat)
        assert h.hosting.host.kind(2) == "friend" and not guest.dialog_open
        h.host_side.begin()
        await until(lambda: g.seat.state is not None and g.seat.state.stage == "pass",
                    "the friend dealt in")
        assert g.seat.state is not None and g.seat.state.view.seat == 2
        assert g.seat.state.stage == "pass" and g.seat.state.kinds[0] == "host"
        g.join(h.hosting.links[1])
        assert g.error == words.SEATED_ALREADY and g.role is Role.SEATED
        h.leave()
        assert h.role is Role.HOST_CLOSED and h.host_side.can_go_solo()
        assert host.kept[-1] is None  # the hosted table is forgotten
        await until(lambda: g.role is Role.GUEST_CLOSED, "the friend told")
        assert guest.shown[-1] is None
        assert g.seat.closed == "The host closed the table."
        h.host_side.solo()
        assert h.role is Role.IDLE and len(host.adopted) == 1
        g.open_table()  # a closed guest's page opens a table of its own
        assert g.role is Role.HOSTING

    asyncio.run(run())


def test_a_broken_invite_link_leaves_an_idle_page_waiting_for_a_good_one() -> None:
    page = Page(Network())
    page.session.join("#join=not-a-code")
    assert page.session.role is Role.GUEST_CLOSED and page.session.error
    assert page.dialog_open and not page.shown


def test_a_reloaded_hosts_table_comes_back_with_computers_in_its_friends_seats() -> None:
    async def run() -> None:
        network = Network()
        first = Page(network)
        first.session.open_table()
        first.session.host_side.begin()
        await until(lambda: any(first.kept), "the table kept")
        saved = next(text for text in reversed(first.kept) if text)
        again = Page(network)
        again.session.host_side.resume(saved)
        assert again.session.role is Role.HOSTING and again.session.resumed
        host = again.session.host
        assert host is not None and host.started
        assert [host.kind(s) for s in range(4)] == ["host", "computer", "computer", "computer"]
        again.session.host_side.resume(None)  # nothing stored: nothing happens
        corrupt = Page(network)
        corrupt.session.host_side.resume("{not json")
        assert corrupt.session.role is Role.IDLE and corrupt.kept == [None]

    asyncio.run(run())


def test_friends_come_in_by_the_tables_code_and_take_the_free_seats() -> None:
    async def run() -> None:
        network = Network()
        host, first, second = Page(network), Page(network), Page(network)
        h = host.session
        h.open_table()
        await until(lambda: not h.busy, "the invites made")
        h.host_side.share_code()
        assert h.hosting is not None and h.hosting.room is not None
        code = h.hosting.room
        first.session.join_code(code.link("http://127.0.0.1/"))
        second.session.join_code(code.shown.lower())
        await until(lambda: all(p.session.role is Role.SEATED and p.session.seat.state
                                for p in (first, second)), "both friends seated")
        assert h.hosting.host.kind(1) == h.hosting.host.kind(2) == "friend"
        assert h.hosting.host.kind(3) == "open"
        seats = {p.session.seat.state.view.seat for p in (first, second)  # type: ignore[union-attr]
                 }
        assert seats == {1, 2}
        h.host_side.begin()
        await until(lambda: first.session.seat.state is not None
                    and first.session.seat.state.stage == "pass", "the friend dealt in")
    asyncio.run(run())


def test_a_mistyped_code_is_refused_at_once_and_an_unknown_one_after_looking() -> None:
    async def run() -> None:
        network = Network()
        clock = [0.0]
        guest = Page(network, clock)
        g = guest.session
        g.join_code("K7QXM-3TNAX")
        assert g.error == words.TABLE_CODE_TYPO and g.role is Role.IDLE
        g.join_code(make_code(random.Random(9)).shown)
        assert g.role is Role.JOINING
        await settle()
        assert g.role is Role.JOINING  # still looking
        clock[0] = 30.0
        await until(lambda: g.role is Role.GUEST_CLOSED, "the look given up")
        assert g.seat.closed == words.NO_TABLE
    asyncio.run(run())


def test_a_page_alone_in_the_lobby_deals_itself_a_table_and_offers_its_computers_seats(
        ) -> None:
    async def run() -> None:
        network = Network()
        clock = [0.0]
        host = await lone_online(network, clock)
        hosting = host.session.hosting
        assert hosting is not None and hosting.host.started
        assert [hosting.host.kind(s) for s in (1, 2, 3)] == ["computer"] * 3
        assert in_lobby(network) == [host]  # to offer the computers' seats to whoever comes
        seat = host.shown[-1]
        assert isinstance(seat, RemoteSeat)
        snap = seat.snapshot()
        assert snap.where == words.HOSTING_KIND and not snap.chat  # nobody to hear it
    asyncio.run(run())


def test_two_pages_play_with_two_computers_at_a_fair_table_once_the_wait_is_over() -> None:
    async def run() -> None:
        network = Network()
        clock = [0.0]
        pages = [Page(network, clock) for _ in range(2)]
        for page in pages:
            page.session.play_online()
            page.session.fair_group = SMALL
        await see_each_other(pages, 2)
        assert all(p.session.role is Role.LOOKING for p in pages)
        clock[0] = GATHER + 0.5
        await until(lambda: all(p.session.fair is not None and p.session.fair.table
                                for p in pages), "both pages seated")
        assert all(p.session.role is Role.FAIR for p in pages)  # nobody's page runs it
        await until(lambda: bool(in_lobby(network)), "a page back in the lobby")
        # one page, the one that lets people in, offers the computers' seats in the lobby
        assert [p.session.fair.is_door() for p in in_lobby(network)  # type: ignore[union-attr]
                ] == [True]
    asyncio.run(run())


def test_a_host_leaving_a_friends_table_closes_it_for_everyone() -> None:
    async def run() -> None:
        network = Network()
        host, guest = Page(network), Page(network)
        host.session.open_table()
        await until(lambda: not host.session.busy, "the invites made")
        host.session.host_side.share_code()
        assert host.session.hosting is not None and host.session.hosting.room is not None
        guest.session.join_code(host.session.hosting.room.shown)
        await until(lambda: guest.session.role is Role.SEATED, "the friend seated")
        host.session.host_side.begin()
        await until(lambda: guest.session.seat.state is not None
                    and guest.session.seat.state.stage == "pass", "the friend dealt in")
        host.session.page_leaving()
        await until(lambda: guest.session.role is Role.GUEST_CLOSED, "the friend told")
    asyncio.run(run())


def test_pages_that_meet_through_relays_find_a_route_with_stun() -> None:
    async def run() -> None:
        network = Network()
        page = await lone_online(network, [0.0])  # the dialog's choice: "same network only"
        config = page.session.peer.configs[-1]  # type: ignore[attr-defined]
        assert config["name"] == "fair" and config["relays"] == ["ws://127.0.0.1:1"]
        assert config["iceServers"] == [{"urls": STUN}]
    asyncio.run(run())


def test_closing_the_dialog_while_looking_stops_looking_and_keeps_the_own_game() -> None:
    async def run() -> None:
        network = Network()
        clock = [0.0]
        page, other = Page(network, clock), Page(network, clock)
        page.session.play_online()
        other.session.play_online()
        await until(lambda: len(in_lobby(network)) == 2, "both pages in the lobby")
        assert page.session.role is Role.LOOKING and page.dialog_open
        page.close_dialog()
        await until(lambda: page.session.role is Role.IDLE, "stopped looking")
        clock[0] += POLL  # the other reads the lobby again
        await until(lambda: page.session.role is Role.IDLE
                    and other.session.online.people() == 1, "the other page saw it go")
        assert in_lobby(network) == [other]
        # the wait is over (and the wait of a page alone where others looked lately): the
        # other page deals, without this one
        clock[0] = GATHER + ALONE_WAIT + 0.5
        await until(lambda: other.session.role is Role.HOSTING, "the other page dealt")
        await settle()  # and nothing more comes to this one
        assert page.session.role is Role.IDLE and page.shown == []
        assert other.session.host is not None and other.session.host.guests() == 0
    asyncio.run(run())


def test_looking_again_before_the_relays_answered_the_first_time_keeps_looking() -> None:
    async def run() -> None:
        # looking, closed, and looking again, all before the relays answered the first time
        network, page, answer = await looking_unanswered()
        page.close_dialog()
        await settle(20)
        assert page.session.role is Role.IDLE
        page.session.play_online()
        await settle(20)
        answer.set()  # both meetings answered: the first one is stale
        await until(lambda: page.session.online.met(),
                    "the second look answered")
        await settle()  # the first, stale answer comes to nothing
        assert page.session.role is Role.LOOKING and page.dialog_open
        assert in_lobby(network) == [page]
    asyncio.run(run())


def test_no_relay_answering_is_said_and_nothing_is_dealt_until_tried_again() -> None:
    async def run() -> None:
        network = Network()
        network.relay_up = False
        clock = [0.0]
        page = Page(network, clock)
        page.session.play_online()
        clock[0] = 60.0
        session = page.session
        await until(lambda: session.role is Role.NO_RELAY, "the relays' silence said")
        assert session.role is Role.NO_RELAY and page.shown == [] and page.dialog_open
        assert session.error == words.no_relay(["ws://127.0.0.1:1"])
        assert "127.0.0.1:1" in session.error
        network.relay_up = True
        session.play_online()  # Try again
        assert session.role is Role.LOOKING and session.error == ""
        page.close_dialog()
        await until(lambda: session.role is Role.IDLE, "the look stopped")
    asyncio.run(run())


def test_a_host_alone_at_its_table_is_not_told_that_others_were_told() -> None:
    async def run() -> None:
        page = Page(Network())
        page.session.open_table()
        await until(lambda: page.session.hosting is not None
                    and len(page.session.hosting.links) == 3, "the invites made")
        page.session.leave()
        assert page.session.seat.closed == words.table_closed(told=False, solo=False)
        assert "other players" not in (page.session.seat.closed or "")
    asyncio.run(run())


def test_a_guest_that_reloads_comes_back_to_its_seat_with_the_same_hand() -> None:
    async def run() -> None:
        network = Network()
        clock = [0.0]
        host, (guest, other) = await begun_by_code(network, clock, 2)
        h = host.session
        assert h.hosting is not None
        state = guest.session.seat.state
        assert state is not None and guest.session.role is Role.SEATED
        seat, hand = state.view.seat, state.view.hand
        kept = guest.seat_kept[-1]
        assert kept is not None and json.loads(kept)["seat"] == seat
        # The tab reloads: its page goes without a word, its seat waits for it.
        guest.session.page_leaving()
        guest.session.peer.unmeet("table")
        await until(lambda: h.hosting is not None and h.hosting.host.kind(seat) == "away",
                    "the seat waiting")
        again = Page(network, clock)
        again.session.back_to_table(kept)
        await until(lambda: again.session.seat.state is not None, "back at the seat")
        back = again.session.seat.state
        assert again.session.role is Role.SEATED and back is not None
        assert back.view.seat == seat and back.view.hand == hand
        assert h.hosting.host.kind(seat) == "friend"
        # A page that presents another seat's secret is turned away, and says so.
        other_state = other.session.seat.state
        assert other_state is not None
        forged = json.dumps({**json.loads(kept), "seat": other_state.view.seat})
        thief = Page(network, clock)
        thief.session.back_to_table(forged)
        await until(lambda: thief.session.role is Role.GUEST_CLOSED, "the thief turned away")
        assert thief.session.seat.closed == words.NOT_BACK
        assert h.hosting.host.kind(other_state.view.seat) == "friend"
    asyncio.run(run())


def test_a_seat_the_computer_took_is_not_given_back() -> None:
    async def run() -> None:
        network = Network()
        clock = [0.0]
        host, (guest,) = await begun_by_code(network, clock, 1)
        kept = guest.seat_kept[-1]
        assert kept is not None
        guest.session.peer.unmeet("table")
        host_table = host.session.host
        assert host_table is not None
        seat = json.loads(kept)["seat"]
        await until(lambda: host_table.kind(seat) == "away", "the seat waiting")
        clock[0] = 60.0  # the seat's grace is over: the computer plays it now
        await until(lambda: host_table.kind(seat) == "computer", "the computer in the seat")
        again = Page(network, clock)
        again.session.back_to_table(kept)
        await until(lambda: again.session.role is Role.GUEST_CLOSED, "turned away")
        assert again.session.seat.closed == words.NOT_BACK
        broken = Page(network, clock)
        broken.session.back_to_table("{not json")
        assert broken.session.role is Role.IDLE and broken.seat_kept == [None]
    asyncio.run(run())


def test_an_invite_pasted_while_this_pages_own_invites_are_made_is_answered() -> None:
    """A person opened a table of their own, then pasted a friend's invite before the page
    had made its own invites (each waits for its network addresses): the table they opened
    closes, and the answer to the friend's invite is made all the same."""
    async def run() -> None:
        network = Network()
        host, guest = Page(network), Page(network)
        h, g = host.session, guest.session
        h.open_table()
        await until(lambda: h.hosting is not None and len(h.hosting.links) == 3
                    and not h.busy, "the three invites made")
        assert h.hosting is not None
        gathering = asyncio.Event()
        offer = g.peer.offer

        async def slow_offer(ice: str, wait_ms: int) -> dict[str, str]:
            await gathering.wait()
            return await offer(ice, wait_ms)
        g.peer.offer = slow_offer  # type: ignore[method-assign]
        g.open_table()
        await until(lambda: g.busy, "the guest's own invites being made")
        g.join(h.hosting.links[1])
        assert g.role is Role.JOINING
        await until(lambda: g.joining is not None and bool(g.joining.code), "the answer made")
        gathering.set()
        await settle()
        assert g.role is Role.JOINING and g.hosting is None
    asyncio.run(run())


def test_closing_the_dialog_while_a_code_is_looked_up_stops_looking() -> None:
    async def run() -> None:
        network = Network()
        clock = [0.0]
        guest = Page(network, clock)
        g = guest.session
        g.join_code(make_code(random.Random(9)).shown)
        guest.dialog_open = True
        await settle()
        assert g.role is Role.JOINING and g.on_the_way()
        guest.close_dialog()
        await until(lambda: g.role is Role.IDLE, "the look stopped")
        clock[0] = 60.0  # long past the look's end: nothing more is said
        await settle()
        assert g.role is Role.IDLE and g.error == "" and g.seat.closed is None
        assert not guest.dialog_open and guest.shown == []
    asyncio.run(run())
