"""Play online for a crowd: the v3 lobby (one Trystero room, a full WebRTC mesh) beside the
relay lobby (protocol v4: NIP-01 events, WebRTC only within a table), simulated.

    python tools/bench_lobby.py                  # every row below (~10 min, 2 cores)
    python tools/bench_lobby.py --quick          # 10 and 100 at once, 1 a second
    python tools/bench_lobby.py --rows rates     # or bursts: half the table
    python tools/bench_lobby.py --seed 3 --loss 0.02

The new lobby runs the page's own code (``web.friends.looking``, ``lobby_door``) for every
simulated page over a simulated relay (``tools/lobby_relay.py``: 30 ms + an exponential of
20 ms each way, ``--loss`` of the events lost), pages ticking every 0.25 s
(``tools/lobby_sim.py``). The v3 lobby (the page's until protocol v4) runs
``tools.mesh_lobby.Lobby`` for every page, in a modelled Trystero room: a page is in the
room 0.3 s after pressing Play online, each two pages in it connect 0.3-2 s after the later
came (measured: ~1 s median), announcements every 5.333 s (Trystero's
``announceIntervalMs``), an invitation over the data channel. Both model the table alike:
its people connect in 0.5-1.5 s and a fair deal takes 1 s; a page alone deals at once; hands
last 100 s, so a page let in by a door sits down at the next hand (the new lobby's page
plays with computers meanwhile, the v3 lobby's waits); people stay 10 minutes on average and
5 % close the page while looking.

Rows: "N at once" (N people pressing Play online within one second) and steady arrivals.
Columns, per lobby: time to cards in hand (median, p95), to a table with another person
(median, p95, and the share that got there within the run), peer connections per page
(max), relay events per page a minute (max sent, max received: in the busiest minute of a
page's whole run, looking and then keeping its table's door, for the relay lobby; in its
first minute for the v3 lobby's mesh), events a seated page sends per minute (max), and the
relay's busiest second (events in, events out). A
mesh past ~500 pages is not simulated (Chromium refuses so many peer connections): its row
gives what each page would open and receive.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.lobby_relay import Clock
from tools.lobby_sim import T0, World
from tools.mesh_lobby import WAIT_SECONDS, Lobby, SeatOffers, table_message
from web.p2p.tablecode import make_code

ANNOUNCE = 5.333
"""Trystero's announcement interval in a room (seconds)."""
MESH_LIMIT = 500
"""Peer connections past which Chromium refuses new ones (Trystero's issue #81)."""
HAND = 100.0
VANISH = 0.05


@dataclass(frozen=True)
class Scenario:
    name: str
    arrivals: list[float]
    """Seconds after the start at which each person presses Play online."""
    run: float


@dataclass
class Row:
    cards: list[float]
    person: list[float]
    people: int
    peers: int
    sent: int
    received: int
    seated_sent: float
    peak_in: int
    peak_out: int


def scenarios(quick: bool, rng: random.Random, rows: str = "all") -> list[Scenario]:
    bursts: tuple[int, ...] = (10, 100) if quick else (10, 100, 1000, 10000)
    if rows == "rates":
        bursts = ()
    found = [Scenario(f"{n:,} at once", sorted(rng.uniform(0, 1) for _ in range(n)), 60.0)
             for n in bursts]
    rates: tuple[tuple[float, float], ...] = ((1.0, 300.0),) if quick else (
        (1 / 30, 1800.0), (1.0, 300.0), (10.0, 120.0), (100.0, 60.0))
    if rows == "bursts":
        rates = ()
    for rate, span in rates:
        times, at = [], rng.expovariate(rate)
        while at < span:
            times.append(at)
            at += rng.expovariate(rate)
        label = "1 every 30 s" if rate < 1 else f"{rate:g} a second"
        found.append(Scenario(label, times, span + 60.0))
    return found


# --- the relay lobby ---

def run_new(scenario: Scenario, seed: int, loss: float) -> Row:
    rng = random.Random(seed)
    world = World(rng, loss=loss, hand=HAND, keep_log=True)
    pages = [world.add(f"page{index}", T0 + at,
                       vanish=rng.uniform(0, 3) if rng.random() < VANISH else None)
             for index, at in enumerate(scenario.arrivals)]
    world.clock.run(T0 + scenario.run)
    stayed = [page for page in pages if not (page.gone and page.seated < 0)]
    logs = [world.relay.counts[page.key].log for page in pages]
    seated_rates = []
    for page in stayed:
        if page.seated > 0 and world.clock.now - page.seated > 30:
            after = [at for at, what in world.relay.counts[page.key].log
                     if what == "s" and at > page.seated + 1]
            seated_rates.append(len(after) / ((world.clock.now - page.seated - 1) / 60))
    return Row(cards=[page.cards - page.arrived for page in stayed if page.cards > 0],
               person=[page.person - page.arrived for page in stayed if page.person > 0],
               people=len(stayed), peers=max(page.peers for page in pages),
               sent=max(busiest_minute(log, "s") for log in logs),
               received=max(busiest_minute(log, "r") for log in logs),
               seated_sent=max(seated_rates, default=0.0),
               peak_in=max(world.relay.per_second_in.values(), default=0),
               peak_out=max(world.relay.per_second_out.values(), default=0))


def busiest_minute(log: list[tuple[float, str]], what: str) -> int:
    """The most events of ``what`` ("s" sent, "r" read) in any 60 s of a page's run (its
    looks, and its table's door): ``log`` is in time order."""
    times = [at for at, kind in log if kind == what]
    most, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - 60:
            first += 1
        most = max(most, last - first + 1)
    return most


# --- the v3 lobby: one Trystero room, a full mesh ---

class MeshPage:
    """A page in the v3 lobby room (``tools.mesh_lobby.Lobby``), or seated."""

    def __init__(self, name: str, arrived: float) -> None:
        self.name = name
        self.arrived = arrived
        self.lobby: Lobby | None = None
        self.offers: SeatOffers | None = None
        self.open_seats = 0
        self.connected: set[str] = set()
        self.peers = 0
        self.cards = self.person = -1.0
        self.table: list[MeshPage] | None = None
        self.start = 0.0
        self.sent = self.received = 0
        self.seated = -1.0
        self.gone = False


class Mesh:
    """The v3 lobby: every page in the room connects to every other."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.clock = Clock()
        self.clock.now = T0
        self.room: dict[str, MeshPage] = {}
        self.pages: list[MeshPage] = []
        self.per_second: dict[int, int] = {}
        self.per_second_out: dict[int, int] = {}
        self.tables: dict[str, list[MeshPage]] = {}
        self.overflow = 0
        """The room's size when it grew past ``MESH_LIMIT`` (0: it never did)."""

    def count(self, page: MeshPage, sent: int, received: int) -> None:
        if self.clock.now < page.arrived + 60:
            page.sent += sent
            page.received += received
        second = int(self.clock.now)
        self.per_second[second] = self.per_second.get(second, 0) + sent
        self.per_second_out[second] = self.per_second_out.get(second, 0) + received

    def arrive(self, page: MeshPage) -> None:
        page.lobby = Lobby(page.name, self.clock.now + 0.3)
        self.clock.after(0.3, lambda: self.enter(page))

    def enter(self, page: MeshPage) -> None:
        if page.gone:
            return
        if len(self.room) >= MESH_LIMIT:  # Chromium refuses: the lobby stops working
            self.overflow = len(self.room)
            self.clock.queue.clear()
            return
        for other in list(self.room.values()):
            self.clock.after(self.rng.uniform(0.3, 2.0), functools.partial(self.link, page, other))
        self.room[page.name] = page
        self.announce(page)
        self.clock.after(0.25, lambda: self.tick(page))

    def announce(self, page: MeshPage) -> None:
        if self.room.get(page.name) is not page:
            return
        self.count(page, 1, 0)
        for other in self.room.values():
            if other is not page:
                self.count(other, 0, 1)
        self.clock.after(ANNOUNCE, lambda: self.announce(page))

    def link(self, a: MeshPage, b: MeshPage) -> None:
        if self.room.get(a.name) is not a or self.room.get(b.name) is not b:
            return
        self.count(a, 1, 1)  # an offer one way, an answer back, through the relay
        self.count(b, 1, 1)
        for one, two in ((a, b), (b, a)):
            one.connected.add(two.name)
            one.peers = max(one.peers, len(one.connected))
            if one.lobby is not None:
                one.lobby.opened(f"r:lobby:{two.name}", self.clock.now)
            if one.offers is not None and two.lobby is not None:  # a door offers a seat
                self.deliver(two, one, one.offers.message(f"r:lobby:{two.name}",
                                                          one.open_seats, self.clock.now))

    def deliver(self, to: MeshPage, sender: MeshPage, text: str) -> None:
        def arrive() -> None:
            if to.lobby is not None and self.room.get(to.name) is to:
                to.lobby.received(f"r:lobby:{sender.name}", text, self.clock.now)
        self.clock.after(0.005, arrive)

    def leave_room(self, page: MeshPage) -> None:
        self.room.pop(page.name, None)
        for other in self.room.values():
            if page.name in other.connected:
                other.connected.discard(page.name)
                if other.lobby is not None:
                    other.lobby.closed(f"r:lobby:{page.name}")

    def tick(self, page: MeshPage) -> None:
        lobby = page.lobby
        if lobby is None or page.gone:
            return
        now = self.clock.now
        if lobby.invited is not None:
            page.lobby = None
            self.leave_room(page)
            if lobby.late:
                self.clock.after(0.0, lambda: self.late(page, lobby.invited))
            else:
                self.seat(page, str(lobby.invited.code))
            return
        chosen = lobby.deal(now)
        if chosen is None:
            self.clock.after(0.25, lambda: self.tick(page))
            return
        code = make_code(self.rng)
        self.tables.setdefault(code.code, [])
        for conn in chosen:
            self.deliver(self.room[conn[8:]], page,
                         table_message(code, people=len(chosen) + 1))
        page.lobby = None
        self.clock.after(0.5, lambda: self.leave_room(page))
        self.seat(page, code.code, dealer=True, alone=not chosen)

    def seat(self, page: MeshPage, code: str, dealer: bool = False, alone: bool = False) -> None:
        page.seated = self.clock.now
        table = self.tables.setdefault(code, [])
        table.append(page)
        page.table = table
        if alone:
            page.cards = self.clock.now + 0.3
            page.start = page.cards
            self.clock.after(0.6, lambda: self.open_door(page, code))
            return
        # the fair table starts once its people have met in its own room
        start = self.clock.now + self.rng.uniform(0.5, 1.5) + 1.0
        page.cards = start
        page.start = start

        def started() -> None:
            people = [p for p in table if not p.gone]
            for p in people:
                p.peers = max(p.peers, len(people) - 1)
                if len(people) > 1 and p.person < 0:
                    p.person = max(p.cards, self.clock.now)
        self.clock.after(start - self.clock.now + 0.01, started)

    def open_door(self, page: MeshPage, code: str) -> None:
        """The v3 door: the table's page goes back into the lobby's room to offer seats."""
        page.offers = SeatOffers(make_code(random.Random(code)))
        page.open_seats = 3
        self.enter(page)

    def late(self, page: MeshPage, code: object) -> None:
        door = next((p for p in self.pages if p.offers is not None
                     and p.offers.code == code), None)
        if door is None or door.table is None:
            return
        waited = HAND - (self.clock.now - door.start) % HAND
        page.cards = page.person = self.clock.now + waited
        door.person = door.person if door.person > 0 else page.cards
        door.open_seats -= 1
        page.peers = max(page.peers, 1)
        if door.open_seats <= 0:
            door.offers = None
            self.leave_room(door)


def run_old(scenario: Scenario, seed: int) -> Row | None:
    if len(scenario.arrivals) > MESH_LIMIT and scenario.name.endswith("at once"):
        return None
    rng = random.Random(seed)
    mesh = Mesh(rng)
    for index, at in enumerate(scenario.arrivals):
        page = MeshPage(f"p{index:06d}{rng.randrange(16 ** 6):06x}", T0 + at)
        mesh.pages.append(page)
        mesh.clock.at(T0 + at, functools.partial(mesh.arrive, page))
        if rng.random() < VANISH:
            mesh.clock.at(T0 + at + rng.uniform(0, 3), functools.partial(vanish, mesh, page))
    mesh.clock.run(T0 + scenario.run)
    if mesh.overflow:
        return None
    stayed = [page for page in mesh.pages if not page.gone]
    return Row(cards=[p.cards - p.arrived for p in stayed if p.cards > 0],
               person=[p.person - p.arrived for p in stayed if p.person > 0],
               people=len(stayed), peers=max(p.peers for p in mesh.pages),
               sent=max(p.sent for p in mesh.pages),
               received=max(p.received for p in mesh.pages),
               seated_sent=6.0, peak_in=max(mesh.per_second.values(), default=0),
               peak_out=max(mesh.per_second_out.values(), default=0))


def vanish(mesh: Mesh, page: MeshPage) -> None:
    if page.lobby is not None:
        page.gone = True
        page.lobby = None
        mesh.leave_room(page)


# --- the table ---

def middle(values: Sequence[float], share: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(share * len(ordered)))]:.1f}"


def cells(row: Row | None, looking: int) -> list[str]:
    if row is None:
        received = round((looking - 1) * 60 / ANNOUNCE)
        return ["no table", "", "", "", "", f"{looking - 1:,}*", "", f"{received:,}*", "",
                ""]
    share = len(row.person) / max(1, row.people)
    return [middle(row.cards, 0.5), middle(row.cards, 0.95), middle(row.person, 0.5),
            middle(row.person, 0.95), f"{share:.0%}", str(row.peers), str(row.sent),
            str(row.received), f"{row.seated_sent:.1f}", f"{row.peak_in}/{row.peak_out}"]


HEAD = ["cards p50", "p95", "person p50", "p95", "with one", "peers", "sent/min",
        "read/min", "seated/min", "relay ev/s in/out"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--loss", type=float, default=0.01)
    parser.add_argument("--rows", choices=("all", "bursts", "rates"), default="all")
    parser.add_argument("--only", default="", help="rows whose name holds this text")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print("| people | lobby | " + " | ".join(HEAD) + " |")
    print("|---" * (len(HEAD) + 2) + "|")
    for scenario in scenarios(args.quick, rng, args.rows):
        if args.only not in scenario.name:
            continue
        for label, row in (("v3 mesh", run_old(scenario, args.seed)),
                           ("relay", run_new(scenario, args.seed, args.loss))):
            print(f"| {scenario.name} ({len(scenario.arrivals):,}) | {label} | "
                  + " | ".join(cells(row, len(scenario.arrivals) if "at once" in scenario.name
                                     else MESH_LIMIT + 1)) + " |", flush=True)
    print(f"\n* a mesh of that many: connections each page would open, announcements it "
          f"would read a minute (Chromium refuses past ~{MESH_LIMIT}). The v3 lobby waits "
          f"{WAIT_SECONDS:g} s for four; its seated pages' figure is the measured 1-6.")


if __name__ == "__main__":
    main()
