"""A fair table's clocks: this page's person's turn, and how long the table waits for others.

Nobody else knows this seat's cards, so nobody else can move for it: when this page's
person lets their time run out, this page moves for them (``TableClock.tick``): the lowest
legal card, the three highest cards to pass. A table that waits for another page beyond any
person's turn closes (``stalled``). A page that is gone takes its keys with it: the hand
can't be finished, and the table closes (after ``GONE_GRACE``). The time is injected
(``now``): no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from hearts import Card
from web import words
from web.p2p.fair.dispute import Dispute
from web.p2p.fair.game import FairStage
from web.p2p.fair.transcript import Fault, Transcript

__all__ = ["GONE_GRACE", "STALL_SECONDS", "Clocked", "TableClock", "TurnClock"]

STALL_SECONDS = 30.0
"""Beyond a person's turn, how long the table waits for a page that sends nothing before it
closes (an honest page moves for its person when their time is out)."""
GONE_GRACE = 2.0
"""Seconds between a page leaving and the table closing for it: messages sent before it left
(by it, or a cheat another page caught first and left on) may still be on their way."""


class TurnClock:
    """When this page's person's move fell due, and when the table last moved on."""

    def __init__(self, now: Callable[[], float], turn: float) -> None:
        self.now = now
        self.turn = turn
        self.key: object = None
        """What the person is to do now (None: nothing); the time runs from its change."""
        self.since = self.progress = now()

    def due(self, key: object) -> None:
        if key != self.key:
            self.key, self.since = key, self.now()

    def left(self) -> int | None:
        """Whole seconds the person has left (None: nothing to do)."""
        if self.key is None:
            return None
        return max(0, int(self.turn - (self.now() - self.since) + 0.999))

    def out(self) -> bool:
        """The person's time ran out."""
        return self.key is not None and self.now() - self.since >= self.turn

    def moved(self) -> None:
        self.progress = self.now()

    def stalled(self) -> bool:
        """Nothing to do here, and nothing came from the others beyond any turn and grace."""
        return self.key is None and self.now() - self.progress >= self.turn + STALL_SECONDS


class Clocked(Protocol):
    """What a ``TableClock`` reads of its table (a ``FairTable``), and the moves it makes
    there for the person."""

    seat: int
    closed: str | None
    dispute: Dispute

    @property
    def stage(self) -> FairStage: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def transcript(self) -> Transcript: ...
    def waiting_for_me(self) -> str | None: ...
    def hand(self) -> list[Card]: ...
    def auto_card(self) -> Card: ...
    def choose_pass(self, cards: tuple[Card, ...]) -> str | None: ...
    def play(self, card: Card) -> str | None: ...
    def next_hand(self) -> None: ...
    def close(self, why: str) -> None: ...
    def caught(self, fault: Fault) -> None: ...


class TableClock:
    """The clocks of ``table``: its person's turn (a ``TurnClock`` a hand), and a page gone.

    It holds no cards and no messages: it moves for the person with the table's own moves,
    as the person would, and closes the table with ``FairTable.close`` or ``caught``."""

    turns: TurnClock
    """This hand's turn clock: a new one each hand (``new_hand``), its time from the deal."""

    def __init__(self, table: Clocked, *, now: Callable[[], float], turn: float) -> None:
        """``now``: the clock (seconds); ``turn``: seconds a person has to move."""
        self.table = table
        self.now = now
        self.turn = turn
        self.gone: int | None = None
        """A page that left (``leave``), and when."""
        self.made: tuple[str, tuple[Card, ...]] | None = None
        """What ``tick`` last did for the person ("pass" or "play", and the cards), for the
        page to say; taken once (``take_made``)."""
        self.gone_at = 0.0

    def new_hand(self) -> None:
        """A hand starts: the person's time and the wait for the others start again."""
        self.turns = TurnClock(self.now, self.turn)

    def moved(self) -> None:
        """The table moved on (a message taken, a step made): the others aren't stalled."""
        self.turns.moved()

    def waiting(self) -> str | None:
        """What the table waits for this page's person to do (``FairTable.waiting_for_me``):
        their time runs from the moment it is due."""
        t = self.table
        what = t.waiting_for_me()
        self.turns.due(None if what is None else (what, t.hand_number, len(t.transcript.plays)))
        return what

    def turn_left(self) -> int | None:
        """Whole seconds the person has left to move (None: nothing to do)."""
        self.waiting()
        return self.turns.left()

    def tick(self) -> bool:
        """The timer: this page moves for its person if they let their time run out (the
        only page that can: nobody else knows its cards). Whether it moved."""
        t = self.table
        what = self.waiting()
        if not self.turns.out():
            return False
        if what == "pass":
            cards = tuple(sorted(t.hand(), key=lambda c: (c.rank, c.suit))[-3:])
            t.choose_pass(cards)
            self.made = "pass", cards
        elif what == "ready":
            t.next_hand()
        else:
            card = t.auto_card()
            t.play(card)
            self.made = "play", (card,)
        return True

    def take_made(self) -> tuple[str, tuple[Card, ...]] | None:
        """What the timer did for the person since last asked (None: nothing)."""
        made, self.made = self.made, None
        return made

    def stalled(self) -> bool:
        """Close the table if it has waited for another page beyond any person's turn (a
        page that stopped answering, or a modified one that won't move), or if a page left
        without its keys; whether it did."""
        t = self.table
        if t.closed is None and self.gone is not None \
                and self.gone not in t.transcript.reveals \
                and self.now() - self.gone_at >= GONE_GRACE:
            self.close_gone()
            return True
        if t.stage in (FairStage.SCORED, FairStage.OVER, FairStage.CLOSED) \
                or self.waiting() is not None or not self.turns.stalled():
            return False
        fault = t.dispute.abandoned()
        if fault is not None:
            t.caught(fault)
            return True
        # Nobody named: a page that sent its card to two pages but not to the next player
        # would have that honest player blamed by the two (they wait for its card).
        t.close(words.FAIR_STALLED)
        return True

    def leave(self, seat: int) -> None:
        """The page at ``seat`` left: its keys left with it, so this hand can't go on.

        Unless its keys are in (then the audit goes on and says who, if anyone, cheated),
        the table closes ``GONE_GRACE`` seconds later (``stalled``): what it or another
        page sent before may still be on its way, and a cheat in it is named first."""
        t = self.table
        if t.closed is not None or t.stage is FairStage.OVER:
            return
        if self.gone is None:
            self.gone, self.gone_at = seat, self.now()
        if t.stage is FairStage.SCORED:  # the hand is done, and the next can't be dealt
            self.close_gone()

    def close_gone(self) -> None:
        """Close the table for the page that left."""
        assert self.gone is not None
        t = self.table
        t.close(words.fair_gone_text(self.gone, t.seat, t.transcript.dealt))
