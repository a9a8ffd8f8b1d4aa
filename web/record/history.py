"""The person's record: finished games (capped), the daily results, and what they add up to.

Stored under its own versioned key (``hearts.record``) with the recovery rules of
``web.formats``: text that can't be read gives a fresh record and a notice; a game or a day
that doesn't check out is left out on its own, the notice says how many, the rest is
kept. Pure Python, no browser.

A game keeps its per-hand scores as one short string (``"13.0.3.10 0.26.0.0"``): the
chart of any past game is drawn from it, and its total and place follow from it.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from hearts.events import Event, HandScored, TrickWon
from hearts.rules import POINT_CARDS_MASK, QS_MASK
from web import formats, words
from web.daily import parse_day, place_of
from web.record import gamecode

__all__ = ["KEY_RECORD", "MAX_DAYS", "MAX_GAMES", "FinishedGame", "LevelStats", "Record",
           "Tally", "by_level", "dump_record", "hand_tally", "load_record"]

KEY_RECORD: Final = "hearts.record"
MAX_GAMES: Final = 200
"""The newest games kept: about 50 kB, well inside any browser's storage."""
MAX_DAYS: Final = 400
"""Daily results kept: more than a year, so the longest streaks stay whole."""
_MAX_TEXT: Final = 400_000
_MAX_HANDS: Final = 400
_SCORE: Final = 100  # a hand's score stays within ±100 under any house rule


@dataclass(frozen=True)
class Tally:
    """What the person did in a game's hands, beyond the scores."""

    moons: int = 0
    """Hands in which the person shot the moon."""
    stopped: int = 0
    """Hands in which the person took at least one point card and one other seat took
    all the rest, ten or more of the fourteen: a moon the person stopped."""
    queens: int = 0
    """Hands in which the person took the Q♠."""

    def plus(self, other: Tally) -> Tally:
        return Tally(self.moons + other.moons, self.stopped + other.stopped,
                     self.queens + other.queens)


@dataclass(frozen=True)
class FinishedGame:
    """One game of the history."""

    day: datetime.date
    level: str
    """The computers' level when the game ended."""
    rules: str
    """The house rules in a few words ("" for the default rules)."""
    daily: bool
    code: str
    hands: tuple[tuple[int, int, int, int], ...]
    tally: Tally = Tally()
    end_score: int = 100
    """The score that ended the game (its chart's end line)."""

    @property
    def house_rules(self) -> str:
        """Which house rules, in a few words ("J♦ −10 · to 50"), read from the game's code;
        ``rules`` as stored when the code doesn't carry them; "" for the standard rules."""
        try:
            _, rules = gamecode.decode_game(self.code)
        except gamecode.CodeError:  # (checked on load: not expected)
            return self.rules
        return words.house_rules_short(rules) or self.rules

    @property
    def totals(self) -> tuple[int, int, int, int]:
        a, b, c, d = (sum(row[seat] for row in self.hands) for seat in range(4))
        return a, b, c, d

    @property
    def place(self) -> int:
        return place_of(self.totals)


@dataclass
class Record:
    """The history (oldest first) and the daily results by day: (total, place)."""

    games: list[FinishedGame] = field(default_factory=list)
    days: dict[datetime.date, tuple[int, int]] = field(default_factory=dict)
    helps: dict[datetime.date, tuple[int, int]] = field(default_factory=dict)
    """The undos and hints a counted daily took, by day (none: no entry), for its result
    to share."""

    def add(self, game: FinishedGame, counts: bool = True,
            helps: tuple[int, int] = (0, 0)) -> bool:
        """Add a finished game; a daily counts for its day only if it is the day's first
        (and ``counts``: not played long after its day), with the ``helps`` it took
        (undos, hints). Returns whether it was the day's counted daily."""
        self.games = [*self.games, game][-MAX_GAMES:]
        if not game.daily or not counts or game.day in self.days:
            return False
        self.days[game.day] = (game.totals[0], game.place)
        if any(helps):
            self.helps[game.day] = helps
        self._prune()
        return True

    def _prune(self) -> None:
        for day in sorted(self.days)[:-MAX_DAYS]:
            del self.days[day]
        for day in [day for day in self.helps if day not in self.days]:
            del self.helps[day]


@dataclass(frozen=True)
class LevelStats:
    """The games at one computer level."""

    level: str
    played: int
    won: int
    points: int
    """The person's points over all these games."""
    hands: int

    @property
    def win_rate(self) -> int:
        """Games won, in percent (rounded)."""
        return round(100 * self.won / self.played) if self.played else 0

    @property
    def per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0


def by_level(games: Sequence[FinishedGame]) -> list[LevelStats]:
    """Played, won and points per hand for each level that has games (easy → hard)."""
    out = []
    for level in formats.LEVELS:
        mine = [g for g in games if g.level == level]
        if mine:
            out.append(LevelStats(level, len(mine), sum(1 for g in mine if g.place == 1),
                                  sum(g.totals[0] for g in mine),
                                  sum(len(g.hands) for g in mine)))
    return out


def hand_tally(events: Sequence[Event], scored: HandScored, me: int = 0) -> Tally:
    """The tally of the hand that ``scored`` ends, from its ``TrickWon`` events.

    ``events``: the hand's events (anything else in it is ignored).
    """
    point_cards = [0, 0, 0, 0]
    queen = False
    for event in events:
        if isinstance(event, TrickWon):
            for card in event.cards:
                if card.mask & POINT_CARDS_MASK:
                    point_cards[event.seat] += 1
                if card.mask & QS_MASK and event.seat == me:
                    queen = True
    mine = point_cards[me]
    rest = sum(point_cards) - mine
    stopped = mine > 0 and rest >= 10 and any(
        point_cards[seat] == rest for seat in range(4) if seat != me)
    return Tally(int(scored.moon_shooter == me), int(stopped), int(queen))


# --- storage -------------------------------------------------------------------------------

def _hands_text(hands: Sequence[Sequence[int]]) -> str:
    return " ".join(".".join(str(v) for v in row) for row in hands)


def _hands_from(text: object) -> tuple[tuple[int, int, int, int], ...] | None:
    if not isinstance(text, str) or not text or len(text) > _MAX_HANDS * 20:
        return None
    rows = []
    for part in text.split(" "):
        values = part.split(".")
        if len(values) != 4:
            return None
        try:
            a, b, c, d = (int(v) for v in values)
        except ValueError:
            return None
        if any(abs(v) > _SCORE or str(v) != s for v, s in zip((a, b, c, d), values,
                                                                 strict=True)):
            return None
        rows.append((a, b, c, d))
    return tuple(rows) if len(rows) <= _MAX_HANDS else None


def _count(value: object, high: int) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= high:
        return value
    return None


def _game_from(data: object) -> FinishedGame | None:
    if not isinstance(data, dict):
        return None
    day = parse_day(data.get("date"))
    level, rules, daily, code = (data.get(k) for k in ("level", "rules", "daily", "code"))
    hands = _hands_from(data.get("hands"))
    if day is None or hands is None or level not in formats.LEVELS or not isinstance(daily, bool):
        return None
    if not isinstance(rules, str) or len(rules) > 80 or not isinstance(code, str):
        return None
    try:
        gamecode.decode(code)
    except gamecode.CodeError:
        return None
    counts = [_count(data.get(k), len(hands)) for k in ("moons", "stopped", "queens")]
    if any(c is None for c in counts):
        return None
    moons, stopped, queens = (int(c or 0) for c in counts)
    end = _count(data.get("end", 100), 10_000)
    if not end:
        return None
    return FinishedGame(day, str(level), rules, daily, code, hands,
                        Tally(moons, stopped, queens), end)


def load_record(text: str | None) -> tuple[Record, str | None]:
    """The record from storage; a fresh one (and a notice) if it can't be read."""
    data, why = formats.parse_stored(text, _MAX_TEXT)
    if data is None:
        return Record(), None if why is None else words.record_reset(why)
    games_raw, days_raw = data.get("games"), data.get("days")
    if not isinstance(games_raw, list) or not isinstance(days_raw, dict):
        return Record(), words.RECORD_DAMAGED
    record = Record()
    lost = 0
    for item in games_raw[-MAX_GAMES:]:
        game = _game_from(item)
        if game is None:
            lost += 1
        else:
            record.games.append(game)
    for key, value in days_raw.items():
        day = parse_day(key)
        ok = (day is not None and isinstance(value, list) and len(value) == 2
              and _count(value[0], 10**6) is not None and value[1] in (1, 2, 3, 4)
              and not isinstance(value[1], bool))
        if ok and day is not None:
            record.days[day] = (int(value[0]), int(value[1]))
        else:
            lost += 1
    helps_raw = data.get("helps", {})  # (a record kept before helps were: none)
    for key, value in (helps_raw if isinstance(helps_raw, dict) else {"?": None}).items():
        day = parse_day(key)
        counts = [_count(n, 10**6) for n in value] if isinstance(value, list) else []
        if day is not None and len(counts) == 2 and None not in counts:
            record.helps[day] = (int(counts[0] or 0), int(counts[1] or 0))
        else:
            lost += 1
    record._prune()
    if lost:
        return record, words.record_left_out(lost)
    return record, None


def dump_record(record: Record) -> str:
    """The record as stored JSON."""
    games: list[dict[str, Any]] = [{
        "date": g.day.isoformat(), "level": g.level, "rules": g.rules, "daily": g.daily,
        "code": g.code, "hands": _hands_text(g.hands), "moons": g.tally.moons,
        "stopped": g.tally.stopped, "queens": g.tally.queens, "end": g.end_score}
        for g in record.games]
    days = {day.isoformat(): [total, place] for day, (total, place) in sorted(record.days.items())}
    helps = {day.isoformat(): list(n) for day, n in sorted(record.helps.items())}
    return json.dumps({"schema": formats.SCHEMA, "games": games, "days": days, "helps": helps},
                      separators=(",", ":"))
