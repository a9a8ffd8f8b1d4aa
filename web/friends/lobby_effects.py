"""What the relay lobby's rules ask of the page's wire: effects returned as data.

The rules (``web.friends.looking``, ``lobby_reading``, ``lobby_door``) do no I/O: they
return these, and the page (``web.friends.online``), the simulation (``tools/lobby_sim.py``)
or a test carries them out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from web.friends.lobby_events import VERSION

__all__ = ["Close", "Effect", "Publish", "Subscribe", "note"]


@dataclass(frozen=True)
class Publish:
    """Sign and send an event; ``to``: encrypt the content to that key (and tag it)."""

    kind: int
    tags: tuple[tuple[str, ...], ...]
    content: str
    to: str | None = None


@dataclass(frozen=True)
class Subscribe:
    """Open (or replace) the subscription ``name`` with NIP-01 filters; ``once``: close it
    once the relay sent its stored events (EOSE): a one-shot query, whose filters end
    (``until``) before the second it is sent in, so that nothing an honest page files
    comes on it live while the CLOSE is on its way."""

    name: str
    filters: list[dict[str, Any]]
    once: bool = False


@dataclass(frozen=True)
class Close:
    name: str


Effect = Publish | Subscribe | Close


def note(kind: str, **fields: object) -> str:
    """A note's content (before it is encrypted to its one addressee)."""
    return json.dumps({"v": VERSION, "t": kind, **fields}, separators=(",", ":"))
