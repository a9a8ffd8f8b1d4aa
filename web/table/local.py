"""South of a game against three computer players, run and saved in this page.

``LocalSeat`` owns the single-player ``Game`` (inside ``store.Saved``, with the page's own
bits around it: the cards picked to pass, the hand summary, the Undo step, the clock) and
the computers that play West, North and East. After each of the person's moves it saves,
then lets the computers play one card at a time at the chosen pace, telling the table what
happened (``News``) as the engine's events come. No DOM: the pauses and the error report
are injected, so pytest drives it with an instant clock.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Awaitable, Callable
from typing import Any

from hearts import Card, Game, GameOver, HandScored, Phase, Rules, Trick
from hearts.playout import certain_outcome, jd_taker_of, state_of
from hearts.seathand import SeatHand
from hearts.story import tricks_of
from web import players, store, words
from web.record import gamecode
from web.record.daily import DAILY_LEVEL, daily_seed
from web.storage import Records
from web.table.books import Books
from web.table.model import HandResult, SeatSnapshot, Stage
from web.table.presenter import Presenter
from web.table.seat import QUIET, News, toggle_pick
from web.tasks import Tasks

__all__ = ["LocalSeat"]



class LocalSeat:
    """The person's game against the computers."""

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
        self.records = records
        self.speed = speed
        self.sleep = sleep
        self.on_error = on_error
        self.on_good = on_good
        self.clock = clock
        self.today = today
        self.saved = records.saved if records.saved is not None else store.Saved(
            Game.new(seed if seed is not None else gamecode.new_seed(),
                     records.settings.rules))
        self.news: News = QUIET
        self.attached = False
        self.generation = 0
        """Bumped to stop a computer turn in flight (undo, new game, the table leaving)."""
        self.busy = False
        self.playing_out = False
        """The rest of the hand is being played out (South's cards too)."""
        self.certain: tuple[object, int, bool] = (None, -1, False)
        """(game, cards played, answer): ``certain_outcome``'s last answer, kept."""
        self.presenter = Presenter(self._pace, sleep)
        self.clock_last: float | None = None
        self.seen = len(self.game.events)
        self.bots = self._make_bots()
        self.tasks = Tasks(on_error=self._failed)
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

    def _pace(self) -> str:
        """The pace of the table: a hand played out goes at least at the fast pace."""
        pace = self.speed()
        return "fast" if self.playing_out and pace in ("slow", "normal") else pace

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

    def _make_bots(self) -> list[Any]:
        seed = self.game.seed
        level = self.level
        return [None] + [players.make(level, (seed * 4 + seat) % (2**53)) for seat in (1, 2, 3)]

    def keep(self) -> None:
        self.records.keep_game(self.saved)

    save = keep

    # --- reading ---------------------------------------------------------------------------

    def stage(self) -> Stage:
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

    def can_undo(self) -> bool:
        s = self.saved
        g = self.game
        return (not self.busy and s.undo is not None and g.phase is Phase.PLAY
                and s.summary is None and g.hand_number == s.undo_hand
                and len(g.tricks) <= s.undo_trick)

    def snapshot(self) -> SeatSnapshot:
        game = self.game
        view = game.view(0)
        stage = self.stage()
        summary = self.saved.summary
        share, note = self.books.daily_result(self.saved)
        return SeatSnapshot(
            view=view, stage=stage, selected=tuple(self.saved.selected),
            may_pass=stage == "pass" and not game.pass_chosen(0),
            may_play=stage == "play" and view.my_turn and not self.busy,
            can_play_out=stage == "play" and view.my_turn and not self.busy and self.settled(),
            may_choose_moon=stage == "moon" and view.moon_chooser == 0 and not self.busy,
            moving=self.busy,
            result=None if summary is None else HandResult(summary.hand, summary.scores,
                                                           summary.moon),
            shown=self.presenter.shown, collecting=self.presenter.collecting,
            can_undo=self.can_undo(), can_deal=True, at_stake=self.under_way(),
            clock_ms=int(self.saved.clock_ms), code=self.code(),
            share=share, share_note=note, badge=self.books.badge(self.saved),
            reviewable=summary is not None and self.books.reviewable(summary.hand),
            finished=self._finished(summary))

    def _finished(self, summary: store.Summary | None) -> tuple[Trick, ...]:
        """The tricks of the hand the summary is about (() when they aren't kept)."""
        hand = self.books.last_hand
        if summary is None or hand is None or hand.hand_number != summary.hand \
                or not hand.complete:
            return ()
        return tricks_of(hand.plays)

    @property
    def last_hand(self) -> SeatHand | None:
        """South's record of the game's last finished hand (for the coach)."""
        return self.books.last_hand

    # --- the table comes and goes ---------------------------------------------------------

    def attach(self, news: News) -> None:
        self.news = news
        self.attached = True
        if self.saved.summary is None and self.game.phase is Phase.PASS \
                and not self.game.pass_chosen(0):
            news.say(words.pass_prompt(self.game.view(0)))
            news.flush()
        self.kick()

    def detach(self) -> None:
        self.stop()
        self.attached = False
        self.news = QUIET

    def stop(self) -> None:
        """Stop the computers' turn in flight where it is (the game stays as it is)."""
        self.generation += 1
        self.busy = False
        self.playing_out = False
        self.presenter.clear()

    # --- the person's intents -------------------------------------------------------------

    def toggle(self, card: Card) -> None:
        toggle_pick(self.saved.selected, card, self.news)
        self.keep()

    def pass_cards(self) -> None:
        chosen = list(self.saved.selected)
        if self.busy or len(chosen) != 3 or self.game.phase is not Phase.PASS:
            return

        def exchange() -> None:
            self.game.choose_pass(0, chosen)
            self.saved.selected = []
            self._computers_pass()

        self._act(exchange)

    def play(self, card: Card) -> None:
        game = self.game
        if self.busy or game.to_play != 0 or game.why_illegal(card, 0) is not None:
            return
        s = self.saved
        s.undo = game.to_json()
        s.undo_hand = game.hand_number
        s.undo_trick = len(game.tricks) + 1
        self._act(lambda: game.play(card))

    def hinted(self) -> None:
        """The person asked for a hint: counted (a daily's result says so)."""
        undos, hints = self.saved.helps
        self.saved.helps = (undos, hints + 1)
        self.keep()

    def play_out(self) -> None:
        """Play the rest of the hand, South's cards too (only once it is ``settled``)."""
        game = self.game
        if self.busy or game.to_play != 0 or self.saved.summary is not None \
                or not self.settled():
            return
        self.playing_out = True
        self.saved.undo = None  # the rest is played as one: nothing to take back
        self.news.say(words.PLAYING_OUT)
        self._act(lambda: game.play(game.legal_plays()[0]))

    def choose_moon(self, choice: str) -> None:
        """The person shot the moon and chooses how it scores (``MoonScoring`` text)."""
        game = self.game
        if self.busy or game.moon_chooser != 0 or game.why_moon_refused(0, choice) is not None:
            return
        self._act(lambda: game.choose_moon(0, choice))

    def next_hand(self) -> None:
        if self.saved.summary is None or self.game.phase is Phase.GAME_OVER:
            return
        self.saved.summary = None
        self.keep()
        self.news.say(words.hand_start(self.game.view(0)))
        self.news.flush()
        self.news.changed()
        self.kick()

    def new_game(self) -> None:
        """A new game under the house rules of the Settings as they are now."""
        self.begin(store.Saved(Game.new(gamecode.new_seed(), self.records.settings.rules)),
                   words.NEW_GAME)

    def start_daily(self, day: datetime.date | None = None) -> None:
        """Today's daily deal (or ``day``'s, from a link): its seed from the date, the
        default rules, hard computers."""
        day = day or self.today()
        self.begin(store.Saved(Game.new(daily_seed(day)), daily=day.isoformat()),
                   words.daily_start(day))

    def play_code(self, seed: int, rules: Rules | None = None) -> None:
        """The game of a code a friend gave (``gamecode.decode_game``): the same deals,
        under the same rules."""
        rules = rules if rules is not None else Rules()
        self.begin(store.Saved(Game.new(seed, rules), from_code=True),
                   words.code_start(gamecode.encode(seed, rules), rules != Rules()))

    def begin(self, saved: store.Saved, said: str) -> None:
        """Start ``saved``'s game in place of this one, and say so."""
        self.take_over(saved)
        self.news.say(f"{said} {words.pass_prompt(self.game.view(0))}")
        self.news.flush()
        self.news.changed()
        self.kick()

    start_over = new_game

    def undo(self) -> None:
        """Take back the person's last card and every card played after it."""
        if not self.can_undo() or not any(seat == 0 for seat, _ in self.game.plays):
            return
        self.stop()
        game = self.game
        while True:
            seat, card = game.pop()
            if seat == 0:
                break
        self.saved.undo = None
        undos, hints = self.saved.helps
        self.saved.helps = (undos + 1, hints)
        self.seen = len(game.events)
        self.books.note_hand(game)
        self.keep()
        self.news.say(words.took_back(card), show=True)
        self.news.flush()
        self.news.changed()
        self.kick()

    def adopt(self, game: Game, scored: bool = False) -> None:
        """Carry ``game`` on as the single-player game (a private table this page hosted,
        closed); ``scored``: its hand just ended and the summary is still to be seen."""
        saved = store.Saved(game)
        last = next((e for e in reversed(game.events) if isinstance(e, HandScored)), None)
        if scored and last is not None and game.phase is not Phase.GAME_OVER:
            saved.summary = store.Summary(last.hand_number, last.points_taken,
                                          last.scores, last.totals, last.moon_shooter)
        self.take_over(saved)
        view = game.view(0)
        if saved.summary is None and view.phase is Phase.PASS and not view.pass_chosen[0]:
            self.news.say(f"{words.SOLO_AGAIN} {words.pass_prompt(view)}")
        else:
            self.news.say(words.SOLO_AGAIN)
        self.news.flush()

    def take_over(self, saved: store.Saved) -> None:
        """Make ``saved`` this seat's game, dropping any computer turn in flight."""
        self.stop()
        self.saved = saved
        self.seen = len(self.game.events)
        self.bots = self._make_bots()
        self.clock_last = None
        self.books.another_game()
        self.books.note_hand(self.game)
        self.keep()

    def react(self, key: str) -> None:
        """Nobody to say it to: the computers don't chat."""

    def set_level(self, level: str) -> None:
        self.bots = self._make_bots()

    def tick(self, now_ms: float, visible: bool) -> None:
        running = visible and self.attached and self.game.phase is not Phase.GAME_OVER
        if running and self.clock_last is not None:
            self.saved.clock_ms += round(max(0.0, min(now_ms - self.clock_last, 5000.0)))
        self.clock_last = now_ms if running else None

    # --- running the game -------------------------------------------------------------------

    def kick(self) -> None:
        """Let the computers play if it is their turn (after start, undo, a new hand)."""
        if not self.attached or self.busy or self.saved.summary is not None:
            return
        game = self.game
        if game.phase is Phase.PASS and game.pass_chosen(0):
            self._act(self._computers_pass)  # a save from between two passes: finish them
        elif (game.phase is Phase.PLAY and game.to_play != 0) or (
                game.phase is Phase.MOON and game.moon_chooser != 0):
            self._act(lambda: None)

    def _computers_pass(self) -> None:
        game = self.game
        for seat in (1, 2, 3):
            if game.phase is Phase.PASS and not game.pass_chosen(seat):
                game.choose_pass(seat, self.bots[seat].choose_pass(game.view(seat)))

    def _act(self, move: Callable[[], None]) -> None:
        """Run a move, present what it caused, then let the computers play."""
        if self.busy:
            return
        self.busy = True
        self.news.changed()
        self.tasks.spawn(self._run(move, self.generation), on_done=self.on_good)

    async def _run(self, move: Callable[[], None], generation: int) -> None:
        try:
            move()
            await self._present(generation)
            while generation == self.generation and self._computers_due():
                self.news.changed()
                chooser = self.game.moon_chooser
                if chooser is not None:  # a computer shot the moon: it chooses at once
                    bot = self.bots[chooser]
                    self.game.choose_moon(chooser, bot.choose_moon(self.game.view(chooser)))
                    await self._present(generation)
                    continue
                started = self.clock()
                seat = self.game.to_play
                assert seat is not None
                if seat == 0:  # played out: any legal card gives the same points
                    card = self.game.legal_plays()[0]
                else:
                    card = await players.choose_play(self.bots[seat], self.game.view(seat))
                # The computer's thinking counts toward the pause before its card.
                left = self.presenter.delays()[0] - (self.clock() - started)
                if left > 0:
                    await self.sleep(left)
                if generation != self.generation:
                    return
                self.game.play(card)
                await self._present(generation)
        finally:
            if generation == self.generation:
                self.busy = False
                view = self.game.view(0)
                if self.saved.summary is not None:
                    self.playing_out = False
                if (self.saved.summary is None and view.phase is Phase.PLAY and view.my_turn
                        and self.records.settings.play_out and self.settled()):
                    self.play_out()  # the setting: the rest plays out by itself
                elif self.saved.summary is None and view.phase is Phase.PLAY and view.my_turn:
                    self.news.say(words.turn_prompt(view))
                elif view.moon_chooser == 0:
                    self.news.say(f"{words.MOON_TITLE} {words.MOON_ASK}")
                self.news.changed()
                self.news.flush()

    def _failed(self, error: BaseException) -> None:
        self.busy = False
        self.on_error(error)

    def _computers_due(self) -> bool:
        game = self.game
        if game.phase is Phase.MOON:
            return game.moon_chooser != 0
        return (self.saved.summary is None and game.phase is Phase.PLAY
                and (game.to_play != 0 or self.playing_out))

    async def _present(self, generation: int) -> None:
        """Save, then tell the engine's new events in order (trick pauses included)."""
        game = self.game
        start = self.seen
        new = game.events[start:]
        self.seen = len(game.events)
        if game.phase is Phase.MOON:
            self.saved.undo = None  # the hand is over: its cards can't be taken back
        for at, event in enumerate(new):  # bookkeeping first: a reload mid-pause loses nothing
            if isinstance(event, HandScored):
                self.books.hand_scored(self.saved, start + at, new[:at])
                self.saved.summary = store.Summary(
                    event.hand_number, event.points_taken, event.scores, event.totals,
                    event.moon_shooter)
                self.saved.undo = None
            elif isinstance(event, GameOver):
                self.books.game_over(self.saved, event, self.level)
        self.books.note_hand(self.game)
        self.keep()
        await self.presenter.tell(new, lambda: self.game.view(0), self.news,
                                  lambda: generation == self.generation)
