"""The fair tables one page runs at a table: its person's, and the computer's it plays.

A page holds the keys of its person's seat and, if the draw gave it one, of a computer's
(``web.p2p.fair.computer``): a ``FairTable`` for each, in the same mesh. What either sends
goes to the other pages and straight across to the other; what another page sends goes
into both, from the seat its envelope names if that page holds that seat. The person's
table checks the shuffle proofs and audits each hand; the computer's takes its findings
(``FairTable.adopt``). No I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import mean

from web import words
from web.p2p.fair.cheats import COMPUTERS
from web.p2p.fair.computer import FairComputer
from web.p2p.fair.group import Group
from web.p2p.fair.public import Score
from web.p2p.fair.resume import HandKept
from web.p2p.fair.seating import Seating
from web.p2p.fair.steered import bot
from web.p2p.fair.table import FairStage, FairTable
from web.p2p.fair.wire import sender

__all__ = ["PageTables"]


class PageTables:
    """``person``'s table and, if this page plays one, ``computer``'s."""

    def __init__(self, person: FairTable, computer: FairComputer | None) -> None:
        self.person = person
        self.computer = computer
        self.reported = (0, "")
        self._turn = 0
        """The table whose slice came last (``work_step``)."""

    @staticmethod
    def seat(seating: Seating, me: str, name: str, *, hand: int, history: Sequence[Score],
             now: Callable[[], float], turn: float, group: Group, cheat: str,
             pace: Callable[[], float], keys: tuple[int, int],
             kept: Sequence[HandKept] = ()) -> PageTables:
        """The tables of page ``me`` at the table ``name`` the draw seated: its person's and,
        if it plays one, its computer's (``keys``: this page's two signing keys); the hard
        player moves for the computer, ``pace()`` seconds after its turn comes. ``kept``:
        each table's part of hand ``hand`` before a reload, to take it up (``resume``)."""
        mine = [*kept, None, None]
        computers = {s: seating.person(seating.pages[s])
                     for s, c in enumerate(seating.computer) if c}
        table = FairTable(seating.person(me), now=now, turn=turn, cheat=cheat, group=group,
                          name=name, signing_key=keys[0], keys=seating.keys, hand=hand,
                          history=history, computers=computers, kept=mine[0])
        played = seating.computer_of(me)
        if played is None:
            return PageTables(table, None)
        return PageTables(table, FairComputer(
            FairTable(played, now=now, turn=turn, group=group, name=name,
                      signing_key=keys[1], keys=seating.keys, checks=False,  # the person's
                      hand=hand, history=history, kept=mine[1]),
            COMPUTERS.get(cheat, bot)(name, played), now=now, pause=pace))

    @property
    def resumed(self) -> bool:
        """Every table here took its hand up where it stood (``FairTable.resumed``)."""
        return all(table.resumed for table in self.all())

    def all(self) -> list[FairTable]:
        return [self.person] + ([] if self.computer is None else [self.computer.table])

    def deliver(self, seats: tuple[int, ...], text: str) -> None:
        """A message from the page holding ``seats`` (its person's first) into each table.
        It comes from the seat its envelope names if that page holds that seat; else it is
        taken as its person's, whose table then refuses it (a page speaks only for its own
        seats)."""
        seat = sender(text)
        for table in self.all():
            table.received_from(seat if seat in seats else seats[0], text)

    def flush(self, send: Callable[[str], None]) -> None:
        """Every message the tables have to send: to the other pages through ``send``, in
        order (or they must wait), and across to the other table here."""
        tables = self.all()
        while any(table.outbox for table in tables):
            for table in tables:
                for text in table.take_outbox():
                    send(text)
                    for other in tables:
                        if other is not table:
                            other.received_from(table.seat, text)

    def work_step(self) -> bool | None:
        """A slice of one table's work (``FairTable.work_step``): first what came to
        either (a message taken waits for its slice), then each table in turn, so that
        neither's deal waits on the other's background work."""
        tables = self.all()
        unsettled = [t for t in tables if t.unsettled and t.closed is None]
        if unsettled:
            return unsettled[0].work_step()
        self._turn = (self._turn + 1) % len(tables)
        done = tables[self._turn].work_step()
        if done is None and len(tables) > 1:
            done = tables[1 - self._turn].work_step()
        return done

    def share_findings(self) -> bool:
        """The person's table's checks and verdict to the computer's; whether that scored a
        hand (then it has steps to send)."""
        return self.computer is not None and self.computer.table.adopt(self.person)

    def closing(self) -> str | None:
        """Why this page's part of the table closed, if it did, in its person's words: a
        fault the computer's table found is named to the person as their own table would."""
        person, computer = self.person, self.computer
        if person.closed is not None:
            return person.closed
        if computer is None or computer.table.closed is None:
            return None
        fault = computer.table.fault
        if fault is not None and fault.seat != person.seat:
            table = computer.table
            cost = words.fair_charged(fault.seat, person.seat) \
                if table.current.counted is not None else words.FAIR_VOID
            return words.fault_text(fault, person.seat) + " " + cost
        return words.FAIR_STOPPED

    def report(self) -> str | None:
        """The timings of a hand once it is audited (or stopped), for the console: once."""
        table = self.person
        stage = table.stage
        key = (table.hand_number, stage.value)
        if stage not in (FairStage.SCORED, FairStage.OVER, FairStage.CLOSED) \
                or key == self.reported:
            return None
        self.reported = key
        t = table.timings
        checks = t["check"]
        return (f"Hearts fair table: hand {table.hand_number}, seat {table.seat}, "
                f"{stage.value}; deal {_last(t['deal'])} ms; "
                f"checks {len(checks)}, mean {mean(checks) if checks else 0:.1f} ms, "
                f"max {max(checks, default=0):.1f} ms; audit {_last(t['audit'])} ms")


def _last(values: list[float]) -> str:
    return f"{values[-1]:.0f}" if values else "-"
