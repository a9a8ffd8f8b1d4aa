"""The seats of a fair table, drawn by its four pages: commit, then reveal. No I/O.

Seats matter: seat 0 shuffles first and seat 3 last. Sorting the pages' ids would let a
page choose its seat, since a page makes its own id. So each page picks 32 random bytes and
sends their hash, bound to its id (``commit``); once it holds the three others' commits it
sends its bytes (``reveal``); once it holds the three reveals, each the one its commit
promised, the seats are the four ids sorted by SHA-256 of all four pages' bytes and the id
(``order``). Nobody can steer it: every page committed before any page revealed, and one
honest page's bytes make the order uniform. The last page to reveal sees the others'
bytes first, but can only refuse to reveal (the table then never starts), not change its
own: a reveal that isn't the one committed to is refused (``DrawError``). The same hash
names the table (``name``), and goes into every proof's challenge (``Transcript.context``).

Each commit also carries the page's public signing key for the table (``key``, in hex: a
residue, ``signing``), so every page knows every seat's key before anyone has a seat.

Messages: ``{"v": 1, "t": "fair_draw", "commit": <64 hex>, "key": <hex>}``, then
``{"v": 1, "t": "fair_draw", "reveal": <64 hex>}``.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence

from web.p2p.fair.group import GROUP, Group, KeySource

__all__ = ["DRAW", "DrawError", "SeatDraw", "is_draw"]

DRAW = "fair_draw"
_LABEL = b"hearts fair seat draw v1 "


class DrawError(ValueError):
    """A page broke the draw: a second commit, a reveal before its commit or not the one it
    committed to, or a message that isn't the draw's. ``peer``: that page's id."""

    def __init__(self, peer: str, why: str) -> None:
        super().__init__(f"{peer}: {why}")
        self.peer = peer


def _commitment(peer: str, nonce: bytes) -> str:
    return hashlib.sha256(_LABEL + b"commit " + peer.encode() + b" " + nonce).hexdigest()


def is_draw(text: str) -> bool:
    """Whether ``text`` is meant as a message of the draw (it may still be a bad one)."""
    return text.startswith('{"v":1,"t":"fair_draw"')


class SeatDraw:
    """This page's part of the draw among ``me`` and the three ``others`` (page ids)."""

    def __init__(self, me: str, others: Sequence[str], key: int,
                 source: KeySource | None = None, group: Group = GROUP) -> None:
        """``key``: this page's public signing key for the table."""
        if len(set(others) | {me}) != 4:
            raise ValueError("a fair table's draw is among four different pages")
        self.me = me
        self.others = tuple(others)
        rng = source if source is not None else secrets.SystemRandom()
        self.nonce = rng.getrandbits(256).to_bytes(32, "big")
        self.commits: dict[str, str] = {me: _commitment(me, self.nonce)}
        self.reveals: dict[str, bytes] = {me: self.nonce}
        self.group = group
        self.keys: dict[str, int] = {me: key}
        """Page id -> its public signing key for the table."""
        self.early: dict[str, str] = {}
        """Reveals that came before this page had every commit: a page reveals once it has
        all four, and its reveal may overtake another page's commit on the way here."""

    def commit_text(self) -> str:
        """This page's first message: the hash of its bytes."""
        return json.dumps({"v": 1, "t": DRAW, "commit": self.commits[self.me],
                           "key": f"{self.keys[self.me]:x}"}, separators=(",", ":"))

    def reveal_text(self) -> str:
        """This page's second message, once it holds every commit: its bytes."""
        return json.dumps({"v": 1, "t": DRAW, "reveal": self.nonce.hex()},
                          separators=(",", ":"))

    def received(self, peer: str, text: str) -> list[str]:
        """A draw message from ``peer``; what this page sends to the others now (its reveal,
        once the last commit is in). Raises ``DrawError`` naming ``peer``."""
        if peer not in self.others:
            raise DrawError(peer, "not one of this table's pages")
        try:
            body = json.loads(text)
        except ValueError as error:
            raise DrawError(peer, "not JSON") from error
        if not isinstance(body, dict) or len(body) != (4 if "commit" in body else 3) \
                or body.get("v") != 1 or body.get("t") != DRAW:
            raise DrawError(peer, "not a message of the draw")
        value = body.get("commit", body.get("reveal"))
        if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
            raise DrawError(peer, "not 32 bytes in hex")
        if "commit" in body:
            if peer in self.commits:
                raise DrawError(peer, "a second commit")
            key = body.get("key")
            if not isinstance(key, str) or not 0 < len(key) <= 1024 \
                    or key.strip("0123456789abcdef") or not self.group.is_element(int(key, 16)):
                raise DrawError(peer, "not a signing key")
            self.commits[peer] = value
            self.keys[peer] = int(key, 16)
            if len(self.commits) < 4:
                return []
            early, self.early = self.early, {}
            for revealer, nonce in early.items():
                self._reveal(revealer, nonce)
            return [self.reveal_text()]
        if peer not in self.commits or peer in self.reveals or peer in self.early:
            raise DrawError(peer, "a reveal out of turn")
        if len(self.commits) < 4:
            self.early[peer] = value  # read once the last commit is in
            return []
        self._reveal(peer, value)
        return []

    def _reveal(self, peer: str, value: str) -> None:
        nonce = bytes.fromhex(value)
        if _commitment(peer, nonce) != self.commits[peer]:
            raise DrawError(peer, "a reveal that isn't the one it committed to")
        self.reveals[peer] = nonce

    def _seed(self) -> bytes:
        digest = hashlib.sha256(_LABEL + b"seed")
        for peer in sorted(self.reveals):
            digest.update(peer.encode() + b" " + self.reveals[peer])
        return digest.digest()

    def order(self) -> list[str] | None:
        """The four page ids in seat order, once every reveal is in (None before)."""
        if len(self.reveals) < 4:
            return None
        seed = self._seed()
        return sorted(self.reveals, key=lambda peer: hashlib.sha256(seed + peer.encode())
                      .digest())

    def name(self) -> str:
        """What names this table in every proof: the draw's seed, in hex (once drawn)."""
        if len(self.reveals) < 4:
            raise ValueError("the draw isn't over")
        return self._seed().hex()
