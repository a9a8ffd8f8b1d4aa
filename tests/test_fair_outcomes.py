"""What a fair hand scores is decided by the cards played, never by what a page sends or
withholds after its last card; and an honest page is never named.

Each test runs a modified page against the real protocol over the fake mesh of
``test_fair_table`` (a tamper on what it sends, a filter on whom it sends it to, or a
``FairTable`` subclass), as the security review of issue 39 did: before, each of these
attacks left the loser's points untaken, or named an honest page.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from typing import Any

import pytest

from hearts.bots.hard import HardBot
from hearts.cards import Card
from hearts.game import deal
from hearts.handstate import HandState
from hearts.rules import NUM_SEATS, Rules, hand_scores, possible_hand_scores
from tests.online_pages import until
from tests.test_fair_session import fair_pages, is_closed, play_out, sit
from tests.test_fair_table import Mesh, _to_the_end
from web import words
from web.p2p.fair import relay, steered
from web.p2p.fair.cheats import (
    AFTER_THE_CARDS,
    TAMPERS,
    WITHHOLDS,
    SteeredComputer,
    false_digest,
)
from web.p2p.fair.clock import STALL_SECONDS
from web.p2p.fair.played import (
    charged,
    first_to_leave,
    left,
    left_points,
    played_fault,
    played_scores,
)
from web.p2p.fair.public import Score
from web.p2p.fair.steered import bot, bot_seed
from web.p2p.fair.table import GONE_GRACE, FairStage, FairTable
from web.p2p.fair.transcript import Cheat, Fault, Play
from web.p2p.fair.wire import message

RULES = Rules()


def _as_played(seed: int) -> tuple[Score, int]:
    """The hand of ``seed`` played honestly: its points, and the seat that lost it."""
    mesh = Mesh(seed=seed)
    _to_the_end(mesh)
    scores = mesh.pages[0].scores
    assert all(p.stage is FairStage.SCORED and p.scores == scores for p in mesh.pages)
    return scores, max(range(NUM_SEATS), key=lambda s: scores[s])


def _kind(text: str, kind: str) -> bool:
    return f'\\"t\\":\\"{kind}\\"' in text


def _honest(mesh: Mesh, cheat: int) -> list[FairTable]:
    return [p for p in mesh.pages if p.seat != cheat]


def _charged_to(mesh: Mesh, cheat: int, kind: Cheat) -> None:
    """Every honest page named ``cheat`` (and nobody else) and charged it the hand."""
    for page in _honest(mesh, cheat):
        assert page.fault == Fault(cheat, kind), page.closed
        assert page.scores == charged(cheat)
        assert page.closed == f"{words.fault_text(Fault(cheat, kind), page.seat)} " \
            f"{words.fair_charged(cheat, page.seat)}"


def test_stopping_a_hand_never_pays_whatever_its_points_would_have_been() -> None:
    """The charge (all 26 to the page named) against every way a hand's points can fall:
    the one named never takes less than it would have, nobody else more, so its standing
    against every other seat is never better than had the hand been played out."""
    for queen in range(NUM_SEATS):
        for cut in itertools.combinations(range(13 + NUM_SEATS - 1), NUM_SEATS - 1):
            bounds = (-1, *cut, 13 + NUM_SEATS - 1)
            hearts = [bounds[i + 1] - bounds[i] - 1 for i in range(NUM_SEATS)]
            points = tuple(h + (13 if s == queen else 0) for s, h in enumerate(hearts))
            played, _ = hand_scores(points, RULES)
            for seat in range(NUM_SEATS):
                bill = charged(seat)
                assert bill[seat] >= played[seat]
                assert all(bill[o] - bill[seat] <= played[o] - played[seat]
                           for o in range(NUM_SEATS))


def _never_pays(bill: Score, played: Score, seat: int) -> None:
    """Against a play-out (``played``) that isn't another seat's moon shot: ``seat`` scores
    at least what it would have, every other seat at most (the next player aside, by the
    point of a hand whose 26 would all have been ``seat``'s); and the bill is a hand the
    engine could score."""
    assert possible_hand_scores(bill, RULES), bill
    if sorted(played) == [0, 26, 26, 26] and played[seat] != 0:
        return  # another seat's moon: it goes with the hand (it keeps what it took)
    nxt = (seat + 1) % NUM_SEATS
    assert bill[seat] >= played[seat], (bill, played, seat)
    assert all(bill[o] <= played[o] + (o == nxt) for o in range(NUM_SEATS) if o != seat), \
        (bill, played, seat)


def test_leaving_a_hand_never_pays_however_it_would_have_gone_on() -> None:
    """A hand left mid-way, scored as far as it went with the rest on the seat that left
    (``played.left_points``), against every way its points could fall from there: every
    end of a hand, and every part of its points taken when the page left (each seat some
    of its hearts, the Q♠'s taker with it or not)."""
    seat = 0  # the seats are alike: South leaves, and the Q♠ ends with it or with West
    for queen in (0, 1):
        for cut in itertools.combinations(range(13 + NUM_SEATS - 1), NUM_SEATS - 1):
            bounds = (-1, *cut, 13 + NUM_SEATS - 1)
            hearts = [bounds[i + 1] - bounds[i] - 1 for i in range(NUM_SEATS)]
            points = [h + (13 if s == queen else 0) for s, h in enumerate(hearts)]
            played, _ = hand_scores(points, RULES)
            for part in itertools.product(*(range(h + 1) for h in hearts)):
                for q in (0, 13):
                    a, b, c, d = (part[s] + (q if s == queen else 0) for s in range(NUM_SEATS))
                    _never_pays(left_points((a, b, c, d), seat, RULES), played, seat)


def _random_hand(seed: int) -> list[Play]:
    """A hand dealt and played out by random legal cards (the engine's rules)."""
    rng = random.Random(seed)
    state = HandState(deal(seed, 1), RULES)
    plays = []
    while not state.finished:
        legal = state.legal()
        index = rng.choice([i for i in range(52) if legal >> i & 1])
        plays.append(Play(state.to_play, index, Card.from_index(index), ()))
        state.apply(index)
    return plays


def test_a_hand_left_at_any_card_never_pays_the_page_that_left() -> None:
    """Real hands, cut at every card and left by every seat (alone, or with the computer
    it played): what they count never favours the seat that left over the hand played
    out; the others keep the points of the tricks they took when it last played."""
    for seed in range(40):
        plays = _random_hand(seed)
        played = played_scores(plays, RULES)
        for cut in range(len(plays)):
            for seat in range(NUM_SEATS):
                for held in ((), ((seat + 2) % NUM_SEATS,)):
                    bill = left(plays[:cut], seat, held, RULES)
                    _never_pays(bill, played, seat)
                    # the count is the same at every page: the cards after the last of
                    # that page's, which only some pages hold, change nothing
                    mine = [i for i, p in enumerate(plays[:cut]) if p.seat in (seat, *held)]
                    if mine:
                        assert left(plays[:mine[-1] + 1], seat, held, RULES) == bill


def test_of_pages_that_left_at_once_the_first_to_move_is_charged() -> None:
    plays = _random_hand(3)
    mover = plays[5].seat
    assert first_to_leave([(mover + 1) % 4, (mover + 3) % 4], plays[:5]) == (mover + 1) % 4
    assert first_to_leave([(mover + 3) % 4, mover], plays[:5]) == mover


def test_a_hand_played_out_is_checked_from_its_plays_alone() -> None:
    """Each seat's hand is the 13 cards it played: a revoke shows without a key."""
    mesh = Mesh(seed=5, cheats={1: "revoke"})
    mesh.block = lambda sender, receiver, text: _kind(text, "fair_digest")  # no key shown
    mesh.run()
    mesh.pass_all()
    mesh.play_hand()
    assert all(p.transcript.finished and not p.transcript.reveals for p in mesh.pages)
    plays = mesh.pages[0].transcript.plays
    fault = played_fault(plays, RULES)
    assert fault is not None and fault.seat == 1 and fault.kind in (Cheat.REVOKE,
                                                                  Cheat.FIRST_TRICK)
    honest = Mesh(seed=4)
    _to_the_end(honest)
    assert played_fault(honest.pages[0].transcript.plays, RULES) is None
    assert played_scores(honest.pages[0].transcript.plays, RULES) == honest.pages[0].scores


def test_a_false_digest_borne_out_by_true_evidence_is_named_and_charged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack 1: the loser sends a false record digest, and shows its true evidence. Before,
    no page was named and the hand didn't count. Every page echoed the same messages, so
    every page holds the same record: a digest that isn't its hash is a lie."""
    played, loser = _as_played(15)
    monkeypatch.setitem(TAMPERS, "liar", false_digest)
    mesh = Mesh(seed=15, cheats={loser: "liar"})
    _to_the_end(mesh)
    liar = mesh.pages[loser]
    evidence = liar.ledger.seal(1, "fair_evidence",
                                message("fair_evidence", items=liar.ledger.evidence(1)))
    for page in _honest(mesh, loser):
        mesh.channels[(loser, page.seat)].append(evidence)
    mesh.run()
    _charged_to(mesh, loser, Cheat.FALSE_DIGEST)
    assert charged(loser)[loser] >= played[loser]


class ShortEcho(FairTable):
    """Attack 1, the other way: its true digest, and an echo one message short — the last
    card of the seat after it, forgotten — with evidence that matches it."""

    def _send(self, kind: str, **fields: object) -> None:
        if kind == "fair_digest":
            kept = self.ledger.signed[self.hand_number][(self.seat + 1) % NUM_SEATS]
            del kept[max(kept)]
        super()._send(kind, **fields)


def test_a_short_echo_doesnt_undo_a_hand_played_out() -> None:
    """Before, nobody was named and the hand didn't count. The echoes differ, the signatures
    name nobody (an echo short of a message reads like a page that missed it), so no key is
    shown: but every card was played and checked, and the hand counts as played."""
    played, loser = _as_played(15)
    mesh = Mesh(seed=15, kinds={loser: ShortEcho})
    _to_the_end(mesh)
    for page in _honest(mesh, loser):
        assert page.fault is None and page.result is None, page.closed
        assert page.history == [played] and page.scores == played
        assert page.closed == words.fair_disagreement_counted([loser], page.seat)


@pytest.mark.parametrize("leaves", [False, True])
def test_a_loser_who_keeps_its_digest_from_one_page_and_its_keys_from_all_pays(
        leaves: bool) -> None:
    """Attack 2: the loser keeps its digest (and all after it) from one page and its keys
    from the others. Before, the page short of a digest stalled first and left, and the
    hand was dealt again with the loser's points untaken. Now that page asks and is sent
    the digest by the others; all agree, and the loser, whose keys never come, is named
    and charged — or, if it leaves, the hand counts as played and is not dealt again."""
    played, loser = _as_played(16)
    shy = (loser + 1) % NUM_SEATS
    mesh = Mesh(seed=16)
    mesh.block = lambda sender, receiver, text: sender == loser and (
        _kind(text, "fair_keys") or '"r":' in text  # it relays nothing either
        or (receiver == shy and _kind(text, "fair_digest")))
    _to_the_end(mesh)
    for page in _honest(mesh, loser):
        assert page.stage is FairStage.AUDITING and page.closed is None
    if leaves:
        for page in _honest(mesh, loser):
            page.gone(loser)
        mesh.wait(GONE_GRACE + 1)
        for page in _honest(mesh, loser):
            assert page.fault is None and page.history == [played], page.closed
            assert page.closed == words.fair_gone_counted(loser, page.seat)
        return
    mesh.wait(120)
    assert all(len(p.transcript.digests) == NUM_SEATS for p in mesh.pages)
    _charged_to(mesh, loser, Cheat.NO_KEYS)


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0)])
def test_a_false_digest_sent_to_two_pages_of_three_frames_nobody(
        monkeypatch: pytest.MonkeyPatch, order: tuple[int, ...]) -> None:
    """Attack 3: the cheat sends a false digest and its true evidence to two pages and
    nothing to the third. Before, the two named the honest third (``NO_EVIDENCE``: it never
    saw a dispute). Now the two relay the four signed digests with their evidence, the third
    disputes too and asks for what it lacks, and every honest page names the cheat — in
    either order of the pages' timers."""
    monkeypatch.setitem(TAMPERS, "liar", false_digest)
    cheat, third = 3, 2
    mesh = Mesh(seed=17, cheats={cheat: "liar"})
    after = AFTER_THE_CARDS
    mesh.block = lambda sender, receiver, text: (sender, receiver) == (cheat, third) and (
        any(_kind(text, kind) for kind in after) or '"r":' in text)  # nothing after its cards
    _to_the_end(mesh)
    liar = mesh.pages[cheat]
    evidence = liar.ledger.seal(1, "fair_evidence",
                                message("fair_evidence", items=liar.ledger.evidence(1)))
    for seat in (0, 1):
        mesh.channels[(cheat, seat)].append(evidence)
    mesh.run()
    mesh.wait(120, order)
    for page in _honest(mesh, cheat):
        assert page.fault is not None and page.fault.seat == cheat, page.closed
    _charged_to(mesh, cheat, Cheat.FALSE_DIGEST)


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0)])
@pytest.mark.parametrize("seed", [17, 18, 19])
def test_the_framing_page_as_the_browser_runs_it_is_named_and_never_the_third(
        order: tuple[int, ...], seed: int) -> None:
    """The same attack as the page ``?cheat=framethird`` makes it: a false digest and its
    true evidence, unasked, to two pages, and nothing of the audit to the page across from
    it (``cheats.WITHHOLDS``). Every honest page names the cheat, never the third."""
    cheat = 1
    mesh = Mesh(seed=seed, cheats={cheat: "framethird"})
    mesh.block = WITHHOLDS["framethird"]
    _to_the_end(mesh)
    mesh.wait(120, order)
    third = mesh.pages[(cheat + 2) % NUM_SEATS]
    assert third.transcript.disputed or third.fault is not None  # it learnt of the dispute
    _charged_to(mesh, cheat, Cheat.FALSE_DIGEST)


def test_a_card_withheld_from_the_next_player_is_relayed_and_the_hand_goes_on() -> None:
    """A page sends its card to two pages but not to the next player: that player asks,
    and the two send it on, signed by the page that played it."""
    mesh = Mesh(seed=16)
    mesh.run()
    mesh.pass_all()
    cheat = next(p for p in mesh.pages if p.to_play() == p.seat)
    victim = (cheat.seat + 1) % NUM_SEATS
    mesh.block = lambda sender, receiver, text: (sender, receiver) == (cheat.seat, victim) \
        and _kind(text, "fair_play")
    cheat.play(cheat.auto_card())
    mesh.run()
    assert not mesh.pages[victim].transcript.plays
    mesh.wait(5)
    assert len(mesh.pages[victim].transcript.plays) == 1
    assert all(p.closed is None for p in mesh.pages)


def _computer_at(seats: dict[int, int]) -> type[FairTable]:
    """A page's table at a table where a computer plays ``seats`` (computer seat -> the
    seat of the person whose page plays it)."""

    class WithComputers(FairTable):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, computers=seats, **kwargs)

    return WithComputers


def _play_with_a_computer(mesh: Mesh, seat: int, player: HardBot) -> None:
    """Every page plays its lowest legal card, but ``seat``'s, which ``player`` plays."""
    mesh.run()
    for page in mesh.pages:
        view = page.view()
        assert view is not None
        cards = player.choose_pass(view) if page.seat == seat else page.hand()[:3]
        assert page.choose_pass(tuple(cards)) is None
        mesh.run()
    while any(p.stage is FairStage.PLAYING for p in mesh.pages):
        page = next(p for p in mesh.pages if p.to_play() == p.seat)
        view = page.view()
        assert view is not None
        card = player.choose_play(view) if page.seat == seat else page.auto_card()
        assert page.play(card) is None
        mesh.run()


@pytest.fixture
def quick_computers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer playouts per decision: the replay's logic is the same (its cost is
    ``tools/bench_fair.py``'s to measure)."""
    monkeypatch.setattr(steered, "ITERATIONS", 120)


@pytest.mark.usefixtures("quick_computers")
def test_a_computer_played_as_its_bot_is_replayed_by_every_page_and_the_hand_counts() -> None:
    """The computer at North plays as the hard player seeded from the table's name: every
    page replays its pass and its 13 cards once the keys are shown, and scores the hand."""
    mesh = Mesh(seed=8, kinds={s: _computer_at({2: 1}) for s in range(NUM_SEATS)})
    _play_with_a_computer(mesh, 2, bot("mesh", 2))
    for page in mesh.pages:
        assert page.stage is FairStage.SCORED and page.fault is None, page.closed
        assert len(page.timings["replay"]) == 1


@pytest.mark.usefixtures("quick_computers")
def test_a_computer_played_its_pages_own_way_is_named_by_every_page() -> None:
    """Attack 4: West's page, drawn to play the computer at North, plays it by its own policy
    (``cheats.SteeredComputer``: the highest card it may, every card one it holds and may
    play). Before, the hand scored and nobody was named. Every page's replay of the bot
    differs at the first card it played otherwise: the page is named and charged."""
    mesh = Mesh(seed=8, kinds={s: _computer_at({2: 1}) for s in range(NUM_SEATS)})
    _play_with_a_computer(mesh, 2, SteeredComputer("mesh", 2))
    for page in mesh.pages[2:] + mesh.pages[:1]:  # West's page plays North: West named
        fault = page.fault
        assert fault is not None and (fault.seat, fault.kind) == (1, Cheat.STEERED), page.closed
        assert fault.card is not None and page.scores == charged(1)  # the hand it steered
        assert page.closed == f"{words.fault_text(fault, page.seat)} " \
            f"{words.fair_charged_steered(1, page.seat)}"


def test_the_seed_of_a_computer_is_the_tables_not_a_pages() -> None:
    """The seed comes from the table's name (the seat draw's hash of every page's bytes)
    and the seat: no page chooses it, and another table or seat has another."""
    assert bot_seed("mesh", 2) == bot_seed("mesh", 2) < 2**53
    assert len({bot_seed(t, s) for t in ("mesh", "other") for s in range(NUM_SEATS)}) == 8
    assert bot("mesh", 2).budget_ms is None  # the same choice however slow the machine


def test_a_page_that_keeps_its_keys_is_named_and_charged() -> None:
    """``?cheat=keepkeys``: the page keeps its keys once the hand is played out. Before,
    the table stalled, nobody was named and the hand didn't count."""
    mesh = Mesh(seed=19, cheats={2: "keepkeys"})
    _to_the_end(mesh)
    assert all(p.transcript.agreed and 2 not in p.transcript.reveals for p in _honest(mesh, 2))
    mesh.wait(STALL_SECONDS + 31)
    _charged_to(mesh, 2, Cheat.NO_KEYS)


def test_asks_and_relays_are_read_back_and_nothing_else_is() -> None:
    """The two forms a page sends outside the signed stream: what they say read back, and
    anything else (an envelope, a wrong field, a seat not its sender's) not taken as one."""
    asked = relay.ask(2, "mesh", 3, (4, 5, 0, 7))
    assert relay.read(asked, 1000) == relay.Ask(2, "mesh", 3, (4, 5, 0, 7))
    passed = relay.relay(1, "mesh", 3, '{"v":1,"t":"fair","f":0}')
    assert relay.read(passed, 1000) == relay.Relay(1, "mesh", 3, '{"v":1,"t":"fair","f":0}')
    for text in (asked.replace('"f":2', '"f":1,"x":2'), asked.replace("[4,", "[-4,"),
                 asked.replace("[4,5,0,7]", "[4,5,0]"), asked.replace('"v":1', '"v":2'),
                 passed.replace('"r":"', '"r":["') + "]", "not json", '{"a": 1}'):
        assert relay.read(text, 1000) is None, text


def test_a_page_that_closes_on_a_cheat_only_it_was_sent_is_never_named_after() -> None:
    """The cheat sends one page a signed message the fair deal doesn't have in place of its
    last card. That page names it and closes, and says so (``fair_closed``); the others,
    who hold every card, are never told its digest: they name nobody (not the page that
    closed), and the hand counts as played."""
    played, loser = _as_played(20)
    victim = (loser + 2) % NUM_SEATS
    mesh = Mesh(seed=20)
    cheat = mesh.pages[loser]
    collect = mesh.collect

    def collect_and_spoil() -> None:
        collect()
        if len(cheat.transcript.plays) < 49:
            return
        queue = mesh.channels[(loser, victim)]
        for i, text in enumerate(queue):
            if _kind(text, "fair_play"):
                sent = cheat.ledger._numbers[1]
                cheat.ledger._numbers[1] = json.loads(text)["n"]
                queue[i] = cheat.ledger.seal(1, "fair_pass", '{"v":1,"t":"fair_nonsense"}')
                cheat.ledger._numbers[1] = sent

    mesh.collect = collect_and_spoil  # type: ignore[method-assign]
    _to_the_end(mesh)
    assert mesh.pages[victim].fault == Fault(loser, Cheat.MALFORMED)
    mesh.wait(STALL_SECONDS + 40)
    for page in mesh.pages:
        if page.seat not in (loser, victim):
            assert page.fault is None or page.fault.seat == loser, page.closed
            assert page.history == [played], page.closed


@pytest.mark.usefixtures("quick_computers")
def test_a_page_that_steers_its_computer_and_leaves_is_still_named() -> None:
    """Two people, two computers, through the whole session (lobby, draw, mesh): the page
    with ``?cheat=steer`` closes and leaves once the hand is scored (its own replay names
    it first). Leaving is no way out of the replay: the honest page finishes it, names
    that page and charges it the hand."""

    async def run() -> None:
        _, pages = fair_pages(people=2, cheat={1: "steer"})
        seats = await sit(pages)
        await play_out(seats)
        await until(lambda: all(map(is_closed, pages)), "both pages closed")
        honest, cheat = seats[0].table, seats[1].table.seat
        assert honest.fault is not None and honest.fault.seat == cheat, honest.closed
        assert honest.fault.kind is Cheat.STEERED and honest.scores == charged(cheat)

    asyncio.run(run())
