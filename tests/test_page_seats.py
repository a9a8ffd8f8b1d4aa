"""The page's seats, without a browser: the game against the computers and a private table's
seat give the table the same kind of snapshot, and the table's checks match the engine."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from hearts import Card, Game, Phase
from hearts.bots import make
from tests.solo_page import Heard, local_seat, no_wait, person_move, settle
from web import formats, words
from web.p2p.guest import SeatState
from web.p2p.host import LOCAL, HostTable
from web.p2p.protocol import Intent, dump
from web.seats.remote import RemoteSeat
from web.seats.solo import LocalSeat
from web.storage import MemoryStorage, Records, Storage
from web.table.model import PageState, build, play_refusal


def test_a_game_against_the_computers_runs_to_the_end_and_is_counted() -> None:
    seat, memory, heard = local_seat()
    rng = random.Random(1)

    async def run() -> None:
        for _ in range(2_000):
            await settle(seat)
            snap = seat.snapshot()
            if snap.stage == "over":
                return
            assert snap.may_pass or snap.may_play or snap.stage == "scores", snap
            person_move(seat, snap, rng)
        raise AssertionError("the game never ended")

    asyncio.run(run())
    assert seat.game.phase is Phase.GAME_OVER
    stats = json.loads(memory.items[formats.KEY_STATS])
    assert stats["played"] == 1 and stats["won"] == (seat.game.winner == 0)
    saved, note = formats.load_save(memory.items[formats.KEY_SAVE])
    assert note is None and saved is not None
    assert saved.game.to_json() == seat.game.to_json()
    assert any(line.startswith("Game over.") for line in heard.said)
    assert {"card", "trick"} <= set(heard.cues) and "queen" in heard.cues


def test_the_table_refuses_a_card_while_the_computers_play() -> None:
    seat, _, _ = local_seat(seed=3)
    game = seat.game
    for s in range(4):
        game.choose_pass(s, game.hand(s)[:3])
    seat.take_over(formats.Saved(game))
    seat.busy = True  # a computer's turn in flight
    snap = seat.snapshot()
    view = snap.view
    assert view is not None and not snap.may_play
    if game.to_play != 0:
        assert play_refusal(snap, view.hand[0]) == \
            f"Wait for your turn: {['', 'West', 'North', 'East'][game.to_play or 0]} is playing."


def test_undo_takes_back_the_persons_card_and_what_the_computers_played_after() -> None:
    seat, _, heard = local_seat(seed=8)
    rng = random.Random(2)

    async def run() -> None:
        await settle(seat)
        while not seat.snapshot().may_play:
            person_move(seat, seat.snapshot(), rng)
            await settle(seat)
        before = seat.game.to_json()
        card = seat.snapshot().view.legal_plays[0]  # type: ignore[union-attr]
        seat.play(card)
        await settle(seat)
        assert seat.snapshot().can_undo
        seat.undo()
        await settle(seat)
        assert seat.game.to_json() == before
        assert heard.said[-1] == f"Took back your {card.name}. Your turn again."

    asyncio.run(run())


def test_undo_stays_offered_while_the_computers_answer_and_stops_them() -> None:
    """Undo is there at once after the person's card, while the computers still answer it:
    it stops their turn where it is and takes back the card with what followed."""
    pace = "instant"
    records = Records(Storage(lambda: MemoryStorage()), lambda text: None)
    records.settings.level = "easy"
    seat = LocalSeat(records, speed=lambda: pace, sleep=no_wait, seed=8)
    heard = Heard()
    seat.attach(heard)
    rng = random.Random(2)

    async def run() -> None:
        nonlocal pace
        await settle(seat)
        while not seat.snapshot().may_play:
            person_move(seat, seat.snapshot(), rng)
            await settle(seat)
        before, plays = seat.game.to_json(), len(seat.game.plays)
        card = seat.snapshot().view.legal_plays[0]  # type: ignore[union-attr]
        pace = "normal"  # the computers take their time to answer
        seat.play(card)
        while len(seat.game.plays) == plays:  # the card goes down, the computers start
            await asyncio.sleep(0)
        assert seat.busy and seat.snapshot().moving
        assert seat.snapshot().can_undo
        seat.undo()
        await settle(seat)
        assert seat.game.to_json() == before
        assert seat.snapshot().may_play and not seat.busy
        assert heard.said[-1] == f"Took back your {card.name}. Your turn again."

    asyncio.run(run())


def test_a_corrupt_save_starts_a_new_game_and_says_so() -> None:
    seat, memory, _ = local_seat({formats.KEY_SAVE: '{"schema": 1, "game": "{"}'})
    assert seat.game.phase is Phase.PASS
    assert "damaged" in seat.records.notes
    assert formats.load_save(memory.items[formats.KEY_SAVE])[1] is None


def test_storage_that_refuses_everything_still_plays() -> None:
    def missing() -> Any:
        raise RuntimeError("no localStorage here")

    records = Records(Storage(missing), lambda text: None)
    assert "won't be kept" in records.notes
    seat = LocalSeat(records, speed=lambda: "instant", sleep=no_wait, seed=2)
    assert seat.snapshot().may_pass


def test_a_full_storage_is_told_once() -> None:
    class Full(MemoryStorage):
        def setItem(self, key: str, value: str) -> None:
            if key != "hearts.probe":
                raise RuntimeError("QuotaExceededError")

    told: list[str] = []
    records = Records(Storage(Full), told.append)
    seat = LocalSeat(records, speed=lambda: "instant", sleep=no_wait, seed=2)
    seat.toggle(seat.game.hand(0)[0])
    assert len(told) == 1 and "full" in told[0]


# --- a seat at a private table ---------------------------------------------------------------

def hosted(seed: int = 4) -> tuple[HostTable, RemoteSeat, Heard]:
    """A host's page: its HostTable, and its own seat fed straight from it."""
    host = HostTable(Game.new(seed=seed), grace=5.0, make_bot=lambda level, s: make("easy", s))
    seat_state = SeatState()

    def deliver() -> None:
        out, host.outbox = host.outbox, []
        for conn, text in out:
            if conn == LOCAL:
                kind = seat_state.receive(text)
                if kind is not None:
                    remote.update(kind)

    def send(intent: Intent) -> None:
        host.local(intent)
        deliver()

    remote = RemoteSeat(seat_state, send, deal=lambda: host.new_game(Game.new(seed=1)))
    heard = Heard()
    remote.attach(heard)
    host.broadcast()
    deliver()
    host.start()
    deliver()
    remote.deliver = deliver  # type: ignore[attr-defined]
    return host, remote, heard


def test_the_hosts_seat_plays_a_hand_with_the_same_checks_as_the_local_game() -> None:
    host, remote, heard = hosted()
    rng = random.Random(3)
    for _ in range(500):
        while host.due():
            host.computer_step()
            remote.deliver()  # type: ignore[attr-defined]
        snap = remote.snapshot()
        if snap.stage == "scores" or host.game.hand_number > 1:
            break
        assert snap.view == host.game.view(0)
        person_move(remote, snap, rng)
    assert host.game.hand_number > 1 or host.stage() == "scores"
    assert any("the trick" in line for line in heard.said)
    assert not heard.alerts


def test_both_seats_draw_the_same_table_for_the_same_position() -> None:
    game = Game.new(seed=6)
    for s in range(4):
        game.choose_pass(s, game.hand(s)[:3])
    while game.to_play != 0:
        game.play(game.legal_plays()[0])
    seat, _, _ = local_seat()
    seat.take_over(formats.Saved(game.copy()))
    host, remote, _ = hosted()
    host.game = game.copy()
    host.broadcast()
    remote.deliver()  # type: ignore[attr-defined]
    page = PageState(ready=True)
    mine, theirs = build(seat.snapshot(), page), build(remote.snapshot(), page)
    assert mine.hand == theirs.hand and mine.trick == theirs.trick
    assert mine.state == theirs.state == "play"
    assert [s.score for s in mine.seats] == [s.score for s in theirs.seats]
    assert mine.undo is False and theirs.new_game is False  # only the host deals, once over


def test_a_guest_before_the_first_state_waits_for_the_host() -> None:
    sent: list[Intent] = []
    remote = RemoteSeat(SeatState(), sent.append)
    snap = remote.snapshot()
    assert snap.view is None and snap.stage == "connecting"
    model = build(snap, PageState(ready=True))
    assert model.state == "wait" and model.prompt.startswith("Connected.")
    assert play_refusal(snap, Card.parse("2C")) is not None and not sent


def test_a_notice_is_taken_down_once_the_next_hand_begins() -> None:
    """A late page's "a seat from the next hand" goes when its first hand is dealt to it;
    "the table carries on from another page" stays for the rest of its hand."""
    game = Game.new(seed=8)
    host = HostTable(game.copy(), grace=5.0, make_bot=lambda level, s: make("easy", s))
    for s in range(4):
        game.choose_pass(s, game.hand(s)[:3])
    while game.hand_number == 1:
        game.play(game.legal_plays()[0])
    assert game.hand_number == 2

    def heard_after(remote: RemoteSeat, *messages: str) -> list[str]:
        heard = Heard()
        remote.attach(heard)
        for text in messages:
            kind = remote.seat.receive(text)
            assert kind is not None, text
            remote.update(kind)
        assert not heard.alerts  # news of the table, never drawn as a mistake
        return heard.told

    hand_one = dump("state", **host.state_for(0))
    host.game = game
    hand_two = dump("state", **host.state_for(0))

    coming = dump("notice", text=words.SEAT_COMING)
    assert heard_after(RemoteSeat(SeatState(), lambda intent: None), coming, hand_two
                       ) == [words.SEAT_COMING, ""]

    carried = words.SEAT_COMING
    remote = RemoteSeat(SeatState(), lambda intent: None)
    assert heard_after(remote, hand_one, dump("notice", text=carried), hand_one
                       ) == [carried]  # the same hand: still news
    assert heard_after(remote, hand_two) == [""]
    assert heard_after(remote, hand_two) == []  # taken down once

def computer_pauses(thinking: float) -> list[float]:
    """The pauses of the computers' first turns at normal speed, for bots that think
    ``thinking`` seconds a card (a fake clock that moves on by that much at every read)."""
    slept: list[float] = []
    now = [0.0]

    def clock() -> float:
        now[0] += thinking
        return now[0]

    async def sleep(seconds: float) -> None:
        slept.append(round(seconds, 6))
        await asyncio.sleep(0)

    memory = MemoryStorage()
    records = Records(Storage(lambda: memory), lambda text: None)
    records.settings.level = "easy"
    seat = LocalSeat(records, speed=lambda: "normal", sleep=sleep, clock=clock)
    game = next(g for g in map(Game.new, range(20)) if g.hand(0)[0] != Card.parse("2C"))
    for s in range(4):
        game.choose_pass(s, game.hand(s)[1:4])  # the 2 of clubs stays where it is
    assert game.to_play != 0
    seat.take_over(formats.Saved(game))

    async def run() -> None:
        seat.attach(Heard())
        await settle(seat)

    asyncio.run(run())
    return slept


def test_a_computers_thinking_counts_toward_the_pause_before_its_card() -> None:
    """At normal speed a computer's card comes 0.6 s after its turn began, thinking
    included: a bot that thinks longer than that plays at once, with no pause on top."""
    assert 0.6 in computer_pauses(0.0)
    assert 0.2 in computer_pauses(0.4)
    slow = computer_pauses(1.0)
    assert not [s for s in slow if s not in (1.0, 0.35)], slow  # a trick's own pauses only


def passed(seed: int) -> Game:
    """A new game whose four seats passed their first three cards."""
    game = Game(seed)
    for s in range(4):
        game.choose_pass(s, game.hand(s)[:3])
    return game


def test_a_hosted_game_carried_on_alone_at_a_computers_turn_goes_on_to_the_persons() -> None:
    """The host closed its private table and carries its game on here (``adopt``) when a
    computer is to lead: the computers play on until it is the person's turn."""
    async def run() -> None:
        seat, _, heard = local_seat(seed=8)
        await settle(seat)
        game = next(g for g in map(passed, range(40)) if g.to_play != 0)
        assert game.phase is Phase.PLAY
        seat.adopt(game)
        await settle(seat)
        assert seat.game.to_play == 0 and seat.snapshot().may_play
        assert words.SOLO_AGAIN in heard.said
    asyncio.run(run())
