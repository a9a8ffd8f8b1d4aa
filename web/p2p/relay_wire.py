"""The relay lobby's wire as the page's Python sees it: NIP-01 events to and from relays.

``Wire`` is what ``web.friends.online`` needs; ``BrowserWire`` is the page's, over
``web/static/p2p.js`` (``window.heartsP2P.lobby`` and its kin, which drive
``web/static/relays.mjs``). The JavaScript holds the key, signs, seals notes to their one
addressee, and checks every event's id and signature before it calls back; Python reads the
rest (``web.friends.lobby_events.read_event``, the ``Looker`` and ``Door`` rules). Tests give
the session a fake.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["LOBBY_WIRE", "SIGN_WIRE", "BrowserWire", "Wire"]

LOBBY_WIRE = "lobby"
"""The page's wire to the lobby (Play online)."""
SIGN_WIRE = "sign"
"""The page's wire for the sign of a table shared by code (``web.friends.table_sign``)."""


class Wire(Protocol):
    async def open(self, relays: list[str]) -> str | None:
        """A new wire to ``relays`` with a fresh key, in place of any other: the key (hex),
        once a relay's socket is open; None if none opened."""

    async def publish(self, kind: int, tags: tuple[tuple[str, ...], ...], content: str,
                      to: str | None, created_at: int) -> str:
        """Sign and send an event (``to``: sealed to that key and tagged ``p``); its id."""

    def subscribe(self, sub: str, filters: list[dict[str, Any]], once: bool) -> None:
        """Open (or replace) a subscription (``once``: closed as it is sent)."""

    def unsubscribe(self, sub: str) -> None: ...

    def close(self, farewell: list[tuple[int, tuple[tuple[str, ...], ...], str]]
              | None = None) -> None:
        """Off the relays, once the ``farewell`` events (kind, tags, content) are signed
        and sent: nothing more is read."""


class BrowserWire:
    """``Wire`` over ``window.heartsP2P``: its wire called ``name`` (each with a key and
    sockets of its own)."""

    def __init__(self, p2p: Any, warn: Callable[[str], None], name: str = LOBBY_WIRE) -> None:
        self.p2p = p2p
        self.warn = warn
        self.name = name

    async def open(self, relays: list[str]) -> str | None:
        data = json.loads(str(await self.p2p.lobby(json.dumps(relays), self.name)))
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            self.warn(f"Hearts: relays: {data.get('error') if isinstance(data, dict) else data}")
            return None
        return str(data["key"])

    async def publish(self, kind: int, tags: tuple[tuple[str, ...], ...], content: str,
                      to: str | None, created_at: int) -> str:
        return str(await self.p2p.publish(kind, json.dumps([list(tag) for tag in tags]),
                                          content, to or "", created_at, self.name))

    def subscribe(self, sub: str, filters: list[dict[str, Any]], once: bool) -> None:
        self.p2p.subscribe(sub, json.dumps(filters), once, self.name)

    def unsubscribe(self, sub: str) -> None:
        self.p2p.unsubscribe(sub, self.name)

    def close(self, farewell: list[tuple[int, tuple[tuple[str, ...], ...], str]]
              | None = None) -> None:
        self.p2p.unlobby(json.dumps([[kind, [list(tag) for tag in tags], content]
                                     for kind, tags, content in farewell or []]),
                          self.name)
