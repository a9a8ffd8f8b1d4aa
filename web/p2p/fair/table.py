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
fault of the audit, closes the table with the cheat named (``closed``/``fault``), and the
hand is charged to it; a hand whose 52 cards are in counts as played whatever comes after
(``outcome.Outcomes``, which a ``FairTable`` is). What comes from the other pages is
checked and taken in ``arrivals.Arrivals`` (a ``FairTable`` is one too): a page that waited
asks the others for what it missed, and they relay the signed copies (``relay``).

The next hand's deck is made while this one is played (``upcoming``: its shuffle, proof,
the checks of the others' proofs and its lock, in background slices, once this page's cards
are read): when the person goes on to it, only its opening rounds are left.

Its clocks are ``clock.TableClock``'s: the person's turn, for whom this page moves when their
time runs out (``tick``), and how long the table waits for the others (``stalled``,
``gone``). When the digests or echoes of a hand differ, its ``dispute.Dispute`` names the
liar, or nobody.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from hearts import Card
from hearts.rules import NUM_SEATS, Rules
from web import words
from web.p2p.fair.arrivals import Arrivals
from web.p2p.fair.cheats import CHEATS, EVIDENCE_WITH_DIGEST, TAMPERS
from web.p2p.fair.clock import GONE_GRACE, TableClock
from web.p2p.fair.dispute import END_KINDS, Dispute, Finding
from web.p2p.fair.game import FairStage
from web.p2p.fair.group import GROUP, Group, KeySource
from web.p2p.fair.hand import SLICE_SECONDS, FairHand
from web.p2p.fair.inbox import Inbox
from web.p2p.fair.ledger import Ledger
from web.p2p.fair.party import Party
from web.p2p.fair.played import withheld
from web.p2p.fair.public import Score
from web.p2p.fair.relay import Relays
from web.p2p.fair.resume import HandKept, replay
from web.p2p.fair.steered import Replay
from web.p2p.fair.transcript import CheatDetected, Fault
from web.p2p.fair.wire import apply, message, read_own, tag

__all__ = ["GONE_GRACE", "SLICE_CLOCK", "FairStage", "FairTable"]




SLICE_CLOCK: Callable[[], float] = time.perf_counter
"""What a table's slices and timings measure unless it is given a ``clock``: the machine's
time. The unit tests set one that counts work instead (``tests/conftest.py``), so how far a
slice gets never depends on how fast or busy the machine is."""


class FairTable(Arrivals):
    """The fair table as the page at ``seat`` plays it: the messages, the steps, the
    audit's slices. The game it moves on is read in ``FairGame``, and what a hand comes to
    when the table closes in ``Outcomes``: a ``FairTable`` is both, so that what the felt
    reads stays its API without a wall of delegating properties."""

    def __init__(self, seat: int, *, now: Callable[[], float], turn: float,
                 rules: Rules | None = None, group: Group = GROUP,
                 source: KeySource | None = None,
                 clock: Callable[[], float] | None = None, cheat: str = "",
                 name: str = "", signing_key: int, keys: Sequence[int],
                 checks: bool = True, hand: int = 1, history: Sequence[Score] = (),
                 computers: Mapping[int, int] | None = None,
                 kept: HandKept | None = None) -> None:
        """``now``: the turn timer's clock (seconds); ``turn``: seconds a person has to
        move; ``clock``: the slices' and the timings' (``timings``; ``SLICE_CLOCK`` if not
        given); ``cheat``: for the tests that the
        others name this page, "revoke" (it plays another suit at once whenever it could
        follow) or a step of the deal it cheats at (``cheats.CHEATS``); ``name``: what
        names this table, the same at every page (it goes into every proof);
        ``signing_key``: this page's key for the table, and ``keys``: every seat's public
        one (``g**key``, announced in the draw), by seat (``signing``); ``checks``: False
        for a computer's table on a page whose person's table checks the same messages
        (the shuffle proofs, the audit) and hands the findings over (``adopt``); ``hand``
        and ``history``: the first hand this table deals and the hands scored before it (a
        table drawn again after a page left goes on with the game); ``computers``: each
        seat a computer plays, and the seat of the person whose page plays it (each page
        replays its decisions, and names that page if it played otherwise: ``steered``);
        ``kept``: this page's part of hand ``hand`` before it reloaded: the table stands
        where it stood (``resume``; ``resumed`` says whether the record held)."""
        self.computers = dict(computers or {})
        self.checks = checks
        self.name = name
        self.cheat = cheat
        self.keys = tuple(keys)
        if len(self.keys) != NUM_SEATS or group.power(group.generator, signing_key) \
                != self.keys[seat]:
            raise ValueError("a fair table needs four public keys, this page's among them")
        super().__init__(seat, rules=rules or Rules(), history=history)
        self.ledger = Ledger(seat, group=group, name=name, signing_key=signing_key,
                             keys=self.keys, unkept=END_KINDS, source=source, now=now)
        """Every signed message this page sent or took (``ledger``)."""
        self.now = now
        self.turn = turn
        self.timer = TableClock(self, now=now, turn=turn)
        """The person's turn, and the table's patience with the others (``clock``)."""
        self.group = group
        self.source = source
        self.clock = clock if clock is not None else SLICE_CLOCK
        self.outbox: list[str] = []
        self.fault: Fault | None = None
        self._halted = False
        """A modified page (the tests') sent a step its own check refused: it stops there."""
        self.timings: dict[str, list[float]] = {"deal": [], "check": [], "audit": [],
                                                "replay": []}
        """Milliseconds: each deal (from the hand's start to this page's cards read), each
        check of another page's play, each audit (from the last key to the verdict)."""
        self.inbox = Inbox(self.clock, self.timings["check"])
        self._replaying: Replay | None = None
        """A hand scored: its computers' decisions being replayed (``steered``), in the
        background of the next hand."""
        self.relays = Relays(seat, tag(name), self.ledger, now)
        """What this page asks the others for, and relays to them (``relay``)."""
        self.left_in_replay: int | None = None
        """A page that left while a hand was replayed: taken as gone once it is done."""
        self.closers_told = False
        """This page told the others it closed (``fair_closed``)."""
        self.resumed = False
        """The table took up its hand where its page left it before a reload (``kept``)."""
        self.ahead: list[str] = []
        """Resumed: envelopes that came straight from their sender before the ones it sent
        while this page was away, which the others relay (``ask_missed``)."""
        self._resuming = False
        self.upcoming: FairHand | None = None
        """The next hand, its deck shuffled, proven, checked and locked in the background
        while this one is played (``prepare``): only its opening waits for its turn."""
        self._replay_turn = False
        """Background slices alternate between the next hand's deal and the replay."""
        self.unsettled = False
        group.generator_powers  # noqa: B018  built now, not within the first card's check
        self._start_hand(hand, kept)

    # --- the hand ---------------------------------------------------------------------------
    def _hand(self, number: int) -> FairHand:
        return FairHand(self.seat, number, rules=self.rules, group=self.group,
                        source=self.source, party=CHEATS.get(self.cheat, Party),
                        send=partial(self._send_in, number), clock=self.clock,
                        timings=self.timings, table=self.name, checks=self.checks)

    def _start_hand(self, number: int, kept: HandKept | None = None,
                    settle: bool = True) -> None:
        """Hand ``number`` under way (its deck made ahead if it was); ``settle``: its first
        slice now (else in the page's next slice: ``unsettled``)."""
        self.ledger.forget_before(number)
        ready, self.upcoming = self.upcoming, None
        if ready is not None and ready.number == number:  # its deck made while the last
            ready.started = self.clock()                  # was played: its deal from now
            self.current = ready
        else:
            self.current = self._hand(number)
        self.dispute = Dispute(self.seat, number, self.current.transcript, self.ledger,
                               group=self.group, name=self.name, keys=self.keys)
        self.timer.new_hand()
        if kept is not None:
            self._resuming = True  # the record as it was: this page's steps are in it
            self.resumed = replay(self, kept)
            self._resuming = False
            self.outbox.clear()  # (digests relayed while replaying: nothing new)
        if kept is not None:
            self._settle()
        elif settle:
            self._settle(SLICE_SECONDS)  # (the rest: next slice)
        else:
            self.unsettled = True

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
        self.unsettled = True  # what it makes due: in the page's next slices, not the click's
        return None

    def play(self, card: Card) -> str | None:
        """Play ``card``; None, or the sentence saying why not."""
        if card not in self.legal():
            return words.FAIR_NOT_NOW
        self._play(card)
        return None

    def _play(self, card: Card) -> None:
        """The card goes out; what it makes due is for the page's next slices (the task of
        the person's click has the table to draw)."""
        self.current.play(card)
        self.unsettled = True

    def next_hand(self) -> None:
        """The person has seen the scores: on to the next hand (its deal starts when seat 0's
        page is there too). Its first slice is the page's next, not the click's: the click's
        task draws the table."""
        if self.stage is FairStage.SCORED:
            self._start_hand(self.hand_number + 1, settle=False)

    # --- the clock -----------------------------------------------------------------------------
    def turn_left(self) -> int | None:
        """Whole seconds the person has left to move (None: nothing to do)."""
        return self.timer.turn_left()

    def tick(self) -> bool:
        """This page moves for its person if their time ran out; whether it did."""
        return self.timer.tick()

    def stalled(self) -> bool:
        """Ask the others for what this page may have missed if it has waited a while
        (``relay``); close the table if it waited for another page in vain, naming a page
        that keeps a hand played out from its check once shown all it needed; whether it
        closed."""
        if self.closed is None and self.stage not in (FairStage.SCORED, FairStage.OVER):
            asked = self.relays.ask(self.hand_number, self.timer.turns.progress)
            if asked is not None:
                self.outbox.append(asked)
        if self.closed is None and self.stage is FairStage.AUDITING \
                and self.timer.turns.stalled() and self.timer.gone is None:
            fault = withheld(self.transcript, self.dispute.shown)
            if fault is not None:
                self.caught(fault)
                return True
        return self.timer.stalled()

    # --- the mesh --------------------------------------------------------------------------------
    def _show_digests(self) -> None:
        """The four digests are in: relay them to every page (once), so a page that
        missed one is shown the hand's end (a dispute, or keys owed)."""
        if not self.dispute.shown and len(self.transcript.digests) == NUM_SEATS:
            self.dispute.shown = True
            self.outbox += self.relays.digests(self.hand_number)

    def gone(self, seat: int) -> None:
        """The page at ``seat`` left, and its keys with it (``TableClock.leave``). While
        the hand before is replayed (``steered``), that comes first: leaving once a hand is
        scored is no way out of its replay."""
        if self._replaying is not None:
            self.left_in_replay = seat
            return
        self.timer.leave(seat)

    def take_outbox(self) -> list[str]:
        out, self.outbox = self.outbox, []
        return out

    # --- the protocol's steps -------------------------------------------------------------------
    def _send_in(self, number: int, kind: str, **fields: object) -> None:
        """A step of hand ``number``'s: the hand under way's go through ``_send``."""
        if number == self.hand_number:
            self._send(kind, **fields)
        else:
            self._send_for(number, kind, **fields)

    def _send(self, kind: str, **fields: object) -> None:
        self._send_for(self.hand_number, kind, **fields)

    def _send_for(self, number: int, kind: str, **fields: object) -> None:
        """This page's message of hand ``number`` (the one under way, or the next one's
        deal), checked against its record, signed and sent."""
        if kind == "fair_digest":
            fields = {**fields, "echo": self.dispute.echo()}
        text = message(kind, **fields)
        record = (self.current if number == self.hand_number else self._next()).transcript
        try:
            apply(record, self.seat, read_own(text, self.group, self.seat, fields))
        except CheatDetected:
            # This page's own step fails its own check: what it computed from is bad (every
            # value it received passed the checks on arrival, so a bug, or this page's own
            # modification). It never names itself, nor anyone: it can't tell who.
            if self.cheat not in CHEATS:
                self.close(words.FAIR_OWN_STEP)
                return
            # A modified page (the tests') sends it anyway, stays, and goes no further.
            self._halted = True
            self.outbox.append(self.ledger.seal(number, kind, text))
            return
        tamper = TAMPERS.get(self.cheat)
        if tamper is not None:  # a modified page (the tests'): its record keeps the truth
            sent = tamper(kind, fields, self.seat)
            if sent is None:
                return  # withheld from every page
            text = message(kind, **sent)
        self.outbox.append(self.ledger.seal(number, kind, text))
        if kind == "fair_digest" and self.cheat in EVIDENCE_WITH_DIGEST:
            evidence = message("fair_evidence", items=self.ledger.evidence(number))
            self.outbox.append(self.ledger.seal(number, "fair_evidence", evidence))

    def _settle(self, budget: float | None = None) -> None:
        """Take every message that fits now, and every step of this page that is due;
        within ``budget`` seconds of the table's clock if given (a step at most past it),
        the rest left ``unsettled`` for the next slice."""
        self.unsettled = False
        started = self.clock()

        def over() -> bool:
            if budget is None or self.clock() - started < budget:
                return False
            self.unsettled = True
            return True

        hand = self.current
        try:
            if not self.inbox.vet(self.group, over, hand.transcript, hand.number):
                return
        except CheatDetected as error:  # a message's number that isn't one
            self.caught(error.fault)
            return
        while self.closed is None and not self._halted and (self._drain() or (
                not self._resuming and (self.current.act() or self._revoke()))):
            self.timer.moved()
            if over():
                return
        if not self._prepare(over) or self._resuming:
            return
        if self.closed is None and not self._halted:
            self._show_digests()
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
        if self.closed is None and not self.dispute.evidence_shown \
                and len(self.transcript.evidence) == NUM_SEATS:
            # Every page's evidence to every page (once), before judging: a page the liar
            # sent nothing of the hand's end learns of the dispute from the digests relayed
            # to it, and here gets the liar's evidence, which it couldn't get from a page
            # that judged and closed (a closed page's room may be gone).
            self.dispute.evidence_shown = True
            self.outbox += self.relays.every(self.hand_number, "fair_evidence")
        if self.closed is None:
            self.dispute.judge()

    def _verdict(self, finding: Finding) -> None:
        """The dispute judged: name the liar the signatures show, or close with neutral
        words."""
        if isinstance(finding, Fault):
            self.caught(finding)
        else:
            self.close(words.disagreement_text(finding, self.seat),
                       words.fair_disagreement_counted(finding, self.seat))

    def _next(self) -> FairHand:
        assert self.upcoming is not None
        return self.upcoming

    def _prepare(self, over: Callable[[], bool] = lambda: False) -> bool:
        """The next hand's deal, in the background of this one: begun once this page's
        cards are read (the deal before it is done here), its messages taken as they fit,
        its shuffle and lock made when their turn comes (not while the record is replayed
        after a reload: those it sent are in it). Its progress is not this hand's: the
        table's patience with the others (``timer.moved``) is left alone. Whether it is
        done (False: ``over()`` said the slice's time is out)."""
        if self.closed is not None or self._halted or self.stage is FairStage.OVER:
            return True
        if self.upcoming is None and self.current.dealt is not None:
            self.upcoming = self._hand(self.hand_number + 1)
        up = self.upcoming
        while up is not None and self.closed is None and not self._halted and (
                self._drain(up) or (not self._resuming and up.prepare())):
            if over():
                return False
        return True

    def _drain(self, hand: FairHand | None = None) -> bool:
        """A held message that fits ``hand``'s record now (the hand under way's)."""
        hand = hand or self.current
        try:
            return self.inbox.take(hand.transcript, hand.number)
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
        if self.unsettled:  # messages taken: checked against the record, answered
            self._settle(SLICE_SECONDS)
            return True
        if self.dispute.judging:
            finding = self.dispute.judge_step()
            if finding is None:
                return False
            self._verdict(finding)
            return True
        proved = self.current.slice_step()
        if proved is not None:
            if proved:  # a proof sent, or the last one checked: steps may be due, in
                self.unsettled = True  # the next slice (this one is spent)
            return proved
        if self.current.auditing is None:
            return self._background_step()
        result = self.current.audit_step()
        if result is None:
            return False
        if result.fault is not None:
            self.caught(result.fault)
        elif result.disagreeing:
            self.close(words.disagreement_text(result.disagreeing, self.seat))
        elif not self.transcript.finished:
            self.close(words.FAIR_STOPPED)  # a card didn't open, and nobody was to blame
        elif self.timer.gone is not None:
            self.timer.close_gone()
        else:
            if self.computers:  # replayed once scored, while the game goes on
                t = self.transcript
                self._replaying = Replay(
                    self.name, self.computers, index=len(self.history), started=self.clock(),
                    dealt=result.dealt, plays=t.plays, rules=self.rules,
                    hand_number=self.hand_number, direction=self.direction,
                    scores=self.scores, history=self.history)
            self._score(result)
        return True

    def _background_step(self) -> bool | None:
        """A slice of the next hand's deal (``prepare``) or of the computers' replay (the
        hand before), in turn while both have work. The replay waits while the hand under
        way is dealt: its slices would hold up each round of the deal's messages (the
        people wait for their cards; the replay has no one waiting, unless a page left)."""
        self._replay_turn = not self._replay_turn
        replay = self._replaying is not None and (
            self.current.dealt is not None or self.transcript.over
            or self.left_in_replay is not None)  # (a page gone waits for the replay)
        if replay and (self._replay_turn or self.upcoming is None):
            return self._replay_step()
        made = None if self.upcoming is None else self.upcoming.slice_step()
        if made is None:
            return self._replay_step() if replay else None
        if made:  # a shuffle, lock or proof sent, a proof checked: steps may be due
            self.unsettled = True
        return made

    @property
    def replaying(self) -> bool:
        """The computers' decisions are being replayed (``work_step`` slices)."""
        return self._replaying is not None

    def adopt(self, checker: FairTable) -> bool:
        """What ``checker`` — this page's table that checks the same messages — found of
        this hand: the shuffle proofs it checked, and its audit's verdict once every key
        is in here too. For a table made with ``checks=False``; whether it scored."""
        here, there = self.current, checker.current
        if self.closed is not None:
            return False
        checked = {h.number: h for h in (there, checker.upcoming) if h is not None}
        for mine in (here, self.upcoming):  # the next hand's deck is checked ahead too
            if mine is not None and mine.number in checked:
                news = checked[mine.number].transcript.proven - {self.seat}
                if not news <= mine.transcript.proven:
                    mine.transcript.proven |= news
                    self.unsettled = True  # a proof now checked may let a step go
        if here.number != there.number:
            return False
        if there.result is None or here.result is not None \
                or len(here.transcript.reveals) < NUM_SEATS:
            return False
        self._score(there.result)
        return True
