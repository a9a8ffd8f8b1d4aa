"""Messages from the other pages of a fair table, held until they fit the record.

Over a mesh, seat 3 may hear seat 2's lock before seat 1's: a message the transcript finds
out of turn (``OUT_OF_TURN``) waits here until it fits, and one of a later hand waits for
that hand. Anything else wrong with a message names its sender (``CheatDetected``). Each
message is read once, as it comes (``wire.parse``): one that waits is not read again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator

from hearts.rules import NUM_SEATS
from web.p2p.fair.group import Group
from web.p2p.fair.transcript import Cheat, CheatDetected, Transcript
from web.p2p.fair.wire import Parsed, apply, parse

__all__ = ["MAX_PENDING", "Inbox"]

MAX_PENDING = 64
"""Messages held per page before their turn, at most (more is garbage: the page is named)."""
VETTED = ("deck", "values")
"""The fields whose numbers the record checks for the group one by one: a deck's 52, an
opening's 13 (``vet``)."""


class Inbox:
    """Each other page's messages, in the order they came, until the record takes them."""

    def __init__(self, clock: Callable[[], float], checks: list[float]) -> None:
        """``checks``: where the milliseconds of each play's check go."""
        self.clock = clock
        self.checks = checks
        self.pending: dict[int, list[tuple[int, Parsed, float]]] = {
            s: [] for s in range(NUM_SEATS)}
        """Seat -> its messages waiting: hand number, the message read, and how long the
        reading took (ms, counted in a play's check)."""
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
        parsed = parse(text, group, seat)
        queue.append((hand, parsed, (self.clock() - started) * 1000))
        self._unvetted += (iter(parsed[1][name]) for name in VETTED
                           if isinstance(parsed[1].get(name), list | tuple))
        return parsed[0]

    def vet(self, group: Group, over: Callable[[], bool],
            transcript: Transcript | None = None, hand: int = 0) -> bool:
        """Check the numbers of the messages held for the group a number at a time, until
        ``over()`` (``Group.is_element`` remembers each answer): taking a deck into the
        record is then no long step (its 52 checks, some 120 ms on a phone). Then the
        proofs of the cards of hand ``hand`` held, against ``transcript``, a power a step
        (``Transcript.play_check_steps``, remembered): taking a card is then no long step
        either. Whether all are checked. What fails is only named when its message is
        taken."""
        while self._unvetted:
            for value in self._unvetted[0]:
                group.is_element(value)
                if over():
                    return False
            self._unvetted.popleft()
        if transcript is None:
            return True
        for seat, queue in self.pending.items():
            for number, (kind, fields), _ in queue:
                if number != hand or kind != "fair_play" or id(fields) in self._proven:
                    continue
                if self._proving is None or self._proving[0] != id(fields):
                    self._proving = id(fields), transcript.play_check_steps(
                        seat, fields.get("slot"), fields.get("card"), fields.get("proof"))
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
            for i, (number, parsed, read_ms) in enumerate(queue):
                if number != hand:
                    continue
                started = self.clock()
                try:
                    apply(transcript, seat, parsed)
                except CheatDetected as error:
                    if error.fault.kind is Cheat.OUT_OF_TURN:
                        continue  # it came before its turn over the mesh: it waits
                    raise
                if parsed[0] == "fair_play":
                    self.checks.append(read_ms + (self.clock() - started) * 1000)
                    self._proven.discard(id(parsed[1]))
                    if self._proving is not None and self._proving[0] == id(parsed[1]):
                        self._proving = None
                del queue[i]
                return True
        return False
