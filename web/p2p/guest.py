"""A seat's picture of a private table, built from the host's messages (guests and host alike).

``SeatState.receive`` takes one message text from the host; anything malformed is ignored,
so a broken or hostile message can't crash the page. ``describe`` turns the public events
into sentences for the page's live region. No browser imports: pytest runs it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hearts import SEAT_NAMES, Card, PlayerView
from web.p2p.protocol import VERSION, ProtocolError, view_from_dict

__all__ = ["SeatState", "TableState", "describe", "seat_label"]


@dataclass(frozen=True)
class TableState:
    """One ``state`` message: this seat's view and what everyone can see."""

    stage: str
    view: PlayerView
    kinds: tuple[str, ...]
    waiting: tuple[int, ...]
    ready: bool
    last_hand: dict[str, Any] | None


def seat_label(seat: int, me: int, kinds: tuple[str, ...] = ()) -> str:
    """How this seat's page names ``seat``: "You", or "North (computer)" and so on."""
    if seat == me:
        return "You"
    kind = kinds[seat] if seat < len(kinds) else ""
    extra = {"host": " (host)", "computer": " (computer)", "away": " (reconnecting)",
             "open": " (empty seat)"}.get(kind, "")
    return SEAT_NAMES[seat] + extra


def _card_name(text: object) -> str:
    return Card.parse(str(text)).name


def describe(event: dict[str, Any], me: int) -> str:
    """A sentence for a public event from seat ``me``'s side ("" for events not told)."""
    name = "You" if event.get("seat") == me else SEAT_NAMES[int(event.get("seat", 0)) % 4]
    kind = event.get("e")
    if kind == "played":
        return f"{name} played the {_card_name(event['card'])}."
    if kind == "trick":
        points = int(event["points"])
        took = "take" if name == "You" else "takes"
        return f"{name} {took} the trick" + (f" ({points} points)." if points else ".")
    if kind == "broken":
        return "Hearts are broken."
    if kind == "exchanged":
        return "Everyone has passed: the cards have changed hands."
    if kind == "moon":
        return f"{name} shot the moon!"
    if kind == "scored":
        return f"Hand {int(event['hand'])} is over."
    if kind == "over":
        winner = int(event["winner"])
        return "You win the game!" if winner == me else f"{SEAT_NAMES[winner]} wins the game."
    return ""


@dataclass
class SeatState:
    """Everything the page shows about a private table, for one seat."""

    state: TableState | None = None
    closed: str | None = None
    """Why the table closed (None while it is open)."""
    refusal: str | None = None
    """The host's last "no" to this seat's request, in words."""
    reactions: list[tuple[int, str]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    """The last 30 sentences about the table's events."""
    told: int = 0
    """How many sentences there have been in all (``log`` keeps only the last ones)."""

    def receive(self, text: object) -> str | None:
        """Take one message from the host; returns its type, or None if it was ignored."""
        try:
            data = json.loads(str(text))
            if not isinstance(data, dict) or data.get("v") != VERSION:
                return None
            kind = str(data.get("t"))
            if kind == "state":
                self._state(data)
            elif kind == "refused":
                self.refusal = str(data["reason"])[:300]
            elif kind == "reaction":
                self.reactions = [*self.reactions[-4:], (int(data["seat"]) % 4,
                                                         str(data["text"])[:60])]
            elif kind == "closed":
                self.closed = str(data["reason"])[:300]
            else:
                return None
        except (ValueError, KeyError, TypeError, IndexError, ProtocolError, RecursionError):
            return None
        return kind

    def _state(self, data: dict[str, Any]) -> None:
        view = view_from_dict(data["view"])
        kinds = tuple(str(k) for k in data["kinds"])[:4]
        state = TableState(str(data["stage"]), view, kinds,
                           tuple(int(s) % 4 for s in data["waiting"]), bool(data["ready"]),
                           data.get("last_hand") if isinstance(data.get("last_hand"), dict)
                           else None)
        said = [describe(e, view.seat) for e in data.get("events", []) if isinstance(e, dict)]
        self.state = state
        self.refusal = None
        lines = [s for s in said if s]
        self.told += len(lines)
        self.log = [*self.log, *lines][-30:]
