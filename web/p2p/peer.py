"""WebRTC as private tables use it: one data channel per guest, behind a small interface.

``Peer`` is what the session needs; ``BrowserPeer`` is the page's, over ``web/static/p2p.js``
(``window.heartsP2P``, whose calls answer JSON text: ``{"id", "sdp"}`` or ``{"error"}``).
Tests give the session a fake.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

__all__ = ["BrowserPeer", "Peer", "Reply"]

Reply = dict[str, str]
"""``{"id": connection, "sdp": description}``, ``{}`` or ``{"error": words}``."""


class Peer(Protocol):
    async def offer(self, ice: str, wait_ms: int) -> Reply:
        """A new connection's offer (for an invite), its addresses gathered."""

    async def answer(self, ice: str, sdp: str, wait_ms: int) -> Reply:
        """A new connection answering the host's offer ``sdp`` (a guest's answer code)."""

    async def accept(self, conn: str, sdp: str) -> Reply:
        """The host takes the guest's answer for its connection ``conn``."""

    def send(self, conn: str, text: str) -> None:
        """Send one message (dropped if the channel isn't open)."""

    def close(self, conn: str) -> None:
        """Hang up ``conn``."""

    async def meet(self, config: str) -> Reply:
        """Go into a meeting room through relays (JSON: name, relays, room, password,
        iceServers): every page there becomes a connection ``r:<name>:…`` with the same
        open/message/close. The reply holds ``self``: this page's id in the room."""

    def unmeet(self, name: str) -> None:
        """Leave the meeting room ``name`` and its connections."""


class BrowserPeer:
    """``Peer`` over ``window.heartsP2P``."""

    def __init__(self, p2p: Any) -> None:
        self.p2p = p2p

    @staticmethod
    def _reply(text: object) -> Reply:
        data = json.loads(str(text))
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    async def offer(self, ice: str, wait_ms: int) -> Reply:
        return self._reply(await self.p2p.offer(ice, wait_ms))

    async def answer(self, ice: str, sdp: str, wait_ms: int) -> Reply:
        return self._reply(await self.p2p.answer(ice, sdp, wait_ms))

    async def accept(self, conn: str, sdp: str) -> Reply:
        return self._reply(await self.p2p.accept(conn, sdp))

    def send(self, conn: str, text: str) -> None:
        self.p2p.send(conn, text)

    def close(self, conn: str) -> None:
        self.p2p.close(conn)

    async def meet(self, config: str) -> Reply:
        return self._reply(await self.p2p.meet(config))

    def unmeet(self, name: str) -> None:
        self.p2p.unmeet(name)
