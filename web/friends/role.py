"""Which side of a private table a page is on: the roles of ``web.friends.session``."""

from __future__ import annotations

from enum import Enum

__all__ = ["Role"]


class Role(Enum):
    IDLE = "idle"
    HOSTING = "hosting"
    HOST_CLOSED = "host-closed"
    JOINING = "joining"
    SEATED = "seated"
    GUEST_CLOSED = "guest-closed"
    LOOKING = "looking"
    FAIR = "fair"
