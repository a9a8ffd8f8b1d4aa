"""What a fair table's hand comes to when the table closes: counted, charged, or void.

A ``FairTable`` is an ``Outcomes``: closing is where the rule of ``docs/protocol.md`` ("A
hand stopped after the deal") is applied. A hand whose 52 cards are in counts as played
(its rules of play checked from the plays: ``played``); a page named in a hand dealt takes
all its points (``played.charged``), also when the replay of a computer it played finds it
steered (``steered``); and a page that closes tells the others (``fair_closed``), so none
names it for what it won't send. No I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hearts.rules import NUM_SEATS
from web import words
from web.p2p.fair.clock import TableClock
from web.p2p.fair.game import FairGame
from web.p2p.fair.ledger import Ledger
from web.p2p.fair.played import charged, left, played_fault, played_scores
from web.p2p.fair.public import Score
from web.p2p.fair.steered import Replay
from web.p2p.fair.transcript import Fault
from web.p2p.fair.wire import message

__all__ = ["CLOSED_TEXT", "Outcomes"]

CLOSED_TEXT = message("fair_closed")
"""What a page sends as it closes the table (``Outcomes._closing``)."""


class Outcomes(FairGame):
    """Closing a fair table, and what the hand under way (or the one replayed) comes to."""

    # the table's (``FairTable``)
    outbox: list[str]
    ledger: Ledger
    timer: TableClock
    fault: Fault | None
    timings: dict[str, list[float]]
    clock: Callable[[], float]
    _halted: bool
    _replaying: Replay | None
    closers_told: bool
    """This page told the others it closed (``fair_closed``)."""
    left_in_replay: int | None

    def close(self, why: str, counted: str = "") -> None:
        """Close the table, saying why (``counted``: what to say instead if the hand's 52
        cards were played: then it counts as played, unless its plays show a rule broken);
        what this page had yet to send goes unsent."""
        t = self.transcript
        if self.closed is None and self.current.counted is None and t.finished \
                and t.complaint is None:
            fault = played_fault(t.plays, self.rules)
            if fault is not None:
                self.caught(fault)
                return
            self._count(played_scores(t.plays, self.rules))
            why = counted or self._counted_words(why)
        self._closing(why)

    def if_left(self, seat: int, held: Sequence[int] = ()) -> Score | None:
        """What the hand under way counts if the page at ``seat`` (and the ``held`` seats
        it played) leaves it now and the table goes on: as played if its 52 cards are in,
        else as far as it went with the rest on ``seat`` (``played.left``); never dealt
        again. None: nothing to count (it counted before, or wasn't dealt)."""
        t = self.transcript
        if self.closed is not None or self.current.counted is not None or not t.dealt:
            return None
        if t.finished:
            return played_scores(t.plays, self.rules)
        return left(t.plays, seat, held, self.rules)

    def left_by(self, seat: int, held: Sequence[int] = ()) -> Score | None:
        """The page at ``seat`` left the hand under way and the table goes on: the hand
        counts (``if_left``), or names a rule broken in its 52 plays and the table closes.
        The hand as charged to ``seat`` (None: not charged, counted as played or not at
        all)."""
        t = self.transcript
        hand = self.if_left(seat, held)
        if hand is None:
            return None
        if t.finished:
            fault = played_fault(t.plays, self.rules)
            if fault is not None:
                self.caught(fault)
                return None
            self._count(hand)
            return None
        self._count(hand)
        return hand

    def _closing(self, why: str) -> None:
        """Close: what this page had yet to send goes unsent, but the others are told it
        closed (``fair_closed``), so that none of them names it for what it won't send."""
        self.closed = why
        self.outbox.clear()
        if self.closers_told or self._halted:
            return
        self.closers_told = True
        self.outbox.append(self.ledger.seal(self.hand_number, "fair_closed", CLOSED_TEXT))

    def _counted_words(self, why: str) -> str:
        """What this page says when it closes a hand played out, counting it as played."""
        if self.timer.gone is not None:
            return words.fair_gone_counted(self.timer.gone, self.seat)
        if why == words.FAIR_STALLED:
            return words.FAIR_STALLED_COUNTED
        return why

    def caught(self, fault: Fault) -> None:
        """Close the table naming the cheat: a hand dealt is charged to it (all 26 points:
        stopping a hand never pays, ``played.charged``), one that wasn't doesn't count."""
        self.fault = fault
        text = words.fault_text(fault, self.seat)
        if self.current.counted is not None:  # the hand was scored before: it stays
            self._closing(text + " " + words.FAIR_CLOSED_AFTER)
        elif self.closed is None and self.transcript.dealt:
            self._count(charged(fault.seat))
            self._closing(text + " " + words.fair_charged(fault.seat, self.seat))
        else:
            self._closing(text + " " + words.FAIR_VOID)

    def _replay_step(self) -> bool:
        """One slice of the computers' replay; once done, the page that steered its
        computer, if one did, is named and charged the hand it steered (the hand under way
        is void)."""
        assert self._replaying is not None
        done, fault = self._replaying.step()
        if not done:
            return False
        replay, self._replaying = self._replaying, None
        self.timings["replay"].append((self.clock() - replay.started) * 1000)
        if fault is not None:
            self.history[replay.index] = charged(fault.seat)
            a, b, c, d = (sum(hand[s] for hand in self.history) for s in range(NUM_SEATS))
            self.scores = (a, b, c, d)
            self.fault = fault
            self._closing(words.fault_text(fault, self.seat) + " "
                          + words.fair_charged_steered(fault.seat, self.seat))
        elif self.left_in_replay is not None:
            self.timer.leave(self.left_in_replay)
        return True
