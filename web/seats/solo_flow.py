"""The flow of the game against the computers: which game, and how it moves on.

``SoloFlow`` holds the game (``SoloGame``: which game, its computers, books, Undo step and
save) and its computers' turns (``Turns``), and moves the game on: begun (a new game, the
daily deal, a friend's code), carried on (a private table's game, closed), taken back (Undo),
dealt on (the next hand), played out; the computers set going after each, and the person
told what comes next once they are done. ``LocalSeat`` (``web.seats.solo``), the seat the
table talks to, is a ``SoloFlow``, as the host's ``HostTable`` is a ``TableFlow``. No DOM:
the pauses and the error report are injected.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Awaitable, Callable

from hearts import Event, Game, Phase, Rules
from hearts.seathand import SeatHand
from web import formats, players, words
from web.seats.solo_game import SoloGame
from web.seats.solo_turns import Turns
from web.storage import Records
from web.table.seat import QUIET, News

__all__ = ["SoloFlow"]


class SoloFlow:
    """The game against the computers as it goes, told through ``news``."""

    def __init__(self, records: Records, *, speed: Callable[[], str],
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 on_error: Callable[[BaseException], None] = lambda error: None,
                 on_good: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.monotonic,
                 seed: int | None = None,
                 today: Callable[[], datetime.date] = datetime.date.today,
                 on_hand: Callable[[SeatHand], None] = lambda record: None,
                 address: str = "") -> None:
        """``speed``: the pace now ("slow" … "instant"); ``on_error``: a computer turn
        failed (the page shows it); ``seed``: for a new game when nothing was saved;
        ``today``: the person's calendar date (the daily deal's day); ``on_hand``: a hand
        just ended, here is South's record of it (for the coach); ``address``: the page's,
        without its query (the daily's link)."""
        self.solo = SoloGame(records, seed=seed, today=today, on_hand=on_hand,
                             address=address)
        self.records = records
        self.news: News = QUIET
        self.attached = False
        """A table shows this game (only then do the computers move)."""
        self.clock_last: float | None = None
        self.turns = Turns(self, speed=speed, sleep=sleep, clock=clock, on_error=on_error,
                           on_good=on_good)
        """The computers' turns, one job at a time."""

    @property
    def saved(self) -> formats.Saved:
        return self.solo.saved

    @property
    def game(self) -> Game:
        return self.solo.game

    @property
    def bots(self) -> players.Computers:
        return self.solo.bots

    @property
    def busy(self) -> bool:
        """A move and the computers' turns after it are in flight."""
        return self.turns.busy

    @busy.setter
    def busy(self, value: bool) -> None:
        self.turns.busy = value

    @property
    def playing_out(self) -> bool:
        """The rest of the hand is being played out (South's cards too)."""
        return self.turns.playing_out

    @property
    def last_hand(self) -> SeatHand | None:
        """South's record of the game's last finished hand (for the coach)."""
        return self.solo.books.last_hand

    def settled(self) -> bool:
        return self.solo.settled()

    def code(self) -> str:
        return self.solo.code()

    def under_way(self) -> bool:
        """Whether the game has begun and isn't over (New game would lose something)."""
        return self.solo.under_way()

    def can_undo(self) -> bool:
        # While the computers answer the person's card too: undo stops their turn where it
        # is and takes back the card with whatever followed it.
        return not self.turns.playing_out and self.solo.undo_allowed()

    def keep(self) -> None:
        self.solo.keep()

    save = keep

    # --- which game -----------------------------------------------------------------------

    def new_game(self) -> None:
        """A new game under the house rules of the Settings as they are now."""
        self.begin(*self.solo.fresh())

    start_over = new_game

    def start_daily(self, day: datetime.date | None = None) -> None:
        """Today's daily deal (or ``day``'s, from a link): its seed from the date, the
        default rules, hard computers."""
        self.begin(*self.solo.daily(day))

    def play_code(self, seed: int, rules: Rules | None = None) -> None:
        """The game of a code a friend gave (``gamecode.decode_game``)."""
        self.begin(*self.solo.of_code(seed, rules if rules is not None else Rules()))

    def begin(self, saved: formats.Saved, said: str) -> None:
        """Start ``saved``'s game in place of this one, and say so."""
        self.take_over(saved)
        self.news.say(f"{said} {words.pass_prompt(self.game.view(0))}")
        self.news.flush()
        self.news.changed()
        self.kick()

    def adopt(self, game: Game, scored: bool = False) -> None:
        """Carry ``game`` on as the single-player game (a private table this page hosted,
        closed); ``scored``: its hand just ended and the summary is still to be seen."""
        saved = SoloGame.adopted(game, scored)
        self.take_over(saved)
        view = game.view(0)
        if saved.summary is None and view.phase is Phase.PASS and not view.pass_chosen[0]:
            self.news.say(f"{words.SOLO_AGAIN} {words.pass_prompt(view)}")
        else:
            self.news.say(words.SOLO_AGAIN)
        self.news.flush()
        self.kick()  # a computer may be the one to move (take_over stopped its turn)

    def take_over(self, saved: formats.Saved) -> None:
        """Make ``saved`` this seat's game, dropping any computer turn in flight."""
        self.stop()
        self.solo.replace(saved)
        self.turns.caught_up()
        self.clock_last = None

    # --- how it moves on ------------------------------------------------------------------

    def next_hand(self) -> None:
        """The person has seen the hand's summary: on to the next hand."""
        if self.saved.summary is None or self.game.phase is Phase.GAME_OVER:
            return
        self.saved.summary = None
        self.keep()
        self.news.say(words.hand_start(self.game.view(0)))
        self.news.flush()
        self.news.changed()
        self.kick()

    def undo(self) -> None:
        """Take back the person's last card and every card played after it."""
        if not self.can_undo():
            return
        self.stop()
        card = self.solo.take_back()
        self.turns.caught_up()
        self.news.say(words.took_back(card), show=True)
        self.news.flush()
        self.news.changed()
        self.kick()

    def play_out(self) -> None:
        """Play the rest of the hand, South's cards too (only once it is ``settled``)."""
        game = self.game
        if self.busy or game.to_play != 0 or self.saved.summary is not None \
                or not self.settled():
            return
        self.turns.playing_out = True
        self.saved.undo = None  # the rest is played as one: nothing to take back
        self.news.say(words.PLAYING_OUT)
        self.turns.act(lambda: game.play(game.legal_plays()[0]))

    # --- the computers ----------------------------------------------------------------------

    def kick(self) -> None:
        """Let the computers play if a move of theirs is due (after start, undo, a new hand)."""
        if self.attached:
            self.turns.kick()

    def stop(self) -> None:
        """Stop the computers' turn in flight where it is (the game stays as it is)."""
        self.turns.stop()

    def record(self, new: list[Event], start: int) -> None:
        self.solo.record(new, start)

    def turns_done(self) -> None:
        """The computers are done: the hand plays out by itself (the setting), or the person
        hears it is their turn, or that their moon's scoring is theirs to choose."""
        view = self.game.view(0)
        if (self.saved.summary is None and view.phase is Phase.PLAY and view.my_turn
                and self.records.settings.play_out and self.settled()):
            self.play_out()
        elif self.saved.summary is None and view.phase is Phase.PLAY and view.my_turn:
            self.news.say(words.turn_prompt(view))
        elif view.moon_chooser == 0:
            self.news.say(f"{words.MOON_TITLE} {words.MOON_ASK}")
        self.news.changed()
        self.news.flush()
