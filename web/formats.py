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

from hearts import Game, LoadError, Phase, Rules
from hearts.game import json_too_deep
from hearts.rules import possible_hand_scores
from hearts.seathand import SeatHand
from hearts.serialize import rules_from_dict, rules_to_dict
from web import words
from web.daily import daily_seed, parse_day

__all__ = [
    "DECKS",
    "END_SCORES",
    "KEY_COACH",
    "KEY_CRASH",
    "KEY_SAVE",
    "KEY_SETTINGS",
    "KEY_STATS",
    "LEVELS",
    "SCHEMA",
    "SPEEDS",
    "Crash",
    "Saved",
    "Settings",
    "Stats",
    "Summary",
    "UndoStep",
    "dump_crash",
    "dump_last_hand",
    "dump_save",
    "dump_settings",
    "dump_stats",
    "load_crash",
    "load_last_hand",
    "load_save",
    "load_settings",
    "load_stats",
    "parse_stored",
]

SCHEMA: Final = 1
KEY_SAVE: Final = "hearts.save"
KEY_STATS: Final = "hearts.stats"
KEY_SETTINGS: Final = "hearts.settings"
KEY_CRASH: Final = "hearts.crash"
KEY_COACH: Final = "hearts.last-hand"
SPEEDS: Final = ("slow", "normal", "fast")
LEVELS: Final = ("easy", "normal", "hard")
DECKS: Final = ("two", "four")
END_SCORES: Final = (50, 100, 150)
"""The game lengths the Settings offer (the engine takes any from 1 to 10,000)."""
_MAX_TEXT: Final = 50_000
_MAX_DEPTH: Final = 32
_MAX_MS: Final = 10 * 365 * 24 * 3600 * 1000  # ten years of play


@dataclass
class Settings:
    """The player's choices: computer speed, computer level and the card colours."""

    speed: str = "normal"
    level: str = "normal"
    deck: str = "two"
    """"two" (♠♣ black, ♥♦ red) or "four" (♠ black, ♥ red, ♦ blue, ♣ green)."""
    sound: bool = True
    """Short sounds for cards, tricks, hearts broken, the Queen of spades and the moon."""
    coach: bool = True
    """Review each hand when it ends (the review is there on demand either way)."""
    play_out: bool = False
    """Play the rest of a hand out by itself once it can't change anyone's points."""
    rules: Rules = field(default_factory=Rules)
    """The house rules for the next new game (a game keeps the rules it started with)."""


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


@dataclass(frozen=True)
class UndoStep:
    """What Undo takes back: the person's last card, the card at ``plays`` (0: the first)
    of hand ``hand``, and every card after it (``Game.pop`` takes them back one by one)."""

    hand: int
    plays: int

    @property
    def last_trick(self) -> int:
        """Undo is offered until this many tricks of the hand are complete: the person's
        card's trick and the one after it."""
        return self.plays // 4 + 1


@dataclass
class Saved:
    """The game in progress and the page's own small state around it."""

    game: Game
    clock_ms: int = 0
    selected: list[str] = field(default_factory=list)
    summary: Summary | None = None
    undo: UndoStep | None = None
    """The person's last play, to take back (None: nothing to undo)."""
    counted: bool = False
    """Whether this finished game is already in the stats."""
    daily: str | None = None
    """The day (``"2026-12-01"``) whose daily deal this game is; None for other games."""
    helps: tuple[int, int] = (0, 0)
    """How many times the person took a card back (Undo) and asked for a hint this game:
    a daily's result says so."""
    from_code: bool = False
    """The game was started from a friend's game code (its badge on the felt says so)."""
    tally: tuple[int, int, int] = (0, 0, 0)
    """The finished hands' moons shot, moons stopped and Q♠ taken by the person
    (``web.record.history.Tally``), kept here because a reload replays only this hand."""


def _parse(text: str | None, limit: int = _MAX_TEXT) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object stored under a key; (None, None) if nothing, (None, why) if bad."""
    if text is None:
        return None, None
    if not isinstance(text, str) or len(text) > limit:
        return None, "far too large"
    if _too_deep(text):
        return None, "unreadable"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, "unreadable"
    if not isinstance(data, dict):
        return None, "in the wrong shape"
    schema = data.get("schema")
    if schema != SCHEMA:
        if isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA:
            return None, "from a newer version of this page"
        return None, "from an unknown version"
    return data, None


def parse_stored(text: str | None, limit: int) -> tuple[dict[str, Any] | None, str | None]:
    """``_parse`` for the page's other stored formats (``web.record``): a versioned JSON
    object of at most ``limit`` characters, or None and why not in words."""
    return _parse(text, limit)


def _too_deep(text: str, limit: int = _MAX_DEPTH) -> bool:
    """Whether stored JSON nests deeper than our data ever does (see ``json_too_deep``)."""
    return json_too_deep(text, limit)


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
        return Settings(), None if why is None else words.settings_reset(why)
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
    if data.get("deck") in DECKS:
        settings.deck = data["deck"]
    elif "deck" in data:  # saved before the deck option existed: the default, silently
        bad = True
    if isinstance(data.get("sound"), bool):
        settings.sound = data["sound"]
    elif "sound" in data:  # (saved before sounds existed: the default, silently)
        bad = True
    if isinstance(data.get("coach"), bool):
        settings.coach = data["coach"]
    elif "coach" in data:  # (saved before the coach existed: the default, silently)
        bad = True
    if isinstance(data.get("play_out"), bool):
        settings.play_out = data["play_out"]
    elif "play_out" in data:  # (saved before it existed: the default, silently)
        bad = True
    if "rules" in data:  # (saved before house rules existed: the defaults, silently)
        rules = _house_rules(data["rules"])
        if rules is None:
            return settings, words.HOUSE_RULES_RESET
        settings.rules = rules
    return settings, words.SETTINGS_RESET if bad else None


def _house_rules(data: object) -> Rules | None:
    """House rules as the Settings keep them; None unless they are valid and on offer.

    A rule missing from the stored object keeps its default (a rule added later); an
    unknown one, a bad value or a game length the Settings don't offer makes it None.
    """
    try:
        rules = rules_from_dict(data, all_fields=False)
    except LoadError:
        return None
    return rules if rules.end_score in END_SCORES else None


def dump_settings(settings: Settings) -> str:
    """Settings as stored JSON."""
    return json.dumps({"schema": SCHEMA, "speed": settings.speed, "level": settings.level,
                       "deck": settings.deck, "sound": settings.sound,
                       "coach": settings.coach, "play_out": settings.play_out,
                       "rules": rules_to_dict(settings.rules)})


# --- stats ------------------------------------------------------------------------------

def load_stats(text: str | None) -> tuple[Stats, str | None]:
    """Stats from storage, keeping every part that can be trusted.

    Games played and won are kept together or not at all (won can't exceed played); a
    damaged best score or total time is reset on its own, and the notice says which.
    """
    data, why = _parse(text)
    if data is None:
        return Stats(), None if why is None else words.stats_reset(why)
    played = _int(data.get("played"), 0, 10**9)
    won = _int(data.get("won"), 0, 10**9)
    if played is None or won is None or won > played:
        return Stats(), words.STATS_RESET
    stats = Stats(played, won)
    lost = []
    best_raw = data.get("best", "missing")
    best = _int(best_raw, -10**6, 10**6)  # house rules: a final total may be below 0
    if best is not None and played > 0:
        stats.best = best
    elif best_raw is not None:
        lost.append("best score")
    total = _int(data.get("total_ms"), 0, _MAX_MS)
    if total is not None:
        stats.total_ms = total
    else:
        lost.append("total time")
    if lost:
        return stats, words.stats_part_reset(lost)
    return stats, None


def dump_stats(stats: Stats) -> str:
    """Stats as stored JSON."""
    return json.dumps({"schema": SCHEMA, "played": stats.played, "won": stats.won,
                       "best": stats.best, "total_ms": stats.total_ms})


# --- the game in progress ---------------------------------------------------------------

def load_save(text: str | None) -> tuple[Saved | None, str | None]:
    """The saved game; None (and a notice) if the game itself can't be restored exactly.

    The page's own state around the game (the cards picked to pass, the end-of-hand
    summary, the Undo step, the clock) is checked against the game: a part that doesn't
    fit is dropped on its own and the notice names it, the game goes on.
    """
    data, why = _parse(text)
    if data is None:
        if why is None:
            return None, None
        return None, words.save_reset(why)
    game_text = data.get("game")
    if not isinstance(game_text, str):
        return None, words.SAVE_DAMAGED
    try:
        game = Game.from_json(game_text)
    except LoadError:
        return None, words.SAVE_DAMAGED
    except Exception:  # a loader bug must not stop the page: same outcome, same words
        return None, words.SAVE_DAMAGED
    saved = Saved(game)
    lost: list[str] = []
    clock = _int(data.get("clock_ms"), 0, _MAX_MS)
    if clock is not None:
        saved.clock_ms = clock
    else:
        lost.append("the clock")
    selected = _selection(game, data.get("selected"))
    if selected is not None:
        saved.selected = selected
    elif data.get("selected") is not None:
        lost.append("the cards you had picked to pass")
    summary = _summary(game, data.get("summary"))
    if summary is not None:
        saved.summary = summary
    elif data.get("summary") is not None:
        lost.append("the end-of-hand summary")
    undo = data.get("undo")
    if undo is not None:
        step = _undo_step(game, undo, data.get("undo_hand"), data.get("undo_trick"))
        if step is None:
            lost.append("the Undo step")
        else:
            saved.undo = step
    saved.counted = data.get("counted") is True
    saved.from_code = data.get("from_code") is True
    daily = data.get("daily")
    if daily is not None:
        if _daily_fits(game, daily):
            saved.daily = str(daily)
        else:
            lost.append("the mark that it is the daily deal")
    helps = data.get("helps")
    if (isinstance(helps, list) and len(helps) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 10_000
                    for n in helps)):
        saved.helps = (helps[0], helps[1])
    elif helps is not None:
        lost.append("the count of undos and hints")
    tally = data.get("tally")
    if tally is not None:
        counts = _three(tally, len(game.hand_history))
        if counts is None:
            lost.append("the moons and queens counted so far")
        else:
            saved.tally = counts
    if lost:
        return saved, words.save_part_reset(lost)
    return saved, None


def _daily_fits(game: Game, day: object) -> bool:
    """A daily mark names a real day whose seed this game was dealt from."""
    date = parse_day(day)
    return date is not None and daily_seed(date) == game.seed and game.rules == Rules()


def _three(value: object, high: int) -> tuple[int, int, int] | None:
    if not isinstance(value, list) or len(value) != 3:
        return None
    items = [_int(v, 0, high) for v in value]
    if any(v is None for v in items):
        return None
    a, b, c = (int(v) for v in items if v is not None)
    return a, b, c


def _selection(game: Game, value: object) -> list[str] | None:
    """Cards picked to pass: distinct cards of South's hand while South may still pass."""
    if not isinstance(value, list) or len(value) > 3:
        return None
    if not value:
        return []
    if game.phase is not Phase.PASS or game.pass_chosen(0):
        return None
    hand = {card.notation for card in game.hand(0)}
    if not all(isinstance(c, str) and c in hand for c in value) or len(set(value)) != len(value):
        return None
    return list(value)


def _summary(game: Game, data: object) -> Summary | None:
    """The summary of the game's last finished hand, shown before the next hand starts."""
    if not isinstance(data, dict):
        return None
    hand = _int(data.get("hand"), 1, 10**6)
    taken = _four(data.get("taken"), 0, 26)
    scores = _four(data.get("scores"), -36, 26)  # shooter −26 and the J♦: −36
    totals = _four(data.get("totals"), -10**6, 10**6)
    moon = data.get("moon")
    if hand is None or taken is None or scores is None or totals is None:
        return None
    if moon is not None and _int(moon, 0, 3) is None:
        return None
    history = game.hand_history
    if hand != len(history) or tuple(history[-1]) != scores or tuple(game.scores) != totals:
        return None
    rules = game.rules
    if sum(taken) != 26 or not possible_hand_scores(scores, rules):
        return None
    if moon is None:
        if (rules.shoot_the_moon and 26 in taken) or (not rules.jd_bonus and taken != scores):
            return None
    elif not rules.shoot_the_moon or taken[moon] != 26:
        return None
    if game.phase is not Phase.GAME_OVER and not _hand_untouched(game):
        return None
    return Summary(hand, taken, scores, totals, moon)


def _hand_untouched(game: Game) -> bool:
    """True at the very start of a hand: nobody has passed or played yet."""
    if any(game.pass_chosen(seat) for seat in range(4)):
        return False
    return not game.tricks and game.current_trick is None


def _undo_step(game: Game, undo: object, hand: object, trick: object) -> UndoStep | None:
    """South's last play of this hand, as stored (``hand``, ``trick``: only in older saves,
    whose ``undo`` is the whole game just before that play)."""
    if game.phase is not Phase.PLAY:
        return None
    if isinstance(undo, str):
        plays = _undo_before(game, undo, hand, trick)
        return None if plays is None else UndoStep(game.hand_number, plays)
    if not isinstance(undo, dict) or set(undo) != {"hand", "plays"} \
            or _int(undo["hand"], 1, 10_000) != game.hand_number:
        return None
    at = _int(undo["plays"], 0, 51)
    if at is None or at >= len(game.plays) or game.plays[at][0] != 0:
        return None
    return UndoStep(game.hand_number, at)


def _undo_before(game: Game, undo: str, hand: object, trick: object) -> int | None:
    """An older save's Undo step: the game's JSON just before South's last play, checked to
    be this game with fewer plays; the number of plays it had."""
    if len(undo) >= _MAX_TEXT:
        return None
    try:
        before = Game.from_json(undo)
    except Exception:  # LoadError, or a loader bug: either way there is nothing to undo
        return None
    extra = len(game.plays) - len(before.plays)
    if extra <= 0 or before.to_play != 0 or before.phase is not Phase.PLAY:
        return None
    probe = Game.from_json(game.to_json())
    for _ in range(extra):
        probe.pop()
    if probe.to_json() != before.to_json():
        return None
    if hand != game.hand_number or trick != len(before.tricks) + 1:
        return None
    return len(before.plays)


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
        "undo": None if saved.undo is None else {"hand": saved.undo.hand,
                                                 "plays": saved.undo.plays},
        "counted": saved.counted,
        "daily": saved.daily,
        "from_code": saved.from_code,
        "tally": list(saved.tally),
        "helps": list(saved.helps),
    }, separators=(",", ":"))


# --- the last error -----------------------------------------------------------------------

_MAX_DETAILS: Final = 12_000


@dataclass
class Crash:
    """An unexpected error on the table, kept so the next visit can offer a way back."""

    details: str
    """The report for a bug report: the position's text form and the traceback."""
    good: str | None = None
    """The save (``dump_save`` JSON) of the last position known to be fine."""


def load_crash(text: str | None) -> Crash | None:
    """The stored error report, or None if there is none (or it can't be read)."""
    data, _ = _parse(text)
    if data is None:
        return None
    details = data.get("details")
    if not isinstance(details, str) or not details:
        return None
    good = data.get("good")
    saved = load_save(good)[0] if isinstance(good, str) else None
    # stored clean: a snapshot taken mid-action may carry an Undo step that doesn't fit yet
    return Crash(details[:_MAX_DETAILS], None if saved is None else dump_save(saved))


def dump_crash(crash: Crash) -> str:
    """The error report as stored JSON (the details cut to a sensible size)."""
    good = crash.good if crash.good is not None and len(crash.good) < 15_000 else None
    return json.dumps({"schema": SCHEMA, "details": crash.details[:_MAX_DETAILS], "good": good},
                      separators=(",", ":"))


# --- the last finished hand, for the coach ----------------------------------------------------

def load_last_hand(text: str | None, game: Game) -> SeatHand | None:
    """South's record of the game's last finished hand, or None: nothing stored, or what
    is stored is damaged or belongs to another game (the coach then says it has no hand).

    The hand was played by the game's rules; it must be the hand just before the current
    one (the game's history up to it matching), so a stale record is never reviewed.
    """
    data, _ = _parse(text)
    if data is None:
        return None
    try:
        record = SeatHand.from_dict(data.get("hand"), game.rules)
    except Exception:  # ValueError for a damaged record; a replay bug must not stop the page
        return None
    history = [tuple(row) for row in game.hand_history]
    if record.seat != 0 or len(history) != record.hand_number \
            or history[:-1] != list(record.history):
        return None
    return record


def dump_last_hand(record: SeatHand) -> str:
    """The last finished hand as stored JSON."""
    return json.dumps({"schema": SCHEMA, "hand": record.to_dict()}, separators=(",", ":"))
