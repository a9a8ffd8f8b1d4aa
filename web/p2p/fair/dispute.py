"""A fair hand's dispute: the pages' digests or echoes differ, and the signatures say who lied.

Before its keys every page sends the digest of its record and its echo: per seat, the hash
of the signed messages it took from that seat (``Transcript.add_digest``). When all agree
the keys are shown and the audit judges the hand. When they don't, no page shows its keys
(a false digest would read every hand): each sends its evidence instead, the signed messages
it echoed, and once the four are in, the signatures name whoever lied
(``signing.judge_steps``), or nobody, and the hand doesn't count. No I/O.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from hearts.rules import NUM_SEATS
from web.p2p.fair.group import Group
from web.p2p.fair.ledger import Ledger
from web.p2p.fair.signing import Verdict, judge_steps
from web.p2p.fair.transcript import Cheat, Fault, Transcript

__all__ = ["END_KINDS", "NOT_PLAYED", "STAGE_ONE", "Dispute", "Finding"]

END_KINDS = ("fair_digest", "fair_keys", "fair_evidence", "fair_complain", "fair_closed")
"""What a page echoes leaves these out: they cross the mesh while pages send their echoes
(several pages complain at once of a false shuffle proof)."""

STAGE_ONE = ("fair_shuffle", "fair_proof")
"""What a deal stopped by a false shuffle proof is judged on (its digest, its echoes)."""
NOT_PLAYED = ("fair_shuffle", "fair_proof", "fair_lock", "fair_open", "fair_pass",
              "fair_blind", "fair_unblind")
"""What a hand stopped by a card that didn't open is judged on: no play, since a card
played while the complaint crossed the mesh reached some pages before it and some after."""

Finding = Fault | list[int]
"""How a dispute ends: the liar the signatures name, or, nobody named, the seats whose
record or echo differs from this page's."""


class Dispute:
    """The part of the page at ``seat`` in the dispute of hand ``hand``, should it come to
    one: the echo its digest carries, its evidence, and the judging once all is in."""

    def __init__(self, seat: int, hand: int, transcript: Transcript, ledger: Ledger, *,
                 group: Group, name: str, keys: Sequence[int]) -> None:
        """``name``: the table's, and ``keys``: every seat's public one, by seat: what the
        evidence's signatures are checked with."""
        self.seat = seat
        self.hand = hand
        self.transcript = transcript
        self.ledger = ledger
        self.group = group
        self.name = name
        self.keys = tuple(keys)
        self._judging: Generator[None, None, Verdict] | None = None
        """The dispute, being judged (``signing.judge_steps``)."""
        self.shown = False
        self.evidence_shown = False
        """Whether this page relayed every page's evidence (once all four were in)."""
        """This page relayed the four signed digests to every page (``FairTable``): a page
        without its evidence after that has been shown the dispute."""

    def echo(self) -> tuple[str, ...]:
        """The echo this page's digest carries (``Ledger.echo``, frozen for the evidence)."""
        # What came after the shuffles of a stopped deal may differ from page to page, and
        # so may the plays of a hand a complaint stopped.
        t = self.transcript
        only = STAGE_ONE if t.stopped_at_deal else NOT_PLAYED if t.stopped_by_complaint \
            else None
        return self.ledger.echo(self.hand, only)

    def owes_evidence(self) -> bool:
        """Whether this page has yet to send its evidence."""
        return self.seat not in self.transcript.evidence

    def evidence(self) -> tuple[str, ...]:
        """This page's evidence: the signed messages it echoed, as they travel."""
        return self.ledger.evidence(self.hand)

    def judge(self) -> None:
        """Start judging, once every page's evidence is in (and only once)."""
        t = self.transcript
        if len(t.evidence) < NUM_SEATS or self._judging is not None:
            return
        # 88 signatures to check: in slices, a page's evidence each (``judge_step``).
        self._judging = judge_steps(self.group, self.name, self.hand, self.keys, t.echoes,
                                    t.evidence)

    @property
    def judging(self) -> bool:
        """The dispute is being judged."""
        return self._judging is not None

    def judge_step(self) -> Finding | None:
        """One slice of the judging; how the dispute ends, once judged (None: more slices)."""
        assert self._judging is not None
        try:
            next(self._judging)
            return None
        except StopIteration as done:
            verdict: Verdict = done.value
        self._judging = None
        if verdict is not None:
            seat, how = verdict
            return Fault(seat, Cheat.FALSE_ECHO if how == "echo" else Cheat.EQUIVOCATED)
        t = self.transcript
        mine = t.echoes[self.seat]
        if t.finished and t.complaint is None and t.disagreeing \
                and all(e == mine for e in t.echoes.values()):
            # Every page echoed the very messages this page took, its last card among them:
            # every page holds this record, so a digest that isn't its hash is a lie.
            return Fault(t.disagreeing[0], Cheat.FALSE_DIGEST)
        return sorted(set(t.disagreeing) | {s for s, e in t.echoes.items() if e != mine})

    def abandoned(self) -> Fault | None:
        """The page that sent no evidence though the echoes differ, if any (asked once the
        table has waited for it beyond any turn)."""
        t = self.transcript
        missing = [s for s in range(NUM_SEATS) if s not in t.evidence
                   and (s not in t.closers or self._differs(s))]
        if t.disputed and missing and self.shown:
            # Every page sends its evidence to every page once the echoes differ, and this
            # page relayed it the four signed digests that show they differ: one that sent
            # none (here, or relayed on asking) abandoned the hand rather than show what it
            # was sent.
            return Fault(missing[0], Cheat.NO_EVIDENCE)
        return None

    def _differs(self, seat: int) -> bool:
        """``seat``'s own digest or echo differs from this page's: it made the dispute. A
        page that closed is excused its evidence only if it didn't: an honest page whose
        record differs sees the dispute the moment another digest reaches it (or is relayed
        to it, seconds later) and sends its evidence at once, so its evidence is ahead of
        its ``fair_closed`` on the same channel. Else a liar would go unnamed by closing
        before the others' timers do."""
        t = self.transcript
        return seat in t.disagreeing or t.echoes.get(seat) != t.echoes.get(self.seat)
