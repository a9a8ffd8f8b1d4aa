"""Messages from the other pages of a fair table, held until they fit the record.

Over a mesh, seat 3 may hear seat 2's lock before seat 1's: a message the transcript finds
out of turn (``OUT_OF_TURN``) waits here until it fits, and one of a later hand waits for
that hand. Anything else wrong with a message names its sender (``CheatDetected``). Each
message is read once: its form as it comes (``wire.read_form``), its numbers in the page's
slices (``vet``: some hundred small calls for a deck, five times as many for a shuffle's
proof, too long for the task that brought it on a phone); one that waits is not read again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

from hearts.rules import NUM_SEATS
from hearts.steps import run
from web.p2p.fair.group import Group
from web.p2p.fair.transcript import Cheat, CheatDetected, Transcript
from web.p2p.fair.wire import Parsed, apply, read_form, read_numbers_steps

__all__ = ["MAX_PENDING", "Held", "Inbox"]

MAX_PENDING = 64
"""Messages held per page before their turn, at most (more is garbage: the page is named)."""
PROVED = ("fair_play", "fair_blind")
"""The messages whose proofs a page checks ahead, while they wait (``vet``)."""
VETTED = ("deck", "values")
"""The fields whose numbers the record checks for the group one by one: a deck's 52, an
opening's 13 (``vet``)."""


@dataclass(eq=False)
class Held:
    """A message that waits for the record: its hand number, type and fields."""

    hand: int
    kind: str
    fields: dict[str, Any]
    reading: Generator[None, None, Parsed] | None
    """Its numbers being read (``wire.read_numbers_steps``); None once they are."""
    read_ms: float
    """How long reading it took (ms, counted in a play's check)."""

    def read(self) -> None:
        """Its numbers read now, all that are left (``CheatDetected``: one is malformed)."""
        if self.reading is not None:
            run(self.reading)
            self.reading = None


class Inbox:
    """Each other page's messages, in the order they came, until the record takes them."""

    def __init__(self, clock: Callable[[], float], checks: list[float]) -> None:
        """``checks``: where the milliseconds of each play's check go."""
        self.clock = clock
        self.checks = checks
        self.pending: dict[int, list[Held]] = {s: [] for s in range(NUM_SEATS)}
        """Seat -> its messages waiting, in the order they came."""
        self._unread: deque[tuple[int, Held]] = deque()
        """The messages held whose numbers are not read yet, with their sender's seat."""
        self._unvetted: deque[Iterator[object]] = deque()
        """The numbers of the messages held, not yet checked for the group (``vet``)."""
        self._proven: set[int] = set()
        """The cards held whose proof was checked ahead (``vet``), by their fields' id."""
        self._proving: tuple[int, Iterator[None] | None] | None = None
        """The card held whose proof is being checked ahead, and the check's steps."""

    def hold(self, seat: int, hand: int, text: str, group: Group) -> str | None:
        """Read and keep ``seat``'s message of hand number ``hand``: its type, or None if
        that page already has ``MAX_PENDING`` waiting (garbage). Raises ``CheatDetected``
        naming ``seat`` if the message is malformed."""
        queue = self.pending[seat]
        if len(queue) >= MAX_PENDING:
            return None
        started = self.clock()
        unread = read_form(text, group, seat)
        held = Held(hand, unread[0], unread[1], read_numbers_steps(unread),
                    (self.clock() - started) * 1000)
        queue.append(held)
        self._unread.append((seat, held))
        return held.kind

    def vet(self, group: Group, over: Callable[[], bool],
            transcript: Transcript | None = None, hand: int = 0) -> bool:
        """Read the numbers of the messages held a number at a time, then check them for
        the group a number at a time, until ``over()`` (``Group.is_element`` remembers each
        answer): taking a deck into the record is then no long step (its 52 checks, some
        120 ms on a phone). Then the proofs of the cards and blinds of hand ``hand`` held,
        against ``transcript``, a power a step (``Transcript.play_check_steps``,
        ``blind_check_steps``, remembered): taking them is then no long step either.
        Whether all are checked. A number that is not one names its sender at once
        (``CheatDetected``); what fails a check is only named when its message is taken."""
        while self._unread:
            seat, held = self._unread[0]
            if held.reading is not None:
                started = self.clock()
                try:
                    for _ in held.reading:
                        if over():
                            held.read_ms += (self.clock() - started) * 1000
                            return False
                except CheatDetected:
                    self._drop(seat, held)
                    raise
                held.reading = None
                held.read_ms += (self.clock() - started) * 1000
            self._unread.popleft()
            self._unvetted += (iter(held.fields[name]) for name in VETTED
                               if isinstance(held.fields.get(name), list | tuple))
        while self._unvetted:
            for value in self._unvetted[0]:
                group.is_element(value)
                if over():
                    return False
            self._unvetted.popleft()
        if transcript is None:
            return True
        for seat, queue in self.pending.items():
            for held in queue:
                fields = held.fields
                if held.hand != hand or held.kind not in PROVED \
                        or id(fields) in self._proven:
                    continue
                if self._proving is None or self._proving[0] != id(fields):
                    self._proving = id(fields), (
                        transcript.play_check_steps(seat, fields.get("slot"),
                                                    fields.get("card"), fields.get("proof"))
                        if held.kind == "fair_play" else
                        transcript.blind_check_steps(seat, fields.get("values"),
                                                     fields.get("proofs")))
                for _ in self._proving[1] or ():
                    if over():
                        return False  # (the check goes on in the next slice)
                self._proving = None
                self._proven.add(id(fields))
        return True

    def take(self, transcript: Transcript, hand: int) -> bool:
        """Enter into ``transcript`` the first held message of ``hand`` that fits it now;
        whether one did. Raises ``CheatDetected`` for one that is wrong in another way."""
        for seat, queue in self.pending.items():
            for i, held in enumerate(queue):
                if held.hand != hand:
                    continue
                started = self.clock()
                try:
                    held.read()  # (``vet`` read it, unless it was not given the time)
                except CheatDetected:
                    self._drop(seat, held)
                    raise
                try:
                    apply(transcript, seat, (held.kind, held.fields))
                except CheatDetected as error:
                    if error.fault.kind is Cheat.OUT_OF_TURN:
                        continue  # it came before its turn over the mesh: it waits
                    raise
                if held.kind == "fair_play":
                    self.checks.append(held.read_ms + (self.clock() - started) * 1000)
                if held.kind in PROVED:
                    self._proven.discard(id(held.fields))
                    if self._proving is not None and self._proving[0] == id(held.fields):
                        self._proving = None
                del queue[i]
                return True
        return False

    def _drop(self, seat: int, held: Held) -> None:
        """Forget ``held``, from ``seat``: one of its numbers was not a number."""
        self.pending[seat].remove(held)
        if (seat, held) in self._unread:
            self._unread.remove((seat, held))
