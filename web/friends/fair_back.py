"""Coming back to a fair table after a reload: what a tab keeps, and the claim it presents.

A relay id changes with a reload, so a seat is never claimed by one: a page keeps, for its
tab only (``sessionStorage``), the table's code and name, its seat, its table key for that
seat, the hands scored and the other people's pages and seats (``Kept``). Reloaded within
the seat's grace, it meets the table's room again and presents to each page the claim
``{"v": 1, "t": "fair_back", "d": <table tag>, "f": seat, "s": <signature>}``: its seat's
signature (``signing.sign``, hand 0, number 1 — no message of the deal, nor a name, which is
number 0) over the table's name and its new id in the room. Each page checks it with the
key that seat announced in the draw; a claim for a seat that isn't away, or whose signature
doesn't hold, is refused, and the person is told someone tried.

A hand under way goes on (``web.p2p.fair.resume``): the tab keeps too the draw's seating
(``Seating``), its computer's key, and its part of the hand at each of its tables
(``HandKept``: its keys and its place in the signed record). Back within the grace, the
page takes the hand up where it stood, and its claim says so (``"r"``, signed with the
rest: the hand, the number of its next message, its commitment to its shuffling key),
which the others check against their record. ``KeptSeat`` keeps the record up to date as
the page plays, before each message it sends.

A claim signed by the seat's key that comes after the seat's grace ran out is answered
(``late_text``, ``{"v": 1, "t": "fair_late", "d": <table tag>, "f": seat, "go": ...}``),
so that the page back never waits on a hand nobody will go on with: ``"charged"``, the
hand wasn't handed over yet, and the page is taken back the way of a tab without the
record (the hand counted, the rest on its seat, the seats drawn again); ``"again"``, a
computer has its seat now, and a computer's seat is open to it: it comes in anew, as a
person who comes later does, at the next hand; ``"gone"``, a computer has its seat and no
seat is open. No I/O: the tab's storage is injected.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from web.friends.fair_tables import PageTables
from web.p2p.fair.group import Group, KeySource
from web.p2p.fair.public import Score
from web.p2p.fair.resume import HandKeeper, HandKept, Resume, joined
from web.p2p.fair.seating import Seating
from web.p2p.fair.signing import Signed, sign, text_hash, verify
from web.p2p.fair.wire import tag

__all__ = [
    "AGAIN",
    "CHARGED",
    "COUNTS",
    "GONE",
    "KeepSeat",
    "Kept",
    "KeptSeat",
    "back_text",
    "gather",
    "is_back",
    "is_late",
    "late_text",
    "read_back",
    "read_late",
]

_HAND, _N = 0, 1
_PREFIX = '{"v":1,"t":"fair_back"'
_LATE = '{"v":1,"t":"fair_late"'
CHARGED = "charged"
"""A claim's answer: too late to take the hand up; back the way of a tab without it."""
GONE = "gone"
"""A claim's answer: too late, a computer has the seat now (and no seat is open)."""
AGAIN = "again"
"""A claim's answer: too late, a computer has the seat now; come in anew, to a
computer's seat at the next hand."""


@dataclass(frozen=True)
class Kept:
    """What brings a reloaded tab back to its seat at a fair table."""

    code: str
    """The table's code (its room and password)."""
    table: str
    """The table's name (the draw's seed: it goes into every signature)."""
    seat: int
    key: int
    """This page's signing key for its person's seat at that table."""
    history: tuple[Score, ...]
    """The hands scored."""
    others: Mapping[str, int] = field(default_factory=dict)
    """The other people's pages (their ids in the room) and seats."""
    charged: Score | None = None
    """A hand was under way, its cards dealt: what it counts now this page left it (scored
    as far as it went, the rest on this seat: ``played.left``), as every page counts it."""
    seating: Seating | None = None
    """The draw's seating (this page under its id before the reload)."""
    computer_key: int = 0
    """This page's signing key for the computer's seat it plays, if it plays one."""
    hands: tuple[str, ...] = ()
    """This page's part of the hand under way (``HandKept``'s JSON): its person's table's,
    then its computer's. Spliced in as they are: not encoded again for each message."""
    parts: bool = False
    """The hands are kept apart, in parts (``KeptSeat``): ``gather`` splices them in."""

    def text(self) -> str:
        seating = self.seating
        core = json.dumps({
            "fair": 1, "code": self.code, "table": self.table, "seat": self.seat,
            "key": f"{self.key:x}", "history": [list(row) for row in self.history],
            "others": dict(self.others),
            "charged": None if self.charged is None else list(self.charged),
            "seating": None if seating is None else {
                "pages": list(seating.pages), "computer": list(seating.computer),
                "keys": [f"{k:x}" for k in seating.keys]},
            "computer_key": f"{self.computer_key:x}", **({"parts": 1} if self.parts else {})},
            separators=(",", ":"))
        return core[:-1] + ',"hands":[' + ",".join(self.hands) + "]}"

    def resumes(self, group: Group) -> tuple[Seating, tuple[HandKept, ...]] | None:
        """The seating and the records this tab resumes the hand under way with (None: no
        hand to resume: none under way, or a record gone or spoilt)."""
        if self.seating is None or not self.hands:
            return None
        kept = []
        for text in self.hands:
            try:
                hand = HandKept.read(json.loads(text))
            except ValueError:
                return None
            if hand is None or hand.table != self.table \
                    or hand.hand != len(self.history) + 1:
                return None  # (a hand scored: the next one is dealt with the others)
            kept.append(hand)
        if kept[0].seat != self.seat or not all(0 <= k < group.p for k in self.seating.keys):
            return None
        return self.seating, tuple(kept)

    @staticmethod
    def read(text: str) -> Kept | None:
        """A kept seat read back (None: not a fair table's, or spoilt)."""
        try:
            data = json.loads(text)
            if data.get("fair") != 1:
                return None
            history = tuple((int(a), int(b), int(c), int(d))
                            for a, b, c, d in data["history"])
            others = {str(peer): int(seat) for peer, seat in data["others"].items()}
            found = data.get("seating")
            seating = None if found is None else Seating(
                tuple(str(p) for p in found["pages"]),
                tuple(bool(c) for c in found["computer"]),
                tuple(int(k, 16) for k in found["keys"]))
            hands = tuple(json.dumps(hand, separators=(",", ":"))
                          for hand in data.get("hands", ()))
            kept = Kept(str(data["code"]), str(data["table"]), int(data["seat"]),
                        int(str(data["key"]), 16), history, others,
                        _score(data.get("charged")), seating,
                        int(str(data.get("computer_key", "0")), 16), hands,
                        data.get("parts") == 1)
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
        if seating is not None and not (len(seating.pages) == len(seating.computer)
                                        == len(seating.keys) == 4):
            return None
        seats = [kept.seat, *kept.others.values()]
        if not 0 <= kept.seat < 4 or len(set(seats)) != len(seats) \
                or not all(0 <= s < 4 for s in seats):
            return None
        return kept


class KeepSeat(Protocol):
    """Stores, for this tab, a part of what brings it back to its seat (``part``: "" the
    record itself, else the key's ending of one of its parts); None forgets all of it."""

    def __call__(self, text: str | None, part: str = "") -> None: ...


COUNTS = ".n"
"""The part that says how many envelopes of each segment of each table's record are stored
(``KeptSeat``)."""


def _lead(table: int, segment: int) -> str:
    return f".h{table}" if segment == 0 else f".h{table}s{segment}"


def _item(table: int, segment: int, n: int) -> str:
    return f".h{table}.{n}" if segment == 0 else f".h{table}s{segment}.{n}"


class KeptSeat:
    """This tab's ``Kept``, up to date as its tables move on, written before every message
    this page sends: so in parts (``keep``), each written only when it changed — the record
    without its hands (``Kept.parts``), each table's record of its hand in segments (the hand
    under way's, the next one's: ``HandKeeper.parts``), each segment's lead, and each
    envelope once, under a key of its own (``.h<table>.<n>``, ``.h<table>s1.<n>``), with
    their counts (``COUNTS``). A card costs the write of its envelope, not of the whole record, some
    hundred kB (``tools/bench_keep.py``). ``gather`` reads it back whole."""

    def __init__(self, code: str, keep: KeepSeat) -> None:
        """``code``: the table's code; ``keep``: store a part for this tab."""
        self.code = code
        self.keep = keep
        self._core: object = None
        self._keepers = [HandKeeper(), HandKeeper()]
        self._written: list[tuple[object, list[str], list[int]]] = []
        """Per table: the hand, and per segment of its record (``HandKeeper.parts``) the
        lead stored and how many envelopes are."""

    def seated(self) -> None:
        """A draw seated this page at new tables: their records start anew."""
        self._keepers = [HandKeeper(), HandKeeper()]
        self._written = []

    def update(self, tables: PageTables, others: Mapping[str, int],
               seating: Seating | None, keys: tuple[int, int]) -> None:
        """Keep where ``tables`` stand, with the other people's pages and seats, the draw's
        ``seating`` and this page's two signing keys (its person's seat's, its computer's)."""
        table, computer = tables.person, tables.computer
        held = () if computer is None else (computer.table.seat,)
        moved = False
        for n, (keeper, at) in enumerate(zip(self._keepers, tables.all(), strict=False)):
            parts = keeper.parts(at)
            if parts is None:
                continue
            hand, segments = parts
            if n == len(self._written):
                self._written.append((None, [], []))
            was, leads, counts = self._written[n]
            if hand != was:  # a new hand: its segments are written anew
                leads, counts = [], []
            for k, (lead, items) in enumerate(segments):
                if k == len(leads):
                    leads.append("")
                    counts.append(0)
                if lead != leads[k]:
                    self.keep(lead, _lead(n, k))
                for i in range(counts[k], len(items)):
                    self.keep(items[i], _item(n, k, i))
                leads[k], counts[k] = lead, len(items)
            self._written[n] = (hand, leads, counts)
            moved = True
        if moved:
            self.keep(json.dumps([counts for _, _, counts in self._written]), COUNTS)
        core = (table.name, table.seat, tuple(table.history), tuple(others.items()),
                table.if_left(table.seat, held))
        if core != self._core:
            self._core = core
            self.keep(Kept(self.code, table.name, table.seat, keys[0], tuple(table.history),
                           dict(others), core[4], seating, keys[1], parts=True).text())


def gather(text: str, get: Callable[[str], str | None]) -> str:
    """The whole record a tab kept (``text``: the record itself, ``get(part)``: each of
    its parts, ``KeptSeat``), its hands spliced in; ``text`` as it is if it isn't in parts.
    A part missing or spoilt leaves its hands out (the seat is claimed without them)."""
    kept = Kept.read(text)
    if kept is None or not kept.parts:
        return text
    try:
        counts = json.loads(get(COUNTS) or "")
        hands = []
        for n, table in enumerate(counts):
            segments = []
            for k, count in enumerate(table):
                lead = get(_lead(n, k))
                items = [get(_item(n, k, i)) for i in range(int(count))]
                if lead is None or any(item is None for item in items):
                    raise ValueError("a part of the record is missing")
                segments.append((lead, [str(item) for item in items]))
            hands.append(joined(segments))
    except (ValueError, TypeError):
        hands = []
    return dataclasses.replace(kept, hands=tuple(hands), parts=False).text()


def _score(data: object) -> Score | None:
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != 4:
        raise ValueError("a hand's score is four numbers")
    a, b, c, d = (int(x) for x in data)
    return a, b, c, d


def _digest(peer: str, resume: str) -> str:
    return text_hash("back:" + peer + ("" if not resume else ":" + resume))


def back_text(group: Group, key: int, table: str, seat: int, peer: str,
              source: KeySource | None = None, resume: Resume | None = None) -> str:
    """The claim of the page now called ``peer`` in the room to ``seat``, signed with that
    seat's ``key``; ``resume``: where it takes the hand under way up (None: it doesn't)."""
    r = "" if resume is None else resume.text()
    t, z = sign(group, key, table, _HAND, seat, _N, _digest(peer, r),
                source if source is not None else secrets.SystemRandom())
    return json.dumps({"v": 1, "t": "fair_back", "d": tag(table), "f": seat,
                       "s": [f"{t:x}", f"{z:x}"], "r": r}, separators=(",", ":"))


def is_back(text: str) -> bool:
    """Whether ``text`` is meant as a claim to a seat (it may still be a false one)."""
    return text.startswith(_PREFIX)


def read_back(group: Group, keys: Sequence[int], table: str, text: str, peer: str
              ) -> tuple[int, bool, Resume | None] | None:
    """The seat ``text`` claims for the page ``peer``, whether its seat's key signed it,
    and where it takes the hand under way up (None: it doesn't); None if it isn't a claim
    of this table at all."""
    if len(text) > 3000:
        return None
    try:
        data = json.loads(text)
        seat, sig, d, r = data["f"], data["s"], data["d"], data.get("r", "")
        t, z = int(sig[0], 16), int(sig[1], 16)
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(keys) \
            or d != tag(table) or not isinstance(r, str) or len(r) > 1200:
        return None
    resume = Resume.read(r) if r else None
    signed = Signed(seat, _N, _digest(peer, r), t, z)
    return seat, verify(group, keys[seat], table, signed, _HAND) and (resume is not None
                                                                      or not r), resume


def late_text(table: str, seat: int, go: str) -> str:
    """The answer to the page that claimed ``seat`` after its grace ran out (``go``:
    ``CHARGED``, ``AGAIN`` or ``GONE``)."""
    return json.dumps({"v": 1, "t": "fair_late", "d": tag(table), "f": seat, "go": go},
                      separators=(",", ":"))


def is_late(text: str) -> bool:
    return text.startswith(_LATE)


def read_late(table: str, text: str) -> tuple[int, str] | None:
    """The seat and the answer of a ``late_text`` of this table (None: not one)."""
    try:
        data = json.loads(text)
        seat, go, d = data["f"], data["go"], data["d"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4 \
            or go not in (CHARGED, AGAIN, GONE) or d != tag(table):
        return None
    return seat, go
