"""The game against the computers and what is kept of it.

``SoloGame`` is which game is played (a new one under the Settings' house rules, the daily
deal, a friend's code, a private table's game carried on alone), its computers, its books
(``Books``: the stats, the record, the last hand), its Undo step, the save after every
move, and where it stands (its stage, whether it is under way). ``LocalSeat`` is the seat
over it, which the table talks to. No DOM, no clock.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from hearts import Card, Event, Game, GameOver, HandScored, Phase, Rules, Trick
from hearts.playout import certain_outcome, jd_taker_of, state_of
from hearts.seathand import SeatHand
from hearts.story import tricks_of
from web import formats, players, words
from web.daily import DAILY_LEVEL, daily_seed
from web.record import gamecode
from web.seats.results import Books
from web.storage import Records
from web.table.model import Stage

__all__ = ["SoloGame"]


class SoloGame:
    """The saved game (``formats.Saved``), its computers and its books, for one page."""

    def __init__(self, records: Records, *, seed: int | None,
                 today: Callable[[], datetime.date],
                 on_hand: Callable[[SeatHand], None], address: str = "") -> None:
        """``seed``: for a new game when nothing was saved; ``today``: the person's calendar
        date (the daily deal's day); ``on_hand``: a hand just ended, South's record of it;
        ``address``: the page's, without its query (the daily's link)."""
        self.records = records
        self.today = today
        self.saved = records.saved if records.saved is not None else formats.Saved(
            Game.new(seed if seed is not None else gamecode.new_seed(),
                     records.settings.rules))
        self.bots = self.computers()
        self.certain: tuple[object, int, bool] = (None, -1, False)
        """(game, cards played, answer): ``certain_outcome``'s last answer, kept."""
        self.books = Books(records, self.game, today=today, on_hand=on_hand, address=address)
        self.books.note_hand(self.game)
        self.keep()

    @property
    def game(self) -> Game:
        return self.saved.game

    @property
    def level(self) -> str:
        """The computers' level: the daily deal's own, else the one in the settings."""
        return DAILY_LEVEL if self.saved.daily is not None else self.records.settings.level

    def level_note(self) -> str:
        """What Settings says under the level: a daily deal keeps its own ("" otherwise)."""
        return words.daily_level_note(DAILY_LEVEL) if self.saved.daily is not None else ""

    def computers(self) -> players.Computers:
        """This game's computers at ``level`` now."""
        return players.Computers(self.level, self.game.seed)

    def settled(self) -> bool:
        """Whether the rest of the hand being played can't change anyone's points."""
        game = self.game
        key = (game, len(game.plays))
        if self.certain[:2] != key:
            sure = game.phase is Phase.PLAY and certain_outcome(
                state_of(game), jd_taker_of(game)) is not None
            self.certain = (game, len(game.plays), sure)
        return self.certain[2]

    def code(self) -> str:
        """This game's code (``web.record.gamecode``): a friend can play the same deals."""
        return gamecode.encode(self.game.seed, self.game.rules)

    def keep(self) -> None:
        self.records.keep_game(self.saved)

    # --- where the game stands ----------------------------------------------------------

    def stage(self) -> Stage:
        """What the table shows: over, the hand's scores, a moon to score, pass or play."""
        game = self.game
        if game.phase is Phase.GAME_OVER:
            return "over"
        if self.saved.summary is not None:
            return "scores"
        if game.phase is Phase.MOON:
            return "moon"
        return "pass" if game.phase is Phase.PASS else "play"

    def under_way(self) -> bool:
        """Whether the game has begun and isn't over (New game would lose something)."""
        g = self.game
        return g.phase is not Phase.GAME_OVER and (
            g.hand_number > 1 or bool(g.plays) or any(g.pass_chosen(s) for s in range(4)))

    def finished(self) -> tuple[Trick, ...]:
        """The tricks of the hand the summary is about (() when they aren't kept)."""
        summary, hand = self.saved.summary, self.books.last_hand
        if summary is None or hand is None or hand.hand_number != summary.hand \
                or not hand.complete:
            return ()
        return tricks_of(hand.plays)

    # --- which game -----------------------------------------------------------------------

    def fresh(self) -> tuple[formats.Saved, str]:
        """A new game under the house rules of the Settings as they are now, and its words."""
        return (formats.Saved(Game.new(gamecode.new_seed(), self.records.settings.rules)),
                words.NEW_GAME)

    def daily(self, day: datetime.date | None = None) -> tuple[formats.Saved, str]:
        """Today's daily deal (or ``day``'s, from a link): its seed from the date, the
        default rules, hard computers."""
        day = day or self.today()
        return (formats.Saved(Game.new(daily_seed(day)), daily=day.isoformat()),
                words.daily_start(day, DAILY_LEVEL))

    @staticmethod
    def of_code(seed: int, rules: Rules) -> tuple[formats.Saved, str]:
        """The game of a code a friend gave: the same deals, under the same rules."""
        return (formats.Saved(Game.new(seed, rules), from_code=True),
                words.code_start(gamecode.encode(seed, rules), rules != Rules()))

    @staticmethod
    def adopted(game: Game, scored: bool) -> formats.Saved:
        """``game`` carried on alone (a private table this page hosted, closed);
        ``scored``: its hand just ended and the summary is still to be seen."""
        saved = formats.Saved(game)
        last = next((e for e in reversed(game.events) if isinstance(e, HandScored)), None)
        if scored and last is not None and game.phase is not Phase.GAME_OVER:
            saved.summary = formats.Summary(last.hand_number, last.points_taken,
                                            last.scores, last.totals, last.moon_shooter)
        return saved

    def replace(self, saved: formats.Saved) -> None:
        """Make ``saved`` the game, with its own computers and a fresh count of its books."""
        self.saved = saved
        self.bots = self.computers()
        self.books.another_game()
        self.books.note_hand(self.game)
        self.keep()

    # --- undo ----------------------------------------------------------------------------

    def mark_undo(self) -> None:
        """The person is about to play: this card is what Undo would take back."""
        self.saved.undo = formats.UndoStep(self.game.hand_number, len(self.game.plays))

    def undo_allowed(self) -> bool:
        """Whether the person's last card can be taken back: in this hand, no summary on
        show, no later than the trick after its own."""
        step, game = self.saved.undo, self.game
        return (step is not None and game.phase is Phase.PLAY and self.saved.summary is None
                and game.hand_number == step.hand and step.plays < len(game.plays)
                and len(game.tricks) <= step.last_trick)

    def take_back(self) -> Card:
        """Take back the person's last card and every card after it (only when
        ``undo_allowed``); counted, saved; the person's card."""
        step = self.saved.undo
        assert step is not None and self.undo_allowed()
        game = self.game
        while True:
            _seat, card = game.pop()
            if len(game.plays) == step.plays:
                break
        self.saved.undo = None
        undos, hints = self.saved.helps
        self.saved.helps = (undos + 1, hints)
        self.books.note_hand(game)
        self.keep()
        return card

    # --- the books -----------------------------------------------------------------------

    def record(self, new: list[Event], start: int) -> None:
        """Keep the books of the engine's events ``new`` (from ``start`` on), then save:
        before they are told, so a reload in the middle of a pause loses nothing."""
        if self.game.phase is Phase.MOON:
            self.saved.undo = None  # the hand is over: its cards can't be taken back
        for at, event in enumerate(new):
            if isinstance(event, HandScored):
                self.books.hand_scored(self.saved, start + at, new[:at])
                self.saved.summary = formats.Summary(
                    event.hand_number, event.points_taken, event.scores, event.totals,
                    event.moon_shooter)
                self.saved.undo = None
            elif isinstance(event, GameOver):
                self.books.game_over(self.saved, event, self.level)
        self.books.note_hand(self.game)
        self.keep()
