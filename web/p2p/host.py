"""The host's side of a private table: the one authoritative ``Game`` and who sits where.

``HostTable`` does no I/O. The page's glue tells it about connections (``join``, ``drop``)
and hands it every message text (``receive``); it answers by appending
``(connection, text)`` pairs to ``outbox`` and connection ids to close to ``hangups``.
The host person is seat 0 (South) on the connection ``LOCAL``. Rules it keeps:

- a connection's seat is the one it was invited to, bound at ``join``; messages never name
  a seat, so a guest can only act for its own seat, and each seat gets only its own view;
- messages are checked for size, shape and rate (a token bucket per connection) before
  the engine is asked; whatever arrives, the game stays valid and the host keeps going;
  each refusal is noted in ``log`` (the page shows it to the host);
- seats without a person are played by the computer at once once the game starts (passes
  stay simultaneous: people choose at their own pace while the table waits for them);
- a dropped guest's seat waits ``grace`` seconds, then the computer takes it over; the host
  may invite someone to any computer seat at any time;
- after each hand the table waits until every person has said they are ready;
- at a table of strangers a page that comes in mid-hand gets a computer's seat from the
  next hand (``reserve``), so a hand is played out by those who began it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hearts import (
    SEAT_NAMES,
    Card,
    Game,
    HandScored,
    IllegalMoveError,
    Phase,
    PlayerView,
)
from hearts.bots import make as make_bot
from web import players
from web.p2p.protocol import (
    REACTIONS,
    Intent,
    ProtocolError,
    dump,
    event_to_dict,
    parse_intent,
    peer_of,
    view_to_dict,
)
from web.p2p.turns import TurnTimer

__all__ = ["LOCAL", "HostTable", "RefusalLog"]

LOCAL = "local"
"""The host person's own connection id (seat 0)."""
COMING = ("You have a seat at this table from its next hand. The hand under way is being "
          "played out, with the computer in your seat.")
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
class _Seat:
    conn: str | None = None
    """The person's connection; None: the computer plays (or nobody yet, in the lobby)."""
    away_since: float | None = None
    """When the person's connection dropped (the seat waits for the grace period)."""
    sent: int = 0
    bucket: _Bucket = field(default_factory=_Bucket)


class HostTable:
    """One private table as its host runs it."""

    def __init__(self, game: Game, *, level: str = "normal", grace: float = 20.0,
                 make_bot: Callable[[str, int], Any] = players.make) -> None:
        self.game = game
        self.level = level
        self.grace = grace
        self.make_bot = make_bot
        self.seats = [_Seat(LOCAL)] + [_Seat() for _ in range(3)]
        self.started = False
        self.closed = False
        self.waiting_ready: set[int] = set()
        self.last_scored: dict[str, Any] | None = None
        self.outbox: list[tuple[str, str]] = []
        self.hangups: list[str] = []
        self.log = RefusalLog()
        """The host's log of refused guest messages (the page shows it)."""
        self._bots = self._new_bots()
        self._seen = len(game.events)
        self.turns: TurnTimer | None = None
        """A table of strangers: the time each person has to move (None: no limit)."""
        self.coming: dict[int, str] = {}
        """seat -> the connection of a person who takes it from the next hand."""
        self.clock = 0.0
        """The last time the page told the table (seconds)."""
        self.online = False
        """A table of strangers: each state names the people's pages (``roster``), so that
        another page can carry the table on if this one goes (``web.friends.handover``)."""
        self._shown_left: int | None = None

    def _new_bots(self) -> list[Any]:
        seed = self.game.seed
        return [self.make_bot(self.level, (seed * 4 + seat) % (2**53)) for seat in range(4)]

    # --- who sits where ------------------------------------------------------------------------

    def seat_of(self, conn: str) -> int | None:
        """The seat bound to ``conn`` (None if it has none)."""
        for number, seat in enumerate(self.seats):
            if seat.conn == conn:
                return number
        return None

    def roster(self) -> list[str | None]:
        """The page id of the person in each guest seat (None: the host's seat, a computer,
        or a friend who came in by invite rather than through a meeting room)."""
        return [None if number == 0 or seat.conn is None or not seat.conn.startswith("r:")
                else peer_of(seat.conn) for number, seat in enumerate(self.seats)]

    def kind(self, seat: int) -> str:
        """host, friend, away (dropped, in its grace period), computer, or open (lobby)."""
        s = self.seats[seat]
        if seat == 0:
            return "host"
        if s.conn is not None:
            return "away" if s.away_since is not None else "friend"
        return "computer" if self.started else "open"

    def join(self, conn: str, seat: int, now: float) -> bool:
        """Bind ``conn`` to ``seat`` (1-3), replacing a dropped or computer player.

        False (and nothing changes) if a connected person already sits there.
        """
        if self.closed or conn == LOCAL or not 1 <= seat <= 3 or self.seat_of(conn) is not None:
            return False
        s = self.seats[seat]
        if s.conn is not None and s.away_since is None:
            return False
        if s.conn is not None:
            self.hangups.append(s.conn)
        self.seats[seat] = _Seat(conn, sent=len(self.game.events), bucket=_Bucket(at=now))
        self.broadcast()
        return True

    def reserve(self, conn: str, seat: int) -> bool:
        """Keep the computer's ``seat`` for ``conn`` from the next hand (tell it so); False
        if it isn't a computer's seat or is kept for someone else."""
        if self.closed or self.kind(seat) != "computer" or seat in self.coming \
                or conn in self.coming.values() or self.seat_of(conn) is not None:
            return False
        self.coming[seat] = conn
        self._send(conn, dump("notice", text=COMING))
        return True

    def open_seats(self) -> int:
        """Computer seats nobody is coming to take (while the game goes on)."""
        if not self.started or self.closed or self.game.phase is Phase.GAME_OVER:
            return 0
        return sum(self.kind(s) == "computer" and s not in self.coming for s in (1, 2, 3))

    def drop(self, conn: str, now: float) -> None:
        """``conn`` closed or lost its connection: its seat waits ``grace`` seconds."""
        self.coming = {seat: c for seat, c in self.coming.items() if c != conn}
        seat = self.seat_of(conn)
        if seat is None or seat == 0:
            return
        if not self.started:
            self.seats[seat] = _Seat()
        elif self.seats[seat].away_since is None:
            self.seats[seat].away_since = now
        self.broadcast()

    def _to_computer(self, seat: int) -> None:
        conn = self.seats[seat].conn
        if conn is not None:
            self.hangups.append(conn)
        self.seats[seat] = _Seat()
        self.waiting_ready.discard(seat)

    def tick(self, now: float) -> bool:
        """Give the computer every seat whose grace period is over, and play for a person
        whose time to move ran out; True if the table changed."""
        changed = False
        self.clock = now
        for number, seat in enumerate(self.seats):
            if seat.away_since is not None and now - seat.away_since >= self.grace:
                self._to_computer(number)
                changed = True
        if changed:
            self.broadcast()
        return self._timed(now) or changed

    def _waiting_key(self) -> tuple[str, tuple[int, ...], int]:
        return self.stage(), tuple(self.waiting_for()), len(self.game.events)

    def turn_left(self) -> int | None:
        """The seconds the table's timer gives the people it waits for (None: no timer)."""
        if self.turns is None or self.stage() not in ("pass", "play") \
                or not self.waiting_for():
            return None
        if self.turns.waiting_for != self._waiting_key():
            return int(self.turns.limit)  # a move was just made: a new turn's full time
        return self._shown_left

    def _timed(self, now: float) -> bool:
        turns = self.turns
        if turns is None or self.stage() not in ("pass", "play") or not self.waiting_for():
            self._shown_left = None
            return False
        if turns.observe(self._waiting_key(), now):
            self._shown_left = turns.shown(now)
        if turns.left(now) > 0:
            if turns.shown(now) != self._shown_left:
                self._shown_left = turns.shown(now)
                self.broadcast()
            return False
        for seat in self.waiting_for():
            self._play_for(seat)
        self._after_moves()
        return True

    def _play_for(self, seat: int) -> None:
        """A person's time ran out: the quick computer player moves for them."""
        game, stand_in = self.game, make_bot("normal", seed=seat)
        if game.phase is Phase.PASS and not game.pass_chosen(seat):
            game.choose_pass(seat, stand_in.choose_pass(game.view(seat)))
        elif game.phase is Phase.PLAY and game.to_play == seat:
            game.play(stand_in.choose_play(game.view(seat)))

    # --- the game --------------------------------------------------------------------------------

    def start(self) -> None:
        """Deal in: seats nobody took are the computer's from now on."""
        self.started = True
        self.broadcast()

    def new_game(self, game: Game) -> None:
        """Replace a finished game with ``game`` (same people, same seats)."""
        self.game = game
        self._bots = self._new_bots()
        self._seen = len(game.events)
        self.waiting_ready.clear()
        self.last_scored = None
        for seat in self.seats:
            seat.sent = len(game.events)
        self.broadcast()

    def stage(self) -> str:
        """lobby, pass, play, scores (waiting for people to be ready) or over."""
        if not self.started:
            return "lobby"
        if self.game.phase is Phase.GAME_OVER:
            return "over"
        if self.waiting_ready:
            return "scores"
        return "pass" if self.game.phase is Phase.PASS else "play"

    def _computer(self, seat: int) -> bool:
        return self.started and self.seats[seat].conn is None

    def waiting_for(self) -> list[int]:
        """The seats (people, or dropped people) the table is waiting for now."""
        stage = self.stage()
        if stage == "scores":
            return sorted(self.waiting_ready)
        if stage == "pass":
            return [s for s in range(4)
                    if not self.game.pass_chosen(s) and not self._computer(s)]
        if stage == "play":
            seat = self.game.to_play
            return [] if seat is None or self._computer(seat) else [seat]
        return []

    def due(self) -> bool:
        """True when a computer player has a move to make now."""
        stage = self.stage()
        if stage == "pass":
            return any(self._computer(s) and not self.game.pass_chosen(s) for s in range(4))
        if stage == "play":
            seat = self.game.to_play
            return seat is not None and self._computer(seat)
        return False

    def computer_turn(self) -> tuple[int, Any, PlayerView] | None:
        """When a computer is to play a card: its seat, its bot and its view (the page runs
        the bot's search in slices and hands the card to ``computer_step``)."""
        if not self.due() or self.game.phase is not Phase.PLAY:
            return None
        seat = self.game.to_play
        assert seat is not None
        return seat, self._bots[seat], self.game.view(seat)

    def computer_step(self, card: Card | None = None) -> bool:
        """Make the computer's next move (every computer pass at once; ``card``: the play
        its bot chose, else it chooses now); True if one was made."""
        if not self.due():
            return False
        game = self.game
        if game.phase is Phase.PASS:
            for seat in range(4):
                if self._computer(seat) and not game.pass_chosen(seat):
                    game.choose_pass(seat, self._bots[seat].choose_pass(game.view(seat)))
        else:
            player = game.to_play
            assert player is not None
            if card is None or game.why_illegal(card, player) is not None:
                card = self._bots[player].choose_play(game.view(player))
            game.play(card)
        self._after_moves()
        return True

    def set_level(self, level: str) -> None:
        """The computers play at ``level`` from now on."""
        self.level = level
        self._bots = self._new_bots()

    def _after_moves(self) -> None:
        """Notice hands that ended: the table waits for every person to be ready, and the
        people who came in during the hand sit down."""
        new_hand = False
        for event in self.game.events[self._seen:]:
            if isinstance(event, HandScored):
                new_hand = True
                self.last_scored = {"hand": event.hand_number, "scores": list(event.scores),
                                    "moon": event.moon_shooter}
                if self.game.phase is not Phase.GAME_OVER:
                    self.waiting_ready = {s for s, seat in enumerate(self.seats)
                                          if seat.conn is not None and seat.away_since is None}
        self._seen = len(self.game.events)
        if new_hand and self.coming and self.game.phase is not Phase.GAME_OVER:
            coming, self.coming = self.coming, {}
            for seat, conn in coming.items():  # a new hand: those who came in sit down
                self.join(conn, seat, self.clock)
        self.broadcast()

    # --- messages --------------------------------------------------------------------------------

    def receive(self, conn: str, text: object, now: float) -> None:
        """A message from guest ``conn``: checked, then acted on for that connection's seat."""
        seat = self.seat_of(conn)
        self.clock = now
        if seat is None or seat == 0 or self.closed:
            return
        bucket = self.seats[seat].bucket
        if not bucket.take(now):
            if bucket.dropped == 1:
                self._log(seat, "too many messages at once (dropped)")
            if bucket.dropped >= FLOOD_LIMIT:
                self._log(seat, f"{FLOOD_LIMIT} messages dropped: the computer took the seat")
                self._send(conn, dump("closed", reason="Your page sent too many messages, so "
                                      "the host's table let the computer take your seat."))
                self._to_computer(seat)
                self.broadcast()
            return
        try:
            intent = parse_intent(text)
        except ProtocolError as problem:
            self._log(seat, f"a message that breaks the protocol ({problem})")
            self._send(conn, dump("refused", reason="The host's table didn't understand that "
                                  "message. Reloading the page may help."))
            return
        self.act(seat, intent)

    def local(self, intent: Intent) -> None:
        """The host person's own intent (seat 0)."""
        self.act(0, intent)

    def act(self, seat: int, intent: Intent) -> None:
        """Carry out ``intent`` for ``seat``, or tell that seat why not."""
        if intent.kind == "react":
            for s in self.seats:
                if s.conn is not None and s.away_since is None:
                    self._send(s.conn, dump("reaction", seat=seat, id=intent.reaction,
                                            text=REACTIONS[intent.reaction]))
            return
        if intent.kind == "leave":
            if seat != 0:
                conn = self.seats[seat].conn
                if conn is not None:
                    self._send(conn, dump("closed", reason="You left the table."))
                self._to_computer(seat)
                self.broadcast()
            return
        reason = self._refusal(seat, intent)
        if reason is not None:
            if seat != 0:
                self._log(seat, f"{intent.kind} refused: {reason}")
            conn = self.seats[seat].conn
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
        except IllegalMoveError:  # _refusal checks first; this is a second line of defence
            return
        self._after_moves()

    def _refusal(self, seat: int, intent: Intent) -> str | None:
        """Why ``seat`` may not do ``intent`` now (None if it may)."""
        stage = self.stage()
        if stage == "lobby":
            return "The game hasn't started yet."
        if intent.kind == "ready":
            return None if seat in self.waiting_ready else "The table isn't waiting for that."
        if stage == "over":
            return "The game is over."
        if stage == "scores":
            return "The next hand starts when everyone has seen the scores."
        if intent.kind == "pass":
            return self.game.why_pass_refused(seat, intent.cards)
        return self.game.why_illegal(intent.cards[0], seat)

    # --- what each seat sees -----------------------------------------------------------------

    def state_for(self, seat: int) -> dict[str, Any]:
        """The state message for ``seat``: its own view and the public table."""
        events = self.game.events[self.seats[seat].sent:][-MAX_EVENTS:]
        return {
            "stage": self.stage(),
            "view": view_to_dict(self.game.view(seat)),
            "kinds": [self.kind(s) for s in range(4)],
            "waiting": self.waiting_for(),
            "turn_left": self.turn_left(),
            "ready": seat in self.waiting_ready,
            "last_hand": self.last_scored,
            "events": [event_to_dict(e) for e in events],
            **({"peers": self.roster()} if self.online else {}),
        }

    def broadcast(self) -> None:
        """Queue a fresh state message for every connected seat (and the host's own)."""
        for number, seat in enumerate(self.seats):
            if seat.conn is not None and seat.away_since is None:
                self._send(seat.conn, dump("state", **self.state_for(number)))
                seat.sent = len(self.game.events)

    def tell(self, text: str) -> None:
        """A notice for every guest at the table (their pages show it once)."""
        for seat in self.seats[1:]:
            if seat.conn is not None and seat.away_since is None:
                self._send(seat.conn, dump("notice", text=text))

    def close(self, reason: str = "The host closed the table.") -> None:
        """The host leaves: every guest is told the table has closed, and why."""
        if self.closed:
            return
        # At an online table another page carries on (``web.friends.handover``).
        handover = {"handover": True} if self.online else {}
        for seat in self.seats[1:]:
            if seat.conn is not None and seat.away_since is None:
                self._send(seat.conn, dump("closed", reason=reason, **handover))
                self.hangups.append(seat.conn)
        self.closed = True

    def _log(self, seat: int, what: str) -> None:
        self.log.note(f"{SEAT_NAMES[seat]}: {what}")

    def _send(self, conn: str, text: str) -> None:
        self.outbox.append((conn, text))
