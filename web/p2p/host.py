"""The host's side of a private table: the people's connections and messages.

``HostTable`` does no I/O. The page's glue tells it about connections (``join``, ``drop``)
and hands it every message text (``receive``); it answers by appending
``(connection, text)`` pairs to ``outbox`` and connection ids to close to ``hangups``.
The host person is seat 0 (South) on the connection ``LOCAL``. It is a ``TableFlow``
(``web.p2p.flow``: the one authoritative ``Game``, the computers' moves, waiting for
people, the turn timer) over ``Seats`` (``web.p2p.seats``: who sits where). Rules it keeps:

- a connection's seat is the one it was invited to, bound at ``join``; messages never name
  a seat, so a guest can only act for its own seat, and each seat gets only its own view;
- messages are checked for size, shape and rate (a token bucket per connection) before
  the engine is asked; whatever arrives, the game stays valid and the host keeps going;
  each refusal is noted in ``log`` (the page shows it to the host);
- a dropped guest's seat waits ``grace`` seconds, then the computer takes it over; the host
  may invite someone to any computer seat at any time;
- at a table of strangers a page that comes in mid-hand gets a computer's seat from the
  next hand (``reserve``), so a hand is played out by those who began it.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from hearts import SEAT_NAMES, Card, Game, IllegalMoveError
from web import players, words
from web.p2p.flow import TableFlow
from web.p2p.protocol import (
    REACTIONS,
    Intent,
    ProtocolError,
    dump,
    event_to_dict,
    parse_intent,
    view_to_dict,
)
from web.p2p.seats import LOCAL, Seats

__all__ = ["LOCAL", "HostTable", "RefusalLog"]

"""What a guest's page says when the host closes the table on purpose."""
BUCKET_SIZE = 12
BUCKET_REFILL = 4.0
"""Messages per second a guest may keep sending (bursts up to BUCKET_SIZE)."""
FLOOD_LIMIT = 200
"""Messages dropped for rate before the guest is disconnected."""
MAX_EVENTS = 80
"""Events sent in one state message at most (a newcomer gets none of the past)."""
MAX_LOG = 50
"""Refusals the host keeps in its log (the oldest go first)."""


@dataclass
class _Bucket:
    tokens: float = BUCKET_SIZE
    at: float = 0.0
    dropped: int = 0

    def take(self, now: float) -> bool:
        self.tokens = min(BUCKET_SIZE, self.tokens + max(0.0, now - self.at) * BUCKET_REFILL)
        self.at = max(self.at, now)
        if self.tokens < 1:
            self.dropped += 1
            return False
        self.tokens -= 1
        return True


@dataclass
class RefusalLog:
    """Refused guest messages, in words: how many in all, and the last ``MAX_LOG``."""

    count: int = 0
    lines: list[str] = field(default_factory=list)

    def note(self, line: str) -> None:
        self.count += 1
        self.lines = [*self.lines[-(MAX_LOG - 1):], line]


@dataclass
class _Line:
    """The connection in one seat, as the table keeps it (fresh at every ``join``)."""

    sent: int = 0
    """How many of the game's events its page has been sent."""
    bucket: _Bucket = field(default_factory=_Bucket)


class HostTable(TableFlow):
    """One private table as its host runs it: the people's connections, the messages
    they send, and what each seat is sent. The game moves on in ``TableFlow``."""

    def __init__(self, game: Game, *, level: str = "normal", grace: float = 20.0,
                 make_bot: players.MakeBot = players.make) -> None:
        super().__init__(game, Seats(grace), level=level, make_bot=make_bot)
        self.closed = False
        self.names = ["", "", "", ""]
        """Per seat, the name its person chose ("": the place's name; always so for a
        computer). The person sends it once seated (``Intent("name")``)."""
        self.secrets = ["", "", "", ""]
        """Per guest seat, the secret only its page is sent: a page that reloads presents it
        to take the seat back (``back``) while the seat waits for its person."""
        self.outbox: list[tuple[str, str]] = []
        self.hangups: list[str] = []
        self.log = RefusalLog()
        """The host's log of refused guest messages (the page shows it)."""
        self._lines = [_Line() for _ in range(4)]
        self.clock = 0.0
        """The last time the page told the table (seconds)."""
        self.online = False
        """A page left alone in the lobby plays its own game here: a turn timer, and no
        copy kept (``web.friends.host_side``)."""

    @property
    def grace(self) -> float:
        """Seconds a dropped guest's seat waits for them."""
        return self.seats.grace

    @property
    def coming(self) -> dict[int, str]:
        """seat -> the connection of a person who takes it from the next hand."""
        return self.seats.coming

    # --- who sits where ------------------------------------------------------------------------

    def seat_of(self, conn: str) -> int | None:
        """The seat bound to ``conn`` (None if it has none)."""
        return self.seats.seat_of(conn)

    def kind(self, seat: int) -> str:
        """host, friend, away (dropped, in its grace period), computer, or open (lobby)."""
        return self.seats.kind(seat, self.started)

    def join(self, conn: str, seat: int, now: float) -> bool:
        """Bind ``conn`` to ``seat`` (1-3), replacing a dropped or computer player.

        False (and nothing changes) if a connected person already sits there.
        """
        if self.closed or conn == LOCAL or not 1 <= seat <= 3 or self.seat_of(conn) is not None:
            return False
        if self.kind(seat) == "friend":
            return False
        replaced = self.seats.sit(conn, seat)
        if replaced is not None:
            self.hangups.append(replaced)
        self.names[seat] = ""  # until the person who sat down says theirs
        self.secrets[seat] = secrets.token_hex(16)
        self._lines[seat] = _Line(sent=len(self.game.events), bucket=_Bucket(at=now))
        self.broadcast()
        return True

    def back(self, conn: str, seat: int, secret: str, now: float) -> bool:
        """The page on ``conn`` takes back ``seat``, whose person's page went (it is waiting
        out its grace), by its secret: the same hand, the same scores. False (nothing
        changes) for a wrong secret, or a seat that isn't waiting for its person."""
        if self.closed or not 1 <= seat <= 3 or self.kind(seat) != "away" \
                or self.seat_of(conn) is not None or not self.secrets[seat] \
                or not hmac.compare_digest(secret, self.secrets[seat]):
            return False
        replaced = self.seats.sit(conn, seat)
        if replaced is not None:
            self.hangups.append(replaced)
        self._lines[seat] = _Line(sent=len(self.game.events), bucket=_Bucket(at=now))
        self.broadcast()
        return True

    def reserve(self, conn: str, seat: int) -> bool:
        """Keep the computer's ``seat`` for ``conn`` from the next hand (tell it so); False
        if it isn't a computer's seat or is kept for someone else."""
        if self.closed or self.kind(seat) != "computer" or not self.seats.keep(conn, seat):
            return False
        self._send(conn, dump("notice", text=words.SEAT_COMING))
        return True

    def drop(self, conn: str, now: float) -> None:
        """``conn`` closed or lost its connection: its seat waits ``grace`` seconds."""
        if self.seats.drop(conn, now, self.started) is not None:
            self.broadcast()

    def _to_computer(self, seat: int) -> None:
        conn = self.seats.clear(seat)
        if conn is not None:
            self.hangups.append(conn)
        self.names[seat] = ""
        self.secrets[seat] = ""
        self.waiting_ready.discard(seat)

    def tick(self, now: float) -> bool:
        """Give the computer every seat whose grace period is over, and play for a person
        whose time to move ran out; True if the table changed."""
        self.clock = now
        expired = self.seats.expired(now)
        for seat in expired:
            self._to_computer(seat)
        if expired:
            self.broadcast()
        timed = self._timed(now)
        if timed == "shown":
            self.broadcast()
        elif timed == "moved":
            self._after_moves()
            for seat, what, cards in self.timed_out:  # each is told what went for them
                conn = self.seats.conn(seat)
                if conn is not None:
                    self._send(conn, dump("notice", text=words.time_up(what, cards)))
            self.timed_out.clear()
        return timed == "moved" or bool(expired)

    # --- the game --------------------------------------------------------------------------------

    def start(self) -> None:
        """Deal in: seats nobody took are the computer's from now on."""
        self.started = True
        self.broadcast()

    def new_game(self, game: Game) -> None:
        """Replace a finished game with ``game`` (same people, same seats)."""
        self._deal(game)
        for line in self._lines:
            line.sent = len(game.events)
        self.broadcast()

    def computer_step(self, card: Card | None = None) -> bool:
        """Make the computer's next move (every computer pass at once; ``card``: the play
        its bot chose, else it chooses now); True if one was made."""
        if not self.due():
            return False
        self._computer_moves(card)
        self._after_moves()
        return True

    def _after_moves(self) -> None:
        """Tell everyone; at a new hand those who came in during the last one sit down."""
        if self._hands_ended() and self.coming:
            for seat, conn in self.seats.take_coming().items():
                self.join(conn, seat, self.clock)
        self.broadcast()

    # --- messages --------------------------------------------------------------------------------

    def receive(self, conn: str, text: object, now: float) -> None:
        """A message from guest ``conn``: checked, then acted on for that connection's seat."""
        seat = self.seat_of(conn)
        self.clock = now
        if seat is None or seat == 0 or self.closed:
            return
        bucket = self._lines[seat].bucket
        if not bucket.take(now):
            if bucket.dropped == 1:
                self._log(seat, "too many messages at once (dropped)")
            if bucket.dropped >= FLOOD_LIMIT:
                self._log(seat, f"{FLOOD_LIMIT} messages dropped: the computer took the seat")
                self._send(conn, dump("closed", reason=words.GUEST_FLOODED))
                self._to_computer(seat)
                self.broadcast()
            return
        try:
            intent = parse_intent(text)
        except ProtocolError as problem:
            self._log(seat, f"a message that breaks the protocol ({problem})")
            self._send(conn, dump("refused", reason=words.GUEST_NOT_UNDERSTOOD))
            return
        self.act(seat, intent)

    def local(self, intent: Intent) -> None:
        """The host person's own intent (seat 0)."""
        self.act(0, intent)

    def act(self, seat: int, intent: Intent) -> None:
        """Carry out ``intent`` for ``seat``, or tell that seat why not."""
        if intent.kind == "react":
            for _, to in self.seats.present():
                self._send(to, dump("reaction", seat=seat, id=intent.reaction,
                                    text=REACTIONS[intent.reaction]))
            return
        if intent.kind == "name":
            if self.names[seat] != intent.name:
                self.names[seat] = intent.name
                self.broadcast()
            return
        if intent.kind == "leave":
            if seat != 0:
                conn = self.seats.conn(seat)
                if conn is not None:
                    self._send(conn, dump("closed", reason=words.GUEST_LEFT))
                who = self.names[seat]
                self._to_computer(seat)
                self.broadcast()
                self.tell(words.left_the_table(who, seat), host=True)
            return
        reason = self.refusal(seat, intent)
        if reason is not None:
            if seat != 0:
                self._log(seat, f"{intent.kind} refused: {reason}")
            conn = self.seats.conn(seat)
            if conn is not None:
                self._send(conn, dump("refused", reason=reason))
            return
        if intent.kind == "ready":
            self.waiting_ready.discard(seat)
            self.broadcast()
            return
        try:
            if intent.kind == "pass":
                self.game.choose_pass(seat, intent.cards)
            else:
                self.game.play(intent.cards[0])
        except IllegalMoveError:  # refusal checks first; this is a second line of defence
            return
        self._after_moves()

    # --- what each seat sees -----------------------------------------------------------------

    def state_for(self, seat: int) -> dict[str, Any]:
        """The state message for ``seat``: its own view and the public table."""
        events = self.game.events[self._lines[seat].sent:][-MAX_EVENTS:]
        return {
            "stage": self.stage(),
            "view": view_to_dict(self.game.view(seat)),
            "kinds": [self.kind(s) for s in range(4)],
            "names": list(self.names),
            **({"secret": self.secrets[seat]} if self.secrets[seat] else {}),
            "waiting": self.waiting_for(),
            "turn_left": self.turn_left(self.clock),
            "ready": seat in self.waiting_ready,
            "last_hand": self.last_scored,
            "events": [event_to_dict(e) for e in events],
        }

    def broadcast(self) -> None:
        """Queue a fresh state message for every connected seat (and the host's own)."""
        for seat, conn in self.seats.present():
            self._send(conn, dump("state", **self.state_for(seat)))
            self._lines[seat].sent = len(self.game.events)

    def tell(self, text: str, host: bool = False) -> None:
        """A notice for every guest at the table (``host``: and the host's own seat); their
        pages show it once."""
        for seat, conn in self.seats.present():
            if seat != 0 or host:
                self._send(conn, dump("notice", text=text))

    def close(self, reason: str | None = None) -> None:
        """The host leaves: every guest is told the table has closed, and why (by default,
        that its host, named, closed it)."""
        if self.closed:
            return
        if reason is None:
            reason = words.host_closed(self.names[0])
        # those waiting to sit down at the next hand are told too, not left to find the
        # connection gone
        told = [conn for seat, conn in self.seats.present() if seat != 0]
        for conn in [*told, *(c for c in self.coming.values() if c not in told)]:
            self._send(conn, dump("closed", reason=reason))
            self.hangups.append(conn)
        self.closed = True

    def guests(self) -> int:
        """How many people's pages sit at the table besides the host's."""
        return sum(1 for seat, _ in self.seats.present() if seat != 0)

    def _log(self, seat: int, what: str) -> None:
        self.log.note(f"{SEAT_NAMES[seat]}: {what}")

    def _send(self, conn: str, text: str) -> None:
        self.outbox.append((conn, text))
