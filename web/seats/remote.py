"""A seat at a private table: the game runs on the host's page, this page shows one seat.

``RemoteSeat`` reads the host's messages through ``web.p2p.guest.SeatState`` (the session
in ``web.friends`` feeds it and calls ``update`` after each) and sends the person's intents
as protocol ``Intent``s. On the host's own page the same class plays the host's seat, fed
straight from its ``HostTable``; only there may New game deal again. No DOM: pytest runs it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hearts import Card, Phase
from web import words
from web.p2p.guest import SeatState
from web.p2p.protocol import Intent
from web.table.model import HandResult, SeatSnapshot, Stage
from web.table.seat import QUIET, News, toggle_pick
from web.table.sound import cue_of
from web.told import Exchanged

__all__ = ["RemoteSeat"]



class RemoteSeat:
    """This page's seat at a private table."""

    def __init__(self, seat: SeatState, send: Callable[[Intent], None], *,
                 deal: Callable[[], None] | None = None,
                 start_over: Callable[[], None] = lambda: None,
                 on_level: Callable[[str], None] = lambda level: None,
                 alone: bool = False, now: Callable[[], float] = time.monotonic) -> None:
        """``deal``: the host's page only, a new game for the whole table; ``start_over``:
        the error dialog's New game (the host deals again, a guest leaves for its own);
        ``alone``: a page left alone in the lobby, playing the computers until a person
        comes (``web.friends.fair_door``); ``now``: the clock the turn timer's seconds
        count down on (seconds)."""
        self.seat = seat
        self.now = now
        self.turn_at = now()
        """When the last state came: the seconds it gave the turn count from then."""
        self.alone = alone
        self.send = send
        self.deal = deal
        self.restart = start_over
        self.on_level = on_level
        self.news: News = QUIET
        self.selected: list[str] = []
        self.sent_play = False
        """A card went to the host: the hand waits for the next state (no second card)."""
        self.refused: str | None = None
        self.noticed: str | None = None
        self.notice_hand: int | None = None
        """The hand under way when the notice shown was said (None: before any state)."""
        self.notice_shown = False
        self.reacted = len(seat.reactions)

    @property
    def hosting(self) -> bool:
        return self.deal is not None

    def snapshot(self) -> SeatSnapshot:
        state = self.seat.state
        if self.alone:
            where = words.HOSTING_KIND
        elif self.hosting:
            where = words.HOSTING_PRIVATE
        else:  # a guest must know whose page holds their cards
            where = words.hosted_kind(state.names[0] if state is not None and state.names
                                      else "")
        if state is None:
            return SeatSnapshot(view=None, stage="connecting", note=words.AT_HOST,
                                where=where, can_deal=False)
        view = state.view
        stage: Stage = state.stage if state.stage in (
            "lobby", "pass", "play", "scores", "over") else "lobby"  # type: ignore[assignment]
        last = state.last_hand or {}
        try:
            scores = tuple(int(v) for v in last["scores"])
            result = HandResult(int(last["hand"]), (scores[0], scores[1], scores[2], scores[3]),
                                None if last.get("moon") is None else int(last["moon"]) % 4)
        except (KeyError, TypeError, ValueError, IndexError):
            result = None
        shown = None
        if stage == "play" and (view.trick is None or not view.trick.cards) and view.tricks:
            shown = view.tricks[-1]  # the trick just won stays until the next card is led
        note = ""
        if stage == "lobby":
            note = words.HOST_LOBBY if self.hosting else words.GUEST_LOBBY
        elif stage == "over":
            note = words.HOST_OVER if self.hosting else words.GUEST_OVER
        return SeatSnapshot(
            view=view, stage=stage, kinds=state.kinds, names=state.names,
            waiting=state.waiting,
            selected=tuple(self.selected),
            may_pass=stage == "pass" and view.passed is None,
            may_play=stage == "play" and view.my_turn and not self.sent_play,
            moving=self.sent_play,
            result=result if (stage == "scores" and state.ready) or stage == "over" else None,
            shown=shown, can_undo=False, can_deal=self.hosting and stage == "over",
            note=note, where=where, chat=not self.alone, turn_left=self.turn_left())

    def turn_left(self) -> int | None:
        """The seconds the host's timer gives this seat's turn, counted down here a second
        at a time since the host said (None: no timer)."""
        state = self.seat.state
        if state is None or state.turn_left is None:
            return None
        return max(0, state.turn_left - int(self.now() - self.turn_at))

    # --- the host's news ---------------------------------------------------------------------

    def update(self, kind: str) -> None:
        """A message of ``kind`` from the host has been read into ``seat``: tell the news."""
        state = self.seat.state
        news = self.news
        if kind == "state":
            self.turn_at = self.now()
        if kind == "state" and state is not None:
            me = state.view.seat
            for event in self.seat.events:
                if isinstance(event, Exchanged):
                    news.say(words.received_text(state.view), show=True)
                else:
                    news.say(words.told_text(event, me, state.names), show=True)
                news.cue(cue_of(event, me))
        if len(self.seat.reactions) != self.reacted:
            self.reacted = len(self.seat.reactions)
            who, said = self.seat.reactions[-1]
            me = state.view.seat if state is not None else -1
            names = state.names if state is not None else ()
            news.say(f"{words.seat_name(who, me, (), names)}: {said}", show=True)
        if state is not None and kind in ("state", "refused"):
            self.sent_play = False
            if state.stage != "pass":
                self.selected = []
            if (kind == "state" and self.seat.events and state.stage == "play"
                    and state.view.my_turn):
                news.say(words.turn_prompt(state.view))
        if (kind == "state" and state is not None and self.notice_shown
                and state.view.hand_number != self.notice_hand):
            # A notice is news of the table for the hand it came in (a seat from the next
            # hand, the table carried on from another page): a new hand makes it old.
            news.tell("")
            self.notice_shown = False
        news.flush()
        if self.seat.refusal and self.seat.refusal != self.refused:
            news.alert(self.seat.refusal)
        self.refused = self.seat.refusal
        if self.seat.notice and self.seat.notice != self.noticed:
            news.tell(self.seat.notice)
            self.notice_shown = True
            self.notice_hand = state.view.hand_number if state is not None else None
        self.noticed = self.seat.notice
        news.changed()

    # --- the person's intents -------------------------------------------------------------

    def attach(self, news: News) -> None:
        self.news = news

    def detach(self) -> None:
        self.news = QUIET

    def toggle(self, card: Card) -> None:
        toggle_pick(self.selected, card, self.news)

    def pass_cards(self) -> None:
        if len(self.selected) != 3:
            return
        cards = tuple(Card.parse(c) for c in self.selected)
        self.selected = []
        self.send(Intent("pass", cards))
        self.news.changed()

    def play(self, card: Card) -> None:
        state = self.seat.state
        if self.sent_play or state is None or state.view.phase is not Phase.PLAY:
            return
        self.sent_play = True
        self.send(Intent("play", (card,)))
        self.news.changed()

    def choose_moon(self, choice: str) -> None:
        """Private tables play the standard rules: no moon is ever the shooter's choice."""

    def hinted(self) -> None:
        """Nothing is shared from a table of people: a hint isn't counted."""

    def play_out(self) -> None:
        """Never offered here (``can_play_out`` stays False): each person plays every
        card of their own at a table of people."""

    def next_hand(self) -> None:
        state = self.seat.state
        if state is not None and state.stage == "scores" and state.ready:
            self.send(Intent("ready"))

    def new_game(self) -> None:
        state = self.seat.state
        if self.deal is not None and state is not None and state.stage == "over":
            self.deal()
            self.news.say(words.NEW_GAME)
            self.news.flush()

    def start_over(self) -> None:
        self.restart()

    def react(self, key: str) -> None:
        if self.seat.state is not None:
            self.send(Intent("react", reaction=key))

    def undo(self) -> None:
        """Nothing to take back: the host's game has no Undo."""

    def set_level(self, level: str) -> None:
        """The host's page plays its table's computers at the person's level."""
        self.on_level(level)

    def tick(self, now_ms: float, visible: bool) -> None:
        """The turn timer's seconds, drawn as they go (the host moves when they're out)."""
        if self.turn_left() is not None:
            self.news.changed()

    def save(self) -> None:
        """The host's page keeps its table (``web.friends``); a guest has nothing to keep."""
