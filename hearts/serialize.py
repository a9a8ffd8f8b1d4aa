"""The two saved forms of a game: the one-line text form and the versioned JSON save.

Both hold a ``Record``: the seed, the scores of the finished hands and the current
hand's deal, passes and plays. This module only reads and writes records; ``Game``
makes a record of itself and replays a loaded one through its checked moves, so a
tampered save can never produce a broken game.

The JSON save is what players' browsers keep: its bytes and ``SAVE_VERSION`` change only
with a new version that still reads the old one. Version 2 writes every field of
``Rules`` and the moon's choice (``Rules.moon_scoring`` "shooter_chooses"); version 1,
before the house rules of J♦, moon scoring and pass cycle, still loads with their defaults.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from hearts.cards import Card, CardParseError, cards_of_mask
from hearts.rules import MoonScoring, PassCycle, Rules

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "LoadError",
    "Record",
    "json_too_deep",
    "record_from_json",
    "record_from_text",
    "record_to_json",
    "record_to_text",
    "rules_from_dict",
    "rules_to_dict",
    "text_mask",
]

SAVE_FORMAT: Final = "hearts-game"
SAVE_VERSION: Final = 2
_V1_RULES: Final = frozenset({"end_score", "qs_breaks_hearts", "no_points_on_first_trick",
                              "must_break_hearts", "shoot_the_moon"})
_MAX_TEXT: Final = 20_000  # a real save is well under 2 kB; refuse anything huge
_MAX_DEPTH: Final = 8  # a real save nests 3 deep


class LoadError(ValueError):
    """Saved data (text form or JSON) that is corrupt, tampered or from another version."""


@dataclass(frozen=True, slots=True)
class Record:
    """What a save holds: enough to replay the game to where it was."""

    seed: int
    rules: Rules | None
    """The house rules (None in the text form, which does not carry them)."""
    history: Sequence[Sequence[int]]
    """The four scores of each finished hand before the current hand."""
    deal: Sequence[int]
    """The current hand as dealt: four card masks, South first."""
    passes: Sequence[int | None]
    """The mask each seat chose to pass (None: not yet, or a hand without passing)."""
    plays: Sequence[Card]
    """The cards played in the current hand, in order."""
    moon: MoonScoring | None = None
    """The shooter's choice of moon scoring for this hand, once made (game over only:
    after the choice the next hand is dealt and becomes the record)."""


def record_to_text(record: Record) -> str:
    """``seed=7 hist=3.13.0.10 deal=<S>/<W>/<N>/<E> pass=<S>/<W>/<N>/<E> plays=2C5C…``."""
    hist = ",".join(".".join(str(v) for v in row) for row in record.history)
    deal_text = "/".join(_mask_text(m) for m in record.deal)
    pass_text = "/".join("-" if p is None else _mask_text(p) for p in record.passes)
    plays = "".join(card.notation for card in record.plays) or "-"
    moon = f" moon={record.moon.value}" if record.moon is not None else ""
    return (f"seed={record.seed} hist={hist or '-'} deal={deal_text} pass={pass_text} "
            f"plays={plays}{moon}")


def record_from_text(text: str, rules: Rules | None = None) -> Record:
    """Read ``record_to_text``'s form; raises LoadError on anything unreadable."""
    if not isinstance(text, str):
        raise LoadError(f"a position is text, not {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise LoadError("that position text is far too long")
    fields: dict[str, str] = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        if not sep or key in fields:
            raise LoadError(f"unexpected {token[:40]!r} in position text")
        fields[key] = value
    wanted = {"seed", "hist", "deal", "pass", "plays"}
    moon = _moon_from(fields.pop("moon")) if "moon" in fields else None
    if set(fields) != wanted:
        missing = sorted(wanted - set(fields))
        extra = sorted(set(fields) - wanted)
        raise LoadError(f"position text needs seed, hist, deal, pass and plays "
                        f"(missing {missing}, unknown {extra})")
    try:
        seed = int(fields["seed"])
        hist = [] if fields["hist"] == "-" else [
            tuple(int(v) for v in row.split(".")) for row in fields["hist"].split(",")]
        hands = [text_mask(part) for part in _four(fields["deal"], "deal")]
        passes = [None if part == "-" else text_mask(part)
                  for part in _four(fields["pass"], "pass")]
        plays = [] if fields["plays"] == "-" else _text_cards(fields["plays"])
    except (ValueError, CardParseError) as error:
        raise LoadError(f"unreadable position text: {error}") from None
    return Record(seed, rules, hist, hands, passes, plays, moon)


def record_to_json(record: Record) -> str:
    """The versioned JSON save (compact; the field order is part of the format).

    A game whose rules have the new fields at their defaults (and so no moon choice) is
    written as version 1, byte for byte as before them: saves of the default game stay
    readable by a page that predates the house rules. Any other game is version 2, with
    every field of its rules and the moon's choice.
    """
    rules = record.rules if record.rules is not None else Rules()
    version = 1 if _fits_version_1(rules) and record.moon is None else SAVE_VERSION
    data: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": version,
        "rules": rules_to_dict(rules),
        "seed": record.seed,
        "history": [list(row) for row in record.history],
        "deal": [_mask_text(m) for m in record.deal],
        "passes": [None if p is None else _mask_text(p) for p in record.passes],
        "plays": "".join(card.notation for card in record.plays),
    }
    if version == 1:
        data["rules"] = {k: v for k, v in data["rules"].items() if k in _V1_RULES}
    else:
        data["moon"] = record.moon.value if record.moon is not None else None
    return json.dumps(data, separators=(",", ":"))


def _fits_version_1(rules: Rules) -> bool:
    return not set(rules.changed()) - _V1_RULES


def rules_to_dict(rules: Rules) -> dict[str, int | bool | str]:
    """Every field of ``rules`` as JSON values (the enums as their text), in field order."""
    out: dict[str, int | bool | str] = {}
    for name in Rules.__dataclass_fields__:
        value = getattr(rules, name)
        out[name] = value.value if isinstance(value, MoonScoring | PassCycle) else value
    return out


def rules_from_dict(data: Any, *, all_fields: bool = True) -> Rules:
    """``Rules`` from ``rules_to_dict``'s form; raises LoadError on unknown fields or bad
    values (a missing field is an error unless ``all_fields`` is false: then it keeps its
    default)."""
    if not isinstance(data, dict):
        raise LoadError("the rules are not an object")
    known = set(Rules.__dataclass_fields__)
    if not set(data) <= known:
        raise LoadError(f"unknown rules: {sorted(map(str, set(data) - known))[:5]}")
    if all_fields and set(data) != known:
        raise LoadError(f"the rules lack {sorted(known - set(data))[:5]}")
    try:
        return Rules(**data)
    except (TypeError, ValueError) as error:
        raise LoadError(f"the rules are invalid: {error}") from None


def record_from_json(text: str | bytes) -> Record:
    """Read a JSON save; raises LoadError on anything that isn't a well-formed save."""
    if not isinstance(text, str | bytes):
        raise LoadError(f"a saved game is JSON text, not {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise LoadError("that saved game is far too large")
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if json_too_deep(text, _MAX_DEPTH):
        raise LoadError("the saved game is nested far too deeply to be a save")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise LoadError(f"the saved game is not valid JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise LoadError("this is not a saved game of Hearts")
    version = data.get("version")
    if version not in (1, SAVE_VERSION) or isinstance(version, bool):
        if isinstance(version, int) and not isinstance(version, bool) and \
                version > SAVE_VERSION:
            raise LoadError(f"this game was saved by a newer version (save format "
                            f"{version}; this version reads {SAVE_VERSION})")
        raise LoadError(f"unknown save format version {version!r}")
    expected = {"format", "version", "rules", "seed", "history", "deal", "passes", "plays"}
    if version == SAVE_VERSION:
        expected.add("moon")
    if set(data) != expected:
        raise LoadError(f"the saved game has the wrong fields: {sorted(data)[:12]}")
    rules = _rules_from(data["rules"], version)
    moon = _moon_from(data["moon"]) if data.get("moon") is not None else None
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise LoadError("the saved game's seed is not a whole number")
    hist = data["history"]
    if not isinstance(hist, list) or not all(
            isinstance(row, list) and len(row) == 4 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in row)
            for row in hist):
        raise LoadError("the saved game's history is not a list of four scores per hand")
    deal_list, passes, plays = data["deal"], data["passes"], data["plays"]
    if not (isinstance(deal_list, list) and len(deal_list) == 4
            and all(isinstance(h, str) for h in deal_list)):
        raise LoadError("the saved game's deal is not four hands")
    if not (isinstance(passes, list) and len(passes) == 4
            and all(p is None or isinstance(p, str) for p in passes)):
        raise LoadError("the saved game's passes are not four entries")
    if not isinstance(plays, str):
        raise LoadError("the saved game's plays are not text")
    try:
        hands = [text_mask(h) for h in deal_list]
        pass_masks = [None if p is None else text_mask(p) for p in passes]
        play_cards = _text_cards(plays) if plays else []
    except (ValueError, CardParseError) as error:
        raise LoadError(f"the saved game has unreadable cards: {error}") from None
    return Record(seed, rules, hist, hands, pass_masks, play_cards, moon)


def json_too_deep(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays/objects deeper than ``limit`` (outside strings).

    Checked before ``json.loads``: on Pyodide, JSON nested some thousands deep overflows
    the WebAssembly stack before Python's recursion limit and kills the interpreter
    (on CPython it is a RecursionError).
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _mask_text(mask: int) -> str:
    return "".join(c.notation for c in cards_of_mask(mask)) or "-"


def _text_cards(text: str) -> list[Card]:
    if len(text) % 2:
        raise ValueError(f"{text[:40]!r} is not a run of two-character cards")
    return [Card.parse(text[i:i + 2]) for i in range(0, len(text), 2)]


def text_mask(text: str) -> int:
    """The mask of a run of two-character cards (``"-"``: none); ValueError on repeats."""
    if text == "-":
        return 0
    cards = _text_cards(text)
    mask = 0
    for card in cards:
        if mask & card.mask:
            raise ValueError(f"{card} appears twice in {text[:40]!r}")
        mask |= card.mask
    return mask


def _four(text: str, what: str) -> list[str]:
    parts = text.split("/")
    if len(parts) != 4:
        raise ValueError(f"{what} needs four parts separated by '/', not {len(parts)}")
    return parts


def _rules_from(data: Any, version: int) -> Rules:
    if version == 1 and isinstance(data, dict) and not set(data) <= _V1_RULES:
        raise LoadError(f"unknown rules in the saved game: {sorted(set(data) - _V1_RULES)[:5]}")
    try:
        return rules_from_dict(data, all_fields=version != 1)
    except LoadError as error:
        raise LoadError(f"in the saved game, {error}") from None


def _moon_from(value: Any) -> MoonScoring:
    options = (MoonScoring.OTHERS_PLUS_26, MoonScoring.SHOOTER_MINUS_26)
    if not isinstance(value, str) or value not in options:
        raise LoadError(f"the moon's choice must be {options[0].value} or "
                        f"{options[1].value}, not {str(value)[:40]!r}")
    return MoonScoring(value)
