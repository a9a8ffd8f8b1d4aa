"""Four pages' fair tables over a fake mesh: each page deals with the others, knows only its
own hand, checks every play on arrival, audits the hand, and names a cheat.

The mesh delivers each page's messages to each other page in order, but the pages' messages
interleave at random (as over WebRTC: seat 3 may hear seat 2's lock before seat 1's).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Generator, Sequence

import pytest

from hearts import Card
from hearts.rules import PassDirection, pass_target
from tests.groups import SMALL
from tests.solo_page import Heard
from web import words
from web.p2p.fair import wire
from web.p2p.fair.cheats import CHEATS, TAMPERS, MarkedCards, Tamper, false_digest, false_echo
from web.p2p.fair.party import Party
from web.p2p.fair.played import charged
from web.p2p.fair.public import PublicHand
from web.p2p.fair.shuffle_proof import prove_shuffle
from web.p2p.fair.table import GONE_GRACE, FairStage, FairTable
from web.p2p.fair.transcript import Cheat, Fault, Play, Transcript
from web.p2p.fair.wire import message, proof_fields
from web.seats.fair import FairSeat
from web.table.model import PageState, build


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Mesh:
    """Four fair tables and the channels between them (sender, receiver) -> messages."""

    def __init__(self, seed: int = 1, cheats: dict[int, str] | None = None,
                 kinds: dict[int, type[FairTable]] | None = None) -> None:
        self.clock = Clock()
        self.rng = random.Random(seed)
        self.signing = [SMALL.short_key(random.Random(seed * 100 + s)) for s in range(4)]
        keys = [SMALL.power(SMALL.generator, x) for x in self.signing]
        self.pages = [(kinds or {}).get(s, FairTable)(s, now=self.clock, turn=30.0, group=SMALL,
                                source=random.Random(seed * 10 + s),
                                cheat=(cheats or {}).get(s, ""), name="mesh",
                                signing_key=self.signing[s], keys=keys) for s in range(4)]
        self.channels: dict[tuple[int, int], list[str]] = {
            (a, b): [] for a in range(4) for b in range(4) if a != b}
        self.seen: dict[int, list[str]] = {s: [] for s in range(4)}
        self.block: Callable[[int, int, str], bool] = lambda sender, receiver, text: False
        """A modified page's filter on its sends: (sender, receiver, text) -> withheld."""

    def collect(self) -> None:
        for page in self.pages:
            for text in page.take_outbox():
                self.seen[page.seat].append(text)
                for other in range(4):
                    if other != page.seat and not self.block(page.seat, other, text):
                        self.channels[(page.seat, other)].append(text)

    def wait(self, seconds: float, order: Sequence[int] = range(4)) -> None:
        """Let ``seconds`` pass a second at a time, each page's timer going off in
        ``order`` each second, and every message delivered in between."""
        for _ in range(int(seconds)):
            self.clock.t += 1.0
            for seat in order:
                self.pages[seat].stalled()
                self.run()

    def deliver(self, sender: int, receiver: int, text: str) -> None:
        """One message to one page, and what it makes due there taken at once (the page's
        loop does so in the slices after it comes: ``FairTable.unsettled``)."""
        page = self.pages[receiver]
        page.received_from(sender, text)
        while page.unsettled:
            page.work_step()

    def run(self) -> None:
        """Deliver everything, one message at a time in a random order, and the audits."""
        while True:
            self.collect()
            busy = [k for k, q in self.channels.items() if q]
            if busy:
                sender, receiver = self.rng.choice(busy)
                self.pages[receiver].received_from(sender, self.channels[(sender, receiver)]
                                                   .pop(0))
                continue
            if not any(page.work_step() is not None for page in self.pages):
                return

    def pass_all(self) -> None:
        for page in self.pages:
            if page.direction is not PassDirection.NONE:
                assert page.choose_pass(tuple(page.hand()[:3])) is None
            self.run()

    @staticmethod
    def play(page: FairTable, card: Card) -> None:
        """``page`` plays ``card``: it goes out once its proof is made and checked, in the
        page's slices (``FairHand.play``)."""
        assert page.play(card) is None
        while page.current.playing is not None:
            page.work_step()

    def play_hand(self) -> None:
        while any(p.stage is FairStage.PLAYING for p in self.pages):
            seat = next(p.seat for p in self.pages if p.to_play() == p.seat)
            page = self.pages[seat]
            assert page.play(page.auto_card()) is None
            self.run()


def test_four_pages_deal_a_hand_each_seeing_only_its_own_cards() -> None:
    mesh = Mesh()
    mesh.run()
    hands = [set(p.hand()) for p in mesh.pages]
    assert all(len(h) == 13 for h in hands)
    assert set().union(*hands) == set(Card.parse(c) for c in _deck())
    for page in mesh.pages:
        view = page.view()
        assert view is not None and view.seat == page.seat
        others = set().union(*(hands[s] for s in range(4) if s != page.seat))
        assert not others & set(page.party.known.values())  # no page knows another's card
    assert all(p.stage is FairStage.PASSING for p in mesh.pages)


def _deck() -> list[str]:
    return [r + s for s in "CDSH" for r in "23456789TJQKA"]


def test_a_pass_reaches_exactly_one_seat() -> None:
    mesh = Mesh(seed=2)
    mesh.run()
    before = [set(p.hand()) for p in mesh.pages]
    passed = [tuple(p.hand()[:3]) for p in mesh.pages]
    mesh.pass_all()
    for page in mesh.pages:
        target = pass_target(page.seat, PassDirection.LEFT)
        assert mesh.pages[target].current.received == tuple(sorted(passed[page.seat]))
        for other in mesh.pages:
            if other.seat not in (page.seat, target):
                assert not set(passed[page.seat]) & set(other.party.known.values())
        assert set(page.hand()) == (before[page.seat] - set(passed[page.seat])
                                    | set(page.current.received or ()))
    assert all(p.stage is FairStage.PLAYING for p in mesh.pages)


def test_a_whole_hand_is_played_checked_and_audited_by_every_page() -> None:
    mesh = Mesh(seed=3)
    mesh.run()
    mesh.pass_all()
    first = next(p for p in mesh.pages if p.to_play() == p.seat)
    assert Card.parse("2C") in first.hand()
    assert all(p.to_play() is None for p in mesh.pages if p is not first)  # nobody else knows
    mesh.play_hand()
    scores = PublicHand(tuple(mesh.pages[0].transcript.plays)).scores(mesh.pages[0].rules)
    for page in mesh.pages:
        assert page.stage is FairStage.SCORED, page.closed
        assert page.result is not None and page.result.fair
        assert page.scores == scores and sum(scores) in (26, 78)
        assert len(page.timings["check"]) == 39  # every other page's play, checked on arrival
        assert len(page.timings["deal"]) == 1 and len(page.timings["audit"]) == 1


def test_the_next_hand_is_dealt_when_each_page_goes_on_and_passes_right() -> None:
    mesh = Mesh(seed=4)
    mesh.run()
    mesh.pass_all()
    mesh.play_hand()
    for page in reversed(mesh.pages):  # seat 0 goes on last: the others' pages wait for it
        page.next_hand()
        mesh.run()
    assert all(p.hand_number == 2 and p.direction is PassDirection.RIGHT for p in mesh.pages)
    assert all(len(p.hand()) == 13 and p.stage is FairStage.PASSING for p in mesh.pages)
    assert all(p.history == mesh.pages[0].history for p in mesh.pages)


def test_a_revoking_page_is_named_by_every_other_page_and_charged_the_hand() -> None:
    mesh = Mesh(seed=5, cheats={1: "revoke"})
    mesh.run()
    mesh.pass_all()
    while all(p.closed is None for p in mesh.pages) and any(
            p.stage is FairStage.PLAYING for p in mesh.pages):
        seat = next(p.seat for p in mesh.pages if p.to_play() == p.seat)
        mesh.pages[seat].play(mesh.pages[seat].auto_card())
        mesh.run()
    revoked = any(not _followed(p, mesh.pages[0].transcript.plays)
                  for p in mesh.pages[0].transcript.plays if p.seat == 1)
    assert revoked  # the cheat had a chance and took it
    for page in mesh.pages:
        assert page.stage is FairStage.CLOSED and page.fault is not None
        assert page.fault.seat == 1 and page.fault.kind in (Cheat.REVOKE, Cheat.FIRST_TRICK)
        assert page.closed is not None and "cheated" in page.closed
        assert page.scores == (0, 26, 0, 0)  # charged to the cheat: a revoke never pays
    assert mesh.pages[0].closed.startswith("West cheated")  # type: ignore[union-attr]
    assert mesh.pages[1].closed.startswith("You cheated")  # type: ignore[union-attr]


def _followed(play: Play, plays: list[Play]) -> bool:
    i = plays.index(play)
    led = plays[i - i % 4].card.suit
    return i % 4 == 0 or play.card.suit == led


def test_a_card_shown_as_another_is_caught_at_once_by_every_other_page() -> None:
    mesh = Mesh(seed=6)
    mesh.run()
    mesh.pass_all()
    page = next(p for p in mesh.pages if p.to_play() == p.seat)
    slot, proof = page.party.play(Card.parse("2C"))
    lie = page.party.transcript  # the record it would have to fool
    assert lie.to_play is None
    forged = page.ledger.seal(1, "fair_play", message(  # signed by it
        "fair_play", slot=slot, card=Card.parse("3C"), proof=proof))
    for other in mesh.pages:
        if other is not page:
            other.received_from(page.seat, forged)
            assert other.unsettled and other.work_step()  # checked in the page's next slice
            assert other.fault is not None and other.fault.seat == page.seat
            assert other.fault.kind is Cheat.BAD_KEY and other.stage is FairStage.CLOSED


def test_a_messages_numbers_are_read_in_the_pages_slices_and_a_false_one_names_its_sender(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck is 52 numbers and a shuffle's proof 269: read in the task that brings them,
    some hundred milliseconds on a slow phone. On arrival a page reads a message's form
    (and its envelope's signature); its numbers wait for the page's next slices, and one
    that is not a number's one spelling names its sender there."""
    read: list[object] = []
    number = wire._number

    def counted(text: object, limit: int) -> int:
        read.append(text)
        return number(text, limit)

    monkeypatch.setattr(wire, "_number", counted)
    mesh = Mesh(seed=8)
    sender, page = mesh.pages[1], mesh.pages[0]
    deck = tuple(SMALL.power(v, 3) for v in SMALL.codes)
    lock = sender.ledger.seal(1, "fair_lock", message("fair_lock", deck=deck))
    page.received_from(1, lock)
    assert len(read) == 2 and page.fault is None  # the signature's two numbers
    while page.unsettled:  # (a slice reads as many as its time allows)
        page.work_step()
    assert len(read) == 2 + 52 and page.fault is None
    spelt_long = json.loads(message("fair_lock", deck=deck))
    spelt_long["deck"][7] = "AA" + spelt_long["deck"][7]  # the same number, two zeros before
    page.received_from(1, sender.ledger.seal(1, "fair_lock", json.dumps(spelt_long)))
    assert page.fault is None and page.unsettled
    while page.unsettled and page.fault is None:
        page.work_step()
    assert page.fault == Fault(1, Cheat.MALFORMED) and page.stage is FairStage.CLOSED


def test_a_persons_card_goes_out_from_the_pages_slices_and_cant_be_played_twice() -> None:
    """A card's proof and the page's own check of it are some two full-size powers (60 ms
    and more on a slow phone): not the task of the person's click, which draws the table.
    Until the card is out, the table waits for nothing from the person: no second card,
    no card played for them when their time runs out."""
    mesh = Mesh(seed=9)
    mesh.run()
    mesh.pass_all()
    page = next(p for p in mesh.pages if p.to_play() == p.seat)
    card = page.auto_card()
    assert page.play(card) is None
    assert page.take_outbox() == [] and page.transcript.plays == []
    assert page.legal() == () and page.waiting_for_me() is None
    assert page.play(card) == words.FAIR_NOT_NOW
    view = page.view()  # shown played at once: the felt doesn't wait for the proof
    assert view is not None and card not in view.hand and view.trick is not None
    assert view.trick.cards[-1] == card and view.to_play != page.seat
    mesh.clock.t += 100.0
    assert not page.tick()  # its time ran out while its card was on its way: no other
    slices = 0
    while page.current.playing is not None:
        page.work_step()
        slices += 1
    assert slices > 1  # (a slice of the tests' clock: a few steps)
    assert [p.card for p in page.transcript.plays] == [card]
    assert page.view() == view  # and so it stays once it is out
    assert len([t for t in page.take_outbox() if "fair_play" in t]) == 1


def test_a_pages_blinds_and_cards_are_made_in_its_slices_never_in_one_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass's blind is three powers and three proofs (some one and a half full-size
    powers), a card's proof and its check some two: in one step, a long task on a slow
    phone. A page makes them in its slices, and checks the others' blinds while they wait
    to be taken, as it does their cards."""
    def whole(party: Party, *args: object) -> object:
        raise AssertionError("made in one step")

    monkeypatch.setattr(Party, "blind", whole)
    monkeypatch.setattr(Party, "play", whole)
    checked_ahead: list[int] = []
    blind_check_steps = Transcript.blind_check_steps

    def checking(t: Transcript, seat: int, values: object, proofs: object
                 ) -> Generator[None, None, bool] | None:
        checked_ahead.append(seat)
        return blind_check_steps(t, seat, values, proofs)

    monkeypatch.setattr(Transcript, "blind_check_steps", checking)
    mesh = Mesh(seed=4)
    mesh.run()
    mesh.pass_all()
    assert all(len(p.transcript.blinded) == 4 for p in mesh.pages)
    assert sorted(checked_ahead) == sorted(4 * list(range(4)))  # its own, three others'
    mesh.play_hand()
    assert all(p.stage is FairStage.SCORED for p in mesh.pages)


def test_the_records_digest_is_made_in_pieces_and_is_the_hash_of_its_whole_text() -> None:
    """The record's text is some 300 000 characters (four shuffles' proofs): written and
    hashed in one step, some 40 ms on a slow phone at the hand's end. Its pieces hash to
    the digest of the whole text, so every page's digest is what it was."""
    mesh = Mesh(seed=3)
    mesh.run()
    mesh.pass_all()
    mesh.play_hand()
    for page in mesh.pages:
        record = page.transcript
        whole = json.dumps(record._record(), default=repr, separators=(",", ":"))
        assert record.digest() == hashlib.sha256(whole.encode()).hexdigest()
        assert record.digests[page.seat] == record.digest()  # sent as made in slices
        record._digested = None
        assert sum(1 for _ in record.digest_steps()) > 4 * 2 + 52
        assert record.digest_made()


def test_garbage_names_its_sender_and_a_page_gone_closes_the_table() -> None:
    mesh = Mesh(seed=7)
    mesh.pages[0].received_from(2, "not json")
    assert mesh.pages[0].fault is not None and mesh.pages[0].fault.kind is Cheat.MALFORMED
    assert mesh.pages[0].closed == words.fault_text(mesh.pages[0].fault, 0) + " " + \
        words.FAIR_VOID
    mesh.pages[1].gone(3)
    mesh.clock.t += GONE_GRACE - 0.1  # what page 3 sent before it left may still come
    assert not mesh.pages[1].stalled() and mesh.pages[1].stage is FairStage.DEALING
    mesh.clock.t += 0.1
    assert mesh.pages[1].stalled() and mesh.pages[1].stage is FairStage.CLOSED
    assert mesh.pages[1].closed == words.fair_gone_text(3, 1)


def test_a_person_out_of_time_is_moved_for_by_their_own_page_only() -> None:
    mesh = Mesh(seed=8)
    mesh.run()
    assert mesh.pages[2].turn_left() == 30
    mesh.clock.t = 29.0
    assert not any(p.tick() for p in mesh.pages)
    mesh.clock.t = 30.0
    assert all(p.tick() for p in mesh.pages)  # each page passes for its own person
    mesh.run()
    assert all(p.stage is FairStage.PLAYING for p in mesh.pages)
    leader = next(p for p in mesh.pages if p.to_play() == p.seat)
    mesh.clock.t = 61.0
    assert [p.tick() for p in mesh.pages] == [p is leader for p in mesh.pages]
    mesh.run()
    assert all(p.transcript.plays[0].card == Card.parse("2C") for p in mesh.pages)


def test_the_next_hands_deck_is_made_while_this_one_is_played_and_opened_only_in_its_turn(
        ) -> None:
    """Hand 2's deck is shuffled, proven, checked and locked while hand 1 is played: at
    hand 1's end only its opening rounds are left, and no page opens a card of it before
    its person goes on (a page still showing the scores takes the others' openings, and
    waits)."""
    mesh = Mesh(seed=9)
    mesh.run()
    mesh.pass_all()
    mesh.play_hand()
    for page in mesh.pages:
        ready = page.upcoming
        assert page.stage is FairStage.SCORED and ready is not None and ready.number == 2
        t = ready.transcript
        assert len(t.locks) == 4 and t.proven == {0, 1, 2, 3} and not t.opened
        assert ready.dealt is None
    mesh.pages[0].next_hand()  # seat 0 opens its round of hand 2; the others show scores
    mesh.run()
    waiting = mesh.pages[1]
    assert waiting.stage is FairStage.SCORED and waiting.hand_number == 1
    assert waiting.upcoming is not None and (1, 0) in waiting.upcoming.transcript.opened
    assert not any(seat == 1 for _, seat in waiting.upcoming.transcript.opened)
    for page in mesh.pages[1:]:
        page.next_hand()
    mesh.run()
    assert all(p.stage is FairStage.PASSING and len(p.hand()) == 13 for p in mesh.pages)
    assert len({c for p in mesh.pages for c in p.hand()}) == 52


def test_a_message_only_queues_and_its_page_takes_it_in_slices_of_its_own_clock() -> None:
    """What comes to a page is checked for its sender and signature on arrival, and waits:
    the page checks its numbers for the group, then takes it into the record, and the steps
    it makes due, in its next slices of ``SLICE_SECONDS`` on its own clock (a step at most
    past it: a number checked, a message taken), so that a burst of messages, or a deck of
    52 numbers, is no long task; the deal comes out the same."""
    mesh = Mesh(seed=11)
    mesh.block = lambda sender, receiver, text: receiver == 3
    mesh.run()  # seats 0, 1 and 2 shuffle and prove; seat 3 has heard nothing
    page = mesh.pages[3]
    mesh.block = lambda sender, receiver, text: False
    for sender in range(3):
        for text in mesh.seen[sender]:
            page.received_from(sender, text)
    held = sum(map(len, page.inbox.pending.values()))
    assert held >= 6 and page.unsettled and not page.transcript.shuffles
    assert not page.take_outbox()  # nothing answered in the tasks that brought them
    ticks = [0.0]

    def ticking() -> float:  # each read of the clock: 10 ms later
        ticks[0] += 0.010
        return ticks[0]
    page.clock = ticking

    def pending() -> int:
        return sum(map(len, page.inbox.pending.values()))
    slices = 0
    while pending() == held:  # a slice: two numbers checked (10 ms, then 20)
        assert page.work_step() is True and page.unsettled
        slices += 1
    assert slices > 3 * 52 // 2  # the three decks' numbers first, two a slice
    while page.unsettled:
        before = pending()
        page.work_step()
        assert before - pending() <= 2  # two messages a slice at most
    assert not any(page.inbox.pending.values()) and len(page.transcript.shuffles) == 3
    page.clock = mesh.clock.__class__()  # (its timings' clock again: any will do)
    mesh.run()
    hands = [set(p.hand()) for p in mesh.pages]
    assert all(len(h) == 13 for h in hands) and len(set().union(*hands)) == 52


def test_a_page_that_leaves_once_every_key_is_out_doesnt_stop_the_others_audit() -> None:
    mesh = Mesh(seed=10, cheats={3: "revoke"})

    def deliver_all() -> None:
        mesh.collect()
        while any(mesh.channels.values()):
            for (sender, receiver), queue in mesh.channels.items():
                if queue:
                    mesh.deliver(sender, receiver, queue.pop(0))
            mesh.collect()

    mesh.run()
    mesh.pass_all()
    while any(p.stage is FairStage.PLAYING for p in mesh.pages):
        page = next(p for p in mesh.pages if p.to_play() == p.seat)
        if page.current.playing is None:
            mesh.play(page, page.auto_card())
        while page.current.playing is not None:  # the cheat's card, played on its own
            page.work_step()
        deliver_all()
    for _ in range(100):  # the digests, made in slices, then the keys: up to the audits
        if all(p.current.auditing is not None for p in mesh.pages):
            break
        for page in mesh.pages:
            if page.current.auditing is None:
                page.work_step()
        deliver_all()
    assert all(p.current.auditing is not None for p in mesh.pages)
    mesh.pages[0].gone(1)  # West audited first, named the cheat and left
    mesh.run()
    assert mesh.pages[0].fault is not None and mesh.pages[0].fault.seat == 3


def test_a_page_that_sends_nothing_closes_the_table_after_a_turn_and_the_grace() -> None:
    mesh = Mesh(seed=11)
    mesh.run()
    mesh.pass_all()
    mesh.play_hand()
    for page in mesh.pages[:3]:
        page.next_hand()  # East's person reads the scores; East's page will go on for them
    mesh.run()
    mesh.clock.t = 30.0
    assert mesh.pages[3].tick() and mesh.pages[3].hand_number == 2  # its page went on
    mesh.run()
    leader = next(p for p in mesh.pages if p.hand_number == 2 and p.waiting_for_me())
    assert leader.waiting_for_me() == "pass"
    mesh.pages[1].choose_pass(tuple(mesh.pages[1].hand()[:3]))
    mesh.run()
    mesh.clock.t = 30.0 + 59.0
    assert not mesh.pages[1].stalled()
    mesh.clock.t = 30.0 + 61.0
    assert mesh.pages[1].stalled()  # the others never passed, nor did their pages for them
    assert mesh.pages[1].closed == words.FAIR_STALLED


def test_a_page_marking_cards_is_named_at_once_by_every_other_page() -> None:
    """The first shuffler sends the point cards as non-residues (``cheats.MarkedCards``):
    every other page refuses its shuffle on arrival, before anyone has a card."""
    mesh = Mesh(seed=12, cheats={0: "marked"})
    mesh.run()
    for page in mesh.pages[1:]:
        assert page.fault == Fault(0, Cheat.MARKED) and page.stage is FairStage.CLOSED
        assert page.closed == words.fault_text(Fault(0, Cheat.MARKED), page.seat) + " " + \
            words.FAIR_VOID
        assert page.current.dealt is None


def test_framing_with_p_minus_1_names_the_framer_and_never_an_honest_page() -> None:
    mesh = Mesh(seed=13, cheats={2: "framing"})
    mesh.run()
    for page in mesh.pages:
        if page.seat != 2:
            assert page.fault == Fault(2, Cheat.MARKED), page.closed
            assert page.closed is not None and not page.closed.startswith("You")


def test_a_page_whose_own_step_fails_its_check_blames_its_input_not_itself() -> None:
    """A value that should have been refused on arrival, slipped into a page's record
    behind the checks' back: the page's own blind over it fails, and it names nobody."""
    mesh = Mesh(seed=14)
    mesh.run()
    receiver = mesh.pages[1]
    passer = mesh.pages[0]
    assert passer.choose_pass(tuple(passer.hand()[:3])) is None
    slot = passer.transcript.pass_slots[0][0]
    receiver.transcript.hidden[slot] = SMALL.p - 1
    mesh.run()
    assert receiver.stage is FairStage.CLOSED and receiver.fault is None
    assert receiver.closed == words.FAIR_OWN_STEP


def _to_the_end(mesh: Mesh) -> None:
    mesh.run()
    mesh.pass_all()
    mesh.play_hand()
    mesh.run()


@pytest.mark.parametrize("tamper", [false_digest, false_echo])
def test_a_false_digest_or_echo_shows_no_page_any_key_and_its_sender_is_named(
        monkeypatch: pytest.MonkeyPatch, tamper: Tamper) -> None:
    """A page lies in its digest once the hand is over: before, every honest page showed
    its keys anyway, so the liar read every hand, and nobody was named. Now no key leaves
    an honest page; each sends its evidence, and the liar, which won't (it would show the
    lie), is named once the table has waited beyond a turn."""
    monkeypatch.setitem(TAMPERS, "liar", tamper)
    mesh = Mesh(seed=15, cheats={3: "liar"})
    _to_the_end(mesh)
    for page in mesh.pages[:3]:
        assert page.closed is None and page.transcript.disputed
        assert not any('fair_keys' in text for text in mesh.seen[page.seat])
        assert any('fair_evidence' in text for text in mesh.seen[page.seat])
    assert set(mesh.pages[3].transcript.reveals) <= {3}  # the liar got no key but its own
    mesh.clock.t += 100.0
    for page in mesh.pages[:3]:
        assert page.stalled() and page.fault == Fault(3, Cheat.NO_EVIDENCE), page.closed
        assert page.result is None


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0)])
def test_a_liar_that_closes_before_the_others_timers_is_still_named(
        monkeypatch: pytest.MonkeyPatch, order: tuple[int, ...]) -> None:
    """The liar's own timer goes off first (``order``): it says it closed, hoping to be
    excused its evidence as a page that stopped before the dispute. But its own echo made
    the dispute, and an honest page sends its evidence the moment it sees one: every
    honest page names it, in either order of the timers, and charges it the hand."""
    monkeypatch.setitem(TAMPERS, "liar", false_echo)
    mesh = Mesh(seed=15, cheats={3: "liar"})
    _to_the_end(mesh)
    mesh.wait(120, order)
    if order[0] == 3:  # it said it closed before any honest page's timer went off
        assert all(3 in page.transcript.closers for page in mesh.pages[:3])
    for page in mesh.pages[:3]:
        assert page.fault == Fault(3, Cheat.NO_EVIDENCE), page.closed
        assert page.history == [charged(3)]


def test_a_false_echo_borne_out_by_no_evidence_is_named_as_such(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The liar sends its evidence after all: it is what it was sent, so it doesn't hash
    to its echo, and every honest page names it."""
    monkeypatch.setitem(TAMPERS, "liar", false_echo)
    mesh = Mesh(seed=16, cheats={3: "liar"})
    _to_the_end(mesh)
    liar = mesh.pages[3]
    items = liar.ledger.evidence(1)
    text = liar.ledger.seal(1, "fair_evidence", message("fair_evidence", items=items))
    for page in mesh.pages[:3]:
        page.received_from(3, text)
        while page.work_step() is not None:  # the judging, in slices
            pass
        assert page.fault == Fault(3, Cheat.FALSE_ECHO), page.closed
        assert page.closed is not None and page.closed.startswith(
            words.seat_name(3, page.seat))


def test_a_page_that_sends_different_pages_different_shuffles_is_named() -> None:
    """Seat 1 signs its shuffle for seats 0 and 2 and a spoilt one for seat 3: the hand
    goes on until a card doesn't open, the echoes differ, the evidence holds two signed
    shuffles of seat 1 with one number, and every honest page names it."""
    mesh = Mesh(seed=18)
    mesh.collect()
    while not mesh.channels[(1, 3)]:
        busy = [k for k, q in mesh.channels.items() if q and k[0] != 1]
        if busy:
            sender, receiver = mesh.rng.choice(busy)
            mesh.pages[receiver].received_from(sender, mesh.channels[(sender, receiver)]
                                               .pop(0))
        else:  # the shuffles are made in slices
            assert any(page.work_step() is not None for page in mesh.pages)
        mesh.collect()
    cheat = mesh.pages[1]
    t, party = cheat.transcript, cheat.party
    deck, commit = t.shuffles[1], t.commitments[1]
    other = (deck[1], deck[0], *deck[2:])  # another shuffle, as honest as the first
    spoilt = message("fair_shuffle", deck=other, commit=commit)
    cheat.ledger._numbers[1] -= 1  # the same number, signed again over other words
    mesh.channels[(1, 3)][0] = cheat.ledger.seal(1, "fair_shuffle", spoilt)
    order = [party._order[1], party._order[0], *party._order[2:]]
    its_proof = message("fair_proof", **proof_fields(prove_shuffle(
        SMALL, party._shuffle_key, order, t.deck_before_shuffle(1), other,
        t.context("shuffle", 1, 0))))
    collect = mesh.collect

    def collect_and_swap_the_proof() -> None:  # seat 3 gets the proof of what it got
        collect()
        queue = mesh.channels[(1, 3)]
        for i, text in enumerate(queue):
            if "fair_proof" in text:
                sent = cheat.ledger._numbers[1]
                cheat.ledger._numbers[1] = json.loads(text)["n"]
                queue[i] = cheat.ledger.seal(1, "fair_proof", its_proof)
                cheat.ledger._numbers[1] = sent
                mesh.collect = collect  # type: ignore[method-assign]

    mesh.collect = collect_and_swap_the_proof  # type: ignore[method-assign]
    mesh.run()
    for page in mesh.pages:
        if page.stage is FairStage.PASSING:
            page.choose_pass(tuple(page.hand()[:3]))
    mesh.run()
    mesh.play_hand()
    mesh.run()
    for page in (mesh.pages[0], mesh.pages[2], mesh.pages[3]):
        assert page.fault == Fault(1, Cheat.EQUIVOCATED), page.closed


def test_a_card_withheld_from_the_next_player_blames_no_honest_page() -> None:
    """A page sends its card to two pages but not to the next player: the two wait for
    that player, who waits for the card. Nobody is named, at any page."""
    mesh = Mesh(seed=16)
    mesh.run()
    mesh.pass_all()
    for _ in range(5):  # a few cards, then the withholding one
        page = next(p for p in mesh.pages if p.to_play() == p.seat)
        page.play(page.auto_card())
        mesh.run()
    cheat = next(p for p in mesh.pages if p.to_play() == p.seat)
    victim = (cheat.seat + 1) % 4
    mesh.play(cheat, cheat.auto_card())
    for text in cheat.take_outbox():
        mesh.seen[cheat.seat].append(text)
        for other in range(4):
            if other not in (cheat.seat, victim):
                mesh.channels[(cheat.seat, other)].append(text)
    mesh.run()
    assert mesh.pages[victim].to_play() is None or mesh.pages[victim].transcript.to_play \
        == cheat.seat
    mesh.clock.t += 100.0
    for page in mesh.pages:
        if page is not cheat:
            assert page.stalled() and page.closed == words.FAIR_STALLED
            assert page.fault is None


def test_a_page_that_leaves_after_the_deal_is_named_as_leaving_the_hand() -> None:
    mesh = Mesh(seed=17)
    mesh.run()
    mesh.pages[0].gone(2)
    mesh.clock.t += GONE_GRACE
    assert mesh.pages[0].stalled()
    assert mesh.pages[0].closed == words.fair_gone_text(2, 0, after_deal=True)
    assert mesh.pages[0].closed.startswith("North's page left the hand after the deal")


def test_a_last_shuffler_that_would_read_cards_is_named_before_any_card_opens() -> None:
    """``readcards`` at seat 3 (``cheats.CardReader``): its shuffle proof fails at the three
    other pages; they complain before opening a card, agree on the record, show their keys
    (no card of this hand was opened: they give nothing away) and the audit names it."""
    mesh = Mesh(seed=21, cheats={3: "readcards"})
    mesh.run()
    for page in mesh.pages[:3]:
        assert page.fault == Fault(3, Cheat.SHUFFLE), page.closed
        assert page.transcript.opened == {} and page.current.dealt is None
        assert page.closed == f"{words.fault_text(Fault(3, Cheat.SHUFFLE), page.seat)} " \
            f"{words.FAIR_VOID}"


def test_a_card_played_while_a_complaint_crosses_the_mesh_doesnt_save_the_spoiler() -> None:
    """A passer spoils the cards it passes; the receiver complains. Meanwhile the holder of
    the 2♣, whose own cards opened, leads it: one page hears the lead before the complaint,
    the others after. The plays aren't part of what a stopped hand is judged on, so every
    page's record agrees and the audit names the spoiler (were they, the digests would
    differ and nobody would be named)."""
    mesh = Mesh(seed=3, cheats={1: "falsepass"})
    mesh.run()
    for page in mesh.pages:
        assert page.choose_pass(tuple(page.hand()[:3])) is None

    def complaint(text: str) -> bool:
        return "fair_complain" in text
    while True:  # everything but the complaints (the pages' slices go on meanwhile: the
        mesh.collect()  # cards passed are unblinded and read in slices)
        busy = [k for k, q in mesh.channels.items() if q and not complaint(q[0])]
        if not busy:
            if any(page.work_step() is not None for page in mesh.pages):
                continue
            break
        sender, receiver = mesh.rng.choice(busy)
        mesh.deliver(sender, receiver, mesh.channels[(sender, receiver)].pop(0))
    victim = pass_target(1, mesh.pages[1].direction)
    assert mesh.pages[victim].transcript.complaint == victim  # its card didn't open
    leader = next(p for p in mesh.pages if p.seat != victim and p.to_play() == p.seat)
    mesh.play(leader, Card.parse("2C"))
    mesh.collect()
    first = next(s for s in range(4) if s not in (leader.seat, victim))
    # the lead reaches one page before the complaint; the others get the complaint first
    mesh.deliver(leader.seat, first, mesh.channels[(leader.seat, first)].pop())
    mesh.run()
    assert any(len(p.transcript.plays) == 1 for p in mesh.pages)
    assert any(not p.transcript.plays for p in mesh.pages)
    for page in mesh.pages:
        if page.seat != 1:
            fault = page.fault
            assert fault is not None and (fault.seat, fault.kind) == (1, Cheat.FALSE_PASS), \
                page.closed


def test_a_fair_seat_counts_each_second_and_says_which_cards_were_passed_for_you() -> None:
    mesh = Mesh(seed=8)
    mesh.run()
    page = mesh.pages[2]
    seat = FairSeat(page, pump=lambda: None)
    heard = Heard()
    seat.attach(heard)
    shown = []
    for t in (0.0, 1.0, 2.0, 3.5, 29.2):
        mesh.clock.t = t
        seat.tick(t * 1000, True)
        model = build(seat.snapshot(), PageState(ready=True))
        assert model.turn_clock is not None and "s left" not in model.prompt
        shown.append(model.turn_clock)
    assert shown == [30, 29, 28, 27, 1]  # a second at a time, never a step of five
    hand = page.hand()
    mesh.clock.t = 30.0
    seat.tick(30_000, True)
    assert heard.told == [words.time_up("pass", tuple(sorted(
        hand, key=lambda c: (c.rank, c.suit))[-3:]))]
    assert heard.told[0].startswith("Time's up:") and " were passed for you." in heard.told[0]


class _MarksTheNextDeck(MarkedCards):
    """Honest in hand 1; marks the point cards in hand 2's shuffle, made while hand 1 is
    played."""

    def shuffle_steps(self) -> Generator[None, None, tuple[tuple[int, ...], int]]:
        if self.transcript.hand == 1:
            return (yield from Party.shuffle_steps(self))
        return (yield from super().shuffle_steps())


def test_a_next_deck_marked_while_this_hand_is_played_names_its_shuffler_and_charges_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The next hand's messages are checked on arrival as any: a page that marks the
    cards of the next deck, made while this hand is played, is named by every other page
    then, and charged the hand under way (a page named in a hand dealt takes its 26)."""
    monkeypatch.setitem(CHEATS, "marknext", _MarksTheNextDeck)
    mesh = Mesh(seed=21, cheats={1: "marknext"})
    mesh.run()
    for page in mesh.pages:
        if page.seat != 1:
            assert page.fault == Fault(1, Cheat.MARKED), page.closed
            assert page.hand_number == 1 and page.history == [charged(1)]
            assert page.closed is not None and "26" in page.closed


def test_a_page_reads_its_cards_from_codes_made_in_its_slices_never_in_one_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a page's 13 cards looks each up among the 52 cards' codes under its key
    (``Party.codes_steps``, a short power each). Made ahead in the page's slices; if they
    weren't all made when the cards came, reading made the 52 in one step (some 180 ms on
    a slow phone, the longest task of the deal). The page reads its cards only once they
    are made, and makes them before any proof once its cards are dealt."""
    read_from: list[bool] = []
    read_hand = Party.read_hand

    def reading(party: Party) -> list[Card]:
        read_from.append(party.coded)
        return read_hand(party)

    monkeypatch.setattr(Party, "read_hand", reading)
    mesh = Mesh(seed=5)
    mesh.run()
    assert all(len(p.hand()) == 13 for p in mesh.pages)
    assert read_from == [True] * 4
