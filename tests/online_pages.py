"""Pages at private tables without a browser: each ``Page`` is a ``Session`` with a fake
``Peer`` on a fake ``Network``. An offer and an answer are paired when the host accepts
the answer code, then messages go straight to the other page. Play online's lobby goes
through ``FakeRelay``, a NIP-01 relay in memory (stored addressable events, filters,
``limit``, EOSE), each page's ``FakeWire`` on it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from hearts import Game
from tests.sdp import CHROMIUM_OFFER
from tools.lobby_relay import matches
from tools.lobby_sim import key_of, sign_for
from web.friends.fair_back import COUNTS, gather
from web.friends.lobby_events import NOTE, Event, make_event
from web.friends.looking import ASK_AGAIN, FIRST_POLL
from web.friends.session import PageHooks, Role, Session
from web.p2p.fair.group import Group
from web.p2p.host import HostTable
from web.p2p.protocol import Intent

__all__ = ["FakePeer", "FakeRelay", "FakeWire", "Network", "Page", "begun_by_code",
           "in_lobby", "lone_online", "play_out_hosted_hand", "see_each_other", "settle",
           "until"]


class Network:
    """Connections between pages: ``conn`` id -> (page, the other end's id)."""

    def __init__(self) -> None:
        self.pages: dict[str, Session] = {}
        self.ends: dict[str, str] = {}
        self.count = 0
        self.relay_up = True
        """Whether the relays answer (meet fails while they don't)."""
        self.rooms: dict[tuple[str, str, str], list[Page]] = {}
        """(name, room, password) -> the pages in it (a meeting through relays)."""
        self.relays_answer: asyncio.Event | None = None
        """If set, a meeting answers only once it is set (slow relays)."""
        self.relay = FakeRelay(self)

    def deliver(self, conn: str, text: str | None) -> None:
        """A message (or, None: the end closing) reaches the page at ``conn``, after what
        was sent on it before."""
        page = self.pages[conn]
        asyncio.get_running_loop().call_soon(
            page.closed if text is None else page.received, conn,
            *(() if text is None else (text,)))

    def new(self, page: Page) -> str:
        self.count += 1
        conn = f"c{self.count}"
        self.pages[conn] = page.session
        return conn


class FakeRelay:
    """The lobby's relay: every wire's events, delivered soon and in order."""

    def __init__(self, network: Network) -> None:
        self.network = network
        self.wires: list[FakeWire] = []
        """The wires open now."""
        self.stored: dict[tuple[str, int, str], Event] = {}
        """The newest addressable event per key, kind and ``d``."""
        self.sent: list[Event] = []
        """Every event published, in order."""

    def publish(self, event: Event) -> None:
        self.sent.append(event)
        if 30000 <= event.kind < 40000:
            place = (event.pubkey, event.kind, event.tag("d") or "")
            old = self.stored.get(place)
            if old is not None and old.created_at > event.created_at:
                return
            self.stored[place] = event
        for wire in list(self.wires):
            for sub, filters in list(wire.subs.items()):
                if any(matches(event, f) for f in filters):
                    wire.deliver(sub, event)

    def req(self, wire: FakeWire, sub: str, filters: list[dict[str, Any]]) -> None:
        for f in filters:
            found = sorted((e for e in self.stored.values() if matches(e, f)),
                           key=lambda e: -e.created_at)[:f.get("limit", len(self.stored))]
            for event in found:
                wire.deliver(sub, event)
        wire.deliver(sub, None)


class FakeWire:
    """One page's wire to the ``FakeRelay`` (``web.p2p.relay_wire.Wire``): a new key per
    open; notes go unsealed (the page's JavaScript seals them), signatures are a stand-in
    (the JavaScript checks them before Python reads an event)."""

    def __init__(self, network: Network) -> None:
        self.network = network
        self.online: Any = None
        """The session's ``Online``, which events go to (set by ``Page``)."""
        self.page: Page | None = None
        self.key = ""
        self.subs: dict[str, list[dict[str, Any]]] = {}
        self.opened = 0
        self.open_now = False
        self.read: list[tuple[float, str, Event]] = []
        """(when by the page's clock, subscription, event) of every event that reached this
        wire's page."""

    async def open(self, relays: list[str]) -> str | None:
        relay = self.network.relay
        self.close()
        self.opened += 1
        mine = self.opened
        key = key_of(f"{id(self)}-{mine}")
        if self.network.relays_answer is not None:
            await self.network.relays_answer.wait()
        if not self.network.relay_up or self.opened != mine:  # (replaced: as the page's)
            return None
        self.key, self.open_now, self.subs = key, True, {}
        relay.wires.append(self)
        return key

    async def publish(self, kind: int, tags: tuple[tuple[str, ...], ...], content: str,
                      to: str | None, created_at: int) -> str:
        event = make_event(self.key, created_at, kind, tags + ((("p", to),) if to else ()),
                           content, sign_for(self.key))
        if self.open_now:
            self.network.relay.publish(event)
        return event.id

    def subscribe(self, sub: str, filters: list[dict[str, Any]], once: bool) -> None:
        if not self.open_now:
            return
        if not once:
            self.subs[sub] = filters
        self.network.relay.req(self, sub, filters)

    def unsubscribe(self, sub: str) -> None:
        self.subs.pop(sub, None)

    def close(self, farewell: list[tuple[int, tuple[tuple[str, ...], ...], str]]
              | None = None) -> None:
        for kind, tags, content in farewell or []:
            if self.open_now:
                self.network.relay.publish(make_event(self.key, int(self.online.now()), kind,
                                                      tags, content, sign_for(self.key)))
        if self in self.network.relay.wires:
            self.network.relay.wires.remove(self)
        self.open_now, self.subs = False, {}

    def deliver(self, sub: str, event: Event | None) -> None:
        """An event (None: EOSE) reaches this page soon, if it still reads ``sub``."""
        key = self.key

        def arrive() -> None:
            if self.key != key or not self.open_now:
                return
            if event is None:
                self.online.stored(sub)
            else:
                self.read.append((self.online.now(), sub, event))
                plain = event.content if event.kind == NOTE and event.tag("p") == key else None
                self.online.event(sub, json.dumps(event.wire()), plain)
        asyncio.get_running_loop().call_soon(arrive)


class FakePeer:
    def __init__(self, network: Network, page: Page) -> None:
        self.network = network
        self.page = page
        self.offers: dict[str, str] = {}
        self.configs: list[dict[str, Any]] = []
        """What this page asked of each meeting room."""
        self.me = f"p{len(network.pages):04d}{id(self) % 9973:04d}"
        """This page's id in meeting rooms."""

    async def offer(self, ice: str, wait_ms: int) -> dict[str, str]:
        return {"id": self.network.new(self.page), "sdp": CHROMIUM_OFFER}

    async def answer(self, ice: str, sdp: str, wait_ms: int) -> dict[str, str]:
        conn = self.network.new(self.page)
        self.network.ends[conn] = "?"  # paired when the host accepts
        return {"id": conn, "sdp": CHROMIUM_OFFER}

    async def accept(self, conn: str, sdp: str) -> dict[str, str]:
        network = self.network
        guest = next(c for c, other in network.ends.items() if other == "?")
        network.ends[guest], network.ends[conn] = conn, guest
        network.pages[conn].opened(conn)
        network.pages[guest].opened(guest)
        return {}

    def send(self, conn: str, text: str) -> None:
        """Delivered soon, in order, as a data channel does: never while the sender is
        still in the middle of what it was doing."""
        other = self.network.ends.get(conn)
        if other and other != "?":
            self.network.deliver(other, text)

    def close(self, conn: str) -> None:
        other = self.network.ends.pop(conn, None)
        if other and other != "?" and self.network.ends.pop(other, None) is not None:
            self.network.deliver(other, None)

    async def meet(self, config: str) -> dict[str, str]:
        """Every page already in the room and this one see each other connect (unless the
        network has no relay: then an error, as the page's glue answers)."""
        data = json.loads(config)
        self.configs.append(data)
        network = self.network
        if not network.relay_up:
            return {"error": "no relay answered"}
        name = data["name"]
        members = network.rooms.setdefault((name, data["room"], data["password"]), [])
        for other in members:
            # each end named by the id of the page at the other end (as Trystero does),
            # after a number that keeps the names apart on this one fake network
            theirs = f"r:{name}:{network.new(other)}:{self.me}"
            mine = f"r:{name}:{network.new(self.page)}:{other.session.peer.me}"  # type: ignore[attr-defined]
            network.pages[theirs], network.pages[mine] = other.session, self.page.session
            network.ends[theirs], network.ends[mine] = mine, theirs
            other.session.opened(theirs)
            self.page.session.opened(mine)
        members.append(self.page)
        if network.relays_answer is not None:  # in the room at once, as the page's glue
            await network.relays_answer.wait()  # is, and answered once a relay is reached
        return {"self": self.me}

    def unmeet(self, name: str) -> None:
        """Out of the room: the pages still there see this one's connections close (as
        Trystero's peers leave)."""
        network = self.network
        for (room_name, _, _), members in network.rooms.items():
            if room_name == name and self.page in members:
                members.remove(self.page)
        mine = [conn for conn, page in network.pages.items() if page is self.page.session
                and conn.startswith(f"r:{name}:") and conn in network.ends]
        for conn in mine:
            other = network.ends.pop(conn, None)
            if other is not None and network.ends.pop(other, None) is not None:
                network.deliver(other, None)


async def _tick(seconds: float) -> None:
    await asyncio.sleep(0)


class Page:
    """One browser page's private-table session and what it asked of the page."""

    def __init__(self, network: Network, clock: list[float] | None = None) -> None:
        """``clock``: a one-item list holding the seconds now (the tests move it)."""
        self.clock = clock = clock if clock is not None else [0.0]
        self.shown: list[Any] = []
        self.adopted: list[Game] = []
        self.kept: list[str | None] = []
        self.dialog_open = False
        self.seat_kept: list[str | None] = []
        """What the page kept, for this tab, to come back to its seat after a reload: the
        whole record, gathered from its parts after each write of it."""
        self.tab: dict[str, str] = {}
        """This tab's storage of it, part by part (``web.friends.fair_back.KeptSeat``)."""
        hooks = PageHooks(
            seat_table=self.shown.append, adopt=lambda game, scored: self.adopted.append(game),
            keep=self.kept.append, show=self._show, on_change=lambda: None,
            warn=lambda line: None, level=lambda: "easy", ice=lambda: "[]",
            base=lambda: "http://127.0.0.1/", relays=lambda: ["ws://127.0.0.1:1"],
            keep_seat=self._keep_seat)
        self.wire = FakeWire(network)
        self.sign = FakeWire(network)
        """The wire for the sign of a table shared by code (``web.friends.table_sign``)."""
        self.session = Session(FakePeer(network, self), hooks, wire=self.wire, grace=5.0,
                               pace=lambda: 0.0, now=lambda: clock[0],
                               minute=lambda: 29_000_000, sleep=_tick, sign=self.sign)
        self.wire.online, self.wire.page = self.session.online, self
        self.sign.online, self.sign.page = self.session.signs, self

    def _keep_seat(self, text: str | None, part: str = "") -> None:
        if text is None:
            self.tab.clear()
            self.seat_kept.append(None)
            return
        self.tab[part] = text
        if part in ("", COUNTS) and "" in self.tab:
            self.seat_kept.append(gather(self.tab[""], self.tab.get))

    def _show(self, wanted: bool) -> None:
        was, self.dialog_open = self.dialog_open, wanted
        if was and not wanted:  # as a browser's dialog does: its close event comes after
            asyncio.get_running_loop().call_soon(self._closed)

    def _closed(self) -> None:
        """The dialog's close event, as ``web.friends.dialog`` takes it: news only if the
        dialog is still closed (closed and opened again at once is no close)."""
        if not self.dialog_open:
            self.session.dialog_closed()

    def close_dialog(self) -> None:
        """The person presses Escape or the dialog's Close."""
        self._show(False)


async def settle(rounds: int = 200) -> None:
    """Let the pages run ``rounds`` turns of the event loop: for a test that checks that
    something did *not* happen (else wait ``until`` what should)."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def until(condition: Callable[[], bool], what: str | Callable[[], str],
                rounds: int = 50_000) -> None:
    """Let the pages run until ``condition`` holds; fail saying ``what`` was awaited if it
    doesn't within ``rounds`` turns of the event loop (the fake clocks don't move by
    themselves, so this counts work, not time)."""
    for _ in range(rounds):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError(what if isinstance(what, str) else what())


async def looking_unanswered() -> tuple[Network, Page, asyncio.Event]:
    """A page that pressed Play online before the relays answered: they answer once the
    test sets the event given back (``network.relays_answer``)."""
    network = Network()
    answer = network.relays_answer = asyncio.Event()
    page = Page(network)
    page.session.play_online()
    await settle(20)
    return network, page, answer


async def lone_online(network: Network, clock: list[float], group: Group | None = None
                      ) -> Page:
    """A page alone in the lobby: once the wait is over it plays the computers, and keeps
    a door open for people who come (to a fair table in ``group``, if given)."""
    page = Page(network, clock)
    if group is not None:
        page.session.fair_group = group
    page.session.play_online()
    await until(page.session.online.met, "in the lobby")
    clock[0] += 3.0
    await until(lambda: page.session.role is Role.HOSTING and page.session.fair is not None
                and page.session.fair.me is not None and page.session.online.door is not None
                and page.session.online.door.filed is not None,
                "playing the computers, its door open in the table's room and the lobby")
    return page


async def see_each_other(pages: list[Page], count: int) -> None:
    """Pages that pressed Play online read the lobby until each sees ``count`` lookers: once
    each has chosen its shard, their clocks move on to its first read of the next second
    (a page reads the lobby by one-shot queries ending before the second they are made in,
    so the first to come sees the others then),
    and on past ``ASK_AGAIN`` (a dealer that invited a page before that page knew of it
    invites it again)."""
    def shard_chosen(page: Page) -> bool:
        looker = page.session.online.looker
        return looker is not None and looker.level is not None
    clocks = {id(page.clock): page.clock for page in pages}.values()
    await until(lambda: all(map(shard_chosen, pages)), "every page in the lobby")
    for clock in clocks:  # (a read ends before the second it is made in)
        clock[0] += 1 + FIRST_POLL
    await until(lambda: all(page.session.online.people() == count for page in pages),
                "every page sees the others")
    for clock in clocks:
        clock[0] += ASK_AGAIN


def in_lobby(network: Network) -> list[Page]:
    """The pages on the lobby's relay now (looking, or a table's open door)."""
    return [wire.page for wire in network.relay.wires if wire.page is not None]


def play_out_hosted_hand(host: HostTable) -> None:
    """Every seat of ``host`` moves until the hand is scored: people pass their first three
    cards and play their first legal card, computers choose."""
    hand = host.game.hand_number
    while host.game.hand_number == hand and host.stage() in ("pass", "play"):
        if host.due():
            host.computer_step()
            continue
        for seat in host.waiting_for():
            game = host.game
            if host.stage() == "pass":
                host.act(seat, Intent("pass", tuple(game.hand(seat)[:3])))
            else:
                host.act(seat, Intent("play", (game.legal_plays()[0],)))


async def begun_by_code(network: Network, clock: list[float], friends: int
                         ) -> tuple[Page, list[Page]]:
    """A host that shared its table's code, ``friends`` pages seated by it, the game begun."""
    host = Page(network, clock)
    h = host.session
    h.open_table()
    await until(lambda: not h.busy, "the invites made")
    h.host_side.share_code()
    assert h.hosting is not None and h.hosting.room is not None
    guests = [Page(network, clock) for _ in range(friends)]
    for guest in guests:
        guest.session.join_code(h.hosting.room.shown)
    await until(lambda: all(g.session.role is Role.SEATED for g in guests), "friends seated")
    h.host_side.begin()
    await until(lambda: all(g.session.seat.state is not None and g.session.seat.state.stage
                            == "pass" and g.seat_kept and g.seat_kept[-1] for g in guests),
                "the friends dealt in")
    return host, guests
