"""The daily deal: one game a day, the same deals for everyone, with no server.

The day is the person's own calendar date (their midnight starts a new daily, as a
newspaper puzzle does): everyone whose calendar shows 2026-12-01 gets the same deals,
wherever they are. The seed is the first 40 bits of SHA-256 of ``hearts-daily-<date>``:
stable on every machine and Python (unlike ``hash()``), short as a game code.
Everyone plays it with the default rules against the same level of computers, so
results compare.
"""

from __future__ import annotations

import datetime
import hashlib
import re
from collections.abc import Iterable
from typing import Final

__all__ = ["DAILY_LEVEL", "daily_seed", "parse_day", "place_of", "streak"]

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
