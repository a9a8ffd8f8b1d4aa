"""The daily deal: one game a day, the same deals for everyone, with no server.

The day is the person's own calendar date (their midnight starts a new daily, as a
newspaper puzzle does): everyone whose calendar shows 2026-12-01 gets the same deals,
wherever they are. The seed is the first 40 bits of SHA-256 of ``hearts-daily-<date>``:
stable on every machine and Python (unlike ``hash()``), short as a game code.
Everyone plays it with the default rules against the same level of computers
(``DAILY_LEVEL``), so results compare: the level chosen in Settings is for the person's
other games, and Settings says so during a daily; the question before a daily throws a
game away names the daily and its level (``words.daily_ask``).

A day's daily has a link (``daily_link``: the page's address with ``?daily=2026-12-01``)
that the shared result carries: opened, it plays that day's deal (``link_day`` reads it).
"""

from __future__ import annotations

import datetime
import hashlib
import re
from collections.abc import Iterable
from typing import Final

from web import words

__all__ = ["DAILY_LEVEL", "LinkError", "counts_for_day", "daily_link", "daily_seed",
           "link_day", "parse_day", "place_of", "streak"]

DAILY_LEVEL: Final = "hard"
"""The computers of the daily deal: the strongest, the same for everyone."""
_DAY: Final = re.compile(r"\d{4}-\d{2}-\d{2}")


def daily_seed(day: datetime.date) -> int:
    """The seed of ``day``'s daily deal.

    >>> daily_seed(datetime.date(2026, 12, 1)) == daily_seed(datetime.date(2026, 12, 1))
    True
    """
    digest = hashlib.sha256(f"hearts-daily-{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:5], "big")


def parse_day(text: object) -> datetime.date | None:
    """``"2026-12-01"`` as a date; None for anything else (stored data is checked)."""
    if not isinstance(text, str) or not _DAY.fullmatch(text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


class LinkError(ValueError):
    """A daily link's day that can't be played; the message says why, in words."""


def daily_link(address: str, day: datetime.date) -> str:
    """The link that plays ``day``'s daily deal: ``address`` (the page's, without its
    query) with ``?daily=2026-12-01``."""
    return f"{address}?daily={day.isoformat()}"


def link_day(text: str, today: datetime.date) -> datetime.date:
    """The day a link's ``?daily=`` names: any day up to tomorrow (a friend whose
    calendar is a day ahead shares theirs). Raises ``LinkError`` for anything else."""
    day = parse_day(text.strip())
    if day is None:
        raise LinkError(words.daily_link_bad(text))
    if day > today + datetime.timedelta(days=1):
        raise LinkError(words.daily_link_early(day))
    return day


def counts_for_day(day: datetime.date, today: datetime.date) -> bool:
    """Whether a daily of ``day`` finished on ``today`` can count for its day: on the day,
    or a day either side (a game over midnight, a friend a day ahead); one played later
    from a link goes in the history only, so a missed day can't be filled in after."""
    return abs((today - day).days) <= 1


def streak(days: Iterable[datetime.date], today: datetime.date) -> int:
    """Consecutive days with a daily played, ending today — or yesterday, since a streak
    isn't lost until a whole day goes by without the daily."""
    played = set(days)
    day = today if today in played else today - datetime.timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= datetime.timedelta(days=1)
    return count


def place_of(totals: tuple[int, ...] | list[int], seat: int = 0) -> int:
    """1 for the lowest total, 2 for the next…; a shared total shares the better place."""
    return 1 + sum(1 for total in totals if total < totals[seat])
