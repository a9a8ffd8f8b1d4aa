"""A table shared by code keeps a sign up on the relays (``web.friends.table_sign``): a code
looked up after its table closed is answered within seconds, a liar's sign only sends the
look back to its whole wait, and the code's secret part never reaches the relays.

Pages run on the fake network and relay of ``tests/online_pages.py``, their clocks pinned.
"""

from __future__ import annotations

import asyncio
import hashlib
import json

from tests.online_pages import Network, Page, settle, until
from tools.lobby_sim import key_of, sign_for
from web import words
from web.friends.guest_side import LOOK_SECONDS
from web.friends.lobby_events import Event, make_event
from web.friends.role import Role
from web.friends.table_sign import GRACE, LIFE, REFRESH, SIGN, Lookup, sign_tag, stands
from web.p2p.tablecode import TableCode


async def _shared(host: Page) -> TableCode:
    """The host opens a table and shares its code; the code, once its sign is up."""
    h = host.session
    h.open_table()
    await until(lambda: not h.busy, "the invites made")
    h.host_side.share_code()
    assert h.hosting is not None and h.hosting.room is not None
    code = h.hosting.room
    await until(lambda: any(e.kind == SIGN for e in host.wire.network.relay.sent),
                "the table's sign filed")
    return code


START = 1_000_000.0
"""The pages' wall clock when a test begins (seconds since 1970: events carry it)."""


def _host_and_guest() -> tuple[Network, list[float], Page, Page]:
    """A network, the clock its pages share (at ``START``), a host and a guest."""
    network, clock = Network(), [START]
    return network, clock, Page(network, clock), Page(network, clock)


def _signs(network: Network) -> list[Event]:
    return [e for e in network.relay.sent if e.kind == SIGN]


def test_a_closed_tables_code_is_answered_as_soon_as_the_relays_show_no_sign() -> None:
    async def run() -> None:
        network, clock, host, guest = _host_and_guest()
        code = await _shared(host)
        host.session.leave()  # the host ends the table: its sign is withdrawn
        assert host.session.role is Role.HOST_CLOSED
        last = _signs(network)[-1]
        assert json.loads(last.content) == {"v": 1, "open": 0}
        g = guest.session
        g.join_code(code.shown)
        await settle()
        assert g.role is Role.JOINING  # a sign filed a moment ago still has its grace
        clock[0] += GRACE
        await until(lambda: g.role is Role.GUEST_CLOSED, "the look given up")
        assert g.seat.closed == words.NO_TABLE
        assert clock[0] - START < LOOK_SECONDS  # (not after the whole look)
        assert not guest.sign.open_now  # off the relays
    asyncio.run(run())


def test_an_open_tables_code_seats_its_guest_and_the_sign_stays_up() -> None:
    async def run() -> None:
        network, clock, host, guest = _host_and_guest()
        code = await _shared(host)
        g = guest.session
        g.join_code(code.shown)
        await until(lambda: g.role is Role.SEATED and g.seat.state is not None,
                    "the guest seated")
        clock[0] += GRACE * 5
        await settle()
        assert g.role is Role.SEATED and not guest.sign.open_now
        # the host files its sign again before it expires, for the next who comes
        filed = len(_signs(network))
        clock[0] += REFRESH
        await until(lambda: len(_signs(network)) > filed, "the sign filed again")
        newest = _signs(network)[-1]
        assert json.loads(newest.content)["open"] == 1
        assert stands(newest, sign_tag(code), clock[0] + LIFE - REFRESH - 1)
    asyncio.run(run())


def test_a_liars_sign_for_a_closed_table_only_sends_the_look_back_to_its_whole_wait(
        ) -> None:
    async def run() -> None:
        network, clock, host, guest = _host_and_guest()
        code = await _shared(host)
        host.session.leave()
        liar = key_of("liar")
        network.relay.publish(make_event(
            liar, int(clock[0]), SIGN, (("d", sign_tag(code)),
                                        ("expiration", str(int(clock[0]) + LIFE))),
            '{"v":1,"open":1}', sign_for(liar)))
        g = guest.session
        g.join_code(code.shown)
        clock[0] += GRACE * 2
        await settle()
        assert g.role is Role.JOINING  # nobody seated, nothing said yet
        clock[0] += LOOK_SECONDS
        await until(lambda: g.role is Role.GUEST_CLOSED, "the look given up")
        assert g.seat.closed == words.NO_TABLE and g.seat.state is None
    asyncio.run(run())


def test_the_sign_tells_the_relays_the_room_only_never_the_codes_secret() -> None:
    async def run() -> None:
        network, clock = Network(), [START]
        host = Page(network, clock)
        code = await _shared(host)
        host.session.leave()
        secret = code.code[5:]
        for event in _signs(network):
            assert secret not in json.dumps(event.wire())
            assert event.tag("d") == hashlib.sha256(
                f"hearts-table-v2:open:{code.room}".encode()).hexdigest()
    asyncio.run(run())


def _sign(tag: str, at: int, content: str = '{"v":1,"open":1}', life: int = LIFE) -> Event:
    key = key_of("host")
    return make_event(key, at, SIGN, (("d", tag), ("expiration", str(at + life))),
                      content, sign_for(key))


def test_only_an_open_sign_of_the_tables_tag_within_its_life_stands() -> None:
    code, other = TableCode("K7QXM3TNAW"), TableCode("P4RS28TNAW")
    tag, now = sign_tag(code), 1_000_000
    assert stands(_sign(tag, now), tag, now)
    assert not stands(_sign(sign_tag(other), now), tag, now)  # another table's
    assert not stands(_sign(tag, now, '{"v":1,"open":0}'), tag, now)  # withdrawn
    assert not stands(_sign(tag, now - LIFE - 1), tag, now)  # expired
    assert not stands(_sign(tag, now - 10, life=5), tag, now)  # past its own expiration
    assert not stands(_sign(tag, now + 120), tag, now)  # dated ahead of the clock
    assert not stands(_sign(tag, now, "not json"), tag, now)


def test_a_look_waits_its_grace_after_the_relays_answer_and_any_sign_then_stands() -> None:
    code = TableCode("K7QXM3TNAW")
    look = Lookup(code)
    assert look.verdict(0.0) is None  # the relays haven't answered
    look.stored(10.0)
    assert look.verdict(10.0 + GRACE - 0.1) is None
    look.received(_sign(look.tag, 1_000_000), 1_000_000.0)
    assert look.verdict(10.0 + GRACE) is True
    late = Lookup(code)
    late.stored(10.0)
    assert late.verdict(10.0 + GRACE) is False
