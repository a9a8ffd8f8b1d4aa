"""One page's fair game as its person sees it: the hand under way, and the scores. No I/O.

What the felt reads: the stage, this seat's cards and view, what it may play, what the
person is to do now. ``table.FairTable`` is a ``FairGame`` that takes part in the protocol:
it starts each hand, takes its steps, sends and receives the messages, and closes. What is
read here changes only through it (``_score`` aside: the table counts a hand that passed its
audit). The hands' rules come from public information and this page's own hand
(``public.PublicHand``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from hearts import Card, PlayerView
from hearts.rules import NUM_SEATS, PassDirection, Rules
from web.p2p.fair.audit import AuditResult
from web.p2p.fair.hand import FairHand
from web.p2p.fair.hand_record import Play
from web.p2p.fair.party import Party
from web.p2p.fair.public import PublicHand, Score, game_winner
from web.p2p.fair.transcript import Transcript

__all__ = ["FairGame", "FairStage"]


class FairStage(Enum):
    """Where a fair table is: what the felt shows, and what the person's clock waits for."""

    DEALING = "dealing"
    PASSING = "passing"
    PLAYING = "playing"
    AUDITING = "auditing"
    SCORED = "scored"
    OVER = "over"
    CLOSED = "closed"


class FairGame:
    """The game of the page at ``seat``, hand after hand, as its person sees it."""

    current: FairHand
    """The hand under way (``FairTable`` deals each)."""

    def __init__(self, seat: int, *, rules: Rules, history: Sequence[Score] = ()) -> None:
        """``history``: the hands scored before this table's first (a table drawn again
        after a page left goes on with the game)."""
        self.seat = seat
        self.rules = rules
        self.history: list[Score] = list(history)
        a, b, c, d = (sum(hand_[seat] for hand_ in self.history) for seat in range(NUM_SEATS))
        self.scores: Score = (a, b, c, d)
        self.closed: str | None = None
        """Why the table closed (the cheat named, a page gone), in words (``FairTable``)."""

    @property
    def hand_number(self) -> int:
        return self.current.number

    @property
    def transcript(self) -> Transcript:
        return self.current.transcript

    @property
    def party(self) -> Party:
        return self.current.party

    @property
    def result(self) -> AuditResult | None:
        """The audit of the hand under way, once it passed."""
        return self.current.result

    @property
    def direction(self) -> PassDirection:
        return self.current.direction

    @property
    def passing(self) -> tuple[Card, ...] | None:
        """The three cards this page's person passes, once chosen."""
        return self.current.passing

    @property
    def stage(self) -> FairStage:
        h, t = self.current, self.current.transcript
        if self.closed is not None:
            return FairStage.CLOSED
        if h.result is not None:
            return FairStage.OVER if game_winner(self.scores, self.rules) is not None \
                else FairStage.SCORED
        if t.over:
            return FairStage.AUDITING
        if h.dealt is None:
            return FairStage.DEALING
        if not t.passed or (h.passes and h.received is None):
            return FairStage.PASSING
        return FairStage.PLAYING

    def hand(self) -> list[Card]:
        """This seat's cards now (before the exchange: as dealt, less none)."""
        return self.current.cards()

    def view(self) -> PlayerView | None:
        """This seat's view of the game (None while the cards are being dealt)."""
        h = self.current
        if h.dealt is None:
            return None
        playing = self.stage not in (FairStage.DEALING, FairStage.PASSING)
        chosen = [s in h.transcript.pass_slots for s in range(NUM_SEATS)]
        public, hand, to_play = h.public(), h.cards(), self.to_play()
        if h.playing is not None:
            # This seat's card on its way (its proof made in the page's slices): shown
            # played at once, as it will be, not left in the hand meanwhile.
            card = h.playing
            public = PublicHand((*public.plays, Play(self.seat, -1, card, ())))
            hand = [c for c in hand if c != card]
            trick, tricks = public.trick(), public.tricks()
            to_play = (self.seat + 1) % NUM_SEATS if trick is not None \
                else None if len(tricks) == 13 else tricks[-1].winner
        return public.view(
            self.seat, rules=self.rules, hand_number=h.number, direction=h.direction,
            hand=hand, passed=h.passing, received=h.received, chosen=chosen,
            to_play=to_play, scores=self.scores, history=self.history,
            playing=playing, legal=self.legal())

    def to_play(self) -> int | None:
        """The seat to play (None: not known here yet, see ``FairHand.to_play``)."""
        return self.current.to_play()

    def legal(self) -> tuple[Card, ...]:
        """The cards this seat may play now (none when it isn't its turn)."""
        if self.stage is not FairStage.PLAYING:
            return ()
        return self.current.legal()

    # --- what the person is to do -----------------------------------------------------------
    def waiting_for_me(self) -> str | None:
        """What the table waits for this page's person to do: "pass", "play", or None."""
        stage = self.stage
        h = self.current
        if stage is FairStage.PASSING and h.passing is None and h.dealt is not None \
                and h.passes:
            return "pass"
        if stage is FairStage.PLAYING and self.to_play() == self.seat \
                and h.playing is None:
            return "play"
        if stage is FairStage.SCORED:
            return "ready"
        return None

    def auto_card(self) -> Card:
        """The card this page plays for a person out of time: the lowest legal one."""
        return self.legal()[0]

    # --- the score --------------------------------------------------------------------------
    def _score(self, result: AuditResult) -> None:
        """The hand passed its audit: its points count."""
        self.current.result = result
        self._count(self.current.public().scores(self.rules))

    def _count(self, hand: Score) -> None:
        """``hand``'s points go into the game: as played, or charged to a page named
        (``played``); once a hand."""
        self.current.counted = hand
        self.history.append(hand)
        a, b, c, d = (x + y for x, y in zip(self.scores, hand, strict=True))
        self.scores = (a, b, c, d)
