"""The relay lobby's events: their shape, their checks, and the shards they are filed under.

Play online meets on the relays' own publish/subscribe (NIP-01): a page looking for players
files one small signed event under the lobby's tags and reads the events filed under its
shard's tag. This module is what every page agrees on about those events: the kinds, the
tags, the sizes, the event id (NIP-01's SHA-256 of the serialized event), which shard a key
is in at which level, and whether an event that came in has the shape of one. Signatures
and encryption are the caller's (injected: the page signs with secp256k1 Schnorr keys,
tests with a stand-in). No I/O, no clock: pytest runs it (``tests/test_lobby_relay.py``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from web.friends.versioned import versioned_json

__all__ = ["DOOR", "KINDS", "LEVELS", "LOOK", "NOTE", "Event", "event_id", "make_event",
           "read_event", "shard", "shard_tag", "shard_tags"]

VERSION = 4
"""The lobby protocol's version: in every tag and content, so versions never meet."""
LOOK = 30440
"""A page looking for players (addressable: one per key, replaced when it is seated)."""
DOOR = 30441
"""A table under way offering its open seats (addressable: one per table, replaced when
taken or closed)."""
NOTE = 20440
"""An invitation, an answer, a knock: ephemeral, addressed to one key (``p`` tag),
encrypted to it."""
KINDS = (LOOK, DOOR, NOTE)
LEVELS = 13
"""Shard levels 0..12: at level L the lobby is split into 2**L shards by a key's hash."""
MAX_CONTENT = 600
"""The longest content of a lobby event (an encrypted note of ~150 characters fits)."""
MAX_TAGS = LEVELS + 4
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
HEX128 = re.compile(r"[0-9a-f]{128}\Z")
TABLE = re.compile(r"[A-Za-z0-9_-]{4,40}\Z")
"""A table's name (the page's table code)."""


@dataclass(frozen=True)
class Event:
    """A NIP-01 event, as the relays carry it."""

    id: str
    pubkey: str
    created_at: int
    kind: int
    tags: tuple[tuple[str, ...], ...]
    content: str
    sig: str

    def tag(self, name: str) -> str | None:
        """The value of the first tag called ``name``, if any."""
        return next((tag[1] for tag in self.tags if tag[0] == name), None)

    def tag_values(self, name: str) -> list[str]:
        return [tag[1] for tag in self.tags if tag[0] == name]

    def wire(self) -> dict[str, Any]:
        """The event as the relay's JSON."""
        return {"id": self.id, "pubkey": self.pubkey, "created_at": self.created_at,
                "kind": self.kind, "tags": [list(tag) for tag in self.tags],
                "content": self.content, "sig": self.sig}


def event_id(pubkey: str, created_at: int, kind: int, tags: tuple[tuple[str, ...], ...],
             content: str) -> str:
    """NIP-01's id: the SHA-256 of ``[0, pubkey, created_at, kind, tags, content]`` as
    compact UTF-8 JSON."""
    text = json.dumps([0, pubkey, created_at, kind, [list(tag) for tag in tags], content],
                      separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def make_event(pubkey: str, created_at: int, kind: int, tags: tuple[tuple[str, ...], ...],
               content: str, sign: Any) -> Event:
    """An event with its id, signed by ``sign(id) -> sig`` (128 hex characters)."""
    ident = event_id(pubkey, created_at, kind, tags, content)
    return Event(ident, pubkey, created_at, kind, tags, content, sign(ident))


def read_event(data: object, kinds: tuple[int, ...] = KINDS) -> Event | None:
    """The event if ``data`` (a relay's JSON) has the shape of a lobby event (of one of
    ``kinds``) and its id is its content's hash; else None. The signature is checked by
    the caller."""
    if not isinstance(data, dict) or set(data) != {"id", "pubkey", "created_at", "kind",
                                                   "tags", "content", "sig"}:
        return None
    ident, pubkey, sig, content = data["id"], data["pubkey"], data["sig"], data["content"]
    created, kind, tags = data["created_at"], data["kind"], data["tags"]
    if not (isinstance(ident, str) and HEX64.match(ident) and isinstance(pubkey, str)
            and HEX64.match(pubkey) and isinstance(sig, str) and HEX128.match(sig)):
        return None
    if type(created) is not int or type(kind) is not int or kind not in kinds:
        return None
    if not isinstance(content, str) or len(content) > MAX_CONTENT:
        return None
    if not isinstance(tags, list) or len(tags) > MAX_TAGS or not all(
            isinstance(tag, list) and 2 <= len(tag) <= 3
            and all(isinstance(part, str) and len(part) <= 80 for part in tag) for tag in tags):
        return None
    shaped = tuple(tuple(tag) for tag in tags)
    if event_id(pubkey, created, kind, shaped, content) != ident:
        return None
    return Event(ident, pubkey, created, kind, shaped, content, sig)


def shard(pubkey: str, level: int) -> int:
    """The shard of ``pubkey`` at ``level``: the first ``level`` bits of its SHA-256 (a hash,
    so a page can't pick its shard by picking its key's first digits cheaply)."""
    return 0 if level == 0 else _digest(pubkey) >> (32 - level)


@functools.lru_cache(maxsize=4096)
def _digest(pubkey: str) -> int:
    return int.from_bytes(hashlib.sha256(bytes.fromhex(pubkey)).digest()[:4], "big")


def shard_tag(level: int, number: int) -> str:
    """The ``t`` tag of a shard: what a page subscribes to."""
    return f"hearts-v{VERSION}-{level}-{number}"


def shard_tags(pubkey: str) -> tuple[tuple[str, ...], ...]:
    """The ``t`` tags an event of ``pubkey`` is filed under: its shard at every level (one
    event, seen by whoever reads any level)."""
    return tuple(("t", shard_tag(level, shard(pubkey, level))) for level in range(LEVELS))


def content_of(text: str, limit: int = MAX_CONTENT) -> dict[str, Any] | None:
    """A lobby content's fields (a JSON object of this version), else None."""
    return versioned_json(text, limit, VERSION)
