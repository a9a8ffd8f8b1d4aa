"""What the page's address asks for: ``?speed=instant``, ``?seed=N``, ``?grace=S``,
``?turn=S``, ``?wait=S``, ``?relay=…``, ``?daily=2026-12-01``.

Used by tests and for sharing a deal; anything unreadable is ignored (but a daily link's
day, which the page reads and answers: ``web.daily.link_day``). Pure: pytest runs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs

__all__ = ["Options", "parse"]


CHEATS = ("revoke", "short", "stacked", "falsepass", "undealt", "marked", "framing",
          "falseecho", "readcards", "seat0", "steer", "keepkeys", "framethird",
          "rekey", "otherhand")
"""A fair table's modified pages, by name: a revoke, a step of the deal cheated at, or the
draw for the seats."""


@dataclass(frozen=True)
class Options:
    instant: bool = False
    """No pauses and no animation (tests)."""
    seed: int | None = None
    """The deal of a new game when nothing is saved."""
    grace: float = 20.0
    """Seconds a private table keeps a dropped friend's seat before the computer takes it."""
    turn: float = 30.0
    """Seconds a person at an online table has to move before the computer moves for them."""
    wait: float = 2.0
    """Seconds the first of a table in Play online's lobby waits for three others before it
    deals to whoever it has (``web.friends.looking.GATHER``; alone, it then plays with
    computers, its door open)."""
    cheat: str = ""
    """``?cheat=NAME`` (one of ``CHEATS``) with a local relay (``?relay=ws://…``, never a
    public one): this page cheats at fair tables in that way (``web.p2p.fair.cheats``), for
    the tests that the others name it. It can't help a cheat anywhere else: the three
    others' checks and audit name the page that uses it."""
    relays: tuple[str, ...] = ()
    """``?relay=wss://…`` (comma-separated): the relays tables meet through, instead of the
    public ones (tests, and people with a relay of their own)."""
    daily: str | None = None
    """``?daily=2026-12-01``: play that day's daily deal (the link a shared result carries),
    as written: the page checks it and says what's wrong with it. None: not asked."""
    slow: float | None = None
    """``?slow=MS``: name on the console each of the page's timed steps that takes at least
    ``MS`` milliseconds (``web.slow_steps``: the measuring tool's). None: not asked."""
    calls: int = 0
    """``?slow=MS&calls=N``: with each slow step, the ``N`` Python functions that took most
    of it (``web.slow_steps``, under CPython's profiler). 0: not asked."""


def parse(search: str) -> Options:
    """The options in a location's query string (``"?speed=instant&seed=3"``)."""
    query = parse_qs(search.lstrip("?"), keep_blank_values=True)

    def first(name: str) -> str:
        return query.get(name, [""])[0]

    seed, grace, turn, wait = first("seed"), first("grace"), first("turn"), first("wait")
    slow, calls = first("slow"), first("calls")
    relays = tuple(url for url in first("relay").split(",") if url.startswith(("ws://", "wss://")))
    local = bool(relays) and all(url.startswith("ws://") for url in relays)
    return Options(instant=first("speed") == "instant",
                   seed=int(seed) if seed.isdigit() else None,
                   grace=min(120.0, max(1.0, float(grace))) if grace.isdigit() else 20.0,
                   turn=min(120.0, max(5.0, float(turn))) if turn.isdigit() else 30.0,
                   wait=min(60.0, max(1.0, float(wait))) if wait.isdigit() else 2.0,
                   cheat=first("cheat") if first("cheat") in CHEATS and local else "",
                   relays=relays, daily=query["daily"][0] if "daily" in query else None,
                   slow=float(slow) if slow.isdigit() else None,
                   calls=min(40, int(calls)) if calls.isdigit() else 0)
