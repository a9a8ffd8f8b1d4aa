"""What comes to a fair table from the other pages: checked, taken, relayed. No I/O.

A ``FairTable`` is an ``Arrivals``: each envelope from another page is opened, its number
and signature checked by the ``ledger``, and read into the ``inbox`` (it waits there until
it fits the record of its hand: the one under way, or the next one's deal, made meanwhile);
a page that waited asks the others for what it missed, and their relays are checked as if
they came from their sender (``relay``). A page back after a reload holds what comes
straight from a sender past a gap (``ahead``) until the relays fill it (``resume``).
"""

from __future__ import annotations

from hearts.rules import NUM_SEATS
from web.p2p.fair.group import Group
from web.p2p.fair.inbox import Inbox
from web.p2p.fair.outcome import CLOSED_TEXT, Outcomes
from web.p2p.fair.relay import Ask, Relay, Relays, ask, read
from web.p2p.fair.signing import Signed, text_hash
from web.p2p.fair.transcript import Cheat, CheatDetected, Fault
from web.p2p.fair.wire import max_chars, open_envelope, sender, tag

__all__ = ["MAX_AHEAD", "Arrivals"]

MAX_AHEAD = 256
"""The most envelopes a resumed table holds until the gap before them fills."""


class Arrivals(Outcomes):
    """The messages of the other pages into a fair table (``FairTable``)."""

    # the table's (``FairTable``)
    name: str
    group: Group
    checks: bool
    inbox: Inbox
    relays: Relays
    resumed: bool
    ahead: list[str]
    unsettled: bool
    """A message was taken since the table last settled: what it makes due waits for the
    table's next slice (``FairTable.work_step``), not the task that brought it."""

    def _settle(self, budget: float | None = None) -> None:
        """Take every message that fits now, and every step that is due (the table's)."""
        raise NotImplementedError

    def received_from(self, seat: int, text: str) -> None:
        """A message from the page at ``seat`` (the connection it came on)."""
        if seat == self.seat or not 0 <= seat < NUM_SEATS:
            return
        extra = read(text, max_chars(self.group))
        if isinstance(extra, Ask) or (extra is not None and self.closed is None):
            self._relayed(seat, extra)  # closed, it still sends what it holds on asking
            return
        if self.closed is not None:
            return
        opened = open_envelope(text, self.group)
        if opened is None:
            self.caught(Fault(seat, Cheat.MALFORMED))
            return
        if opened[1] != tag(self.name):
            return  # for the table before a draw again, whose seats were others
        if opened[0] != seat:  # a page speaks only for the seats it holds (the mesh checks)
            self.caught(Fault(seat, Cheat.MALFORMED))
            return
        self._take(text, opened, None)

    def _take(self, text: str, opened: tuple[int, str, int, int, str, int, int],
              relayer: int | None) -> None:
        """The envelope ``text`` of seat ``opened[0]``, straight from it or relayed by the
        page at ``relayer``."""
        seat, table, hand, n, inner, t, z = opened
        if table != tag(self.name) or hand < self.hand_number:
            # for the table before a draw again (whose seats were others), or a hand over
            # here (a late digest)
            return
        if relayer is None and self.resumed and hand <= self.hand_number + 1 \
                and n > self.ledger.expected(seat, hand) and len(self.ahead) < MAX_AHEAD:
            self.ahead.append(text)  # back after a reload: what it missed comes relayed
            return
        held = self.ledger.held(hand, seat, n)
        if held is not None or (relayer is not None and n != self.ledger.expected(seat, hand)):
            # One this page holds already (relayed before it came, or relayed twice), or
            # one a relay can't place yet: nothing new, unless it is signed over other
            # words than the one held: then its sender told pages different things.
            if held is not None and held != text_hash(inner):
                if self.ledger.holds_up(Signed(seat, n, text_hash(inner), t, z), hand):
                    self.caught(Fault(seat, Cheat.EQUIVOCATED))
                else:  # an honest page relays only what it checked
                    self.caught(Fault(seat if relayer is None else relayer, Cheat.UNSIGNED))
            return
        signed = self.ledger.admit(seat, hand, n, inner, t, z, text)
        if signed is None:
            self.caught(Fault(seat if relayer is None else relayer, Cheat.UNSIGNED))
            return
        if inner == CLOSED_TEXT and hand == self.hand_number:
            # Not a step of the hand: the table didn't move on, and waits as long as before.
            self.transcript.closers.add(seat)
            return
        try:
            kind = self.inbox.hold(seat, hand, inner, self.group)
        except CheatDetected as error:
            self.caught(error.fault)
            return
        if kind is None:
            self.caught(Fault(seat, Cheat.MALFORMED))
            return
        self.ledger.keep(hand, kind, signed)
        self.ledger.typed(hand, seat, signed.n, kind)
        self.unsettled = True  # its checks against the record and its answers: in slices
        for early in [e for e in self.ahead if sender(e) == seat]:
            waiting = open_envelope(early, self.group)
            if waiting is not None and waiting[3] == self.ledger.expected(seat, hand):
                self.ahead.remove(early)
                self._take(early, waiting, None)  # the gap before it filled

    def _relayed(self, seat: int, extra: Ask | Relay) -> None:
        """Page ``seat`` asks for what follows what it holds, or hands on a message."""
        if extra.table != tag(self.name) \
                or extra.hand not in (self.hand_number, self.hand_number + 1):
            return  # another table's (before a draw again), or another hand's
        if extra.seat != seat:  # a page speaks only for the seats it holds
            if self.closed is None:
                self.caught(Fault(seat, Cheat.MALFORMED))
            return
        if isinstance(extra, Ask):
            if self.checks:  # (else the page's other table answers)
                self.outbox += self.relays.answer(extra)
            return
        opened = open_envelope(extra.item, self.group)
        if opened is None:
            self.caught(Fault(seat, Cheat.MALFORMED))
        elif opened[0] != self.seat:
            self._take(extra.item, opened, seat)

    def ask_missed(self) -> None:
        """Ask the others at once for what this page missed (it is back after a reload):
        of the hand under way, and of the next one's deal, made meanwhile."""
        for number in (self.hand_number, self.hand_number + 1):
            self.outbox.append(ask(self.seat, tag(self.name), number,
                                   self.ledger.have(number)))

    def take_kept(self, text: str | None,
                  opened: tuple[int, str, int, int, str, int, int] | None = None) -> None:
        """Another page's envelope ``text`` from the record kept, checked as on arrival
        (None: only the messages held that fit now)."""
        if text is not None and opened is not None:
            self._take(text, opened, None)
        self._settle()  # (the record is read back in order: each message in its turn)
