"""The game's flow at the host's table: the stage, whom it waits for, the computers' moves.

``TableFlow`` holds the one authoritative ``Game`` and moves it on: the computer plays every
seat without a person at once (passes stay simultaneous: people choose at their own pace
while the table waits for them), the table waits after each hand until every person has
said they are ready, and at a table of strangers a turn timer (``web.p2p.turns``) has the
computer move for a person who stalls. It changes the game and says what changed; telling
the people is ``web.p2p.host``'s ``HostTable``, which is a ``TableFlow``. No I/O.
"""

from __future__ import annotations

from typing import Any, Literal

from hearts import Card, Game, HandScored, Phase, PlayerView
from hearts.bots import make as make_bot
from web import players, words
from web.p2p.protocol import Intent
from web.p2p.seats import Seats
from web.p2p.turns import TurnTimer

__all__ = ["TableFlow"]

Timed = Literal["", "shown", "moved"]
"""What a tick of the turn timer did: nothing, a new time to show, or moves for people."""


class TableFlow:
    """The game at a host's table and where it stands, over who sits where (``seats``)."""

    def __init__(self, game: Game, seats: Seats, *, level: str,
                 make_bot: players.MakeBot = players.make) -> None:
        self.game = game
        self.seats = seats
        self.level = level
        self.make_bot = make_bot
        self.started = False
        self.waiting_ready: set[int] = set()
        self.last_scored: dict[str, Any] | None = None
        self.computers = self._new_bots()
        self._seen = len(game.events)
        self.turns: TurnTimer | None = None
        """The time each person has to move (None: no limit); it runs only while another
        person is at the table, since nobody else waits otherwise."""
        self._shown_left: int | None = None
        self.timed_out: list[tuple[int, str, tuple[Card, ...]]] = []
        """The moves the timer made for people since last told: (seat, "pass" or "play",
        the cards); ``web.p2p.host`` tells each person what went for them."""

    def _new_bots(self) -> players.Computers:
        return players.Computers(self.level, self.game.seed, make=self.make_bot)

    def _deal(self, game: Game) -> None:
        """Play ``game`` from its start (the last one is over)."""
        self.game = game
        self.computers = self._new_bots()
        self._seen = len(game.events)
        self.waiting_ready.clear()
        self.last_scored = None

    def set_level(self, level: str) -> None:
        """The computers play at ``level`` from now on."""
        self.level = level
        self.computers = self._new_bots()

    # --- where the game stands ---------------------------------------------------------------

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
        return self.started and self.seats.conn(seat) is None

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

    def refusal(self, seat: int, intent: Intent) -> str | None:
        """Why ``seat`` may not do ``intent`` (a pass, a play or ready) now (None if it may)."""
        stage = self.stage()
        if stage == "lobby":
            return words.TABLE_NOT_STARTED
        if intent.kind == "ready":
            return None if seat in self.waiting_ready else words.TABLE_NOT_WAITING
        if stage == "over":
            return words.TABLE_GAME_OVER
        if stage == "scores":
            return words.TABLE_NEXT_HAND_WAITS
        if intent.kind == "pass":
            return self.game.why_pass_refused(seat, intent.cards)
        return self.game.why_illegal(intent.cards[0], seat)

    # --- the computers' moves ------------------------------------------------------------------

    def next_move(self) -> players.Move | None:
        """The move the game waits for from the computers now (``players.due``): none in
        the lobby, while the table waits for people to be ready, or once it is over."""
        if self.stage() not in ("pass", "play"):
            return None
        return players.due(self.game, self._computer)

    def due(self) -> bool:
        """True when a computer player has a move to make now."""
        return self.next_move() is not None

    def computer_turn(self) -> tuple[int, PlayerView] | None:
        """When a computer is to play a card: its seat and its view (the page runs its
        search in slices, ``computers.play``, and hands the card to ``computer_step``)."""
        move = self.next_move()
        if move is None or move.kind != "play":
            return None
        return move.seat, self.game.view(move.seat)

    def _computer_moves(self, card: Card | None) -> None:
        """Every computer pass at once, or the computer's play (``card``: the one its bot
        chose, else it chooses now). Only when ``due``."""
        move = self.next_move()
        assert move is not None
        self.computers.make(self.game, move, card)

    def _hands_ended(self) -> bool:
        """Notice hands that ended since last asked: the table waits for every person to be
        ready. True if a new hand is dealt (the people coming in may sit down)."""
        new_hand = False
        for event in self.game.events[self._seen:]:
            if isinstance(event, HandScored):
                new_hand = True
                self.last_scored = {"hand": event.hand_number, "scores": list(event.scores),
                                    "moon": event.moon_shooter}
                if self.game.phase is not Phase.GAME_OVER:
                    self.waiting_ready = {s for s, _ in self.seats.present()}
        self._seen = len(self.game.events)
        return new_hand and self.game.phase is not Phase.GAME_OVER

    # --- the turn timer -----------------------------------------------------------------------

    def _waiting_key(self) -> tuple[str, tuple[int, ...], int]:
        return self.stage(), tuple(self.waiting_for()), len(self.game.events)

    def _clocked(self) -> bool:
        """Whether a turn timer runs now: the table waits for someone, and another person
        is at it (alone with the computers, nobody waits for you)."""
        return self.turns is not None and self.stage() in ("pass", "play") \
            and bool(self.waiting_for()) and len(self.seats.present()) >= 2

    def turn_left(self, now: float | None = None) -> int | None:
        """The whole seconds the table's timer gives the people it waits for at ``now``
        (None: no timer); each page counts them down from there, a second at a time."""
        if self.turns is None or not self._clocked():
            return None
        if self.turns.waiting_for != self._waiting_key():
            return int(self.turns.limit)  # a move was just made: a new turn's full time
        if now is None:
            return self._shown_left
        return int(-(-self.turns.left(now) // 1))

    def _timed(self, now: float) -> Timed:
        """Run the turn timer: once the time is up the computer moves for the stalled."""
        turns = self.turns
        if turns is None or not self._clocked():
            self._shown_left = None
            return ""
        if turns.observe(self._waiting_key(), now):
            self._shown_left = turns.shown(now)
        if turns.left(now) > 0:
            if turns.shown(now) != self._shown_left:
                self._shown_left = turns.shown(now)
                return "shown"
            return ""
        for seat in self.waiting_for():
            self._play_for(seat)
        return "moved"

    def _play_for(self, seat: int) -> None:
        """A person's time ran out: the quick computer player moves for them."""
        game, stand_in = self.game, make_bot("normal", seed=seat)
        if game.phase is Phase.PASS and not game.pass_chosen(seat):
            cards = tuple(stand_in.choose_pass(game.view(seat)))
            game.choose_pass(seat, cards)
            self.timed_out.append((seat, "pass", cards))
        elif game.phase is Phase.PLAY and game.to_play == seat:
            card = stand_in.choose_play(game.view(seat))
            game.play(card)
            self.timed_out.append((seat, "play", (card,)))
