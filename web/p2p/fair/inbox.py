"""Messages from the other pages of a fair table, held until they fit the record.

Over a mesh, seat 3 may hear seat 2's lock before seat 1's: a message the transcript finds
out of turn (``OUT_OF_TURN``) waits here until it fits, and one of a later hand waits for
that hand. Anything else wrong with a message names its sender (``CheatDetected``). Each
message is read once, as it comes (``wire.parse``): one that waits is not read again.
"""

from __future__ import annotations

from collections.abc import Callable

from hearts.rules import NUM_SEATS
from web.p2p.fair.group import Group
from web.p2p.fair.transcript import Cheat, CheatDetected, Transcript
from web.p2p.fair.wire import Parsed, apply, parse

__all__ = ["MAX_PENDING", "Inbox"]

MAX_PENDING = 64
"""Messages held per page before their turn, at most (more is garbage: the page is named)."""


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
        return parsed[0]

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
                del queue[i]
                return True
        return False
