"""South of a game against three computer players, run and saved in this page.

``LocalSeat`` is the seat the table talks to: what the person sees (``SeatSnapshot``) and
may do, the clock. It is a ``SoloFlow`` (``web.seats.solo_flow``: which game, and how it
moves on), over ``SoloGame`` (``web.seats.solo_game``: the single-player ``Game`` inside
``formats.Saved``, its computers, its books, the Undo step, the save after every move) and
``Turns`` (``web.seats.solo_turns``: the computers play a card at a time at the chosen pace
after each of the person's moves, telling the table what happened, ``News``, as the
engine's events come). No DOM: the pauses and the error report are injected, so pytest
drives it with an instant clock.
"""

from __future__ import annotations

from hearts import Card, Phase
from web import words
from web.seats.solo_flow import SoloFlow
from web.table.model import HandResult, SeatSnapshot
from web.table.seat import QUIET, News, toggle_pick

__all__ = ["LocalSeat"]


class LocalSeat(SoloFlow):
    """The person's game against the computers, as the table sees it and plays it."""

    def snapshot(self) -> SeatSnapshot:
        game = self.game
        view = game.view(0)
        stage = self.solo.stage()
        summary = self.saved.summary
        share, note = self.solo.books.daily_result(self.saved)
        return SeatSnapshot(
            view=view, stage=stage, selected=tuple(self.saved.selected),
            may_pass=stage == "pass" and not game.pass_chosen(0),
            may_play=stage == "play" and view.my_turn and not self.busy,
            can_play_out=stage == "play" and view.my_turn and not self.busy and self.settled(),
            may_choose_moon=stage == "moon" and view.moon_chooser == 0 and not self.busy,
            moving=self.busy,
            result=None if summary is None else HandResult(summary.hand, summary.scores,
                                                           summary.moon),
            shown=self.turns.presenter.shown, collecting=self.turns.presenter.collecting,
            can_undo=self.can_undo(), can_deal=True, at_stake=self.under_way(),
            clock_ms=int(self.saved.clock_ms), code=self.code(),
            share=share, share_note=note, badge=self.solo.books.badge(self.saved),
            reviewable=summary is not None and self.solo.books.reviewable(summary.hand),
            finished=self.solo.finished())

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

    def tick(self, now_ms: float, visible: bool) -> None:
        running = visible and self.attached and self.game.phase is not Phase.GAME_OVER
        if running and self.clock_last is not None:
            self.saved.clock_ms += round(max(0.0, min(now_ms - self.clock_last, 5000.0)))
        self.clock_last = now_ms if running else None

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
            self.turns.computers_pass()

        self.turns.act(exchange)

    def play(self, card: Card) -> None:
        game = self.game
        if self.busy or game.to_play != 0 or game.why_illegal(card, 0) is not None:
            return
        self.solo.mark_undo()
        self.turns.act(lambda: game.play(card))

    def hinted(self) -> None:
        """The person asked for a hint: counted (a daily's result says so)."""
        undos, hints = self.saved.helps
        self.saved.helps = (undos, hints + 1)
        self.keep()

    def choose_moon(self, choice: str) -> None:
        """The person shot the moon and chooses how it scores (``MoonScoring`` text)."""
        game = self.game
        if self.busy or game.moon_chooser != 0 or game.why_moon_refused(0, choice) is not None:
            return
        self.turns.act(lambda: game.choose_moon(0, choice))

    def react(self, key: str) -> None:
        """Nobody to say it to: the computers don't chat."""

    def set_level(self, level: str) -> None:
        self.solo.bots = self.solo.computers()
