"""The page's side of the relay lobby (``web.friends.online``): ``Looker`` and ``Door`` driven
over a wire, here ``tests.online_pages``'s in-memory relay (the page's is
``web/static/relays.mjs``, tested in Node by ``tests/test_lobby_wire.py``). No DOM."""

from __future__ import annotations

import asyncio
import json
import random

from tests.online_pages import FakeWire, Network, settle, until
from tools.lobby_sim import key_of, sign_for
from web.friends.lobby_events import DOOR, LOOK, NOTE, Event, make_event, shard_tags
from web.friends.looking import ALONE_WAIT, GATHER, POLL
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
        clock[0] += POLL  # the first reads the lobby again: the second is there
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
        await until(lambda: other.people() == 2, "both looking")
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
        clock[0] += 0.5
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
