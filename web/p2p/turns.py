"""The turn timer of a table of strangers: whoever the table waits for has ``limit`` seconds.

The host's table tells the timer what it waits for (the stage, the seats, how far the game
is) on every tick; the clock starts again whenever that changes. Once the time is up the
host plays for the seats that stalled (``web.p2p.flow``). No clock of its own: pytest runs it.
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["STEP_SECONDS", "TURN_SECONDS", "TurnTimer"]

TURN_SECONDS = 30.0
STEP_SECONDS = 5
"""The pages are told the time left in steps of this many seconds (a message each step)."""


class TurnTimer:
    def __init__(self, limit: float = TURN_SECONDS) -> None:
        self.limit = limit
        self.waiting_for: Hashable = None
        self.since = 0.0

    def observe(self, waiting_for: Hashable, now: float) -> bool:
        """What the table waits for now; True if that changed (the clock starts again)."""
        if waiting_for == self.waiting_for:
            return False
        self.waiting_for, self.since = waiting_for, now
        return True

    def left(self, now: float) -> float:
        return max(0.0, self.since + self.limit - now)

    def shown(self, now: float) -> int:
        """The seconds left as the pages show them: rounded up to a step."""
        left = self.left(now)
        return int(-(-left // STEP_SECONDS) * STEP_SECONDS)
