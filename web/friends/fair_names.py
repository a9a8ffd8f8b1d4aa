"""The names people chose, carried at a fair table: signed by the seat that sends them.

Nobody runs a fair table, so no host passes names on: each page sends its person's name to
the others itself, once it has a seat (and again when the person changes it), as
``{"v": 1, "t": "fair_name", "d": <table tag>, "f": seat, "name": ..., "s": [t, z]}``. The
signature is the seat's (``signing.sign``) over the table's name, hand 0 (no hand of cards
is numbered 0, so a name's signature can never pass for a message of the deal) and the
hash of ``"name:" + name``: a page can't put a name on a seat it doesn't hold. The name
itself is checked by the one rule every table uses (``web.p2p.names.clean_name``): one that
fails it is not shown, and the seat keeps its place's name. No I/O.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence

from web.p2p.fair.group import Group, KeySource
from web.p2p.fair.signing import Signed, sign, text_hash, verify
from web.p2p.fair.wire import tag
from web.p2p.names import MAX_NAME, clean_name

__all__ = ["is_name", "name_text", "read_name"]

_HAND = 0
"""The hand a name is signed under: none of the deal's."""
_PREFIX = '{"v":1,"t":"fair_name"'


def _digest(name: str) -> str:
    return text_hash("name:" + name)


def name_text(group: Group, key: int, table: str, seat: int, name: str,
              source: KeySource | None = None) -> str:
    """The message that tells the other pages ``seat``'s person is called ``name``
    (signed with that seat's ``key`` for the table ``table``)."""
    t, z = sign(group, key, table, _HAND, seat, 0, _digest(name),
                source if source is not None else secrets.SystemRandom())
    return json.dumps({"v": 1, "t": "fair_name", "d": tag(table), "f": seat, "name": name,
                       "s": [f"{t:x}", f"{z:x}"]}, separators=(",", ":"))


def is_name(text: str) -> bool:
    """Whether ``text`` is meant as a name (it may still be a bad one)."""
    return text.startswith(_PREFIX)


def read_name(group: Group, keys: Sequence[int], table: str, text: str
              ) -> tuple[int, str] | None:
    """The seat and the name in ``text``, if it is of this table, signed by that seat's
    key, and a name by ``clean_name``'s rule; else None."""
    if len(text) > 4 * MAX_NAME + 3000:
        return None
    try:
        data = json.loads(text)
        seat, name, sig, d = data["f"], data["name"], data["s"], data["d"]
        t, z = int(sig[0], 16), int(sig[1], 16)
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(keys) \
            or d != tag(table) or not isinstance(name, str) or clean_name(name) != name:
        return None
    if not verify(group, keys[seat], table, Signed(seat, 0, _digest(name), t, z), _HAND):
        return None
    return seat, name
