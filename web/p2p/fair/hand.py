"""One hand at a fair table, as one page holds it: the record, its keys, what it has read.

``FairTable`` plays a game of these. A ``FairHand`` takes this page's steps of the
protocol when they are due (``act``, in the order of ``steps.due_step``) and keeps what its
keys have opened of the cards: ``dealt`` once its 13 are read, ``passing`` and
``received`` for the exchange. What it sends goes through ``send``, the table's, which
checks each message against the record before it leaves. No I/O, no clock but the
timings' one.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from functools import partial
from typing import Any

from hearts import Card
from hearts.rules import NUM_SEATS, TWO_OF_CLUBS, PassDirection, Rules
from web.p2p.fair.audit import AuditResult, audit_in_steps
from web.p2p.fair.due import (
    blind_due,
    digest_due,
    due_step,
    lock_due,
    open_due,
    shuffle_due,
    unblind_due,
)
from web.p2p.fair.group import Group, KeySource
from web.p2p.fair.making import Making
from web.p2p.fair.party import Party
from web.p2p.fair.public import PublicHand, Score
from web.p2p.fair.shuffle_proof import ShuffleProof
from web.p2p.fair.transcript import Transcript
from web.p2p.fair.wire import proof_fields

__all__ = ["SLICE_SECONDS", "FairHand"]

SLICE_SECONDS = 0.015
"""The longest a slice of the page's work runs before the page yields (a shuffle, a lock,
an opening round, an unblind, the cards passed read, a shuffle proof's making or checking,
the codes of its cards, the audit): its steps are of a short power or two at most, a long
one being cut in eighths (``Group.power_steps``: some 5 ms each on a phone, a CPU four
times slower than this machine's), so a slice stays well within 50 ms there."""


class FairHand:
    """Hand number ``number`` of the page at ``seat``."""

    def __init__(self, seat: int, number: int, *, rules: Rules, group: Group,
                 source: KeySource | None, party: type[Party],
                 send: Callable[..., None], clock: Callable[[], float],
                 timings: dict[str, list[float]], table: str = "",
                 checks: bool = True) -> None:
        """``party``: the class of this page's keys (``Party``, or a test's cheat);
        ``send(kind, **fields)``: a message to the others; ``timings``: the table's, where
        this hand adds its deal and audit (milliseconds); ``table``: the table's name, in
        every proof (``Transcript.context``); ``checks``: whether it checks the others'
        shuffle proofs and audits the hand itself (else its page's other table does, on
        the same messages, and ``FairTable.adopt`` brings the findings)."""
        self.checks = checks
        self.seat = seat
        self.number = number
        self.rules = rules
        self.send = send
        self.clock = clock
        self.timings = timings
        self.transcript = Transcript(rules.pass_direction(number), group, table=table,
                                     hand=number)
        self.party = party(seat, self.transcript, source)
        self.dealt: tuple[Card, ...] | None = None
        self.passing: tuple[Card, ...] | None = None
        self.received: tuple[Card, ...] | None = None
        self.making = Making(self._slice)
        """This page's long steps being made: its card's proof, shuffle, lock, blind..."""
        self.proving: Generator[None, None, ShuffleProof] | None = None
        """This page's proof of its shuffle, being made (once the shuffle went out)."""
        self.checking: tuple[int, Generator[None, None, bool]] | None = None
        """Another seat's shuffle proof, being checked, and that seat."""
        self.coding: Generator[None, None, None] | None = None
        """Each card's code under this page's key, being made so that reading its cards
        is a look-up (``Party.codes_steps``)."""
        self.auditing: Generator[None, None, AuditResult] | None = None
        self.result: AuditResult | None = None
        """The audit's, once it passed (the table sets it)."""
        self.counted: Score | None = None
        """The hand's points, once counted: audited, played out, or charged to a page
        named (``FairGame._count``)."""
        self.started = clock()
        self.audit_started = 0.0

    @property
    def direction(self) -> PassDirection:
        return self.transcript.direction

    @property
    def passes(self) -> bool:
        return self.direction is not PassDirection.NONE

    def cards(self) -> list[Card]:
        """This seat's cards now (before the exchange: as dealt)."""
        return self.party.hand()

    def public(self) -> PublicHand:
        """The game so far, from the cards played."""
        return PublicHand(tuple(self.transcript.plays))

    def to_play(self) -> int | None:
        """The seat to play: the transcript's, or before the first card, whoever holds the
        2♣ — which only its own page knows; every other page waits, not knowing who."""
        t = self.transcript
        if not t.passed or t.over or (self.passes and self.received is None):
            return None  # (the cards passed to this page not read yet: it can't tell)
        if t.to_play is not None:
            return t.to_play
        return self.seat if TWO_OF_CLUBS in self.cards() else None

    def legal(self) -> tuple[Card, ...]:
        """The cards this seat may play if it is its turn (else none: also while its card
        is on its way, ``playing``)."""
        if self.to_play() != self.seat or "play" in self.making:
            return ()
        return self.public().legal(self.cards(), self.rules)

    # --- this page's moves and steps --------------------------------------------------------------
    def choose_pass(self, cards: tuple[Card, ...]) -> None:
        """Pass these three of this seat's cards (the table checked them)."""
        self.passing = tuple(sorted(cards))
        self.send("fair_pass", slots=self.party.choose_pass(list(cards)))

    def play(self, card: Card) -> None:
        """Play one of this seat's cards (the table checked it may): it goes out once its
        proof is made and checked, in the page's slices (``slice_step``), not in the task
        of the person's click (some two full-size powers: 60 ms and more on a phone)."""
        self.making.start("play", self._play_steps(card), partial(self._played, card),
                          about=card)

    @property
    def playing(self) -> Card | None:
        """This seat's card on its way: its proof being made, then checked here as every
        page will (``_play_steps``); it goes out when both are done."""
        card = self.making.about("play")
        return card if isinstance(card, Card) else None

    def _played(self, card: Card, made: tuple[int, tuple[int, ...]]) -> None:
        if not self.transcript.over:
            slot, proof = made
            self.send("fair_play", slot=slot, card=card, proof=proof)

    def _blinded(self, made: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]) -> None:
        if not self.transcript.over:
            values, proofs = made
            self.send("fair_blind", values=values, proofs=proofs)

    def _unblinded(self, values: tuple[int, ...]) -> None:
        if not self.transcript.over:
            self.send("fair_unblind", values=values)

    def _opened(self, round_: int, values: tuple[int, ...]) -> None:
        if not self.transcript.over:
            self.send("fair_open", round=round_, values=values)

    def _read(self, cards: list[Card]) -> None:
        self.received = tuple(sorted(cards))
        if len(self.received) != 3:
            self.send("fair_complain")

    def _shuffled(self, made: tuple[tuple[int, ...], int]) -> None:
        deck, commitment = made
        self.send("fair_shuffle", deck=deck, commit=commitment)
        if len(self.transcript.shuffles) > self.seat:  # it went out: now its proof
            self.proving = self.party.prove_shuffle()

    def _locked(self, deck: tuple[int, ...]) -> None:
        self.send("fair_lock", deck=deck)

    def _blind_steps(self) -> Generator[None, None, tuple[tuple[int, ...],
                                                          tuple[tuple[int, ...], ...]]]:
        values, proofs = yield from self.party.blind_steps()
        # checked here as the record checks it when it goes out, its answers remembered
        check = self.transcript.blind_check_steps(self.seat, values, proofs)
        if check is not None:
            yield from check
        return values, proofs

    def _play_steps(self, card: Card) -> Generator[None, None, tuple[int, tuple[int, ...]]]:
        slot, proof = yield from self.party.play_steps(card)
        # This page's own check of its card, as the record makes it when it goes out
        # (``Transcript.add_play``): made here in steps, its answer remembered.
        check = self.transcript.play_check_steps(self.seat, slot, card, proof)
        if check is not None:
            yield from check
        return slot, proof

    def act(self) -> bool:
        """Take this page's next step of the protocol, or read its cards, if one is due;
        whether it did."""
        t = self.transcript
        if t.dealt and self.dealt is None and self.party.coded:
            # before a blind: the person sees the cards first; their codes made in the
            # page's slices (``_code_step``), or reading them was one step of 52 powers
            cards = self.party.read_hand()
            self.dealt = tuple(sorted(cards))
            self.timings["deal"].append((self.clock() - self.started) * 1000)
            if len(cards) != 13:
                self.send("fair_complain")
            return True
        making = self.making  # each made in slices (``slice_step``), sent when made
        if t.passed and self.passes and self.received is None and not t.over \
                and "read" not in making:
            making.start("read", self.party.read_passed_steps(), self._read)
            return True
        if self.prepare():  # the shuffle or the lock
            return True
        if "blind" not in making and blind_due(t, self.seat):
            making.start("blind", self._blind_steps(), self._blinded)
            return True
        if "unblind" not in making and unblind_due(t, self.seat):
            making.start("unblind", self.party.unblind_steps(), self._unblinded)
            return True
        round_ = open_due(t, self.seat)
        if "open" not in making and round_ is not None:
            making.start("open", self.party.open_steps(round_), partial(self._opened, round_))
            return True
        if digest_due(t, self.seat) and not t.digest_made():
            if "digest" not in making:  # sent once made, by ``due_step``
                making.start("digest", t.digest_steps(), lambda _: None)
                return True
            return False
        step = due_step(t, self.party, opens=False)
        if step is not None:
            self.send(step[0], **step[1])
            return True
        if len(t.reveals) == NUM_SEATS and self.auditing is None and self.result is None \
                and self.checks:
            self.audit_started = self.clock()
            self.auditing = audit_in_steps(t, self.rules)
            return True
        return False

    def prepare(self) -> bool:
        """The next hand's deal, made while this page's hand before it is played: its
        shuffle and its lock when their turn comes (their slices, its proof and the checks
        of the others' follow in ``slice_step``); whether one started. Nothing that opens a
        card: that waits for the hand to be the one under way (``act``)."""
        t, making = self.transcript, self.making
        if "shuffle" not in making and shuffle_due(t, self.seat):
            making.start("shuffle", self.party.shuffle_steps(), self._shuffled)
            return True
        if "lock" not in making and lock_due(t, self.seat):
            making.start("lock", self.party.lock_steps(), self._locked)
            return True
        return False

    def slice_step(self) -> bool | None:
        """One slice of this page's long steps (``Making``: the others wait for them), or
        else of its cards' codes once dealt, its shuffle proof, or else of checking
        another's; None when there is none to do, True when a slice finished one (then
        steps may be due). A proof that fails stops the hand: this page complains."""
        t = self.transcript
        done = self.making.slice_step()  # (the others wait for these)
        if done is not None:
            return done
        if t.dealt and self.dealt is None and not self.party.coded:
            return self._code_step()  # the person waits for these: before any proof
        if self.proving is not None:
            finished, made = self._slice(self.proving)
            if finished:
                self.proving = None
                self.send("fair_proof", **proof_fields(made))
                t.proven.add(self.seat)
            return finished
        if self.checking is None:
            waiting = t.unproven()
            if not waiting or t.over or not self.checks:  # once stopped, the audit checks
                return self._code_step()
            self.checking = waiting[0], t.check_proof(waiting[0])
        seat, checking = self.checking
        finished, holds = self._slice(checking)
        if finished:
            self.checking = None
            if holds:
                t.proven.add(seat)
            elif not t.over:
                # Not named here: a page that sent this one another deck than the others
                # makes an honest proof fail. Once the digests agree, the audit names the
                # prover; if they differ, the signatures show who.
                self.send("fair_complain")
        return finished

    def _code_step(self) -> bool | None:
        """A slice of the codes of this page's cards, made ahead while the deal goes on
        (None: made, or not needed; True: the slice that made them, after which the cards
        may be read)."""
        if self.dealt is not None or self.transcript.over or self.party.coded:
            return None
        if self.coding is None:
            self.coding = self.party.codes_steps()
        finished, _ = self._slice(self.coding)
        if finished:
            self.coding = None
        return finished

    def _slice(self, steps: Generator[None, None, Any]) -> tuple[bool, Any]:
        """Steps of ``steps`` for up to ``SLICE_SECONDS``: whether it finished, and its
        value if so."""
        started = self.clock()
        while self.clock() - started < SLICE_SECONDS:
            try:
                next(steps)
            except StopIteration as done:
                return True, done.value
        return False, None

    def audit_step(self) -> AuditResult | None:
        """One slice of the audit; its result once done (None: more slices to come)."""
        assert self.auditing is not None
        finished, made = self._slice(self.auditing)
        if not finished:
            return None
        result: AuditResult = made
        self.auditing = None
        self.timings["audit"].append((self.clock() - self.audit_started) * 1000)
        return result
