"""Reading a message that came over the network: a JSON object of one protocol version.

Every lobby (the relay lobby's event contents, today's mesh lobby's messages) reads what a
stranger sent the same bounded way: at most ``limit`` characters, JSON, an object, with an
integer ``v`` equal to the version it speaks. One helper, so the bounds can't drift apart.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["versioned_json"]


def versioned_json(text: str, limit: int, version: int) -> dict[str, Any] | None:
    """The fields of ``text`` if it is a JSON object of ``version`` no longer than
    ``limit`` characters; else None (too long, not JSON, not an object, another version)."""
    if len(text) > limit:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python reads
        return None
    if not isinstance(data, dict) or type(data.get("v")) is not int or data["v"] != version:
        return None
    return data
