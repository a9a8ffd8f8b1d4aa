"""What the page keeps in localStorage: settings, stats and the game in progress.

Pure Python (no browser): every loader takes the stored text (or None) and returns a
usable value plus, when something had to be reset, a sentence for the player. Nothing
stored can raise out of here: corrupt, foreign, old or future data is replaced by
defaults, keeping whatever part is still valid.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from hearts import Game, LoadError

__all__ = [
    "KEY_SAVE",
    "KEY_SETTINGS",
    "KEY_STATS",
    "LEVELS",
    "SCHEMA",
    "SPEEDS",
    "Saved",
    "Settings",
    "Stats",
    "Summary",
    "dump_save",
    "dump_settings",
    "dump_stats",
    "load_save",
    "load_settings",
    "load_stats",
]

SCHEMA: Final = 1
KEY_SAVE: Final = "hearts.save"
KEY_STATS: Final = "hearts.stats"
KEY_SETTINGS: Final = "hearts.settings"
SPEEDS: Final = ("slow", "normal", "fast")
LEVELS: Final = ("easy", "normal", "hard")
_MAX_TEXT: Final = 50_000
_MAX_MS: Final = 10 * 365 * 24 * 3600 * 1000  # ten years of play


@dataclass
class Settings:
    """The player's choices: computer speed and computer level."""

    speed: str = "normal"
    level: str = "normal"


@dataclass
class Stats:
    """Finished games: how many, how many won, the lowest final total, time spent."""

    played: int = 0
    won: int = 0
    best: int | None = None
    total_ms: int = 0


@dataclass
class Summary:
    """The end-of-hand summary on screen (from the engine's HandScored event)."""

    hand: int
    taken: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    moon: int | None


@dataclass
class Saved:
    """The game in progress and the page's own small state around it."""

    game: Game
    clock_ms: int = 0
    selected: list[str] = field(default_factory=list)
    summary: Summary | None = None
    undo: str | None = None
    """The game's JSON just before the person's last play (None: nothing to undo)."""
    undo_hand: int = 0
    undo_trick: int = 0
    counted: bool = False
    """Whether this finished game is already in the stats."""


def _parse(text: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object stored under a key; (None, None) if nothing, (None, why) if bad."""
    if text is None:
        return None, None
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        return None, "far too large"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, "unreadable"
    if not isinstance(data, dict):
        return None, "in the wrong shape"
    schema = data.get("schema")
    if schema != SCHEMA:
        if _is_int(schema) and schema > SCHEMA:
            return None, "from a newer version of this page"
        return None, "from an unknown version"
    return data, None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: object, low: int, high: int) -> int | None:
    if _is_int(value) and low <= value <= high:  # type: ignore[operator]
        return value  # type: ignore[return-value]
    return None


def _four(value: object, low: int, high: int) -> tuple[int, int, int, int] | None:
    if not isinstance(value, list) or len(value) != 4:
        return None
    items = [_int(v, low, high) for v in value]
    if any(v is None for v in items):
        return None
    a, b, c, d = (int(v) for v in items if v is not None)
    return a, b, c, d


# --- settings ---------------------------------------------------------------------------

def load_settings(text: str | None) -> tuple[Settings, str | None]:
    """Settings from storage; defaults (and a notice) for anything unreadable."""
    data, why = _parse(text)
    if data is None:
        return Settings(), None if why is None else f"Your settings were {why}, so they were reset."
    settings = Settings()
    bad = False
    if data.get("speed") in SPEEDS:
        settings.speed = data["speed"]
    else:
        bad = True
    if data.get("level") in LEVELS:
        settings.level = data["level"]
    else:
        bad = True
    return settings, "Some settings were unreadable and were reset." if bad else None


def dump_settings(settings: Settings) -> str:
    """Settings as stored JSON."""
    return json.dumps({"schema": SCHEMA, "speed": settings.speed, "level": settings.level})


# --- stats ------------------------------------------------------------------------------

def load_stats(text: str | None) -> tuple[Stats, str | None]:
    """Stats from storage; zeros (and a notice) when they can't be trusted."""
    data, why = _parse(text)
    if data is None:
        return Stats(), None if why is None else f"Your stats were {why}, so they start again."
    played = _int(data.get("played"), 0, 10**9)
    won = _int(data.get("won"), 0, 10**9)
    total = _int(data.get("total_ms"), 0, _MAX_MS)
    best_raw = data.get("best")
    best = None if best_raw is None else _int(best_raw, 0, 10**6)
    if played is None or won is None or won > played or (best_raw is not None and best is None):
        return Stats(), "Your stats were damaged, so they start again."
    if played == 0 and best is not None:
        return Stats(), "Your stats were damaged, so they start again."
    return Stats(played, won, best, total or 0), None


def dump_stats(stats: Stats) -> str:
    """Stats as stored JSON."""
    return json.dumps({"schema": SCHEMA, "played": stats.played, "won": stats.won,
                       "best": stats.best, "total_ms": stats.total_ms})


# --- the game in progress ---------------------------------------------------------------

def load_save(text: str | None) -> tuple[Saved | None, str | None]:
    """The saved game; None (and a notice) if it can't be restored exactly."""
    data, why = _parse(text)
    if data is None:
        if why is None:
            return None, None
        return None, f"The saved game was {why}, so a new game was started."
    game_text = data.get("game")
    if not isinstance(game_text, str):
        return None, "The saved game was damaged, so a new game was started."
    try:
        game = Game.from_json(game_text)
    except LoadError:
        return None, "The saved game was damaged, so a new game was started."
    saved = Saved(game)
    saved.clock_ms = _int(data.get("clock_ms"), 0, _MAX_MS) or 0
    selected = data.get("selected")
    if isinstance(selected, list) and len(selected) <= 3 and all(
            isinstance(c, str) and len(c) == 2 for c in selected):
        saved.selected = list(selected)
    saved.summary = _summary(data.get("summary"))
    undo = data.get("undo")
    if isinstance(undo, str) and len(undo) < _MAX_TEXT:
        saved.undo = undo
        saved.undo_hand = _int(data.get("undo_hand"), 0, 10**6) or 0
        saved.undo_trick = _int(data.get("undo_trick"), 0, 13) or 0
    saved.counted = data.get("counted") is True
    return saved, None


def _summary(data: object) -> Summary | None:
    if not isinstance(data, dict):
        return None
    hand = _int(data.get("hand"), 1, 10**6)
    taken = _four(data.get("taken"), 0, 26)
    scores = _four(data.get("scores"), 0, 26)
    totals = _four(data.get("totals"), 0, 10**6)
    moon = data.get("moon")
    if hand is None or taken is None or scores is None or totals is None:
        return None
    if moon is not None and _int(moon, 0, 3) is None:
        return None
    return Summary(hand, taken, scores, totals, moon)


def dump_save(saved: Saved) -> str:
    """The game in progress as stored JSON."""
    summary = saved.summary
    return json.dumps({
        "schema": SCHEMA,
        "game": saved.game.to_json(),
        "clock_ms": int(saved.clock_ms),
        "selected": list(saved.selected),
        "summary": None if summary is None else {
            "hand": summary.hand, "taken": list(summary.taken),
            "scores": list(summary.scores), "totals": list(summary.totals),
            "moon": summary.moon},
        "undo": saved.undo,
        "undo_hand": saved.undo_hand,
        "undo_trick": saved.undo_trick,
        "counted": saved.counted,
    }, separators=(",", ":"))
