"""The seats of a fair table, drawn by its pages: commit, then reveal. No I/O.

Two, three or four people's pages sit at a table of four seats; a computer plays each seat
left over, and one of the pages plays it: that page holds the computer's keys and so knows
its cards, and no page ever holds a person's. Who sits where, and which page plays which
computer, is drawn.

Seats matter: seat 0 shuffles first and seat 3 last. Sorting the pages' ids would let a
page choose its seat, since a page makes its own id. So each page picks 32 random bytes and
sends their hash, bound to its id (``commit``); once it holds every other page's commit it
sends its bytes (``reveal``); once it holds every reveal, each the one its commit promised,
the seats are the people and the computers sorted by SHA-256 of all the pages' bytes and
each one's label, and the computers, in seat order, go to the pages in an order drawn the
same way, one each before any page gets a second (``seating``). Nobody can steer it: every
page committed before any page revealed, and one honest page's bytes make the order
uniform. The last page to reveal sees the others' bytes first, but can only refuse to
reveal (the table then never starts), not change its own: a reveal that isn't the one
committed to is refused (``DrawError``). The same hash names the table (``name``), and goes
into every proof's challenge (``Transcript.context``).

Each commit also carries the page's two public signing keys for the table (in hex:
residues, ``signing``): ``key`` for its person's seat and ``bot`` for a computer's, should
the draw give it one. So every page knows every seat's key before anyone has a seat.

A table draws again between two hands when a page left or a person came to take a
computer's seat (``web.friends.fair_room``): the people already seated keep their seats
(``fixed``), a newcomer's seat is drawn among the others, each seat still left is a
computer's, and who plays which computer is drawn. Each commit says where in the game the
page stands (``at``, from ``where``: the next hand, and a hash of the scores so far and of
who keeps which seat), and a draw among pages that don't agree on it is broken.

Messages: ``{"v": 1, "t": "fair_draw", "round": <16 hex>, "commit": <64 hex>, "key": <hex>,
"bot": <hex>, "at": <text>}``, then ``{"v": 1, "t": "fair_draw", "round": <16 hex>,
"reveal": <64 hex>}``. ``round`` names the draw: a hash of ``at`` and of the pages drawing.
A page that leaves while the seats are drawn takes its reveal with it, so the pages still
there draw again without it (``web.friends.fair_mesh``): a message of a draw with other
pages is refused as ``OtherRound`` — kept for a draw to come, never taken into this one.

A person who comes later is let in between two hands by the table's door, the page of the
lowest seat a person holds (``door``): it sends ``{"v": 1, "t": "fair_admit", "pages":
[<page ids>], "seats": {<page id>: seat}, "history": [[four points] per hand]}`` — the
newcomers, the seats the people keep and the hands scored — and everyone draws again. A
newcomer takes ``at`` from it, so a door that lies to a newcomer about the game breaks the
draw: the pages already seated work ``at`` out from their own tables.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from web.p2p.fair.group import GROUP, Group, KeySource

__all__ = ["ADMIT", "DRAW", "Admit", "DrawError", "OtherRound", "SeatDraw", "Seating", "door",
           "is_admit", "is_draw", "where"]

DRAW = "fair_draw"
ADMIT = "fair_admit"
MAX_HANDS = 200
"""More hands than any game to 100 lasts: an admission with more is refused."""
_LABEL = b"hearts fair seat draw v1 "


class DrawError(ValueError):
    """A page broke the draw: a second commit, a reveal before its commit or not the one it
    committed to, or a message that isn't the draw's. ``peer``: that page's id."""

    def __init__(self, peer: str, why: str) -> None:
        super().__init__(f"{peer}: {why}")
        self.peer = peer


class OtherRound(DrawError):
    """A well-formed message of another draw: among other pages, or at another point of the
    game (an earlier draw's, sent before a page left; or a draw again that began at another
    page first). Not a broken draw: it is kept, or dropped."""


@dataclass(frozen=True)
class Seating:
    """What the draw decided, by seat: the page that holds the seat's keys, whether a
    computer plays it (on that page), and the seat's public signing key."""

    pages: tuple[str, ...]
    computer: tuple[bool, ...]
    keys: tuple[int, ...]

    def person(self, page: str) -> int:
        """The seat of ``page``'s person."""
        return next(s for s, p in enumerate(self.pages) if p == page and not self.computer[s])

    def computer_of(self, page: str) -> int | None:
        """The seat of the computer ``page`` plays (None: it plays none)."""
        return next((s for s, p in enumerate(self.pages) if p == page and self.computer[s]),
                    None)

    def seats_of(self, page: str) -> tuple[int, ...]:
        """Every seat whose keys ``page`` holds: its person's first, then its computer's if
        it plays one."""
        computer = self.computer_of(page)
        return (self.person(page), *(() if computer is None else (computer,)))


def _round(at: str, pages: Sequence[str]) -> str:
    names = " ".join(sorted(pages)).encode()
    return hashlib.sha256(_LABEL + b"round " + names + b" at " + at.encode()).hexdigest()[:16]


def _commitment(peer: str, nonce: bytes) -> str:
    return hashlib.sha256(_LABEL + b"commit " + peer.encode() + b" " + nonce).hexdigest()


def _hex_key(value: object, group: Group) -> int | None:
    if not isinstance(value, str) or not 0 < len(value) <= 1024 \
            or value.strip("0123456789abcdef") or not group.is_element(int(value, 16)):
        return None
    return int(value, 16)


def where(history: Sequence[Sequence[int]], fixed: Mapping[str, int]) -> str:
    """Where in the game a draw again stands, for ``at``: the next hand, and a hash of the
    hands scored and of the seats the people keep (pages that differ on either break it)."""
    state = json.dumps([[list(hand) for hand in history], sorted(fixed.items())])
    return f"{len(history) + 1}:" + hashlib.sha256(state.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Admit:
    """The door lets newcomers in between two hands: who (``pages``), the seats the people
    already seated keep, and the hands scored so far."""

    pages: tuple[str, ...]
    seats: Mapping[str, int]
    history: tuple[tuple[int, int, int, int], ...]

    def text(self) -> str:
        return json.dumps({"v": 1, "t": ADMIT, "pages": list(self.pages),
                           "seats": dict(self.seats),
                           "history": [list(hand) for hand in self.history]},
                          separators=(",", ":"))

    @property
    def at(self) -> str:
        return where(self.history, self.seats)

    @staticmethod
    def read(text: str) -> Admit | None:
        """The admission in ``text``, or None if it isn't a well-formed one: two to four
        different pages in all, each kept seat its own, at most ``MAX_HANDS`` hands."""
        try:
            body = json.loads(text)
        except ValueError:
            return None
        if not isinstance(body, dict) or set(body) != {"v", "t", "pages", "seats", "history"} \
                or body["v"] != 1 or body["t"] != ADMIT:
            return None
        pages, seats, history = body["pages"], body["seats"], body["history"]
        if not isinstance(pages, list) or not isinstance(seats, dict) \
                or not isinstance(history, list) or len(history) > MAX_HANDS \
                or not all(isinstance(p, str) and 0 < len(p) <= 64 for p in [*pages, *seats]) \
                or not all(type(s) is int and 0 <= s < 4 for s in seats.values()) \
                or len(set(seats.values())) != len(seats) or not pages \
                or len(set(pages) | set(seats)) != len(pages) + len(seats) \
                or not 2 <= len(pages) + len(seats) <= 4 or not seats \
                or not all(isinstance(h, list) and len(h) == 4
                           and all(type(x) is int and 0 <= x <= 26 for x in h)
                           for h in history):
            return None
        return Admit(tuple(pages), dict(seats),
                     tuple((h[0], h[1], h[2], h[3]) for h in history))


def door(seats: Mapping[str, int]) -> str:
    """The page that lets newcomers in: its person's is the lowest seat a person holds."""
    return min(seats, key=lambda page: seats[page])


def is_admit(text: str) -> bool:
    """Whether ``text`` is meant as an admission (it may still be a bad one)."""
    return text.startswith('{"v":1,"t":"fair_admit"')


def is_draw(text: str) -> bool:
    """Whether ``text`` is meant as a message of the draw (it may still be a bad one)."""
    return text.startswith('{"v":1,"t":"fair_draw"')


class SeatDraw:
    """This page's part of the draw among ``me`` and the ``others`` (page ids: one to
    three of them)."""

    def __init__(self, me: str, others: Sequence[str], key: int,
                 source: KeySource | None = None, group: Group = GROUP, *,
                 computer_key: int | None = None, fixed: Mapping[str, int] | None = None,
                 at: str = "") -> None:
        """``key``: this page's public signing key for its person's seat; ``computer_key``:
        for a computer's seat, should the draw give it one (by default, ``key``'s);
        ``fixed``: the seats of the people who keep theirs (a draw again: the pages not in
        it came to take a computer's seat); ``at``: where in the game this page stands,
        which every page must share (``where``)."""
        self.fixed = dict(fixed) if fixed is not None else None
        if self.fixed is not None and (
                not set(self.fixed) <= {me, *others} or not self.fixed
                or len(set(self.fixed.values())) != len(self.fixed)
                or not set(self.fixed.values()) <= set(range(4))):
            raise ValueError("a draw again keeps each seated page's own seat, one page a seat")
        self.at = at
        self.pages = len(set(others) | {me})
        if self.pages != len(others) + 1 or not 2 <= self.pages <= 4:
            raise ValueError("a fair table's draw is among two to four different pages")
        self.me = me
        self.others = tuple(others)
        self.round = _round(at, [me, *others])
        """This draw's name in its messages: who draws, and at which point of the game."""
        rng = source if source is not None else secrets.SystemRandom()
        self.nonce = rng.getrandbits(256).to_bytes(32, "big")
        self.commits: dict[str, str] = {me: _commitment(me, self.nonce)}
        self.reveals: dict[str, bytes] = {me: self.nonce}
        self.group = group
        self.keys: dict[str, int] = {me: key}
        """Page id -> its public signing key for its person's seat."""
        self.computer_keys: dict[str, int] = {me: key if computer_key is None else computer_key}
        """Page id -> its public signing key for a computer's seat."""
        self.early: dict[str, str] = {}
        """Reveals that came before this page had every commit: a page reveals once it has
        them all, and its reveal may overtake another page's commit on the way here."""

    def commit_text(self) -> str:
        """This page's first message: the hash of its bytes, and its keys."""
        return json.dumps({"v": 1, "t": DRAW, "round": self.round,
                           "commit": self.commits[self.me],
                           "key": f"{self.keys[self.me]:x}",
                           "bot": f"{self.computer_keys[self.me]:x}", "at": self.at},
                          separators=(",", ":"))

    def reveal_text(self) -> str:
        """This page's second message, once it holds every commit: its bytes."""
        return json.dumps({"v": 1, "t": DRAW, "round": self.round,
                           "reveal": self.nonce.hex()},
                          separators=(",", ":"))

    def received(self, peer: str, text: str) -> list[str]:
        """A draw message from ``peer``; what this page sends to the others now (its reveal,
        once the last commit is in). Raises ``DrawError`` naming ``peer``, ``OtherRound``
        for a message of another draw."""
        try:
            body = json.loads(text)
        except ValueError as error:
            raise DrawError(peer, "not JSON") from error
        if not isinstance(body, dict) or len(body) != (7 if "commit" in body else 4) \
                or body.get("v") != 1 or body.get("t") != DRAW:
            raise DrawError(peer, "not a message of the draw")
        value = body.get("commit", body.get("reveal"))
        if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
            raise DrawError(peer, "not 32 bytes in hex")
        if body.get("round") != self.round:
            raise OtherRound(peer, "a message of another draw")
        if peer not in self.others:
            raise DrawError(peer, "not one of this table's pages")
        if "commit" in body:
            if peer in self.commits:
                raise DrawError(peer, "a second commit")
            if body.get("at") != self.at:
                raise DrawError(peer, "at another point of the game")
            key, computer_key = (_hex_key(body.get(k), self.group) for k in ("key", "bot"))
            if key is None or computer_key is None:
                raise DrawError(peer, "not a signing key")
            self.commits[peer] = value
            self.keys[peer] = key
            self.computer_keys[peer] = computer_key
            if len(self.commits) < self.pages:
                return []
            early, self.early = self.early, {}
            for revealer, nonce in early.items():
                self._reveal(revealer, nonce)
            return [self.reveal_text()]
        if peer not in self.commits or peer in self.reveals or peer in self.early:
            raise DrawError(peer, "a reveal out of turn")
        if len(self.commits) < self.pages:
            self.early[peer] = value  # read once the last commit is in
            return []
        self._reveal(peer, value)
        return []

    def _reveal(self, peer: str, value: str) -> None:
        nonce = bytes.fromhex(value)
        if _commitment(peer, nonce) != self.commits[peer]:
            raise DrawError(peer, "a reveal that isn't the one it committed to")
        self.reveals[peer] = nonce

    def _seed(self) -> bytes:
        digest = hashlib.sha256(_LABEL + b"seed")
        for peer in sorted(self.reveals):
            digest.update(peer.encode() + b" " + self.reveals[peer])
        return digest.digest()

    def seating(self) -> Seating | None:
        """Who sits where and which page plays each computer, once every reveal is in."""
        if len(self.reveals) < self.pages:
            return None
        seed = self._seed()

        def drawn(label: bytes) -> bytes:
            return hashlib.sha256(seed + label).digest()
        # The labels' first words differ, so no page id can take a computer's place.
        if self.fixed is not None:  # the people keep their seats; newcomers' are drawn
            who = {seat: peer for peer, seat in self.fixed.items()}
            free = sorted((s for s in range(4) if s not in who),
                          key=lambda s: drawn(b"free " + bytes([s])))
            newcomers = sorted((p for p in self.reveals if p not in self.fixed),
                               key=lambda p: drawn(b"page " + p.encode()))
            who |= dict(zip(free, newcomers, strict=False))
            places = [(bytes([seat]), who.get(seat, ""), seat not in who) for seat in range(4)]
        else:
            places = [(drawn(b"page " + peer.encode()), peer, False) for peer in self.reveals]
            places += [(drawn(b"computer " + bytes([n])), "", True)
                       for n in range(4 - self.pages)]
            places.sort()
        runners = sorted(self.reveals, key=lambda peer: drawn(b"runner " + peer.encode()))
        pages: list[str] = []
        computer: list[bool] = []
        keys: list[int] = []
        for _, peer, is_computer in places:
            if is_computer:
                peer = runners[sum(computer) % self.pages]
                keys.append(self.computer_keys[peer])
            else:
                keys.append(self.keys[peer])
            pages.append(peer)
            computer.append(is_computer)
        return Seating(tuple(pages), tuple(computer), tuple(keys))

    def order(self) -> list[str] | None:
        """The page ids in seat order, once every reveal is in (None before): a computer's
        seat names the page that plays it."""
        seating = self.seating()
        return None if seating is None else list(seating.pages)

    def name(self) -> str:
        """What names this table in every proof: the draw's seed, in hex (once drawn)."""
        if len(self.reveals) < self.pages:
            raise ValueError("the draw isn't over")
        return self._seed().hex()
