"""A table's seat that waits behind the hand summary the person is reading.

When the felt is to show another table's seat (a newcomer was let in and the seats were
drawn again, or a lone page's game became a fair table) while the person reads the summary
of the hand just over, the summary stays until they move on (Next hand, Escape, Close); the
new seat waits meanwhile. Its turn clock runs already, so the summary's Next hand counts
down, visibly, the seconds until the felt moves on by itself, leaving the person
``MARGIN`` seconds of that turn. No DOM: the controller asks these.
"""

from __future__ import annotations

from web.table.model import PageState, SeatSnapshot

__all__ = ["MARGIN", "left_to_read", "reading"]

MARGIN = 10
"""Seconds of the waiting seat's turn kept for the person once the felt shows it."""


def reading(snap: SeatSnapshot, page: PageState) -> bool:
    """Whether the person is reading a summary (a hand's, or the game's, not closed)."""
    return page.ready and snap.result is not None \
        and not (snap.stage == "over" and page.dismissed)


def left_to_read(waiting: SeatSnapshot) -> int | None:
    """Seconds the summary may stay before the felt shows the ``waiting`` seat (None: no
    clock runs there yet, the summary stays as long as the person reads); 0: now."""
    if waiting.turn_left is None:
        return None
    return max(0, waiting.turn_left - MARGIN)
