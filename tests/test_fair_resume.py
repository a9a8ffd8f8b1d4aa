"""A page that reloads mid-hand takes the same hand up again (``web.p2p.fair.resume``).

Four ``FairTable``s on the in-memory mesh of ``test_fair_table``; each page keeps its hand's
record before any of its messages leaves, as the page does for its tab. A reload drops the
page's table and what was on its way to it; the new page builds its table from the record
and asks the others for what it missed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from hearts.rules import PassDirection
from tests.groups import SMALL
from tests.test_fair_table import Mesh
from web.blame import Cheat, Fault
from web.friends.fair_back import Kept, KeptSeat, gather
from web.friends.fair_tables import PageTables
from web.p2p.fair.resume import HandKeeper, HandKept, Resume, claim_of, resume_fault
from web.p2p.fair.table import FairStage, FairTable
from web.p2p.fair.wire import message


class KeptMesh(Mesh):
    """The mesh, each page keeping its record for its tab before it sends."""

    def __init__(self, seed: int = 1, cheats: dict[int, str] | None = None) -> None:
        super().__init__(seed, cheats)
        self.keepers = [HandKeeper() for _ in range(4)]
        self.kept = [""] * 4
        self.sizes: list[int] = []

    def collect(self) -> None:
        for page in self.pages:
            if page.outbox:
                self.keep(page)
        super().collect()

    def keep(self, page: FairTable) -> None:
        text = self.keepers[page.seat].text(page)
        if text is not None:
            self.kept[page.seat] = text
            self.sizes.append(len(text))

    def reload(self, seat: int, text: str | None = None) -> FairTable:
        """The page at ``seat`` reloads: what was on its way to it is lost; the new page
        resumes from its tab's record (or ``text``) and asks for what it missed."""
        old = self.pages[seat]
        for (_, receiver), queue in self.channels.items():
            if receiver == seat:
                queue.clear()
        kept = HandKept.read(json.loads(self.kept[seat] if text is None else text))
        assert kept is not None
        new = FairTable(seat, now=self.clock, turn=30.0, group=SMALL,
                        source=random.Random(1000 + seat), name="mesh",
                        signing_key=self.signing[seat], keys=old.keys, kept=kept,
                        hand=kept.hand, history=old.history)
        self.pages[seat] = new
        self.keepers[seat] = HandKeeper()
        self.clock.t += 2.0  # (a reload takes that: what the others took by then, they relay)
        new.ask_missed()
        self.run()
        return new


def _view(page: FairTable) -> tuple[object, ...]:
    return (page.stage, tuple(page.hand()), page.scores, page.to_play(), len(page.transcript.plays))


def _finish(m: Mesh) -> None:
    for page in m.pages:
        if page.stage is FairStage.PASSING and page.current.passing is None:
            assert page.choose_pass(tuple(page.hand()[:3])) is None
        m.run()
    m.play_hand()
    m.run()
    assert all(p.stage is FairStage.SCORED for p in m.pages)
    assert len({tuple(p.history) for p in m.pages}) == 1


def test_a_page_reloaded_mid_pass_takes_the_same_hand_up() -> None:
    m = KeptMesh(seed=3)
    m.run()
    assert m.pages[0].direction is not PassDirection.NONE
    first = m.pages[1]
    assert first.choose_pass(tuple(first.hand()[-3:])) is None
    m.run()
    before = _view(first)
    new = m.reload(1)
    assert new.resumed and new.closed is None
    assert _view(new) == before and new.current.passing == first.current.passing
    _finish(m)
    assert all(p.fault is None for p in m.pages)


@pytest.mark.parametrize("cards", [5, 22])
def test_a_page_reloaded_mid_trick_takes_the_same_hand_up(cards: int) -> None:
    m = KeptMesh(seed=4)
    m.run()
    m.pass_all()
    while len(m.pages[0].transcript.plays) < cards:
        page = next(p for p in m.pages if p.to_play() == p.seat)
        assert page.play(page.auto_card()) is None
        m.run()
    seat = next(p.seat for p in m.pages if p.to_play() != p.seat)
    before = _view(m.pages[seat])
    new = m.reload(seat)
    assert new.resumed and _view(new) == before
    assert len(new.hand()) == 13 - sum(1 for p in new.transcript.plays if p.seat == seat)
    _finish(m)


def test_a_page_the_others_wait_on_takes_its_turn_after_a_reload() -> None:
    m = KeptMesh(seed=5)
    m.run()
    m.pass_all()
    for _ in range(6):
        page = next(p for p in m.pages if p.to_play() == p.seat)
        assert page.play(page.auto_card()) is None
        m.run()
    seat = next(p.seat for p in m.pages if p.to_play() == p.seat)
    others = [p for p in m.pages if p.seat != seat]
    assert all(p.to_play() == seat for p in others)  # they wait on it
    before = _view(m.pages[seat])
    new = m.reload(seat)
    assert _view(new) == before and new.to_play() == seat and new.legal()
    assert new.play(new.legal()[0]) is None
    m.run()
    assert all(len(p.transcript.plays) == 7 for p in m.pages)
    _finish(m)


def test_the_record_costs_little_per_message() -> None:
    """Each message adds its envelope, once encoded (the record's size: ``KeptMesh``)."""
    m = KeptMesh(seed=6)
    m.run()
    m.pass_all()
    m.play_hand()
    m.run()
    grown = [b - a for a, b in zip(m.sizes, m.sizes[1:], strict=False) if b > a]
    assert grown and max(m.sizes) < 400_000


def test_a_spoilt_or_foreign_record_is_ignored() -> None:
    assert HandKept.read({"v": 2}) is None
    assert HandKept.read("nonsense") is None
    assert HandKept.read({"v": 1, "table": "t", "seat": 9, "hand": 1,
                          "keys": {"e": "1", "k": ["1"] * 52, "o": [], "b": []},
                          "log": []}) is None
    m = KeptMesh(seed=7)
    m.run()
    data = json.loads(m.kept[2])
    data["log"] = data["log"][:3] + data["log"][4:]  # a message lost from the record
    kept = HandKept.read(data)
    assert kept is not None
    table = FairTable(2, now=m.clock, turn=30.0, group=SMALL, source=random.Random(5),
                      name="mesh", signing_key=m.signing[2], keys=m.pages[2].keys, kept=kept)
    assert not table.resumed


def test_a_page_back_with_other_keys_or_another_hands_record_is_refused_and_named() -> None:
    """A modified page comes back with a fresh set of keys (to deal itself other cards),
    or presents the record of another hand: the others' check names it."""
    m = KeptMesh(seed=8)
    m.run()
    m.pass_all()
    page, other = m.pages[1], m.pages[0]
    honest = claim_of(page)
    held = other.ledger.expected(1, other.hand_number)
    assert resume_fault(other.transcript, held, other.hand_number, 1, honest) is None
    rekeyed = Resume(honest.hand, honest.next,
                     SMALL.power(SMALL.generator, SMALL.short_key(random.Random(3))))
    elsewhere = Resume(honest.hand + 1, 0, 0)
    behind = Resume(honest.hand, honest.next - 1, honest.commitment)
    for claim in (rekeyed, elsewhere, behind):
        fault = resume_fault(other.transcript, held, other.hand_number, 1, claim)
        assert fault is not None and fault.seat == 1
        assert fault.kind is Cheat.RESUMED_ELSEWHERE


def test_a_page_reloaded_between_its_digest_and_the_dispute_shows_what_it_echoed() -> None:
    """Seat 3 lies in its echo; honest seat 1 sent its digest (and echo) and reloads before
    any other digest reached it. Taken up from its record, its evidence must be exactly
    the messages its echo hashed, else the judging names the honest page instead of the
    liar (its evidence not hashing to its echo reads as a false echo)."""
    m = KeptMesh(seed=15, cheats={3: "falseecho"})
    m.run()
    m.pass_all()
    while sum(1 for p in m.pages if p.stage is FairStage.PLAYING) == 4 \
            and len(m.pages[0].transcript.plays) < 51:
        page = next(p for p in m.pages if p.to_play() == p.seat)
        assert page.play(page.auto_card()) is None
        m.run()
    ends = ("fair_digest", "fair_evidence", "fair_keys")
    m.block = lambda sender, receiver, text: receiver == 1 and any(k in text for k in ends)
    last = next(p for p in m.pages if p.to_play() == p.seat)
    assert last.play(last.auto_card()) is None
    m.run()
    honest = m.pages[1]
    assert set(honest.transcript.digests) == {1}  # its digest out, no other's in
    assert json.loads(m.kept[1])["log"]  # (its digest among what it kept)
    m.block = lambda sender, receiver, text: False
    new = m.reload(1)
    assert new.resumed and new.closed is None
    m.run()
    assert set(new.transcript.evidence) == {0, 1, 2}  # the honest pages' evidence, its own too
    liar = m.pages[3]  # shows what it was sent after all (``test_fair_table``'s way)
    text = liar.ledger.seal(1, "fair_evidence",
                            message("fair_evidence", items=liar.ledger.evidence(1)))
    for page in m.pages[:3]:
        page.received_from(3, text)
    m.run()
    for page in m.pages[:3]:
        assert page.fault == Fault(3, Cheat.FALSE_ECHO), (page.seat, page.fault)


def _run_until(m: Mesh, done: Callable[[], bool]) -> None:
    """``Mesh.run``, one message or slice at a time, stopped once ``done()`` (what the
    pages sent gone out, so kept: a page keeps its record before it sends)."""
    while True:
        m.collect()
        if done():
            return
        busy = [k for k, q in m.channels.items() if q]
        if busy:
            sender, receiver = m.rng.choice(busy)
            m.pages[receiver].received_from(sender, m.channels[(sender, receiver)].pop(0))
        elif not any(page.work_step() is not None for page in m.pages):
            raise AssertionError("the mesh went quiet first")


@pytest.mark.parametrize("stage", ["proof", "lock"])
def test_a_page_reloaded_while_the_next_deck_is_made_takes_both_hands_up(stage: str) -> None:
    """The next hand's deck is made while this one is played: a page that reloads then
    comes back with its part of both (its keys of the next hand, and the envelopes of it
    it sent and took), finishes its proof or makes its lock, and the next hand is dealt
    with the shuffle it sent before — nobody named, no card dealt twice."""
    def due() -> bool:
        up = m.pages[1].upcoming
        if up is None:
            return False
        t = up.transcript
        return (len(t.shuffles) > 1 and 1 not in t.shuffle_proofs) if stage == "proof" \
            else len(t.locks) == 1

    m = KeptMesh(seed=7)
    _run_until(m, due)
    up = m.pages[1].upcoming
    assert up is not None
    committed = up.transcript.commitments[1]
    assert json.loads(m.kept[1])["next"]["keys"]
    new = m.reload(1)
    assert new.resumed and new.closed is None and new.hand_number == 1
    assert new.upcoming is not None and new.upcoming.transcript.commitments[1] == committed
    _finish(m)
    for p in m.pages:
        ready = p.upcoming
        assert ready is not None and len(ready.transcript.locks) == 4 \
            and ready.transcript.proven == {0, 1, 2, 3}
        p.next_hand()
    m.run()
    assert all(p.fault is None and p.closed is None for p in m.pages)
    assert all(p.stage is FairStage.PASSING and len(p.hand()) == 13 for p in m.pages)
    assert len({c for p in m.pages for c in p.hand()}) == 52


def test_the_record_kept_in_parts_reads_back_whole_and_a_part_lost_drops_the_hand() -> None:
    """``KeptSeat`` writes each envelope once, under a key of its own (the whole record
    was some hundred kB a write): read back, the parts make the record as ``HandKeeper``
    makes it whole; with a part gone, the hand is left out (the seat is claimed charged)."""
    m = KeptMesh(seed=7)
    m.run()
    m.pass_all()
    tab: dict[str, str] = {}
    writes: list[str] = []

    def keep(text: str | None, part: str = "") -> None:
        assert text is not None
        tab[part] = text
        writes.append(part)

    page = m.pages[2]
    kept = KeptSeat("code", keep)
    tables = PageTables(page, None)
    for _ in range(6):
        mover = next(p for p in m.pages if p.to_play() == p.seat)
        assert mover.play(mover.auto_card()) is None
        m.run()
        kept.update(tables, {"a": 0, "b": 1, "c": 3}, None, (m.signing[2], 0))
    whole = Kept.read(gather(tab[""], tab.get))
    assert whole is not None and not whole.parts
    assert whole.hands == (HandKeeper().text(page),)  # the record as made whole
    items = [part for part in writes if part.startswith(".h0.")]
    assert len(items) == len(set(items)) == len(page.ledger.log[1])  # each envelope once
    del tab[items[3]]
    lost = Kept.read(gather(tab[""], tab.get))
    assert lost is not None and lost.hands == () and lost.seat == 2
