"""The page's side of the relay lobby (``web.friends.online``): ``Looker`` and ``Door`` driven
over a wire, here ``tests.online_pages``'s in-memory relay (the page's is
``web/static/relays.mjs``, tested in Node by ``tests/test_lobby_wire.py``). No DOM."""

from __future__ import annotations

import asyncio
import json
import random

from tests.online_pages import FakeWire, Network, settle, until
from tools.lobby_sim import key_of, sign_for
from web.friends.lobby_budget import NOTES, QUERIES, SENDS, LobbyBudget
from web.friends.lobby_events import DOOR, LOOK, NOTE, Event, make_event, shard_tags
from web.friends.looking import (
    ALONE_WAIT,
    CROWD,
    FIRST_POLL,
    GATHER,
    POLL,
    PROBES,
)
from web.friends.online import Dealt, Invited, Online, Unreachable
from web.p2p.tablecode import make_code


async def _tick(seconds: float) -> None:
    await asyncio.sleep(0)


def online(network: Network, clock: list[float], wait: float = GATHER) -> Online:
    wire = FakeWire(network)
    page = Online(wire, lambda: ["ws://127.0.0.1:1"], now=lambda: clock[0], sleep=_tick,
                  rng=random.Random(len(network.relay.wires) + 7), on_change=lambda: None,
                  wait=wait)
    wire.online = page
    return page


def contents(network: Network, kind: int) -> list[tuple[str, dict[str, object]]]:
    return [(e.pubkey, json.loads(e.content)) for e in network.relay.sent if e.kind == kind]


def test_two_pages_looking_together_are_seated_at_one_fair_table() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        pages = [online(network, clock) for _ in range(2)]
        looks = [asyncio.ensure_future(page.look()) for page in pages]
        await until(lambda: all(page.looker is not None and page.looker.level is not None
                                for page in pages), "both in the lobby, a shard chosen")
        clock[0] += 1 + FIRST_POLL  # the first reads the lobby again: the second is there
        await until(lambda: all(page.people() == 2 for page in pages), "both see both")
        clock[0] += GATHER + 0.1
        found = [await look for look in looks]
        dealt = [f for f in found if isinstance(f, Dealt)]
        invited = [f for f in found if isinstance(f, Invited)]
        assert len(dealt) == len(invited) == 1
        assert dealt[0].people == 1 and invited[0].people == 2 and not invited[0].late
        assert dealt[0].code == invited[0].code
        # seated: both LOOKs withdrawn, both off the relays
        assert sum(1 for _, data in contents(network, LOOK) if data.get("gone")) == 2
        assert network.relay.wires == []
    asyncio.run(run())


def test_a_page_alone_plays_with_computers_after_the_wait_it_was_given() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        page = online(network, clock, wait=6.0)  # ?wait=6
        look = asyncio.ensure_future(page.look())
        await until(page.met, "in the lobby")
        assert page.seconds_left() == 6.0
        clock[0] += 5.0
        await settle()
        assert not look.done()  # still waiting for others
        clock[0] += 1.1
        found = await look
        assert isinstance(found, Dealt) and found.people == 0
    asyncio.run(run())


def test_no_relay_answering_is_unreachable_and_nothing_is_sent() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        network.relay_up = False
        assert isinstance(await online(network, clock).look(), Unreachable)
        assert network.relay.sent == []
    asyncio.run(run())


def test_a_page_that_stops_looking_withdraws_its_look_and_the_other_sees_it_go() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        page, other = online(network, clock), online(network, clock)
        looks = [asyncio.ensure_future(p.look()) for p in (page, other)]
        await until(lambda: shard_chosen(page) and shard_chosen(other), "both looking")
        clock[0] += 1 + FIRST_POLL  # the first reads the lobby again, the next second
        await until(lambda: other.people() == 2, "each sees the other")
        page.stop()
        assert await looks[0] is None
        clock[0] += POLL  # the other reads the lobby again
        await until(lambda: other.people() == 1, "the other saw it go")
        clock[0] += GATHER + ALONE_WAIT + 0.1  # alone where another looked lately
        found = await looks[1]
        assert isinstance(found, Dealt) and found.people == 0
    asyncio.run(run())


def test_a_door_files_its_seats_lets_a_knocker_in_and_withdraws_when_the_table_ends() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        door = online(network, clock)
        code = make_code(random.Random(5))
        seats: list[int | None] = [3]
        offering = asyncio.ensure_future(door.offer_seats(lambda: seats[0], code))
        await until(lambda: any(data.get("open") == 3 for _, data in contents(network, DOOR)),
                    "three seats filed")
        # a newcomer alone in the lobby knocks, and is let in at the table of that code
        late = online(network, clock)
        look = asyncio.ensure_future(late.look())
        await until(late.met, "the newcomer looking")
        await settle()
        clock[0] += GATHER + 0.1
        found = await look
        assert found == Invited(code, late=True)
        await until(lambda: any(data.get("open") == 2 for _, data in contents(network, DOOR)),
                    "one seat promised, two filed")
        seats[0] = 2  # it came to the table: its promise is used, not counted twice
        clock[0] += 1.0
        await settle(400)
        assert contents(network, DOOR)[-1][1]["open"] == 2
        seats[0] = None  # the table is over: the door withdrawn, off the relays
        await offering
        assert contents(network, DOOR)[-1][1]["open"] == 0 and network.relay.wires == []
    asyncio.run(run())


def test_an_invitation_to_a_table_that_is_not_a_code_sends_the_page_looking_again() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        liar, sign = key_of("liar"), sign_for(key_of("liar"))

        def send(kind: int, tags: tuple[tuple[str, ...], ...], content: str) -> Event:
            event = make_event(liar, int(clock[0]), kind, tags, content, sign)
            network.relay.publish(event)
            return event
        came = json.dumps({"v": 4, "came": round(clock[0] * 1000)}, separators=(",", ":"))
        send(LOOK, (("d", "look"), *shard_tags(liar)), came)
        clock[0] += 1.0  # (a read ends before the second it is made in)
        page = online(network, clock)
        look = asyncio.ensure_future(page.look())
        await until(lambda: page.people() == 2, "the liar seen looking first")
        looker = page.looker
        assert looker is not None and looker.look_id
        body = {"v": 4, "t": "invite", "table": "not-a-code", "look": looker.look_id}
        send(NOTE, (("p", looker.me),), json.dumps(body))
        await until(lambda: any(e.pubkey == looker.me and e.kind == NOTE
                                for e in network.relay.sent), "the page accepted")
        body = {"v": 4, "t": "seat", "table": "not-a-code", "people": [liar, looker.me]}
        send(NOTE, (("p", looker.me),), json.dumps(body))
        await until(lambda: page.looker is not None and page.looker is not looker,
                    "looking again, under a new key")
        assert not look.done()
        page.stop()
        assert await look is None
    asyncio.run(run())


# --- what a page reads: bounded by its budget, whatever the crowd or a spammer sends ---

def file_look(network: Network, clock: list[float], name: str,
              tags: tuple[tuple[str, ...], ...] | None = None) -> str:
    """``name``'s key files a LOOK now (under its own shard's tags, or ``tags``): its key."""
    key, sign = key_of(name), sign_for(key_of(name))
    came = json.dumps({"v": 4, "came": round(clock[0] * 1000)}, separators=(",", ":"))
    network.relay.publish(make_event(key, int(clock[0]), LOOK,
                                     tags or (("d", "look"), *shard_tags(key)), came, sign))
    return key


def send_note(network: Network, clock: list[float], name: str, to: str, nonce: int) -> None:
    """A note from ``name``'s key to ``to`` (``nonce``: each one a new event)."""
    body = json.dumps({"v": 4, "t": "invite", "table": "ABCDEFGHJK", "look": f"{nonce:064x}"})
    network.relay.publish(make_event(key_of(name), int(clock[0]), NOTE, (("p", to),), body,
                                     sign_for(key_of(name))))


def shard_chosen(page: Online) -> bool:
    return page.looker is not None and page.looker.level is not None


def test_a_flood_of_looks_in_the_pages_shard_costs_it_no_more_than_its_budget() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        page = online(network, clock, wait=60.0)  # ?wait=60: a minute in the lobby
        # (what it sends unbounded here, so that it looks all minute: with its SENDS it
        # deals twice to the spammer's made-up lookers, then plays with computers)
        page.budget = LobbyBudget(sends=10_000)
        look = asyncio.ensure_future(page.look())
        await until(lambda: shard_chosen(page), "looking")
        assert page.looker is not None
        me, wire = page.looker.me, page.wire
        assert isinstance(wire, FakeWire)
        # a spammer files 200 fresh LOOKs a second under every tag of this page's shard
        # (each from a new key) for the page's whole minute
        filed = 0
        for step in range(4 * 62):
            for n in range(50):
                file_look(network, clock, f"spam{step}.{n}", (("d", "look"), *shard_tags(me)))
            filed += 50
            clock[0] += 0.25
            await settle(20)
        page.stop()  # (its invitations to the spammer's made-up lookers went unanswered)
        assert await look is None
        # it read the lobby by one-shot queries only (the relay capped each), and in any
        # minute no more than its budget allows, out of 12,400 LOOKs filed in its shard
        assert {sub for _, sub, _ in wire.read} <= {*(f"probe{level}" for level in PROBES),
                                                    "poll", "doors"}
        times = [at for at, _, _ in wire.read]
        assert filed == 12_400 and len(times) >= 4 * CROWD  # (it read full shards)
        assert max(sum(start <= at < start + 60 for at in times) for start in times) <= QUERIES
    asyncio.run(run())


def test_a_flood_of_notes_costs_the_page_no_more_than_its_budget() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        page = online(network, clock, wait=30.0)
        look = asyncio.ensure_future(page.look())
        await until(lambda: shard_chosen(page), "looking")
        looker, wire = page.looker, page.wire
        assert looker is not None and isinstance(wire, FakeWire)
        for step in range(20):  # strangers send it notes, ten a quarter second
            for n in range(10):
                send_note(network, clock, f"stranger{step}.{n}", looker.me, n)
            clock[0] += 0.25
            await settle(20)
        # past its minute's notes it reads no more and plays with computers (what was sent
        # in the quarter second it stopped at came on)
        found = await look
        assert isinstance(found, Dealt) and found.people == 0 and looker.deaf
        notes = [event for _, _, event in wire.read if event.kind == NOTE]
        assert NOTES <= len(notes) <= NOTES + 10
    asyncio.run(run())


def test_an_invitation_from_a_dealer_not_read_yet_is_taken_once_its_look_is_found() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        dealer = file_look(network, clock, "dealer")
        clock[0] += 0.5  # the same second: the page's first reads end before it
        page = online(network, clock)
        look = asyncio.ensure_future(page.look())
        await until(lambda: shard_chosen(page), "looking")
        looker = page.looker
        assert looker is not None and dealer not in looker.view.came
        sign = sign_for(dealer)

        def send(body: dict[str, object]) -> None:
            network.relay.publish(make_event(dealer, int(clock[0]), NOTE, (("p", looker.me),),
                                             json.dumps({"v": 4, **body}), sign))
        code = make_code(random.Random(3)).code
        send({"t": "invite", "table": code, "look": looker.look_id})
        await until(lambda: any(e.pubkey == looker.me and e.kind == NOTE
                                for e in network.relay.sent), "the page asked who, and accepted")
        assert dealer in looker.view.came
        send({"t": "seat", "table": code, "people": [dealer, looker.me]})
        found = await look
        assert isinstance(found, Invited) and found.code.code == code and found.people == 2
    asyncio.run(run())


def test_a_read_budget_counts_the_last_minute_only() -> None:
    budget = LobbyBudget(queries=48, notes=3)
    assert budget.ask(24, 0.0) and budget.ask(24, 10.0) and not budget.ask(24, 59.0)
    assert budget.ask(24, 60.5)  # the first query is a minute old
    assert budget.note(0.0) and budget.note(1.0) and not budget.note(2.0)
    assert budget.note(61.5)


def most_in_a_minute(times: list[float]) -> int:
    """The most of ``times`` (in order) that fall within any 60 seconds."""
    return max((sum(start <= at < start + 60 for at in times) for start in times), default=0)


def test_a_flood_of_knocks_costs_the_door_no_more_than_its_budget() -> None:
    async def run() -> None:
        network, clock = Network(), [1000.0]
        page = online(network, clock)
        code = make_code(random.Random(5))
        offering = asyncio.ensure_future(page.offer_seats(lambda: 3, code))
        await until(lambda: any(data.get("open") == 3 for _, data in contents(network, DOOR)),
                    "three seats filed")
        door, wire = page.door, page.wire
        assert door is not None and isinstance(wire, FakeWire)
        # strangers knock at the door, ten a quarter second, for two minutes
        for step in range(4 * 120):
            for n in range(10):
                body = json.dumps({"v": 4, "t": "knock", "table": code.code,
                                   "look": f"{step * 10 + n:064x}"})
                name = f"knocker{step}.{n}"
                network.relay.publish(make_event(key_of(name), int(clock[0]), NOTE,
                                                 (("p", door.me),), body, sign_for(key_of(name))))
            clock[0] += 0.25
            await settle(20)
        # it read its minute's notes (and what was on its way in the quarter second it
        # stopped at), then none until the minute had room again: it is still open
        knocks = [at for at, _, event in wire.read if event.kind == NOTE]
        assert most_in_a_minute(knocks) <= NOTES + 10
        assert any(at > knocks[0] + 60 for at in knocks)  # and more once it had room
        assert page.door is door and door.listening
        # it let in three at a time (its seats, each kept 30 s for a knocker who never
        # came), and sent no more than its minute's sends
        sent = [e for e in network.relay.sent if e.pubkey == door.me]
        welcomed = [float(e.created_at) for e in sent if e.kind == NOTE]
        assert len({e.tag("p") for e in sent if e.kind == NOTE}) == len(welcomed) >= 3
        assert max(sum(start <= at < start + 30 for at in welcomed) for start in welcomed) == 3
        assert most_in_a_minute([float(e.created_at) for e in sent]) <= SENDS
        page._stop_offering()
        await offering
    asyncio.run(run())
