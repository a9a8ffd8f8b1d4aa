"""The fair tables one page runs at a table: its person's, and the computer's it plays.

A page holds the keys of its person's seat and, if the draw gave it one, of a computer's
(``web.p2p.fair.computer``): a ``FairTable`` for each, in the same mesh. What either sends
goes to the other pages and straight across to the other; what another page sends goes
into both, from the seat its envelope names if that page holds that seat. The person's
table checks the shuffle proofs and audits each hand; the computer's takes its findings
(``FairTable.adopt``). No I/O.
"""

from __future__ import annotations

from collections.abc import Callable

from web import words
from web.p2p.fair.computer import FairComputer
from web.p2p.fair.table import FairTable
from web.p2p.fair.wire import sender

__all__ = ["PageTables"]


class PageTables:
    """``person``'s table and, if this page plays one, ``computer``'s."""

    def __init__(self, person: FairTable, computer: FairComputer | None) -> None:
        self.person = person
        self.computer = computer

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
        """A slice of the person's table's work, or else of the computer's
        (``FairTable.work_step``)."""
        done = self.person.work_step()
        if done is None and self.computer is not None:
            done = self.computer.table.work_step()
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
            return words.fault_text(fault, person.seat) + " " + words.FAIR_VOID
        return words.FAIR_STOPPED
