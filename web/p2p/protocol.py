"""The private-table protocol: JSON text messages on a WebRTC data channel (see docs/protocol.md).

Guests send intents only; ``parse_intent`` checks one strictly (size, keys, types, values)
and returns an ``Intent`` or raises ``ProtocolError``. Nothing in an intent names a seat:
the host knows the seat from the connection. The host sends each seat a ``state`` message
with that seat's own ``PlayerView`` (``view_to_dict``) and the public events since the last
one. No browser imports: pytest runs it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from hearts import (
    CardPlayed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    HeartsBroken,
    MoonShot,
    PassChosen,
    PassDirection,
    PassesExchanged,
    Phase,
    PlayerView,
    Rules,
    Trick,
    TrickWon,
)
from hearts.cards import Card
from web import words
from web.p2p.names import clean_name

__all__ = [
    "MAX_INTENT_CHARS",
    "REACTIONS",
    "SECRET",
    "VERSION",
    "Intent",
    "ProtocolError",
    "dump",
    "event_to_dict",
    "parse_intent",
    "peer_of",
    "view_from_dict",
    "view_to_dict",
]

VERSION = 1
MAX_INTENT_CHARS = 200
"""The longest intent a guest may send (a pass is ~50 characters)."""
REACTIONS = words.REACTIONS
"""Preset reactions: guests send the key, everyone sees the words (no free text)."""
INTENTS = {"pass": {"cards"}, "play": {"card"}, "ready": set(), "leave": set(),
           "react": {"id"}, "name": {"name"}, "hello": set(), "back": {"seat", "secret"}}
"""Every intent and its fields. "hello" and "back" are a page's first words in a table's
meeting room: a newcomer, or a person coming back to the seat whose secret they hold."""
SECRET = re.compile(r"[0-9a-f]{32}")
"""A seat's secret (``HostTable.secrets``): 128 bits in lowercase hex."""
_CARD = re.compile(r"[2-9TJQKA][CDHS]")


class ProtocolError(ValueError):
    """A message that breaks the protocol (its text is for logs, not for the person)."""


@dataclass(frozen=True, slots=True)
class Intent:
    """What a guest asks for: ``kind`` plus its cards or reaction key."""

    kind: str
    cards: tuple[Card, ...] = ()
    reaction: str = ""
    name: str = ""
    """A "name" intent: the name the person chose ("" for their seat's own name)."""
    seat: int = 0
    secret: str = ""
    """A "back" intent: the seat this page held before it reloaded, and the secret the host
    gave that seat (only that seat's page was sent it)."""


def dump(kind: str, **fields: Any) -> str:
    """A message of ``kind`` as compact JSON with the protocol version."""
    return json.dumps({"v": VERSION, "t": kind, **fields}, separators=(",", ":"))


def peer_of(conn: str) -> str:
    """The page id at the other end of a meeting-room connection (``r:<room>:<peer>``)."""
    return conn.rsplit(":", 1)[-1]


def intent_text(intent: Intent) -> str:
    """The JSON a guest sends for ``intent``."""
    if intent.kind == "pass":
        return dump("pass", cards=[str(c) for c in intent.cards])
    if intent.kind == "play":
        return dump("play", card=str(intent.cards[0]))
    if intent.kind == "react":
        return dump("react", id=intent.reaction)
    if intent.kind == "back":
        return dump("back", seat=intent.seat, secret=intent.secret)
    if intent.kind == "name":  # unescaped, so that 20 characters fit in an intent
        return json.dumps({"v": VERSION, "t": "name", "name": intent.name},
                          separators=(",", ":"), ensure_ascii=False)
    return dump(intent.kind)


def parse_intent(text: object) -> Intent:
    """The intent in ``text``, checked field by field. Raises ProtocolError."""
    if not isinstance(text, str):
        raise ProtocolError("not text")
    if len(text) > MAX_INTENT_CHARS:
        raise ProtocolError("too long")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ProtocolError("not JSON") from error
    if not isinstance(data, dict):
        raise ProtocolError("not an object")
    if data.get("v") != VERSION or type(data.get("v")) is not int:
        raise ProtocolError("wrong version")
    kind = data.get("t")
    if not isinstance(kind, str) or kind not in INTENTS:
        raise ProtocolError("unknown intent")
    if set(data) != {"v", "t"} | INTENTS[kind]:
        raise ProtocolError("wrong fields")
    if kind == "pass":
        cards = data["cards"]
        if not isinstance(cards, list) or len(cards) != 3:
            raise ProtocolError("a pass is three cards")
        return Intent(kind, tuple(_card(c) for c in cards))
    if kind == "play":
        return Intent(kind, (_card(data["card"]),))
    if kind == "react":
        key = data["id"]
        if not isinstance(key, str) or key not in REACTIONS:
            raise ProtocolError("unknown reaction")
        return Intent(kind, reaction=key)
    if kind == "back":
        seat, secret = data["seat"], data["secret"]
        if type(seat) is not int or not 1 <= seat <= 3 or not isinstance(secret, str) \
                or not SECRET.fullmatch(secret):
            raise ProtocolError("not a seat and its secret")
        return Intent(kind, seat=seat, secret=secret)
    if kind == "name":  # a name that breaks the rules leaves the seat its own name
        return Intent(kind, name=clean_name(data["name"]) or "")
    return Intent(kind)


def _card(value: object) -> Card:
    if not isinstance(value, str) or not _CARD.fullmatch(value):
        raise ProtocolError("not a card")
    return Card.parse(value)


# --- what the host sends ----------------------------------------------------------------------

def _cards(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


def _trick(trick: Trick | None) -> dict[str, Any] | None:
    if trick is None:
        return None
    return {"leader": trick.leader, "cards": _cards(trick.cards), "winner": trick.winner}


def view_to_dict(view: PlayerView) -> dict[str, Any]:
    """``view`` as JSON-ready data (cards in notation)."""
    return {
        "seat": view.seat,
        "rules": {"end_score": view.rules.end_score,
                  "qs_breaks_hearts": view.rules.qs_breaks_hearts,
                  "no_points_on_first_trick": view.rules.no_points_on_first_trick,
                  "must_break_hearts": view.rules.must_break_hearts,
                  "shoot_the_moon": view.rules.shoot_the_moon},
        "phase": view.phase.value,
        "hand_number": view.hand_number,
        "pass_direction": int(view.pass_direction),
        "hand": _cards(view.hand),
        "passed": _cards(view.passed),
        "received": _cards(view.received),
        "pass_chosen": list(view.pass_chosen),
        "tricks": [_trick(t) for t in view.tricks],
        "trick": _trick(view.trick),
        "hearts_broken": view.hearts_broken,
        "hand_points": list(view.hand_points),
        "scores": list(view.scores),
        "hand_history": [list(row) for row in view.hand_history],
        "hand_sizes": list(view.hand_sizes),
        "to_play": view.to_play,
        "legal_plays": _cards(view.legal_plays),
        "winner": view.winner,
    }


def _four(value: Any) -> tuple[int, int, int, int]:
    a, b, c, d = (int(x) for x in value)
    return a, b, c, d


def _card_tuple(value: Any) -> tuple[Card, ...]:
    return tuple(Card.parse(str(c)) for c in value)


def _trick_from(value: Any) -> Trick | None:
    if value is None:
        return None
    return Trick(int(value["leader"]), _card_tuple(value["cards"]),
                 None if value["winner"] is None else int(value["winner"]))


def view_from_dict(data: dict[str, Any]) -> PlayerView:
    """The ``PlayerView`` that ``view_to_dict`` wrote. Raises ProtocolError if malformed."""
    try:
        bools = data["pass_chosen"]
        return PlayerView(
            seat=int(data["seat"]),
            rules=Rules(**data["rules"]),
            phase=Phase(data["phase"]),
            hand_number=int(data["hand_number"]),
            pass_direction=PassDirection(int(data["pass_direction"])),
            hand=_card_tuple(data["hand"]),
            passed=None if data["passed"] is None else _card_tuple(data["passed"]),
            received=None if data["received"] is None else _card_tuple(data["received"]),
            pass_chosen=(bool(bools[0]), bool(bools[1]), bool(bools[2]), bool(bools[3])),
            tricks=tuple(t for t in map(_trick_from, data["tricks"]) if t is not None),
            trick=_trick_from(data["trick"]),
            hearts_broken=bool(data["hearts_broken"]),
            hand_points=_four(data["hand_points"]),
            scores=_four(data["scores"]),
            hand_history=tuple(_four(row) for row in data["hand_history"]),
            hand_sizes=_four(data["hand_sizes"]),
            to_play=None if data["to_play"] is None else int(data["to_play"]),
            legal_plays=_card_tuple(data["legal_plays"]),
            winner=None if data["winner"] is None else int(data["winner"]),
        )
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ProtocolError(f"bad view: {error}") from error


def event_to_dict(event: Event) -> dict[str, Any]:
    """A public event as JSON-ready data: ``{"e": name, ...fields}``."""
    if isinstance(event, CardPlayed):
        return {"e": "played", "seat": event.seat, "card": str(event.card)}
    if isinstance(event, TrickWon):
        return {"e": "trick", "seat": event.seat, "points": event.points,
                "cards": _cards(event.cards), "leader": event.leader}
    if isinstance(event, HeartsBroken):
        return {"e": "broken", "seat": event.seat}
    if isinstance(event, PassChosen):
        return {"e": "chose", "seat": event.seat}
    if isinstance(event, PassesExchanged):
        return {"e": "exchanged"}
    if isinstance(event, HandDealt):
        return {"e": "dealt", "hand": event.hand_number, "pass": int(event.pass_direction)}
    if isinstance(event, MoonShot):
        return {"e": "moon", "seat": event.seat}
    if isinstance(event, HandScored):
        return {"e": "scored", "hand": event.hand_number, "scores": list(event.scores),
                "totals": list(event.totals)}
    if isinstance(event, GameOver):
        return {"e": "over", "winner": event.winner, "totals": list(event.totals)}
    raise TypeError(f"not an event: {event!r}")
