"""A seat's picture of a private table, built from the host's messages (guests and host alike).

``SeatState.receive`` takes one message text from the host; anything malformed is ignored,
so a broken or hostile message can't crash the page. Its events are read into
``web.told``'s typed form here, where the host's dicts stop. No browser imports: pytest
runs it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hearts import PlayerView
from web.p2p.names import clean_name
from web.p2p.protocol import SECRET, VERSION, ProtocolError, view_from_dict
from web.told import Told, from_wire

__all__ = ["SeatState", "TableState"]

MAX_EVENTS = 80
"""Events read from one state message at most (as many as the host sends)."""


@dataclass(frozen=True)
class TableState:
    """One ``state`` message: this seat's view and what everyone can see."""

    stage: str
    view: PlayerView
    kinds: tuple[str, ...]
    waiting: tuple[int, ...]
    ready: bool
    last_hand: dict[str, Any] | None
    turn_left: int | None = None
    """Seconds the table's timer gives the people it waits for (None: no timer)."""
    names: tuple[str, ...] = ()
    """Per seat, the name its person chose ("": the place's name)."""


@dataclass
class SeatState:
    """Everything the page shows about a private table, for one seat."""

    state: TableState | None = None
    closed: str | None = None
    """Why the table closed (None while it is open)."""
    secret: str | None = None
    """The secret the host gave this seat: presented to take it back after a reload."""
    refusal: str | None = None
    """The host's last "no" to this seat's request, in words."""
    reactions: list[tuple[int, str]] = field(default_factory=list)
    events: list[Told] = field(default_factory=list)
    """The public events of the last state message, read into ``web.told``'s form."""
    notice: str | None = None
    """The host's last notice to the table, in words."""

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
            elif kind == "notice":
                self.notice = str(data["text"])[:300]
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
                           else None,
                           None if data.get("turn_left") is None
                           else max(0, min(600, int(data["turn_left"]))),
                           _names(data.get("names"), kinds))
        # The wire's dicts become typed events here, at the edge; a malformed one refuses
        # the message.
        wire = [e for e in data.get("events", []) if isinstance(e, dict)][:MAX_EVENTS]
        events = [told for told in map(from_wire, wire) if told is not None]
        secret = data.get("secret")
        self.secret = secret if isinstance(secret, str) and SECRET.fullmatch(secret) \
            else None
        self.state = state
        self.refusal = None
        self.events = events


def _names(value: object, kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The seats' names in a state message, each checked again here (a name that breaks the
    rules, or one on a computer's seat, is not shown)."""
    names = value if isinstance(value, list) else []
    return tuple((clean_name(names[seat]) or "") if seat < len(names)
                 and (kinds[seat] if seat < len(kinds) else "") != "computer" else ""
                 for seat in range(4))
