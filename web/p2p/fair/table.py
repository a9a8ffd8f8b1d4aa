"""One page's fair table: its keys, its part in the protocol, and its game. No I/O.

Four pages, one per seat, each run a ``FairTable``; nobody runs the game. Every message a
page sends goes to the three others (``outbox``: the glue broadcasts it through the mesh)
and into its own transcript. The hand under way (``hand.FairHand``) takes the steps of the
deal when their turn comes, its person chooses a pass and plays cards, and every message
from another page is checked on arrival (``wire.receive``). What the person sees of the
game (the stage, their cards, what they may do, the scores) is read in ``game.FairGame``,
which a ``FairTable`` is; the table keeps what else outlives a hand: the keys, the mesh's
early messages, and why it closed.

Messages travel as an envelope ``{"v": 1, "t": "fair", "f": seat, "d": table, "h": hand,
"m": <wire text>}``;
one that comes before its turn waits in the ``inbox`` until it fits. Any other fault, or a
fault of the audit, closes the table with the cheat named (``closed``/``fault``): the hand
doesn't count.

Its clocks are ``clock.TableClock``'s: the person's turn, for whom this page moves when their
time runs out (``tick``), and how long the table waits for the others (``stalled``,
``gone``). When the digests or echoes of a hand differ, its ``dispute.Dispute`` names the
liar, or nobody.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from hearts import Card
from hearts.rules import NUM_SEATS, Rules
from web import words
from web.p2p.fair.cheats import CHEATS, TAMPERS
from web.p2p.fair.clock import GONE_GRACE, TableClock
from web.p2p.fair.dispute import END_KINDS, Dispute, Finding
from web.p2p.fair.game import FairGame, FairStage
from web.p2p.fair.group import GROUP, Group, KeySource
from web.p2p.fair.hand import FairHand
from web.p2p.fair.inbox import Inbox
from web.p2p.fair.ledger import Ledger
from web.p2p.fair.party import Party
from web.p2p.fair.public import Score
from web.p2p.fair.transcript import Cheat, CheatDetected, Fault
from web.p2p.fair.wire import message, open_envelope, receive, tag

__all__ = ["GONE_GRACE", "FairStage", "FairTable"]


class FairTable(FairGame):
    """The fair table as the page at ``seat`` plays it: the messages, the steps, the
    audit's slices, and closing. The game it moves on is read in ``FairGame``: a
    ``FairTable`` is one, so that what the felt reads stays its API without a wall of
    delegating properties."""

    def __init__(self, seat: int, *, now: Callable[[], float], turn: float,
                 rules: Rules | None = None, group: Group = GROUP,
                 source: KeySource | None = None,
                 clock: Callable[[], float] = time.perf_counter, cheat: str = "",
                 name: str = "", signing_key: int, keys: Sequence[int],
                 checks: bool = True, hand: int = 1, history: Sequence[Score] = ()) -> None:
        """``now``: the turn timer's clock (seconds); ``turn``: seconds a person has to
        move; ``clock``: for the timings (``timings``); ``cheat``: for the tests that the
        others name this page, "revoke" (it plays another suit at once whenever it could
        follow) or a step of the deal it cheats at (``cheats.CHEATS``); ``name``: what
        names this table, the same at every page (it goes into every proof);
        ``signing_key``: this page's key for the table, and ``keys``: every seat's public
        one (``g**key``, announced in the draw), by seat (``signing``); ``checks``: False
        for a computer's table on a page whose person's table checks the same messages
        (the shuffle proofs, the audit) and hands the findings over (``adopt``); ``hand``
        and ``history``: the first hand this table deals and the hands scored before it (a
        table drawn again after a page left goes on with the game)."""
        self.checks = checks
        self.name = name
        self.cheat = cheat
        self.keys = tuple(keys)
        if len(self.keys) != NUM_SEATS or group.power(group.generator, signing_key) \
                != self.keys[seat]:
            raise ValueError("a fair table needs four public keys, this page's among them")
        super().__init__(seat, rules=rules or Rules(), history=history)
        self.ledger = Ledger(seat, group=group, name=name, signing_key=signing_key,
                             keys=self.keys, unkept=END_KINDS, source=source)
        """Every signed message this page sent or took (``ledger``)."""
        self.now = now
        self.turn = turn
        self.timer = TableClock(self, now=now, turn=turn)
        """The person's turn, and the table's patience with the others (``clock``)."""
        self.group = group
        self.source = source
        self.clock = clock
        self.outbox: list[str] = []
        self.fault: Fault | None = None
        self._halted = False
        """A modified page (the tests') sent a step its own check refused: it stops there."""
        self.timings: dict[str, list[float]] = {"deal": [], "check": [], "audit": []}
        """Milliseconds: each deal (from the hand's start to this page's cards read), each
        check of another page's play, each audit (from the last key to the verdict)."""
        self.inbox = Inbox(clock, self.timings["check"])
        group.generator_powers  # noqa: B018  built now, not within the first card's check
        self._start_hand(hand)

    # --- the hand ---------------------------------------------------------------------------
    def _hand(self, number: int) -> FairHand:
        return FairHand(self.seat, number, rules=self.rules, group=self.group,
                        source=self.source, party=CHEATS.get(self.cheat, Party),
                        send=self._send, clock=self.clock, timings=self.timings,
                        table=self.name, checks=self.checks)

    def _start_hand(self, number: int) -> None:
        self.ledger.forget_before(number)
        self.current = self._hand(number)
        self.dispute = Dispute(self.seat, number, self.current.transcript, self.ledger,
                               group=self.group, name=self.name, keys=self.keys)
        self.timer.new_hand()
        self._settle()

    # --- the person's moves -----------------------------------------------------------------
    def choose_pass(self, cards: tuple[Card, ...]) -> str | None:
        """Pass these three cards; None, or the sentence saying why not."""
        hand = self.hand()
        if self.stage is not FairStage.PASSING or self.current.passing is not None \
                or not self.current.passes:
            return words.FAIR_NOT_NOW
        if len(set(cards)) != 3 or any(c not in hand for c in cards):
            return words.FAIR_PASS_THREE
        self.current.choose_pass(cards)
        self._settle()
        return None

    def play(self, card: Card) -> str | None:
        """Play ``card``; None, or the sentence saying why not."""
        if card not in self.legal():
            return words.FAIR_NOT_NOW
        self._play(card)
        return None

    def _play(self, card: Card) -> None:
        self.current.play(card)
        self._settle()

    def next_hand(self) -> None:
        """The person has seen the scores: on to the next hand (its deal starts when seat 0's
        page is there too)."""
        if self.stage is FairStage.SCORED:
            self._start_hand(self.hand_number + 1)

    # --- the clock -----------------------------------------------------------------------------
    def turn_left(self) -> int | None:
        """Whole seconds the person has left to move (None: nothing to do)."""
        return self.timer.turn_left()

    def tick(self) -> bool:
        """This page moves for its person if their time ran out; whether it did."""
        return self.timer.tick()

    def stalled(self) -> bool:
        """Close the table if it waited for another page in vain; whether it did."""
        return self.timer.stalled()

    # --- the mesh --------------------------------------------------------------------------------
    def received_from(self, seat: int, text: str) -> None:
        """A message from the page at ``seat`` (the connection it came on)."""
        if self.closed is not None or seat == self.seat or not 0 <= seat < NUM_SEATS:
            return
        opened = open_envelope(text, self.group)
        if opened is None:
            self.caught(Fault(seat, Cheat.MALFORMED))
            return
        sender, table, hand, n, inner, t, z = opened
        if table != tag(self.name) or hand < self.hand_number:
            # for the table before a draw again (whose seats were others), or a hand over
            # here (a late digest)
            return
        if sender != seat:  # a page speaks only for the seats it holds (the mesh checks)
            self.caught(Fault(seat, Cheat.MALFORMED))
            return
        signed = self.ledger.admit(seat, hand, n, inner, t, z)
        if signed is None:
            self.caught(Fault(seat, Cheat.UNSIGNED))
            return
        try:
            kind = self.inbox.hold(seat, hand, inner, self.group)
        except CheatDetected as error:
            self.caught(error.fault)
            return
        if kind is None:
            self.caught(Fault(seat, Cheat.MALFORMED))
            return
        self.ledger.keep(hand, kind, signed)
        self._settle()

    def gone(self, seat: int) -> None:
        """The page at ``seat`` left, and its keys with it (``TableClock.leave``)."""
        self.timer.leave(seat)

    def take_outbox(self) -> list[str]:
        out, self.outbox = self.outbox, []
        return out

    # --- the protocol's steps -------------------------------------------------------------------
    def _send(self, kind: str, **fields: object) -> None:
        if kind == "fair_digest":
            fields = {**fields, "echo": self.dispute.echo()}
        text = message(kind, **fields)
        try:
            receive(self.transcript, self.seat, text)
        except CheatDetected:
            # This page's own step fails its own check: what it computed from is bad (every
            # value it received passed the checks on arrival, so a bug, or this page's own
            # modification). It never names itself, nor anyone: it can't tell who.
            if self.cheat not in CHEATS:
                self.close(words.FAIR_OWN_STEP)
                return
            # A modified page (the tests') sends it anyway, stays, and goes no further.
            self._halted = True
            self.outbox.append(self.ledger.seal(self.hand_number, kind, text))
            return
        tamper = TAMPERS.get(self.cheat)
        if tamper is not None:  # a modified page (the tests'): its record keeps the truth
            text = message(kind, **tamper(kind, fields, self.seat))
        self.outbox.append(self.ledger.seal(self.hand_number, kind, text))

    def _settle(self) -> None:
        """Take every message that fits now, and every step of this page that is due."""
        while self.closed is None and not self._halted and (
                self._drain() or self.current.act() or self._revoke()):
            self.timer.moved()
        if self.closed is None and self.transcript.disputed:
            self._dispute()
        self.timer.waiting()  # the person's time runs from the moment their move is due

    def _dispute(self) -> None:
        """The digests or echoes differ: this page keeps its keys (``steps.due_step``), or
        a false digest would read every hand; it sends its evidence, and once every page's
        is in, names whoever the signatures show lied, or nobody (``dispute``)."""
        if self.dispute.owes_evidence():
            self._send("fair_evidence", items=self.dispute.evidence())
            if self.closed is not None:
                return
        while self._drain():  # evidence that came first
            pass
        if self.closed is None:
            self.dispute.judge()

    def _verdict(self, finding: Finding) -> None:
        """The dispute judged: name the liar the signatures show, or close with neutral
        words."""
        if isinstance(finding, Fault):
            self.caught(finding)
        else:
            self.close(words.disagreement_text(finding, self.seat))

    def _drain(self) -> bool:
        try:
            return self.inbox.take(self.transcript, self.hand_number)
        except CheatDetected as error:
            self.caught(error.fault)
            return False

    def _revoke(self) -> bool:
        """The tests' cheat: on its turn, at once, a card of another suit than the one led
        while it holds that suit (the felt would refuse it: the page plays it itself)."""
        if self.cheat != "revoke" or self.waiting_for_me() != "play" \
                or not self.transcript.trick:
            return False
        honest = self.current.legal()
        revokes = [c for c in self.hand() if c not in honest]
        if not revokes:
            return False
        self._play(revokes[0])
        return True

    # --- the audit -------------------------------------------------------------------------------
    def work_step(self) -> bool | None:
        """One slice of the work that waits for no message: making this page's shuffle
        proof, checking the others', then the audit (the page yields between slices).
        None: nothing was due; False: a slice; True: a slice that finished a job (a proof
        sent or checked, the verdict), after which the page has news to show and send."""
        if self.closed is not None:
            return None
        if self.dispute.judging:
            finding = self.dispute.judge_step()
            if finding is None:
                return False
            self._verdict(finding)
            return True
        proved = self.current.slice_step()
        if proved is not None:
            if proved:
                self._settle()  # a proof sent, or the last one checked: steps may be due
            return proved
        if self.current.auditing is None:
            return None
        result = self.current.audit_step()
        if result is None:
            return False
        if result.fault is not None:
            self.caught(result.fault)
        elif result.disagreeing:
            self.closed = words.disagreement_text(result.disagreeing, self.seat)
        elif not self.transcript.finished:
            self.closed = words.FAIR_STOPPED  # a card didn't open, and nobody was to blame
        elif self.timer.gone is not None:
            self.timer.close_gone()
        else:
            self._score(result)
        return True

    def adopt(self, checker: FairTable) -> bool:
        """What ``checker`` — this page's table that checks the same messages — found of
        this hand: the shuffle proofs it checked, and its audit's verdict once every key
        is in here too. For a table made with ``checks=False``; whether it scored."""
        here, there = self.current, checker.current
        if self.closed is not None or here.number != there.number:
            return False
        here.transcript.proven |= there.transcript.proven - {self.seat}
        if there.result is None or here.result is not None \
                or len(here.transcript.reveals) < NUM_SEATS:
            self._settle()  # a proof now checked may let a step go
            return False
        self._score(there.result)
        return True

    # --- closing ------------------------------------------------------------------------------
    def close(self, why: str) -> None:
        """Close the table, saying why; what this page had yet to send goes unsent."""
        self.closed = why
        self.outbox.clear()

    def caught(self, fault: Fault) -> None:
        """Close the table naming the cheat: the hand doesn't count."""
        self.fault = fault
        self.close(words.fault_text(fault, self.seat) + " " + words.FAIR_VOID)
