"""A seat at a fair table: the people's pages deal among themselves, nobody runs the game.

A ``RemoteSeat`` shows the state a host's page sends; at a fair table there is no such page,
so this seat reads this page's own ``FairTable`` (``web.p2p.fair.table``): its own cards,
and the public game every page builds from the plays. The felt table reads the same
``SeatSnapshot`` either way and never asks which kind of seat it has. ``pump`` sends what
the fair table has to say to the other pages (the session's mesh). No DOM: pytest runs it.
"""

from __future__ import annotations

from collections.abc import Callable

from hearts import Card
from hearts.rules import moon_shooter
from web import words
from web.p2p.fair.public import PublicHand
from web.p2p.fair.table import FairStage, FairTable
from web.people import AWAY, Grace
from web.table.model import HandResult, SeatSnapshot, Stage
from web.table.seat import QUIET, News, toggle_pick
from web.table.sound import cue_of
from web.told import Played, TookTrick

__all__ = ["FairSeat"]

_STAGES: dict[FairStage, Stage] = {
    FairStage.PASSING: "pass", FairStage.PLAYING: "play", FairStage.AUDITING: "play",
    FairStage.SCORED: "scores", FairStage.OVER: "over", FairStage.CLOSED: "play"}


class FairSeat:
    """This page's seat at a fair table."""

    def __init__(self, table: FairTable, pump: Callable[[], None], *,
                 start_over: Callable[[], None] = lambda: None,
                 players: tuple[int, ...] = (0, 1, 2, 3)) -> None:
        """``players``: by seat, the seat of the person whose page holds its keys — itself,
        or for a computer's seat the person whose page plays it."""
        self.table = table
        self.players = players
        self.kinds = tuple("friend" if p == s else "computer" for s, p in enumerate(players))
        self.where = words.FAIR_KIND
        self.intro = words.fair_seated(players, table.seat)
        """What the dialog says of this table: who could know which cards."""
        self.away = Grace(0.0)
        """Seats whose page's connection went, within their grace (a reload?): the
        table's, once seated (``web.people``)."""
        self.names = ["", "", "", ""]
        """Per seat, the name its person chose ("": none; always so for a computer), as
        their page sent it, signed (``web.friends.fair_names``)."""
        self.notice = ""
        """Said to the person once, when the felt shows this seat (a page left, and the
        table went on without it)."""
        self.pump = pump
        self.restart = start_over
        self.news: News = QUIET
        self.selected: list[str] = []
        self.told = (0, 0)
        """(hand, plays) already told to the person."""
        self.told_result = 0
        """The last hand whose audit the person has been told."""

    def snapshot(self) -> SeatSnapshot:
        t = self.table
        view = t.view()
        stage = t.stage
        kinds = tuple(AWAY if s in self.away else kind  # people and computers, no host
                      for s, kind in enumerate(self.kinds))
        if view is None:
            return SeatSnapshot(view=None, stage="connecting", note=words.FAIR_DEALING,
                                where=self.where, can_deal=False, kinds=kinds,
                                names=tuple(self.names))
        result = None
        if stage in (FairStage.SCORED, FairStage.OVER) and t.history:
            points = PublicHand(tuple(t.transcript.plays)).points()
            result = HandResult(t.hand_number, t.history[-1], moon_shooter(points, t.rules))
        shown = None
        if view.trick is None and view.tricks:
            shown = view.tricks[-1]  # the trick just won stays until the next card is led
        note = ""
        if stage is FairStage.AUDITING:
            note = words.FAIR_AUDITING
        elif stage is FairStage.SCORED:
            note = words.FAIR_HAND
        elif stage is FairStage.OVER:
            note = words.FAIR_OVER
        elif stage is FairStage.PASSING and t.passing is not None:
            note = words.FAIR_WAITING
        elif stage is FairStage.PLAYING and t.to_play() is None:
            note = words.FAIR_WHO_LEADS
        waiting: tuple[int, ...] = ()
        if stage is FairStage.PASSING:
            waiting = tuple(s for s in range(4) if not view.pass_chosen[s])
        elif view.to_play is not None:
            waiting = (view.to_play,)
        return SeatSnapshot(
            view=view, stage=_STAGES.get(stage, "play"), kinds=kinds, names=tuple(self.names),
            waiting=waiting,
            selected=tuple(self.selected),
            may_pass=stage is FairStage.PASSING and t.passing is None,
            may_play=t.waiting_for_me() == "play",  # (not while its card is on its way)
            result=result, shown=shown, can_undo=False, can_deal=False, note=note,
            where=self.where, chat=False, turn_left=t.turn_left(), badge="Fair table",
            verdict=words.FAIR_HAND if result is not None else "")

    # --- what happened ------------------------------------------------------------------------
    def update(self) -> None:
        """The fair table moved on (a message, a step, the audit): tell the person."""
        self.pump()
        t = self.table
        news = self.news
        plays = t.transcript.plays
        hand, told = self.told
        if hand != t.hand_number:
            told = 0
        me = t.seat
        for n in range(told, len(plays)):
            played = Played(plays[n].seat, plays[n].card)
            news.say(words.told_text(played, me, self.names), show=True)
            news.cue(cue_of(played, me))
            if n % 4 == 3:
                trick = PublicHand(tuple(plays[:n + 1])).tricks()[-1]
                assert trick.winner is not None  # four cards played: the trick is won
                won = TookTrick(trick.winner, trick.points)
                news.say(words.told_text(won, me, self.names), show=True)
                news.cue(cue_of(won, me))
        if len(plays) > told and t.stage is FairStage.PLAYING and t.to_play() == me:
            view = t.view()
            if view is not None:
                news.say(words.turn_prompt(view))
        self.told = (t.hand_number, len(plays))
        if t.result is not None and self.told_result != t.hand_number:
            self.told_result = t.hand_number
            news.say(words.FAIR_HAND)
        if t.stage is not FairStage.PASSING:
            self.selected = []
        news.flush()
        news.changed()

    # --- the person's intents -------------------------------------------------------------
    def attach(self, news: News) -> None:
        self.news = news
        if self.notice:
            news.tell(self.notice)
            self.notice = ""

    def detach(self) -> None:
        self.news = QUIET

    def toggle(self, card: Card) -> None:
        toggle_pick(self.selected, card, self.news)

    def pass_cards(self) -> None:
        if len(self.selected) != 3:
            return
        refusal = self.table.choose_pass(tuple(Card.parse(c) for c in self.selected))
        if refusal is not None:
            self.news.alert(refusal)
        self.selected = []
        self.update()

    def play(self, card: Card) -> None:
        refusal = self.table.play(card)
        if refusal is not None:
            self.news.alert(refusal)
        self.update()

    def choose_moon(self, choice: str) -> None:
        """Fair tables play the standard rules: no moon is ever the shooter's choice."""

    def hinted(self) -> None:
        """Nothing is shared from a table of people: a hint isn't counted."""

    def play_out(self) -> None:
        """Never offered here (``can_play_out`` stays False): each person plays every
        card of their own at a table of people."""

    def next_hand(self) -> None:
        self.table.next_hand()
        self.update()

    def new_game(self) -> None:
        """A fair table plays one game; Play online finds the next."""

    def start_over(self) -> None:
        self.restart()

    def react(self, key: str) -> None:
        """No reactions at a fair table (every message there is part of the deal)."""

    def undo(self) -> None:
        """Nothing to take back: a card played is shown to every page."""

    def set_level(self, level: str) -> None:
        """No computers at a fair table."""

    def tick(self, now_ms: float, visible: bool) -> None:
        """The turn timer: this page moves for its person when their time is out."""
        if self.table.tick() or self.table.stalled():
            made = self.table.timer.take_made()
            self.update()
            if made is not None:  # the person's time ran out: say what went for them
                self.news.tell(words.time_up(*made))
        elif self.table.turn_left() is not None:
            self.news.changed()  # the seconds left, on the prompt line

    def save(self) -> None:
        """Nothing to keep: a fair hand can't outlive its pages' keys."""
